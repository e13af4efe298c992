#!/usr/bin/env bash
# Issue 5 end to end in a real X window (Xvfb, software GL, xdotool): the chain scene starts
# paused (no automatic folds), the mouse presses the selected joint (12, the yellow ball) and
# drags around it, 135 degrees about the view axis; on quit --dump-state must show user folds,
# none blocked, and the chain's free end moved by metres; the last frame (mid-fold, chain bent at
# joint 12) is compared with tests/golden/chain_midfold.png, the panel left out.
# Usage: xvfb_chain_fold_test.sh DEMO COMPARE GOLDEN OUTDIR   (starts its own Xvfb)
set -euo pipefail
demo=$1 compare=$2 golden=$3 out=$4
if [ -z "${TUMBLE_IN_XVFB:-}" ]; then
  export TUMBLE_IN_XVFB=1
  exec xvfb-run -a -s '-screen 0 1280x720x24' "$0" "$@"
fi
rm -rf "$out"
mkdir -p "$out"
export TUMBLE_CONFIG_DIR="$out/config"

"$demo" --scene chain --paused --dump-state "$out/state.json" \
  --screenshot "$out/chain_midfold.png" &
pid=$!
xdotool search --sync --onlyvisible --name '^Tumble$' >/dev/null
sleep 1.0
# Joint 12 is drawn at pixel (823, 360) by the scene's camera.
xdotool mousemove 823 360
xdotool mousemove_relative -- 0 1
sleep 0.2
xdotool mousedown 1
move() {  # move DX DY COUNT: COUNT relative moves, a frame or so apart
  for _ in $(seq 1 "$3"); do
    xdotool mousemove_relative -- "$1" "$2"
    sleep 0.03
  done
}
move 10 0 10    # out to the right of the joint: the lever, no turn yet
move 0 -10 10   # up: 45 degrees
move -10 0 20   # left over the joint: 135 degrees in all
sleep 0.3
xdotool mouseup 1
sleep 0.5
xdotool key Escape
wait "$pid"

python3 - "$out/state.json" <<'PY'
import json, math, sys
s = json.load(open(sys.argv[1]))["scene_state"]
print("folds", s["folds"], "user folds", s["user_folds"], "blocked", s["blocked"],
      "selected", s["selected"])
end = s["points"][-1]
# The unfolded zigzag ends at x = 12 cos(0.25) = 11.63 m, y = 1.5 m, z = 0.
moved = math.dist(end, [12 * math.cos(0.25), 1.5, 0.0])
print("free end", end, "moved", round(moved, 3), "m")
if s["user_folds"] < 1 or s["selected"] != 12:
    sys.exit("FAIL: the mouse did not fold the chain at joint 12")
if s["blocked"] != 0:
    sys.exit("FAIL: a fold was blocked")
if moved < 5.0:
    sys.exit("FAIL: the chain's free end moved only %.3f m" % moved)
print("ok: the mouse folded the chain")
PY

if [ "${TUMBLE_UPDATE_GOLDEN:-}" = 1 ]; then
  cp "$out/chain_midfold.png" "$golden"
  echo "golden image updated: $golden"
  exit 0
fi
if ! "$compare" "$golden" "$out/chain_midfold.png" --ignore 0,0,400,720 \
  --diff "$out/chain_midfold-diff.png"; then
  echo "FAIL: the folded chain differs from $golden (see $out/chain_midfold-diff.png)"
  exit 1
fi
echo "ok: the mid-fold frame matches the golden image"
