#!/usr/bin/env bash
# Issue 16 end to end in a real X window (Xvfb, software GL, xdotool): the character scene opens
# with the camera behind the character, facing the stairs (six 0.25 m steps up to a 1.5 m
# landing, a wall at its far end). W is held down (scripted keys) for a few seconds: the
# character walks up the stairs and stops at the wall. On quit --dump-state must show the foot
# risen by the stairs' height (within 2 cm: the mover's skin) and standing on the ground, far
# along -z; the last frame is written for a look.
# Usage: xvfb_character_stairs_test.sh DEMO OUTDIR   (starts its own Xvfb)
set -euo pipefail
demo=$1 out=$2
if [ -z "${TUMBLE_IN_XVFB:-}" ]; then
  export TUMBLE_IN_XVFB=1
  exec xvfb-run -a -s '-screen 0 1280x720x24' "$0" "$@"
fi
rm -rf "$out"
mkdir -p "$out"
export TUMBLE_CONFIG_DIR="$out/config"

"$demo" --scene character --dump-state "$out/state.json" --screenshot "$out/character_up.png" &
pid=$!
xdotool search --sync --onlyvisible --name '^Tumble$' >/dev/null
sleep 1.0
# Over the scene (not the panel), so the key goes to the game and not to a widget.
xdotool mousemove 840 600
xdotool keydown w
sleep 8
xdotool keyup w
sleep 0.5
xdotool key Escape
wait "$pid"

python3 - "$out/state.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["scene_state"]
foot, start = s["foot"], s["start_foot"]
rise = foot[1] - start[1]
print("foot", foot, "start", start, "rise", round(rise, 4), "m", s["ground"])
if abs(rise - s["landing_height"]) > 0.02:
    sys.exit("FAIL: the foot rose %.4f m, not the stairs' %.2f m" % (rise, s["landing_height"]))
if s["ground"] != "on_ground":
    sys.exit("FAIL: the character is not standing on the landing")
if foot[2] > 1.7:
    sys.exit("FAIL: the character is not on the landing (z %.2f)" % foot[2])
print("ok: holding W walked the character up the stairs")
PY
