#!/bin/bash
# The lab in a real terminal (a private tmux server) against what issue 13
# found: every signal that ends it restores the terminal and is the exit
# status, bracketed paste off; an Esc then a long paste, or a bracketed
# paste that never ends, does not hold SIGTERM up; absurd LINES and
# COLUMNS are refused at once, LINES=1 COLUMNS=1 then a real resize is
# followed; the e prompt, the : prompt's numbers, the title's cut numbers
# and a Chinese locale that is not installed.  Output is TAP.
# Environment: HEADLAB (binary), HEADLAB_DATADIR (assets).

set -u

: "${HEADLAB:?HEADLAB must name the headlab binary}"
: "${HEADLAB_DATADIR:=}"
export LC_ALL=C.UTF-8

SOCK=headlab-harden-$$
here=$(cd "$(dirname "$0")" && pwd)
SAN_ENV=(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	LSAN_OPTIONS="suppressions=$here/lsan.supp")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/headlab-harden.XXXXXX") || exit 1

# shellcheck source=tests/tmux_lib.sh
. "$here/tmux_lib.sh"

# The pane's program: stty -g and -a before and after, the pid, the exit
# status, stderr in TAG.err, then sleep so the pane stays readable.  It
# runs in $tmp/TAG.d, a scratch directory of its own.
cat > "$tmp/run.sh" <<'EOF'
#!/bin/bash
dir=$1 tag=$2
shift 2
ulimit -c 0
shopt -u checkwinsize      # LINES and COLUMNS reach headlab as the test set them
mkdir -p "$dir/$tag.d" && cd "$dir/$tag.d" || exit 1
stty -g > "$dir/$tag.g0"
stty -a > "$dir/$tag.stty0" 2>&1
[ -n "${HL_STTY:-}" ] && stty $HL_STTY        # a size the tty reports
bash -c 'echo $$ > "$1"; shift; exec "$HEADLAB" "$@"' sh "$dir/$tag.pid" "$@" 2> "$dir/$tag.err"
st=$?
stty -g > "$dir/$tag.g"
stty -a > "$dir/$tag.stty" 2>&1
echo "exit=$st" > "$dir/$tag.exit.tmp" && mv "$dir/$tag.exit.tmp" "$dir/$tag.exit"
# a line pasted after the exit, as a shell reads it: with bracketed paste
# left on, tmux would wrap it in ESC [200~ ... ESC [201~
IFS= read -r line && printf '%s' "$line" > "$dir/$tag.after"
exec sleep 300
EOF

# start TAG [ENV=VALUE...] [-- headlab args]: a new 80x24 session running
# headlab with TERM=xterm-256color and a UTF-8 locale unless told otherwise.
start() {
	local tag=$1 envs=() args=()
	shift
	while [ $# -gt 0 ]; do
		if [ "$1" = -- ]; then shift; args=("$@"); break; fi
		envs+=("$1")
		shift
	done
	tm new-session -d -s "$tag" -x 80 -y 24 \
		env -u NO_COLOR -u LINES -u COLUMNS -u LANGUAGE -u LC_MESSAGES \
		TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
		HEADLAB="$HEADLAB" HEADLAB_DATADIR="$HEADLAB_DATADIR" "${SAN_ENV[@]}" "${envs[@]}" \
		bash "$tmp/run.sh" "$tmp" "$tag" "${args[@]}"
}

# restored TAG [noprobe]: alternate screen off, cursor on, stty -g as
# before, and bracketed paste off: a paste after the exit arrives as plain
# text (not probed after a paste the lab left unread: the shell would
# read its rest first).
restored() {
	local modes s=0 after i
	modes=$(fmt "$1" "$MODES")
	if [ "$modes" != "$RESTORED" ]; then
		s=1; diag+="pane modes: $modes"$'\n'"want:       $RESTORED"$'\n'
	fi
	if ! cmp -s "$tmp/$1.g0" "$tmp/$1.g"; then
		s=1; diag+="stty -g before: $(cat "$tmp/$1.g0")"$'\n'"after: $(cat "$tmp/$1.g" 2>/dev/null)"$'\n'
	fi
	[ "${2:-}" = noprobe ] && return $s
	tm load-buffer "$tmp/after.txt" \; paste-buffer -p -t "$1"
	for ((i = 0; i < 50; i++)); do [ -s "$tmp/$1.after" ] && break; sleep 0.1; done
	after=$(cat -v "$tmp/$1.after" 2>/dev/null)
	if [ "$after" != after ]; then
		s=1; diag+="a paste after the exit reads: '$after' (want 'after': bracketed paste left on?)"$'\n'
	fi
	return $s
}

tm new-session -d -s holder -x 80 -y 24 "sleep 600" || {
	echo "1..0 # SKIP cannot start a tmux server"
	exit 0
}
tm set -g mouse off
tm set -g remain-on-exit on
tm set -g history-limit 0
printf 'after\n' > "$tmp/after.txt"

TITLE='step 1/6'

# signal_case TAG SIG WHAT [headlab args]: start headlab, send SIG to the
# process the pane started, and hold the terminal and the exit status
signal_case() {
	local tag=$1 sig=$2 what=$3 want s=0
	shift 3
	start "$tag" -- "$@"
	want=$((128 + $(kill -l "$sig")))
	if wait_for "$tag" "$TITLE"; then
		kill -s "$sig" "$(pid_of "$tag")"
		st=$(wait_exit "$tag")
		[ "$st" = "exit=$want" ] || { s=1; diag+="status: $st, want exit=$want"$'\n'; }
		restored "$tag" || s=1
	else
		s=1
	fi
	ok $s "$what: terminal restored (stty -g, modes, bracketed paste and alternate screen off), exit $want"
	tm kill-session -t "$tag"
}

# --- signals: the terminal restored, then death by that signal (SEGV to
# SYS, sent from outside, as a crash would: restored from the handler) ---
for sig in QUIT USR1 USR2 ALRM PIPE VTALRM INT TERM HUP SEGV FPE BUS ABRT ILL TRAP SYS; do
	signal_case "sig$sig" "$sig" "SIG$sig"
done

# --- the same under --record: the process killed is the relay that holds
# the real terminal raw while the lab runs on a pseudo-terminal of its own;
# it restores the terminal too, then ends by that signal (or, for the ones
# it passes on, with the lab's own status) --------------------------------
for sig in TERM HUP QUIT USR1 PIPE SEGV FPE BUS ABRT ILL TRAP SYS; do
	signal_case "rec$sig" "$sig" "--record, SIG$sig to the relay" --record rec.cast
done

# --- Esc, then a 2 MB paste, then SIGTERM: answered within a second --------
start paste
s=0
if wait_for paste "$TITLE"; then
	# the Esc is the paste's first byte, so that it never arrives alone
	# (an Esc by itself is a key, and quits)
	{ printf '\033'; head -c 2000000 /dev/zero | tr '\0' 'x'; } > "$tmp/paste.txt"
	tm load-buffer "$tmp/paste.txt" \; paste-buffer -t paste
	sleep 0.5
	kill -s TERM "$(pid_of paste)"
	t0=$(date +%s%N)
	for ((i = 0; i < 20; i++)); do [ -f "$tmp/paste.exit" ] && break; sleep 0.05; done
	st=$(wait_exit paste)
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$st" = exit=143 ] || { s=1; diag+="status: $st"$'\n'; }
	# a hang detector, not a timing: it took 16.7 s before the input was bounded
	[ "$ms" -lt 5000 ] || { s=1; diag+="SIGTERM took $ms ms"$'\n'; }
	restored paste noprobe || s=1
else
	s=1
fi
ok $s "Esc then a 2 MB paste: SIGTERM ends the lab within seconds, not 16 (exit 143)"
tm kill-session -t paste

# --- a bracketed paste whose end never comes, then SIGTERM -------------------
start open
s=0
if wait_for open "$TITLE"; then
	{ printf '\033[200~'; head -c 300000 /dev/zero | tr '\0' 'q'; } > "$tmp/open.txt"
	tm load-buffer "$tmp/open.txt" \; paste-buffer -t open
	sleep 0.3
	alive open || { s=1; diag+="a q of the paste quit the lab"$'\n'; }
	kill -s TERM "$(pid_of open)"
	st=$(wait_exit open)
	[ "$st" = exit=143 ] || { s=1; diag+="status: $st"$'\n'; }
	restored open noprobe || s=1
else
	s=1
fi
ok $s "a bracketed paste of q's with no end: no q quits, SIGTERM ends the lab (exit 143), terminal restored"
tm kill-session -t open

# --- sizes ------------------------------------------------------------------
for size in "5000 5000" "100000 80" "24 100000" "abc 80"; do
	set -- $size
	tag=size$n
	start "$tag" LINES="$1" COLUMNS="$2"
	s=0
	st=$(wait_exit "$tag")
	[ "$st" = exit=2 ] || { s=1; diag+="status: $st"$'\n'; }
	err=$(cat "$tmp/$tag.err")
	[ "$(wc -l < "$tmp/$tag.err")" -eq 1 ] && [[ $err == *"LINES=$1 COLUMNS=$2"* ]] &&
		[[ $err != *TERM* ]] || { s=1; diag+="stderr: $err"$'\n'; }
	restored "$tag" || s=1
	ok $s "LINES=$1 COLUMNS=$2: refused at once, one line naming LINES and COLUMNS, exit 2"
	tm kill-session -t "$tag"
done

start ttysize HL_STTY="rows 3000 cols 3000"
s=0
st=$(wait_exit ttysize)
[ "$st" = exit=1 ] || { s=1; diag+="status: $st"$'\n'; }
grep -qx "headlab: the terminal says it is 3000 lines by 3000 columns, more than the lab draws (at most 1000 by 1000; stty rows and cols set it)" \
	"$tmp/ttysize.err" || { s=1; diag+="stderr: $(cat "$tmp/ttysize.err")"$'\n'; }
ok $s "a tty that reports 3000x3000: refused at once with one line, exit 1"
tm kill-session -t ttysize

# a resize to an absurd size while the lab runs: curses is told a capped
# size, so memory stays bounded; the last line says the screen is larger
# than the lab draws; SIGTERM is answered; a resize back is followed
# wait_line TAG N PREFIX: line N (from 0) of the pane comes to start with
# PREFIX (one line is read: a whole 5000x5000 pane is 25 MB)
wait_line() {
	local line i
	for ((i = 0; i < 100; i++)); do
		line=$(tm capture-pane -p -t "$1" -S "$2" -E "$2" 2>&1)
		[[ $line == "$3"* ]] && return 0
		sleep 0.1
	done
	diag+="line $2: ${line:0:200}"$'\n'
	return 1
}

start huge
s=0
if wait_for huge "$TITLE"; then
	tm resize-window -t huge -x 5000 -y 5000
	wait_line huge 999 "the terminal is 5000x5000, more than the lab draws: it uses the top-left 1000x1000" || s=1
	tm capture-pane -p -t huge -S 0 -E 0 | grep -q "$TITLE" || { s=1; diag+="no title at 5000x5000"$'\n'; }
	# resident memory bounded: 2.1 GB before sizes were capped; ~90 MB now
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$(pid_of huge)/status" 2>/dev/null)
	[ -n "$hwm" ] && [ "$hwm" -lt 400000 ] || { s=1; diag+="peak resident: ${hwm:-?} kB"$'\n'; }
	tm resize-window -t huge -x 90 -y 30
	for ((i = 0; i < 100; i++)); do
		[ "$(screen huge | head -1 | wc -m)" = 90 ] && ! screen huge | grep -q 'more than the lab draws' && break
		sleep 0.1
	done
	[ "$i" -lt 100 ] || { s=1; diag+="after the resize back:"$'\n'"$(screen huge)"$'\n'; }
	tm resize-window -t huge -x 3000 -y 24
	wait_line huge 23 "the terminal is 3000x24, more than the lab draws: it uses the top-left 1000x24" || s=1
	kill -s TERM "$(pid_of huge)"
	[ "$(wait_exit huge)" = exit=143 ] || s=1
	tm resize-window -t huge -x 80 -y 24
	restored huge || s=1
else
	s=1
fi
ok $s "a resize to 5000x5000 while running: drawn capped at 1000x1000 and said so, memory bounded, resize back followed, SIGTERM answered"
tm kill-session -t huge

start tiny LINES=1 COLUMNS=1
s=0
wait_for tiny "$TITLE" || s=1
tm resize-window -t tiny -x 100 -y 30
wait_for tiny "$TITLE" || s=1
# the title's "step 1/6 " ends at the right edge: 99 characters before the
# space (and wc -m counts the newline)
for ((i = 0; i < 50; i++)); do
	[ "$(screen tiny | head -1 | wc -m)" = 100 ] && break
	sleep 0.1
done
[ "$i" -lt 50 ] || { s=1; diag+="title not 100 wide: $(screen tiny | head -1)"$'\n'; }
tm send-keys -t tiny q
[ "$(wait_exit tiny)" = exit=0 ] || s=1
restored tiny || s=1
ok $s "LINES=1 COLUMNS=1 in an 80x24 tty: the tty's size is drawn and a resize followed"
tm kill-session -t tiny

# --- a Chinese locale that is not installed: English captions, said once ---
start zh LANG=zh_QQ.UTF-8 LC_ALL=zh_QQ.UTF-8
s=0
wait_for zh "$TITLE" || s=1
wait_for zh "captions in English: zh needs a UTF-8 locale" || s=1
screen zh | grep -q '[^ -~]' && { s=1; diag+="bytes outside ASCII on an ASCII screen:"$'\n'"$(screen zh)"$'\n'; }
screen zh | grep -q 'x holds 12 labelled cells' || { s=1; diag+="no English caption"$'\n'; }
ok $s "LC_ALL=zh_QQ.UTF-8 (not installed): English captions in ASCII, and the status line says why"
tm kill-session -t zh

# --- the : prompt refuses as the command line does; the title's numbers ----
start cmd -- --shape 1,1000,1000000000000 --heads 1000000
s=0
wait_for cmd 'd=1_000_…' || s=1
tm send-keys -t cmd : 1,1,99999999999999999999 Enter
wait_for cmd "--shape '1,1,99999999999999999999': size D is too large" || s=1
tm send-keys -t cmd C-u 0 Enter
wait_for cmd "--heads '0' must be at least 1" || s=1
ok $s "the title groups digits and ends with …; :1,1,99999999999999999999 and :0 are refused as the command line refuses them"
tm kill-session -t cmd

# --- e: an editable offer, nothing written before a confirmed path ---------
start exp
s=0
wait_for exp "$TITLE" || s=1
tm send-keys -t exp e
wait_for exp 'export to slides' || s=1
wait_for exp 'Backspace, Ctrl-U: edit  Esc: cancel' || s=1
[ "$(fmt exp '#{cursor_flag}')" = 1 ] || { s=1; diag+="cursor hidden in the prompt"$'\n'; }
tm send-keys -t exp Enter
wait_for exp 'slides does not exist: Enter again creates it' || s=1
[ -z "$(ls -A "$tmp/exp.d")" ] || { s=1; diag+="written after one Enter: $(ls -A "$tmp/exp.d")"$'\n'; }
tm send-keys -t exp Enter
wait_for exp 'wrote 4 files' || s=1
[ -f "$tmp/exp.d/slides/step-1-input.svg" ] || { s=1; diag+="no slides/step-1-input.svg"$'\n'; }
ok $s "e offers slides as editable text with the cursor shown; one Enter writes nothing, a second writes"
tm kill-session -t exp

echo "1..$n"
[ "$failed" -eq 0 ]
