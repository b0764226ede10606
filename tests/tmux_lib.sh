# tmux_lib.sh - what the real-terminal tests share, sourced after the
# script has set SOCK (its private tmux server's name) and tmp (a scratch
# directory where each pane's run.sh leaves TAG.pid, TAG.exit and
# TAG.stty0/TAG.stty).  The tests keep their own run.sh and cases.

# Without tmux every check of the script is skipped, and says so.
if ! command -v tmux >/dev/null 2>&1; then
	echo "1..0 # SKIP tmux not installed"
	exit 0
fi

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

cleanup() {
	tm kill-server >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

n=0
failed=0
diag=""			# text dumped as '#' lines after a failing check

ok() {			# ok STATUS DESCRIPTION: one TAP line, diag on failure
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -n "$diag" ] && printf '%s\n' "$diag" | sed 's/^/#   /'
	fi
	diag=""
}

screen() { tm capture-pane -p -t "$1" 2>&1; }
fmt() { tm display -p -t "$1" "$2" 2>&1; }
pid_of() { cat "$tmp/$1.pid" 2>/dev/null; }

# wait_for TAG TEXT [SECONDS]: poll (5 s unless told) until TEXT, a fixed
# string, is on screen; never a fixed delay.
wait_for() {
	local i
	for ((i = 0; i < ${3:-5} * 10; i++)); do
		if screen "$1" | grep -qF -- "$2"; then return 0; fi
		sleep 0.1
	done
	diag+="waited ${3:-5} s for: $2"$'\n'"--- pane $1 ---"$'\n'"$(screen "$1")"$'\n'
	return 1
}

# wait_exit TAG: poll up to 5 s for headlab to exit; prints "exit=N".
wait_exit() {
	local i
	for ((i = 0; i < 50; i++)); do
		if [ -f "$tmp/$1.exit" ]; then cat "$tmp/$1.exit"; return 0; fi
		sleep 0.1
	done
	echo "exit=none"
	return 1
}

alive() {		# headlab still running in pane TAG
	local p
	p=$(pid_of "$1")
	[ -n "$p" ] && kill -0 "$p" 2>/dev/null && [ ! -f "$tmp/$1.exit" ]
}

# sane_tty FILE: stty -a output describes a sane cooked tty.
sane_tty() {
	local f
	[ -f "$1" ] || return 1
	for f in icanon echo isig icrnl opost onlcr; do
		tr -s ' ;' '\n' < "$1" | grep -qx -- "$f" || return 1
	done
	return 0
}

# Pane modes that a well-behaved program leaves off (cursor on) at exit.
MODES='alt=#{alternate_on} cursor=#{cursor_flag} keypad=#{keypad_flag} keypad_cursor=#{keypad_cursor_flag} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}#{mouse_sgr_flag}#{mouse_utf8_flag}'
# shellcheck disable=SC2034  # used by the scripts that source this
RESTORED='alt=0 cursor=1 keypad=0 keypad_cursor=0 mouse=00000'
