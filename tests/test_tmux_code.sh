#!/bin/bash
# The lab's : prompt on a line of PyTorch, in a real terminal (tmux, as
# test_tmux.sh runs it): the code's walk, each call in the step bar, and
# --check's verdict on the last step; a refused line mended with the
# cursor keys; headlab --code without a mode; and a
# bracketed paste of a whole function (tmux paste-buffer -p): one event,
# no key of it acting, and bracketed paste off again after q.
# Environment: HEADLAB (binary), HEADLAB_DATADIR (assets).  Output is TAP.

set -u

: "${HEADLAB:?HEADLAB must name the headlab binary}"
: "${HEADLAB_DATADIR:=}"
export LC_ALL=C.UTF-8

SOCK=headlab-code-$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/headlab-tmux-code.XXXXXX") || exit 1

# shellcheck source=tests/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

cat > "$tmp/run.sh" <<'RUN'
#!/bin/sh
dir=$1 tag=$2
shift 2
sh -c 'echo $$ > "$1"; shift; exec "$HEADLAB" "$@"' sh "$dir/$tag.pid" "$@"
echo "exit=$?" > "$dir/$tag.exit.tmp" && mv "$dir/$tag.exit.tmp" "$dir/$tag.exit"
# a line pasted after the exit, as the shell would read it: with bracketed
# paste left on, tmux would wrap it in ESC [200~ ... ESC [201~
IFS= read -r line && printf '%s' "$line" > "$dir/$tag.after"
exec sleep 120
RUN

# start TAG [headlab args]: an 80x24 session running headlab.
start() {
	local tag=$1
	shift
	tm new-session -d -s "$tag" -x 80 -y 24 \
		env -u NO_COLOR -u LINES -u COLUMNS TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
		HEADLAB="$HEADLAB" HEADLAB_DATADIR="$HEADLAB_DATADIR" sh "$tmp/run.sh" "$tmp" "$tag" "$@"
}

tm new-session -d -s holder -x 80 -y 24 "sleep 300" || {
	echo "1..0 # SKIP cannot start a tmux server"
	exit 0
}
tm set -g remain-on-exit on
tm set -g history-limit 0

# --- 1. : then code, Enter --------------------------------------------------
start k1
s=0
if wait_for k1 'step 1/6'; then
	tm send-keys -t k1 :
	wait_for k1 ':' || s=1
	tm send-keys -t k1 -l 'x.view(B, H, T, d)'
	tm send-keys -t k1 Enter
	# the verdict speaks of the grid drawn: H 0 . T 1 holds 2b 3b
	wait_for k1 'step 2/2' && wait_for k1 'wrong (no-transpose): heads[0, 0, 1] holds [2, 3], should hold [4, 5];' &&
		wait_for k1 'T 1 │  2b  3b │' && wait_for k1 '(Checked at B=1, T=3, D=4, H=2,' || s=1
	scr=$(screen k1)
	if [ $s -eq 0 ] && ! printf '%s\n' "$scr" | sed -n 3p | grep -qF 'x  ›  x.view(B, H, T, d)'; then
		s=1; diag="the step bar (line 3) does not name the call"$'\n'"$scr"
	fi
else
	s=1
fi
ok $s ": x.view(B, H, T, d) Enter: the last step shows the wrong verdict with the fix, the call in the step bar"

# --- 2. a line PyTorch refuses stays in the prompt --------------------------
tm send-keys -t k1 :
tm send-keys -t k1 -l 'context.transpose(1, 2).view(B, T, D)'
tm send-keys -t k1 Enter
s=0
wait_for k1 '.view(B, T, D) cannot be a view' && wait_for k1 ':context.transpose(1, 2).view(B, T, D)' || s=1
ok $s "a view PyTorch refuses: the reason over the prompt, a caret under the call"

# --- 2b. mend it in place: the terminal's Left, Delete, Home and End keys ----
# 13 characters left of the end is the v of view: Delete x4, type reshape
s=0
for _ in $(seq 13); do tm send-keys -t k1 Left; done
wait_for k1 '.view(B, T, D) cannot be a view' || s=1
# the terminal's cursor on the v: the input starts at column 2 (after the
# sigil at 1), and 24 characters come before the v
[ "$(fmt k1 '#{cursor_x}')" = "26" ] || { s=1; diag="cursor at $(fmt k1 '#{cursor_x}'), not 26"; }
tm send-keys -t k1 DC DC DC DC
tm send-keys -t k1 -l 'reshape'
tm send-keys -t k1 Home Delete End
wait_for k1 ':ontext.transpose(1, 2).reshape(B, T, D)' || s=1
tm send-keys -t k1 Home
tm send-keys -t k1 -l 'c'
tm send-keys -t k1 End Enter
wait_for k1 'right: the code merges the heads back into x' || s=1
ok $s "Left x13, Delete x4, reshape, Home Delete End, Home c End, Enter: the mended line runs, right"
s=0
wait_for k1 'q quit' || s=1
tm send-keys -t k1 q
[ "$(wait_exit k1)" = "exit=0" ] || s=1
ok $s "q quits with status 0"

# --- 3. headlab --code without a mode flag ------------------------------------
start k3 --code 'x.view(B, T, H, d).transpose(1, 2)'
s=0
wait_for k3 'step 3/3' && wait_for k3 'right: the code splits x into the lesson' &&
	wait_for k3 'x.view(B, T, H, d)  ›  .transpose(1, 2)' || s=1
ok $s "--code opens the lab on the code's last step with the right verdict"
tm send-keys -t k3 q
[ "$(wait_exit k3)" = "exit=0" ] || true

# --- 4. a bracketed paste of HF's repeat_kv -------------------------------------
here=$(cd "$(dirname "$0")" && pwd)
start k4
s=0
if wait_for k4 'step 1/6'; then
	# its newlines would be Enter, its e the export prompt and its q quit
	tm load-buffer "$here/data/paste-repeat-kv.txt"
	tm paste-buffer -p -t k4
	# 80 columns show the block's end, after …
	wait_for k4 ':…rn hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)' || s=1
	scr=$(screen k4)
	if ! alive k4 || ! printf '%s\n' "$scr" | head -1 | grep -qF 'step 1/6' ||
		printf '%s\n' "$scr" | grep -qF 'export to'; then
		s=1; diag+="a key of the paste acted:"$'\n'"$scr"$'\n'
	fi
else
	s=1
fi
ok $s "a pasted def lands in the : prompt, its end shown after …; no key of it acted"
tm send-keys -t k4 Enter
s=0
wait_for k4 'step 5/5' && wait_for k4 'right: the code repeats the key/value heads for grouped-query' &&
	wait_for k4 'B=1, T=3, D=4, H=2, d=2, Hkv=1, n_rep=2 as drawn' || s=1
ok $s "Enter runs the block as --code does: the verdict on the last step"

# a paste longer than the prompt takes: refused and said, nothing cut
head -c 5000 /dev/zero | tr '\0' 'x' > "$tmp/long.txt"
tm load-buffer "$tmp/long.txt"
tm paste-buffer -p -t k4
s=0
wait_for k4 'a paste of 5000 bytes does not fit: this prompt takes 4096' || s=1
ok $s "a 5000-byte paste: refused whole, the prompt says so"
tm send-keys -t k4 Escape
# the Esc alone, not the start of the next paste's escape sequence: wait
# until the lab has closed the prompt
for _ in $(seq 100); do
	screen k4 | tail -1 | grep -q '^ :' || break
	sleep 0.05
done

# two statements: one line, the newline drawn as ⏎
printf 'q = x.view(B, T, H, d)\nq = q.transpose(1, 2)\n' > "$tmp/two.txt"
tm load-buffer "$tmp/two.txt"
tm paste-buffer -p -t k4
s=0
wait_for k4 ':q = x.view(B, T, H, d)⏎q = q.transpose(1, 2)' || s=1
tm send-keys -t k4 Enter
wait_for k4 'step 3/3' && wait_for k4 'right: the code splits x into the lesson' || s=1
ok $s "two pasted lines: one prompt line with ⏎ between them; Enter runs both"
wait_for k4 'q quit' || true
tm send-keys -t k4 q
s=0
[ "$(wait_exit k4)" = "exit=0" ] || s=1
printf 'after\n' > "$tmp/after.txt"
tm load-buffer "$tmp/after.txt"
tm paste-buffer -p -t k4
for ((i = 0; i < 50; i++)); do [ -s "$tmp/k4.after" ] && break; sleep 0.1; done
after=$(cat -v "$tmp/k4.after" 2>/dev/null)
[ "$after" = after ] || { s=1; diag+="a paste after the exit reads: '$after' (want 'after')"$'\n'; }
ok $s "q quits with status 0, and bracketed paste is off again: a later paste is plain text"

echo "1..$n"
[ $failed -eq 0 ] || echo "# $failed of $n failed"
exit 0
