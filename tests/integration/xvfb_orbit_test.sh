#!/usr/bin/env bash
# End to end in a real X window (Xvfb, software GL): the mouse orbits the camera, C puts it back.
#   1. drag with the left button, quit with Esc: the last frame must differ from the golden image;
#   2. drag, press C, quit: the last frame must match the golden image again.
# Mouse input per PLATFORM.md: SDL 2.26 reads XInput2 raw motion, which xdotool's XTest moves
# (mousemove_relative) produce and a plain warp does not.
# Usage: xvfb_orbit_test.sh DEMO COMPARE GOLDEN OUTDIR   (starts its own Xvfb)
set -euo pipefail
demo=$1 compare=$2 golden=$3 out=$4
if [ -z "${TUMBLE_IN_XVFB:-}" ]; then
  export TUMBLE_IN_XVFB=1
  exec xvfb-run -a -s '-screen 0 1280x720x24' "$0" "$@"
fi
mkdir -p "$out"
# A fresh config folder: never the user's imgui.ini or remembered state.
export TUMBLE_CONFIG_DIR="$out/config"
rm -rf "$TUMBLE_CONFIG_DIR"

session() {  # session PNG [reset]
  "$demo" --scene showcase --screenshot "$1" &
  local pid=$!
  xdotool search --sync --onlyvisible --name '^Tumble$' >/dev/null
  sleep 0.5
  xdotool mousemove 800 500
  xdotool mousedown 1
  for _ in $(seq 1 20); do
    xdotool mousemove_relative -- 10 4
    sleep 0.02
  done
  xdotool mouseup 1
  sleep 0.3
  if [ "${2:-}" = reset ]; then
    xdotool key c
    sleep 0.3
  fi
  xdotool key Escape
  wait "$pid"
}

session "$out/orbited.png"
# The panel is left out: its title bar is highlighted when the X window has the focus.
view_only=(--ignore 0,0,400,720)
if "$compare" "$golden" "$out/orbited.png" "${view_only[@]}"; then
  echo "FAIL: dragging the mouse did not change the view ($out/orbited.png matches the golden)"
  exit 1
fi
echo "ok: the drag orbited the camera"

session "$out/reset.png" reset
if ! "$compare" "$golden" "$out/reset.png" "${view_only[@]}" --diff "$out/reset-diff.png"; then
  echo "FAIL: C did not restore the scene's camera ($out/reset.png differs from the golden)"
  exit 1
fi
echo "ok: C restored the camera"
