#!/bin/bash
# Hostile terminals: the lab in a real terminal (a private tmux server, as
# in test_tmux.sh) under conditions meant to break it.
#
#   - 300 random resizes in bursts, down to 1x1, while a step animates
#   - TERM=dumb, vt100, linux and a TERM nobody knows; LANG=C; NO_COLOR
#   - stdin closed, stdout a pipe
#   - SIGINT, SIGTERM and SIGHUP in the middle of an animation
#   - Ctrl-Z and SIGTSTP under an interactive shell, then fg
#
# Every case: never a crash or a hang; a clear message where the lab cannot
# run; the pane's modes (alternate screen, cursor, keypad, mouse) and the
# tty's (stty -a) as they were before.  Output is TAP.  Environment: HEADLAB
# (binary), HEADLAB_DATADIR (assets).

set -u

: "${HEADLAB:?HEADLAB must name the headlab binary}"
: "${HEADLAB_DATADIR:=}"
export LC_ALL=C.UTF-8

ESC=$'\033'
SOCK=headlab-hostile-$$
here=$(cd "$(dirname "$0")" && pwd)
# Under ASan, leaks that ncurses itself makes (an unknown TERM, GPM mouse
# support on TERM=linux) are suppressed by tests/lsan.supp; the slow
# unwinder lets the suppressions see the ncurses frames.  Other builds
# ignore both variables.
SAN_ENV=(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	LSAN_OPTIONS="suppressions=$here/lsan.supp")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/headlab-hostile.XXXXXX") || exit 1

# shellcheck source=tests/tmux_lib.sh
. "$here/tmux_lib.sh"

# The pane's program (as in test_tmux.sh): stty before and after, the pid,
# the exit status, then sleep so the pane stays readable.  HL_REDIRECT picks
# a hostile stdin or stdout.
cat > "$tmp/run.sh" <<'EOF'
#!/bin/bash
dir=$1 tag=$2
shift 2
stty -a > "$dir/$tag.stty0" 2>&1
case ${HL_REDIRECT:-} in
stdin-closed)
	bash -c 'echo $$ > "$1"; shift; exec "$HEADLAB" "$@" <&-' sh "$dir/$tag.pid" "$@"
	st=$?;;
stdout-pipe)
	bash -c 'echo $$ > "$1"; shift; exec "$HEADLAB" "$@"' sh "$dir/$tag.pid" "$@" | cat
	st=${PIPESTATUS[0]};;
*)
	bash -c 'echo $$ > "$1"; shift; exec "$HEADLAB" "$@"' sh "$dir/$tag.pid" "$@"
	st=$?;;
esac
stty -a > "$dir/$tag.stty" 2>&1
echo "exit=$st" > "$dir/$tag.exit.tmp" && mv "$dir/$tag.exit.tmp" "$dir/$tag.exit"
exec sleep 300
EOF

# start TAG [ENV=VALUE...] [-- headlab args]: a new 80x24 session running
# headlab with TERM=xterm-256color and a UTF-8 locale unless ENV words say
# otherwise (an empty value, such as LC_ALL=, leaves the variable out).
start() {
	local tag=$1 envs=() args=() unset=()
	shift
	while [ $# -gt 0 ]; do
		if [ "$1" = -- ]; then shift; args=("$@"); break; fi
		case $1 in *=) unset+=(-u "${1%=}");; *) envs+=("$1");; esac
		shift
	done
	tm new-session -d -s "$tag" -x 80 -y 24 \
		env -u NO_COLOR -u LINES -u COLUMNS -u TERMINFO -u TERMINFO_DIRS -u LANGUAGE \
		-u HL_REDIRECT TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
		HEADLAB="$HEADLAB" HEADLAB_DATADIR="$HEADLAB_DATADIR" "${SAN_ENV[@]}" "${envs[@]}" \
		env "${unset[@]}" bash "$tmp/run.sh" "$tmp" "$tag" "${args[@]}"
}

# restored TAG: the pane's modes and the tty as they were (diag says why not).
restored() {
	local modes s=0
	modes=$(fmt "$1" "$MODES")
	if [ "$modes" != "$RESTORED" ]; then
		s=1; diag+="pane modes: $modes"$'\n'"want:       $RESTORED"$'\n'
	fi
	if ! sane_tty "$tmp/$1.stty"; then
		s=1; diag+="stty -a after:"$'\n'"$(cat "$tmp/$1.stty" 2>/dev/null)"$'\n'
	elif ! diff <(sed 1d "$tmp/$1.stty0") <(sed 1d "$tmp/$1.stty") >/dev/null; then
		# the first line holds the speed and the window size, which the
		# resizes change on purpose; every mode after it must be as it was
		s=1; diag+="stty -a differs:"$'\n'"$(diff "$tmp/$1.stty0" "$tmp/$1.stty")"$'\n'
	fi
	return $s
}

colour_codes() {
	grep -o "$ESC\[[0-9;:]*m" | sed "s/^$ESC\[//; s/m\$//" | tr -s ';:' '\n' |
		grep -E '^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$' | sort -u | tr '\n' ' '
}

tm new-session -d -s holder -x 80 -y 24 "sleep 600" || {
	echo "1..0 # SKIP cannot start a tmux server"
	exit 0
}
tm set -g mouse off
tm set -g remain-on-exit on
tm set -g history-limit 0

TITLE='step 1/6'

# --- 1. 300 resizes in bursts during animations ------------------------------
# burst TAG COUNT: COUNT random sizes from 1x1 to 200x60 (1x1 and 2x1
# among them) sent by one tmux client, so they arrive as fast as tmux can
# resize; the size left at the end is 1x1.
RANDOM=4242
burst() {
	local tag=$1 count=$2 cmds=() i w h
	for ((i = 0; i < count; i++)); do
		case $((i % 25)) in
		0) w=1 h=1;;
		1) w=2 h=1;;
		*) w=$((1 + RANDOM % 200)) h=$((1 + RANDOM % 60));;
		esac
		cmds+=(resize-window -t "$tag" -x "$w" -y "$h" \;)
	done
	cmds+=(resize-window -t "$tag" -x 1 -y 1)
	tm "${cmds[@]}" 2>&1
}

start r1
s=0
wait_for r1 "$TITLE" || s=1
for round in 1 2 3; do
	tm resize-window -t r1 -x 80 -y 24
	wait_for r1 "step $round/6" || s=1
	# Right starts a 0.4 s move; the burst lands in the middle of it
	tm send-keys -t r1 Right
	out=$(burst r1 100)
	[ -z "$out" ] || { s=1; diag+="tmux: $out"$'\n'; }
	alive r1 || { s=1; diag+="headlab died in burst $round ($(cat "$tmp/r1.exit" 2>/dev/null))"$'\n'; break; }
done
ok $s "300 resizes in three bursts during step animations, down to 1x1: still running"

s=0
tm resize-window -t r1 -x 80 -y 24
wait_for r1 'step 4/6' && wait_for r1 'label 4: position 1, head 0' || s=1
tm send-keys -t r1 Right
wait_for r1 'step 5/6' || s=1
ok $s "back at 80x24 after the bursts: step 4/6 and label 4 kept, Right still steps"

s=0
tm send-keys -t r1 q
st=$(wait_exit r1)
[ "$st" = exit=0 ] || { s=1; diag+="after q: $st"$'\n'"$(screen r1)"$'\n'; }
restored r1 || s=1
ok $s "after the bursts q exits 0 with the terminal restored"

# a burst that ends at 1x1, then q typed at 1x1
start r2
s=0
wait_for r2 "$TITLE" || s=1
tm send-keys -t r2 Right
burst r2 50 >/dev/null
for _ in $(seq 50); do
	[ "$(screen r2 | tr -d ' \n')" = t ] && break
	sleep 0.1
done
[ "$(screen r2 | tr -d ' \n')" = t ] || { s=1; diag+="1x1 pane shows '$(screen r2 | tr -d ' \n')'"$'\n'; }
tm send-keys -t r2 q
st=$(wait_exit r2)
[ "$st" = exit=0 ] || { s=1; diag+="q at 1x1: $st"$'\n'; }
tm resize-window -t r2 -x 80 -y 24
restored r2 || s=1
ok $s "a burst ending at 1x1 mid-animation: 't' of the message, q exits 0, terminal restored"

# --- 2. terminal types and locales --------------------------------------------
# runs TAG: the lab works: title, Right steps, q exits 0, terminal restored.
runs() {
	local tag=$1 s=0 st
	wait_for "$tag" "$TITLE" && wait_for "$tag" 'label 4' || s=1
	tm send-keys -t "$tag" Right
	wait_for "$tag" 'step 2/6' || s=1
	tm send-keys -t "$tag" q
	st=$(wait_exit "$tag")
	[ "$st" = exit=0 ] || { s=1; diag+="after q: $st"$'\n'; }
	restored "$tag" || s=1
	return $s
}

start t1 TERM=vt100
runs t1; ok $? "TERM=vt100: runs, steps, q exits 0, terminal restored"

start t2 TERM=linux
s=0
runs t2 || s=1
ok $s "TERM=linux: runs, steps, q exits 0, terminal restored"

# refuses TAG WANT-TEXT: a one-line message, exit 1, terminal untouched
refuses() {
	local tag=$1 s=0 st
	st=$(wait_exit "$tag")
	[ "$st" = exit=1 ] || { s=1; diag+="status: $st, want exit=1"$'\n'; }
	wait_for "$tag" "$2" || s=1
	restored "$tag" || s=1
	return $s
}

start t3 TERM=dumb
refuses t3 "terminal type 'dumb' cannot move the cursor"
ok $? "TERM=dumb: exit 1, 'cannot move the cursor ... --print', terminal untouched"

start t4 TERM=no-such-terminal-xyz
refuses t4 "cannot drive terminal type 'no-such-terminal-xyz'"
ok $? "unknown TERM: exit 1, 'cannot drive terminal type', terminal untouched"

start t5 TERM=
refuses t5 "cannot drive terminal type"
ok $? "TERM unset: exit 1, 'cannot drive terminal type', terminal untouched"

start t6 LANG=C LC_ALL=
s=0
if wait_for t6 "$TITLE" && wait_for t6 'T 0 |  0a  1a |  2b  3b |'; then
	bad=$(screen t6 | LC_ALL=C grep -n '[^ -~]')
	[ -z "$bad" ] || { s=1; diag+="non-ASCII on screen:"$'\n'"$bad"$'\n'; }
else
	s=1
fi
runs t6 || s=1
ok $s "LANG=C (no LC_ALL): ASCII only on screen, runs, terminal restored"

start t7 NO_COLOR=1 -- --color=always --theme projector
s=0
if wait_for t7 "$TITLE"; then
	tm send-keys -t t7 Right
	wait_for t7 'step 2/6' || s=1
	cc=$(tm capture-pane -p -e -t t7 | colour_codes)
	[ -z "$cc" ] || { s=1; diag+="colour SGR parameters: $cc"$'\n'; }
else
	s=1
fi
tm send-keys -t t7 q
[ "$(wait_exit t7)" = exit=0 ] || s=1
restored t7 || s=1
ok $s "NO_COLOR=1 beats --color=always --theme projector: no colour codes, q exits 0"

start t8 TERM=linux NO_COLOR=1 LANG=C LC_ALL=
runs t8; ok $? "TERM=linux, NO_COLOR and LANG=C together: runs, terminal restored"

# --- 3. stdin closed, stdout a pipe ------------------------------------------
start i1 HL_REDIRECT=stdin-closed
refuses_2() {
	local tag=$1 s=0 st
	st=$(wait_exit "$tag")
	[ "$st" = exit=2 ] || { s=1; diag+="status: $st, want exit=2"$'\n'; }
	wait_for "$tag" "$2" || s=1
	restored "$tag" || s=1
	return $s
}
refuses_2 i1 "--print"
ok $? "stdin closed: exit 2, a message pointing to --print, terminal untouched"

start i2 HL_REDIRECT=stdin-closed -- --trace 4
s=0
[ "$(wait_exit i2)" = exit=0 ] && wait_for i2 'merge' || s=1
ok $s "stdin closed with --trace 4: prints the trace, exit 0"

start i3 HL_REDIRECT=stdout-pipe
refuses_2 i3 "--print"
ok $? "stdout a pipe: exit 2, a message pointing to --print, terminal untouched"

start i4 HL_REDIRECT=stdout-pipe -- --print
s=0
[ "$(wait_exit i4)" = exit=0 ] && wait_for i4 'step 6 of 6' || s=1
ok $s "stdout a pipe with --print: prints every step, exit 0"

# --- 4. signals in the middle of an animation --------------------------------
for sig in INT TERM HUP; do
	tag=s$sig
	start "$tag"
	s=0
	if wait_for "$tag" "$TITLE"; then
		tm send-keys -t "$tag" Right
		kill -s "$sig" "$(pid_of "$tag")"
		st=$(wait_exit "$tag")
		case $sig in INT) want=130;; TERM) want=143;; HUP) want=129;; esac
		[ "$st" = "exit=$want" ] || { s=1; diag+="status: $st, want exit=$want"$'\n'; }
		restored "$tag" || s=1
	else
		s=1
	fi
	ok $s "SIG$sig during an animation: exit $want, terminal restored"
done

# SIGTERM while below the minimum size, and straight after a resize
start s5
s=0
wait_for s5 "$TITLE" || s=1
tm resize-window -t s5 -x 20 -y 5
wait_for s5 'terminal' || s=1
tm resize-window -t s5 -x 79 -y 23 \; resize-window -t s5 -x 80 -y 24
kill -s TERM "$(pid_of s5)"
[ "$(wait_exit s5)" = exit=143 ] || s=1
restored s5 || s=1
ok $s "SIGTERM straight after resizes from a too-small screen: exit 143, terminal restored"

# --- 5. job control: Ctrl-Z and SIGTSTP, then fg -------------------------------
# An interactive bash in the pane runs headlab as a job.
tm new-session -d -s j1 -x 80 -y 24 \
	env -u NO_COLOR -u LINES -u COLUMNS TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	HEADLAB="$HEADLAB" HEADLAB_DATADIR="$HEADLAB_DATADIR" "${SAN_ENV[@]}" PS1='hl$ ' \
	bash --norc --noprofile -i
wait_for j1 'hl$' || true
diag=""
tm send-keys -t j1 "stty -a > $tmp/j1.stty0; sh -c 'echo \$\$ > $tmp/j1.pid; exec \"\$HEADLAB\"'" Enter

# suspended TAG HOW: stop headlab by HOW (C-z or SIGTSTP), check the shell
# has the terminal back as it was, fg, and check the lab redraws and answers.
suspended() {
	local tag=$1 how=$2 step=$3 s=0 p
	if [ "$how" = C-z ]; then
		tm send-keys -t "$tag" C-z
	else
		p=$(pid_of "$tag")
		kill -s TSTP "$p"
	fi
	wait_for "$tag" 'Stopped' || s=1
	tm send-keys -t "$tag" "stty -a > $tmp/$tag.stty" Enter
	for _ in $(seq 30); do [ -s "$tmp/$tag.stty" ] && break; sleep 0.1; done
	restored "$tag" || s=1
	rm -f "$tmp/$tag.stty"
	tm send-keys -t "$tag" clear Enter
	tm send-keys -t "$tag" fg Enter
	wait_for "$tag" "step $step/6" && wait_for "$tag" 'label 4: position 1, head 0' || s=1
	[ "$(fmt "$tag" '#{alternate_on}')" = 1 ] || { s=1; diag+="no alternate screen after fg"$'\n'; }
	tm send-keys -t "$tag" Right
	wait_for "$tag" "step $((step + 1))/6" || s=1
	return $s
}

s=0
wait_for j1 "$TITLE" || s=1
tm send-keys -t j1 Right
wait_for j1 'step 2/6' || s=1
suspended j1 C-z 2 || s=1
ok $s "Ctrl-Z: shell gets the terminal back restored; fg redraws step 2/6 and Right still steps"

s=0
suspended j1 SIGTSTP 3 || s=1
ok $s "SIGTSTP from outside: the same; fg redraws step 3/6 and Right still steps"

s=0
tm send-keys -t j1 q
tm send-keys -t j1 "echo rc=\$?; stty -a > $tmp/j1.stty" Enter
wait_for j1 'rc=0' || s=1
for _ in $(seq 30); do [ -s "$tmp/j1.stty" ] && break; sleep 0.1; done
restored j1 || s=1
ok $s "after two suspends, q exits 0 to the shell with the terminal restored"

echo "1..$n"
[ $failed -eq 0 ] || echo "# $failed of $n failed"
exit 0
