#!/usr/bin/env python3
"""Runs an asset generator (a copy of it) in a scratch folder and compares what it writes with the
files in the tree, byte for byte: a file edited by hand, or a generator changed without its files,
fails; so does a file the generator writes that is not named, or one named that it does not write.

usage: asset_generator_check.py GENERATOR ASSETS_DIR SCRATCH_DIR FILE...
"""
import os
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    generator, assets, scratch, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    script = os.path.join(scratch, os.path.basename(generator))
    shutil.copyfile(generator, script)
    subprocess.run([sys.executable, script], cwd=scratch, check=True, stdout=subprocess.DEVNULL)
    written = sorted(f for f in os.listdir(scratch) if f != os.path.basename(generator))
    expected = sorted(names)
    failures = []
    if written != expected:
        failures.append(f"the generator wrote {written}, expected {expected}")
    for name in expected:
        ours = os.path.join(scratch, name)
        tree = os.path.join(assets, name)
        if not os.path.exists(ours):
            continue
        with open(ours, "rb") as a, open(tree, "rb") as b:
            x, y = a.read(), b.read()
        if x != y:
            at = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
            line = x[:at].count(b"\n") + 1
            failures.append(f"{tree}: differs from the generator's output at line {line}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(expected)} files named, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
