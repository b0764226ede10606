#!/bin/bash
# The lab's : prompt on a line of PyTorch, in a real terminal (tmux, as
# test_tmux.sh runs it): the code's walk, each call in the step bar, and
# --check's verdict on the last step; and headlab --code without a mode.
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
tm send-keys -t k1 Escape
s=0
wait_for k1 'q quit' || s=1
tm send-keys -t k1 q
[ "$(wait_exit k1)" = "exit=0" ] || s=1
ok $s "Esc then q quits with status 0"

# --- 3. headlab --code without a mode flag ------------------------------------
start k3 --code 'x.view(B, T, H, d).transpose(1, 2)'
s=0
wait_for k3 'step 3/3' && wait_for k3 'right: the code splits x into the lesson' &&
	wait_for k3 'x.view(B, T, H, d)  ›  .transpose(1, 2)' || s=1
ok $s "--code opens the lab on the code's last step with the right verdict"
tm send-keys -t k3 q
[ "$(wait_exit k3)" = "exit=0" ] || true

echo "1..$n"
[ $failed -eq 0 ] || echo "# $failed of $n failed"
exit 0
