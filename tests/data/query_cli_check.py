"""tumble-cli query against tests/data/query_scene.json: the answers computed by hand from the
scene's geometry (a ground top at y = 0, balls of radius 0.5 at y = 2 and 4), and a bad line
answered with an error naming it, exit status 2, the other lines still answered."""
import json
import subprocess
import sys

cli, data = sys.argv[1], sys.argv[2]
scene = f"{data}/query_scene.json"


def run(queries):
    p = subprocess.run([cli, "query", scene, f"{data}/{queries}"], capture_output=True, text=True)
    return p.returncode, [json.loads(line) for line in p.stdout.splitlines()], p.stderr


def near(a, b, tol=1e-9):
    return abs(a - b) <= tol


failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


rc, out, err = run("query_sample.jsonl")
check(rc == 0, f"exit status {rc}, stderr {err!r}")
check(len(out) == 7, f"{len(out)} answers")
hits = out[0]["hits"]
check([h["body"] for h in hits] == [2, 1, 0], f"ray all bodies {hits}")
for h, f in zip(hits, [0.275, 0.375, 0.5]):
    check(near(h["fraction"], f), f"ray all fraction {h['fraction']} != {f}")
    check(near(h["normal"][1], 1.0), f"ray all normal {h['normal']}")
check(out[1]["hit"] and out[1]["body"] == 1 and near(out[1]["fraction"], 0.375),
      f"filtered closest {out[1]}")
check(out[2] == {"hit": False, "line": 3}, f"ignored any {out[2]}")
check(out[3]["bodies"] == [1, 2], f"sphere overlap {out[3]}")
check(out[4]["bodies"] == [0], f"box overlap {out[4]}")
c = out[5]
check(c["hit"] and c["body"] == 2 and near(c["fraction"], 0.2625), f"cast {c}")
check(near(c["point"][1], 4.5) and near(c["normal"][1], 1.0), f"cast point/normal {c}")
check(out[6]["bodies"] == [0], f"shape overlap {out[6]}")
check([o["line"] for o in out] == list(range(1, 8)), "line numbers")

rc, out, err = run("query_bad_input.jsonl")
check(rc == 2, f"bad input: exit status {rc}")
check(len(out) == 3 and "error" in out[1] and out[1]["line"] == 2, f"bad input answers {out}")
check("line 2" in err and "ray.mode" in err, f"bad input stderr {err!r}")
check(out[2]["bodies"] == [1, 2], "the line after the bad one is answered")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
