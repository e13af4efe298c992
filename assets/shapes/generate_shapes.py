#!/usr/bin/env python3
"""Writes the shape files of assets/shapes (run from anywhere; output is deterministic).

Each file is {"name": ..., "source": ..., "points": [[x, y, z], ...]} in metres, Y up, sized
about 1 m. Coordinates are written with repr() (shortest round-trip form) so that coplanar
points stay coplanar to the last bit Python computed them with.
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
PHI = (1.0 + math.sqrt(5.0)) / 2.0


def scaled(points, radius):
    """Scales points so that the farthest is `radius` from the origin."""
    r = max(math.sqrt(x * x + y * y + z * z) for x, y, z in points)
    return [[x * radius / r, y * radius / r, z * radius / r] for x, y, z in points]


def cyclic(x, y, z):
    return [[x, y, z], [z, x, y], [y, z, x]]


def ring(radius, y, count, phase=0.0):
    return [[radius * math.cos(2 * math.pi * k / count + phase), y,
             radius * math.sin(2 * math.pi * k / count + phase)] for k in range(count)]


def box():
    return [[sx * 0.5, sy * 0.5, sz * 0.5] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]


def tetrahedron():
    # Regular, edge 1 m: alternate corners of a cube of side 1/sqrt(2).
    s = 0.5 / math.sqrt(2.0)
    return [[s, s, s], [s, -s, -s], [-s, s, -s], [-s, -s, s]]


def octahedron():
    return [[0.5, 0, 0], [-0.5, 0, 0], [0, 0.5, 0], [0, -0.5, 0], [0, 0, 0.5], [0, 0, -0.5]]


def icosahedron():
    pts = []
    for a in (-1, 1):
        for b in (-1, 1):
            pts += cyclic(0.0, a * 1.0, b * PHI)
    return scaled(pts, 0.5)


def dodecahedron():
    pts = [[sx, sy, sz] for sx in (-1.0, 1.0) for sy in (-1.0, 1.0) for sz in (-1.0, 1.0)]
    for a in (-1, 1):
        for b in (-1, 1):
            pts += cyclic(0.0, a / PHI, b * PHI)
    return scaled(pts, 0.5)


def cylinder16():
    return ring(0.5, -0.5, 16) + ring(0.5, 0.5, 16)


def cone():
    return ring(0.5, -0.5, 16) + [[0.0, 0.5, 0.0]]


def capsule():
    # Radius 0.25, 0.5 m between the hemisphere centres (1 m tall): 12 meridians, 3 rings per cap.
    radius, half = 0.25, 0.25
    pts = []
    for k in range(3):
        lat = (math.pi / 2) * k / 3  # 0, 30, 60 degrees
        r, h = radius * math.cos(lat), radius * math.sin(lat)
        pts += ring(r, half + h, 12, phase=0.0)
        pts += ring(r, -half - h, 12, phase=0.0)
    return pts + [[0.0, half + radius, 0.0], [0.0, -half - radius, 0.0]]


def random_cloud(seed, count, radii, interior_fraction):
    """Points on an ellipsoid, some pulled inside; rounded to 0.1 mm."""
    rng = random.Random(seed)
    pts = []
    while len(pts) < count:
        v = [rng.uniform(-1.0, 1.0) for _ in range(3)]
        n = math.sqrt(sum(c * c for c in v))
        if n < 1e-3 or n > 1.0:
            continue
        depth = rng.uniform(0.3, 1.0) if rng.random() < interior_fraction else 1.0
        pts.append([round(v[i] / n * radii[i] * depth, 4) for i in range(3)])
    return pts


SHAPES = {
    "box": (box, "unit cube, half extent 0.5 m"),
    "tetrahedron": (tetrahedron, "regular tetrahedron, edge 1 m"),
    "octahedron": (octahedron, "regular octahedron, vertices at 0.5 m on the axes"),
    "icosahedron": (icosahedron, "regular icosahedron, circumradius 0.5 m"),
    "dodecahedron": (dodecahedron, "regular dodecahedron, circumradius 0.5 m"),
    "cylinder16": (cylinder16, "16-sided prism along Y, radius 0.5 m, height 1 m"),
    "cone": (cone, "16-sided pyramid along Y, base radius 0.5 m, height 1 m"),
    "capsule": (capsule, "capsule hull along Y, radius 0.25 m, height 1 m"),
    "random_7": (lambda: random_cloud(7, 16, (0.5, 0.45, 0.4), 0.0),
                 "16 random points on an ellipsoid, seed 7"),
    "random_42": (lambda: random_cloud(42, 64, (0.6, 0.4, 0.35), 0.25),
                  "64 random points on and inside an ellipsoid, seed 42"),
    "random_1234": (lambda: random_cloud(1234, 200, (0.5, 0.5, 0.5), 0.5),
                    "200 random points on and inside a 0.5 m sphere, seed 1234"),
    "random_slab_99": (lambda: random_cloud(99, 40, (0.6, 0.1, 0.45), 0.2),
                       "40 random points on and inside a flat ellipsoid, seed 99"),
}


def main():
    for name, (make, source) in SHAPES.items():
        doc = {"name": name, "source": source + " (assets/shapes/generate_shapes.py)",
               "points": make()}
        lines = ",\n    ".join(json.dumps(p) for p in doc["points"])
        text = ('{\n  "name": %s,\n  "source": %s,\n  "points": [\n    %s\n  ]\n}\n'
                % (json.dumps(name), json.dumps(doc["source"]), lines))
        assert json.loads(text) == doc
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
