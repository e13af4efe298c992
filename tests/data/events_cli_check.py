"""tumble-cli sim --events on tests/data/events_scene.json: every line's keys, the sensor seeing
the two bodies that fall through it once each (not the one beside it, not the one its filter
rejects), one begin and one hit per body landing on the ground with the speed sqrt(2 g h) of its
drop, no end while they rest, the filtered body fallen through the ground; a folder that does not
exist is exit status 2 with a message naming the flag; a compound's sensor child's lines carry
child_a."""
import json
import math
import os
import subprocess
import sys

cli, data, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
scene = f"{data}/events_scene.json"
events_path = os.path.join(tmp, "events_check.jsonl")
dump_path = os.path.join(tmp, "events_check_dump.jsonl")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


p = subprocess.run([cli, "sim", scene, "--steps", "240", "--events", events_path, "--dump", dump_path],
                   capture_output=True, text=True)
check(p.returncode == 0, f"exit status {p.returncode}, stderr {p.stderr!r}")
lines = [json.loads(line) for line in open(events_path)]
steps = [e["step"] for e in lines]
check(steps == sorted(steps), "steps out of order")
for e in lines:
    check({"step", "type", "a", "b"} <= e.keys(), f"keys missing in {e}")
    check(e["type"] in {"begin", "end", "hit", "sensor_begin", "sensor_end"}, f"type in {e}")
    if e["type"] in ("begin", "hit"):
        check(len(e["point"]) == 3 and len(e["normal"]) == 3, f"point/normal in {e}")


def of(kind):
    return [e for e in lines if e["type"] == kind]


for kind in ("sensor_begin", "sensor_end"):
    check(all(e["a"] == 1 for e in of(kind)), f"{kind}: a is not the sensor")
    check(sorted(e["b"] for e in of(kind)) == [2, 3], f"{kind}: visitors {[e['b'] for e in of(kind)]}")
ground = sorted(e["b"] for e in of("begin") if e["a"] == 0)
check(ground == [2, 3, 5], f"ground begins {ground}")
check(of("end") == [], f"end events {of('end')}")
g, dt = 9.81, 1.0 / 60.0
drop = {2: 3.5, 3: 4.5, 5: 2.5}  # bottom heights above the ground
hits = of("hit")
check(sorted(e["b"] for e in hits) == [2, 3, 5], f"hits {hits}")
for e in hits:
    v = math.sqrt(2.0 * g * drop[e["b"]])
    check(abs(e["speed"] - v) <= 2.0 * g * dt, f"hit speed {e['speed']} for {v}")
    check(abs(e["normal"][1] - 1.0) < 1e-9, f"hit normal {e['normal']}")
for line in open(dump_path):
    body = json.loads(line)
    if body["id"] == 4:
        check(body["position"][1] < -10.0, f"filtered body at {body['position']}")

p = subprocess.run([cli, "sim", scene, "--steps", "1", "--events", os.path.join(tmp, "no_such_folder", "e.jsonl")],
                   capture_output=True, text=True)
check(p.returncode == 2, f"bad path: exit status {p.returncode}")
check("sim: --events" in p.stderr and "cannot open for writing" in p.stderr, f"bad path: {p.stderr!r}")

# A sensor body's lines have no child_a; a compound's sensor child's do: the compound scene's
# basket (body 6, its child 5 the sensor) sees a body fall in, and that body's sensor_begin names
# the child.
check(all("child_a" not in e for e in lines), "child_a on a sensor body's line")
basket_path = os.path.join(tmp, "events_basket.jsonl")
p = subprocess.run([cli, "sim", "compound", "--steps", "300", "--events", basket_path],
                   capture_output=True, text=True)
check(p.returncode == 0, f"compound: exit status {p.returncode}, stderr {p.stderr!r}")
sensor_lines = [e for e in map(json.loads, open(basket_path)) if e["type"].startswith("sensor_")]
check(len([e for e in sensor_lines if e["type"] == "sensor_begin"]) >= 1, "compound: no sensor_begin")
for e in sensor_lines:
    check(e["a"] == 6 and e.get("child_a") == 5 and e["b"] > 6, f"compound: sensor line {e}")

for f in failures:
    print("FAIL:", f)
print(f"{len(lines)} events, {len(failures)} failures")
sys.exit(1 if failures else 0)
