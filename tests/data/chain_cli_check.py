#!/usr/bin/env python3
"""Checks `tumble-cli chain SCRIPT` against the promise of docs/ARCHITECTURE.md ("Chain scripts")
with its own geometry (an independent segment-distance routine), used by CTest
(tests/CMakeLists.txt).

usage: chain_cli_check.py CLI SCRIPT [--tolerance T] [--first-contact ANGLE]
                          [--expect-error REGEX]

Per output line: fold index, requested angle, |applied| <= |requested| with the same sign,
blocked == (|applied| < |requested|), segment lengths kept, the pose equal to the previous pose
turned by `applied` about the fold's axis, min_gap equal to our own least gap, never below
-tolerance * r, and at most tolerance * r when blocked. --first-contact: the first fold's
applied angle must be within the tolerance of an analytically known contact angle.
--expect-error: the CLI must exit with 2 and print a message matching REGEX.
"""
import json
import math
import re
import subprocess
import sys


def sub(a, b):
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a):
    return math.sqrt(dot(a, a))


def point_segment(p, a, b):
    ab = sub(b, a)
    den = dot(ab, ab)
    t = 0.0 if den == 0.0 else min(1.0, max(0.0, dot(sub(p, a), ab) / den))
    return norm(sub(p, [a[i] + t * ab[i] for i in range(3)]))


def segment_distance(p0, p1, q0, q1):
    """Least distance of two segments: the interior critical point when the lines are not
    parallel and it lies inside the square, else the least of the four endpoint-to-segment
    distances (the minimum of a convex function on a square is inside or on an edge, and on
    an edge it is an endpoint-to-segment distance)."""
    best = min(point_segment(p0, q0, q1), point_segment(p1, q0, q1),
               point_segment(q0, p0, p1), point_segment(q1, p0, p1))
    d1, d2, r = sub(p1, p0), sub(q1, q0), sub(p0, q0)
    a, e, b = dot(d1, d1), dot(d2, d2), dot(d1, d2)
    c, f = dot(d1, r), dot(d2, r)
    den = a * e - b * b
    if den > 1e-12 * a * e:
        s = (b * f - c * e) / den
        t = (a * f - b * c) / den
        if 0.0 <= s <= 1.0 and 0.0 <= t <= 1.0:
            x = [p0[i] + s * d1[i] for i in range(3)]
            y = [q0[i] + t * d2[i] for i in range(3)]
            best = min(best, norm(sub(x, y)))
    return best


def min_gap(points, radius):
    n = len(points) - 1
    gaps = [segment_distance(points[i], points[i + 1], points[j], points[j + 1]) - 2 * radius
            for i in range(n) for j in range(i + 2, n)]
    return min(gaps) if gaps else None


def rotate(p, origin, axis, angle):
    """Rodrigues' rotation of p about the line through origin with unit direction axis."""
    v = sub(p, origin)
    c, s = math.cos(angle), math.sin(angle)
    k = axis
    kxv = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]]
    kv = dot(k, v)
    return [origin[i] + v[i] * c + kxv[i] * s + k[i] * kv * (1 - c) for i in range(3)]


def fail(msg):
    print("chain_cli_check: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    cli, script = args[0], args[1]
    tolerance, first_contact, expect_error = 0.01, None, None
    i = 2
    while i < len(args):
        if args[i] == "--tolerance":
            tolerance = float(args[i + 1])
        elif args[i] == "--first-contact":
            first_contact = float(args[i + 1])
        elif args[i] == "--expect-error":
            expect_error = args[i + 1]
        else:
            fail("unknown option " + args[i])
        i += 2

    run = subprocess.run([cli, "chain", script], capture_output=True, text=True)
    if expect_error is not None:
        if run.returncode != 2:
            fail(f"exit status {run.returncode}, expected 2\n{run.stderr}")
        if not re.search(expect_error, run.stderr):
            fail(f"stderr does not match {expect_error!r}:\n{run.stderr}")
        print("rejected as expected: " + run.stderr.strip())
        return
    if run.returncode != 0:
        fail(f"exit status {run.returncode}\n{run.stderr}")

    with open(script) as f:
        doc = json.load(f)
    radius, points, folds = doc["radius"], doc["points"], doc["folds"]
    lines = run.stdout.splitlines()
    if len(lines) != len(folds):
        fail(f"{len(lines)} output lines for {len(folds)} folds")
    lengths = [norm(sub(points[k + 1], points[k])) for k in range(len(points) - 1)]
    slack = tolerance * radius
    blocked_count = 0
    for k, (line, fold) in enumerate(zip(lines, folds)):
        out = json.loads(line)
        where = f"fold {k}"
        if out["fold"] != k or out["requested"] != fold["angle"]:
            fail(f"{where}: fold/requested {out['fold']}, {out['requested']}")
        a, b = fold["angle"], out["applied"]
        if abs(b) > abs(a) or (b != 0 and (a > 0) != (b > 0)):
            fail(f"{where}: applied {b} for requested {a}")
        if out["blocked"] != (abs(b) < abs(a)):
            fail(f"{where}: blocked {out['blocked']} with applied {b} of {a}")
        blocked_count += out["blocked"]
        joint = fold["joint"]
        axis = fold["axis"]
        axis = [c / norm(axis) for c in axis]
        expected = points[:joint + 1] + [rotate(p, points[joint], axis, b)
                                         for p in points[joint + 1:]]
        new = out["points"]
        if len(new) != len(points):
            fail(f"{where}: {len(new)} points, expected {len(points)}")
        for p, q in zip(new, expected):
            if norm(sub(p, q)) > 1e-9 * max(1.0, norm(q)):
                fail(f"{where}: point {p} is not the pose turned by {b}: {q}")
        for s in range(len(new) - 1):
            if abs(norm(sub(new[s + 1], new[s])) - lengths[s]) > 1e-9 * max(1.0, lengths[s]):
                fail(f"{where}: segment {s} changed length")
        gap = min_gap(new, radius)
        if (gap is None) != (out["min_gap"] is None):
            fail(f"{where}: min_gap {out['min_gap']}, ours {gap}")
        if gap is not None:
            if abs(gap - out["min_gap"]) > 1e-9 * max(1.0, abs(gap)):
                fail(f"{where}: min_gap {out['min_gap']}, ours {gap}")
            if gap < -slack:
                fail(f"{where}: the chain intersects itself (gap {gap} < -{slack})")
            if out["blocked"] and gap > slack:
                fail(f"{where}: blocked but not in contact (gap {gap} > {slack})")
        if k == 0 and first_contact is not None:
            # The gap is (to first order) the angle error times the moving point's lever arm;
            # a lever of at least 1/2 segment keeps this bound loose but meaningful.
            if abs(abs(b) - first_contact) > 2 * slack / min(lengths) + 1e-12:
                fail(f"{where}: stopped at {b}, the first contact is at {first_contact}")
        points = new
    print(f"{len(folds)} folds checked, {blocked_count} blocked")


if __name__ == "__main__":
    main()
