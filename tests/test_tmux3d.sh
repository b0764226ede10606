#!/bin/bash
# The 3D lab in a real terminal (tmux, as test_tmux.sh does it): opened
# with --view 3d at 80x24, stepped through the lesson with 4 selected, and
# 4 seen lit ([4a] with bold, underline or reverse, in the pane's own attributes) in the block at
# every step; 3 and r; the swap at 200x60; NO_COLOR.  Every wait polls, never a fixed delay.
# Environment: HEADLAB (binary), HEADLAB_DATADIR (assets).  Output is TAP.

set -u

: "${HEADLAB:?HEADLAB must name the headlab binary}"
: "${HEADLAB_DATADIR:=}"
export LC_ALL=C.UTF-8

ESC=$'\033'
SOCK=headlab-test3d-$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/headlab-tmux3d.XXXXXX") || exit 1

# shellcheck source=tests/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

cat > "$tmp/run.sh" <<'EOF'
#!/bin/sh
dir=$1 tag=$2
shift 2
sh -c 'echo $$ > "$1"; shift; exec "$HEADLAB" "$@"' sh "$dir/$tag.pid" "$@"
echo "exit=$?" > "$dir/$tag.exit.tmp" && mv "$dir/$tag.exit.tmp" "$dir/$tag.exit"
exec sleep 120
EOF

# start TAG [ENV=VALUE...] [-- headlab args]: headlab in a new 80x24 session
start() {
	local tag=$1
	shift
	local envs=() args=()
	while [ $# -gt 0 ]; do
		if [ "$1" = -- ]; then shift; args=("$@"); break; fi
		envs+=("$1")
		shift
	done
	tm new-session -d -s "$tag" -x 80 -y 24 \
		env -u NO_COLOR -u LINES -u COLUMNS -u LANGUAGE \
		TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
		HEADLAB="$HEADLAB" HEADLAB_DATADIR="$HEADLAB_DATADIR" \
		"${envs[@]}" sh "$tmp/run.sh" "$tmp" "$tag" "${args[@]}"
}

# lit TAG LABEL: poll (5 s) until LABEL is drawn selected: [LABEL...] on
# screen, the attributes just before it (capture-pane -e) bold, underline or reverse.
lit() {
	local i
	for ((i = 0; i < 50; i++)); do
		# marked as the grid marks it: [4a], bold or underlined or reversed
		if tm capture-pane -p -t "$1" | grep -aqF "[$2" &&
		   tm capture-pane -p -e -t "$1" |
		   grep -aqP "\\e\\[(?:[0-9]+;)*(?:1|4|7)(?:;[0-9]+)*m(?:\\e\\[[0-9;]*m)*\\[?$2[a-z]"; then
			return 0
		fi
		sleep 0.1
	done
	diag+="$2 not marked as selected"$'\n'"$(screen "$1")"$'\n'
	return 1
}

# click_cell TAG TEXT: an SGR press and release on the first TEXT on screen
click_cell() {
	local scr line y=0 prefix x
	scr=$(screen "$1")
	while IFS= read -r line; do
		y=$((y + 1))
		case $line in *"$2"*)
			prefix=${line%%"$2"*}
			x=$((${#prefix} + 2))	# 1-based, on the label not the pad
			tm send-keys -t "$1" -l "${ESC}[<0;$x;${y}M${ESC}[<0;$x;${y}m"
			return 0;;
		esac
	done <<< "$scr"
	diag="no '$2' on screen"$'\n'"$scr"
	return 1
}

tm new-session -d -s holder -x 80 -y 24 "sleep 300" || {
	echo "1..0 # SKIP cannot start a tmux server"
	exit 0
}
tm set -g remain-on-exit on
tm set -g history-limit 0

# --- --view 3d opens the lab on the block ---------------------------------
start a -- --view 3d
s=0
wait_for a 'step 1/6' && wait_for a '3D: T down, D across' && wait_for a 'D=4' || s=1
ok $s "--view 3d opens the lab on step 1's block (3D: T down, D across, D=4)"

tm send-keys -t a Right 1 Enter
wait_for a 'label 1:' >/dev/null
tm send-keys -t a Home 4 Enter
s=0
wait_for a 'label 4: position 1, head 0' && wait_for a 'step 1/6' && lit a 4 || s=1
ok $s "4 Enter selects 4: lit in step 1's block"

want=("T down, D across" "T down, H in depth, d across" "H down, T in depth, d across"
      "T down, H in depth, d across" "T down, H in depth, d across" "T down, D across")
for k in 2 3 4 5 6; do
	tm send-keys -t a Right
	s=0
	wait_for a "step $k/6" && wait_for a "3D: ${want[$((k - 1))]}" && lit a 4 || s=1
	boxes=$(screen a | grep -oP '(?<![0-9])4a(?![a-z])' | wc -l)
	if [ $s -eq 0 ] && [ "$boxes" -ne 1 ]; then
		s=1; diag="4a drawn $boxes times"$'\n'"$(screen a)"
	fi
	ok $s "step $k/6: the block (${want[$((k - 1))]}) with 4 drawn once, lit"
done

# --- a click on a box selects its label ----------------------------------
tm send-keys -t a Home Right Right
s=0
wait_for a 'step 3/6' && wait_for a '3D: H down, T in depth' && click_cell a ' 9a ' &&
	wait_for a 'label 9: position 2, head 0' && lit a 9 || s=1
ok $s "a click on 9a in the swap's back layer selects 9, lit"
tm send-keys -t a 4 Enter
wait_for a 'label 4: position 1, head 0' >/dev/null

# --- r turns the block, 3 goes back to the grid and returns --------------
tm send-keys -t a Home Right r
s=0
wait_for a 'step 2/6' && wait_for a '3D: T down, d in depth, H across' && lit a 4 || s=1
ok $s "r turns the split's block: d in depth, H across, 4 still lit"
tm send-keys -t a 3
s=0
wait_for a '│  0a  1a │  2b  3b │' || s=1
if [ $s -eq 0 ] && screen a | grep -q '3D:'; then
	s=1; diag="3D line still shown"$'\n'"$(screen a)"
fi
ok $s "3: the grid of the split, no 3D line"
tm send-keys -t a 3
s=0
wait_for a '3D: T down, d in depth, H across' || s=1
ok $s "3 again: the block, turned as it was"
tm send-keys -t a q
s=0
[ "$(wait_exit a)" = "exit=0" ] || s=1
ok $s "q quits with status 0"
tm kill-session -t a 2>/dev/null

# --- 200x60: the block takes the room -------------------------------------
start c -- --view 3d
tm resize-window -t c -x 200 -y 60 2>/dev/null
s=0
wait_for c 'step 1/6' && tm send-keys -t c Right Right && wait_for c 'step 3/6' &&
	wait_for c ' H 0 │        0a       │        1a       │' && lit c 4 || s=1
if [ $s -eq 0 ]; then
	# H 0 on the middle of its five lines: the face's top edge three lines up
	y0=$(screen c | grep -n '┌─T 0' | cut -d: -f1)
	yh=$(screen c | grep -n ' H 0 │' | cut -d: -f1)
	[ -n "$y0" ] && [ "$yh" = $((y0 + 3)) ] || { s=1; diag="T 0 at $y0, H 0 at $yh"$'\n'"$(screen c)"; }
fi
ok $s "200x60: the swap's block in boxes of 17 columns and 5 lines, H 0 on its middle line, 4 lit"
tm kill-session -t c 2>/dev/null

# --- NO_COLOR: no colour, the selection still reversed -------------------
start b NO_COLOR=1 -- --view 3d
s=0
wait_for b 'step 1/6' && tm send-keys -t b Right Right && wait_for b 'step 3/6' && lit b 4 || s=1
if [ $s -eq 0 ] && tm capture-pane -p -e -t b | grep -aqE "$ESC\[[0-9;]*(3[0-7]|38;5;[0-9]+)m"; then
	s=1; diag="colour codes under NO_COLOR"$'\n'"$(screen b)"
fi
ok $s "NO_COLOR: the swap's block without colour, 4 in reverse video"
tm kill-session -t b 2>/dev/null

echo "1..$n"
[ $failed -eq 0 ] || echo "# $failed of $n failed"
exit 0
