#!/usr/bin/env python3
"""tumble-cli sim and the threads setting (issue 18): `--set threads=K` and a scene file's
"settings": {"threads": K} run the step on K workers, reported as `threads` in --json (0: the
hardware's, at least 1), with `timing_ms` wall-clock per phase; the state hash is pile's golden
hash (tests/unit/test_world_determinism.cpp) at every count.

Usage: threads_cli_check.py TUMBLE_CLI SCENES_DIR WORK_DIR"""
import json
import os
import subprocess
import sys

GOLDEN = "650f77df38ea92f3"  # pile after 60 steps

cli, scenes, work = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def sim(scene, *extra):
    out = subprocess.run([cli, "sim", scene, "--steps", "60", "--json", *extra],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


for k in (1, 2, 3, 8, 0):
    j = sim("pile", "--set", f"threads={k}")
    if j["state_hash"] != GOLDEN:
        failures.append(f"threads={k}: state_hash {j['state_hash']}, expected {GOLDEN}")
    if (k > 0 and j["threads"] != k) or j["threads"] < 1:
        failures.append(f"threads={k}: reported threads {j['threads']}")
    timing = j["timing_ms"]
    for phase in ("step_median", "step_max", "broadphase", "narrowphase", "solver", "islands"):
        if not (phase in timing and timing[phase] >= 0.0):
            failures.append(f"threads={k}: timing_ms.{phase} missing or negative")
    if not timing["step_max"] >= timing["step_median"] > 0.0:
        failures.append(f"threads={k}: step_max {timing['step_max']} < step_median")

# The same from the scene file's settings.
with open(os.path.join(scenes, "pile.json")) as f:
    scene = json.load(f)
scene.setdefault("settings", {})["threads"] = 3
os.makedirs(work, exist_ok=True)
path = os.path.join(work, "pile_threads3.json")
with open(path, "w") as f:
    json.dump(scene, f)
j = sim(path)
if j["threads"] != 3 or j["state_hash"] != GOLDEN:
    failures.append(f"scene settings threads 3: threads {j['threads']}, hash {j['state_hash']}")

for f in failures:
    print("FAIL:", f)
print("threads_cli_check:", "failed" if failures else "passed")
sys.exit(1 if failures else 0)
