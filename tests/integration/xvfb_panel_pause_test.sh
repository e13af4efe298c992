#!/usr/bin/env bash
# End to end in a real X window (Xvfb, software GL, xdotool): drag the panel's
# solver.velocity_iterations slider, press P, quit; --dump-state must show the new value, the
# simulation paused, and no step taken since the pause while frames went on.
# Mouse input per PLATFORM.md: one absolute move, then button and relative (XTest) moves.
# Usage: xvfb_panel_pause_test.sh DEMO OUTDIR   (starts its own Xvfb)
set -euo pipefail
demo=$1 out=$2
if [ -z "${TUMBLE_IN_XVFB:-}" ]; then
  export TUMBLE_IN_XVFB=1
  exec xvfb-run -a -s '-screen 0 1280x720x24' "$0" "$@"
fi
rm -rf "$out"
mkdir -p "$out"
export TUMBLE_CONFIG_DIR="$out/config"  # a fresh panel layout, never the user's

"$demo" --scene tower --dump-state "$out/state.json" --screenshot "$out/panel.png" &
pid=$!
xdotool search --sync --onlyvisible --name '^Tumble$' >/dev/null
sleep 1.0
# The slider sits at (18..187, 355) in the panel's default layout (value 10 of [1, 100]).
xdotool mousemove 60 355
xdotool mousemove_relative -- 1 0
sleep 0.2
xdotool mousedown 1
for _ in $(seq 1 12); do
  xdotool mousemove_relative -- 6 0
  sleep 0.03
done
xdotool mouseup 1
sleep 0.3
xdotool key p
sleep 1.5
xdotool key Escape
wait "$pid"

python3 - "$out/state.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
iterations = s["settings"]["solver.velocity_iterations"]
print("velocity iterations", iterations, "paused", s["paused"], "frames", s["frames"],
      "steps", s["steps"], "steps while paused", s["steps_while_paused"])
if iterations <= 10:
    sys.exit("FAIL: dragging the slider did not raise solver.velocity_iterations from 10")
if not s["paused"]:
    sys.exit("FAIL: P did not pause")
if s["steps_while_paused"] != 0 or s["frames"] - s["steps"] < 5:
    sys.exit("FAIL: the simulation kept stepping while paused")
print("ok: the slider changed the setting and P stopped the simulation")
PY
