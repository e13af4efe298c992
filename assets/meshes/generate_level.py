#!/usr/bin/env python3
"""Writes level.obj: the static level of the `level` scene, a small skate park on a 60 m floor:
stairs and a ramp up to two platforms, a bowl and a half-pipe, walled in by a 1 m rim. Every
triangle is counter-clockwise seen from the side bodies touch (Tumble's triangles are one-sided).
Run from this folder: python3 generate_level.py"""
import math

verts = []
faces = []


def v(x, y, z):
    verts.append((x, y, z))
    return len(verts)  # OBJ indices start at 1


def quad(a, b, c, d):
    """a, b, c, d counter-clockwise seen from the front."""
    faces.append((a, b, c))
    faces.append((a, c, d))


def box_top_and_sides(x0, x1, z0, z1, y, sides="nsew"):
    """The top of a block from y = 0 to y, and the named vertical sides (n: -z, s: +z, w: -x,
    e: +x), all facing out."""
    t = [v(x0, y, z0), v(x0, y, z1), v(x1, y, z1), v(x1, y, z0)]
    quad(*t)
    if "n" in sides:
        quad(v(x1, 0, z0), v(x0, 0, z0), v(x0, y, z0), v(x1, y, z0))
    if "s" in sides:
        quad(v(x0, 0, z1), v(x1, 0, z1), v(x1, y, z1), v(x0, y, z1))
    if "w" in sides:
        quad(v(x0, 0, z0), v(x0, 0, z1), v(x0, y, z1), v(x0, y, z0))
    if "e" in sides:
        quad(v(x1, 0, z1), v(x1, 0, z0), v(x1, y, z0), v(x1, y, z1))


# Floor: 60 x 60 m in 10 m tiles (flush triangles: their shared edges are inactive).
for i in range(6):
    for j in range(6):
        x0, z0 = -30 + 10 * i, -30 + 10 * j
        quad(v(x0, 0, z0), v(x0, 0, z0 + 10), v(x0 + 10, 0, z0 + 10), v(x0 + 10, 0, z0))

# Stairs: 10 steps of 0.25 m up along +z at x in [4, 9], then a platform.
for i in range(10):
    box_top_and_sides(4, 9, -16 + 0.6 * i, -16 + 0.6 * (i + 1), 0.25 * (i + 1),
                      "n" + ("we"))
box_top_and_sides(4, 9, -10, -5, 2.5, "swe")

# Ramp: from the floor at z = -16 up to 2.5 m at z = -10 (about 22.6 degrees), x in [-9, -4],
# then a platform.
a, b, c, d = v(-9, 0, -16), v(-9, 2.5, -10), v(-4, 2.5, -10), v(-4, 0, -16)
quad(a, b, c, d)
faces.append((v(-9, 0, -16), v(-9, 0, -10), v(-9, 2.5, -10)))  # west side
faces.append((v(-4, 0, -10), v(-4, 0, -16), v(-4, 2.5, -10)))  # east side
box_top_and_sides(-9, -4, -10, -5, 2.5, "swe")

# Bowl: a spherical cap (radius 7, 2.5 m deep, rim radius about 5.4 m) centred at (12, 0, 12),
# its rim joined to the floor by a sloping outer wall 3 m wide.
cx, cz, R, depth, rings, segs = 12.0, 12.0, 7.0, 2.5, 10, 40
rim = math.sqrt(R * R - (R - depth) ** 2)
grid = []
for r in range(rings + 1):
    rho = rim * r / rings
    y = R - math.sqrt(R * R - rho * rho)  # 0 at the centre, depth at the rim
    row = [v(cx + rho * math.cos(2 * math.pi * s / segs), y, cz + rho * math.sin(2 * math.pi * s / segs))
           for s in range(segs)]
    grid.append(row)
for r in range(rings):
    for s in range(segs):
        s1 = (s + 1) % segs
        if r == 0:
            faces.append((grid[0][0], grid[1][s1], grid[1][s]))
        else:
            quad(grid[r][s], grid[r][s1], grid[r + 1][s1], grid[r + 1][s])
outer = [v(cx + (rim + 3) * math.cos(2 * math.pi * s / segs), 0, cz + (rim + 3) * math.sin(2 * math.pi * s / segs))
         for s in range(segs)]
for s in range(segs):
    s1 = (s + 1) % segs
    quad(grid[rings][s], grid[rings][s1], outer[s1], outer[s])

# Half-pipe: a half cylinder of radius 3 along x in [-20, -6] at z = 12, its lips at 3 m, decks
# 2 m wide beyond them and walls down to the floor; the ends are open at the bottom.
hx0, hx1, hz, hr, n = -20.0, -6.0, 12.0, 3.0, 16
prev = None
for k in range(n + 1):
    th = math.pi * k / n  # from the lip at z = hz + hr over the bottom to z = hz - hr
    y, z = hr - hr * math.sin(th), hz + hr * math.cos(th)
    cur = (v(hx0, y, z), v(hx1, y, z))
    if prev:
        quad(prev[0], prev[1], cur[1], cur[0])
    prev = cur
for side in (1, -1):
    z0, z1 = hz + side * hr, hz + side * (hr + 2)
    lo, hi = min(z0, z1), max(z0, z1)
    box_top_and_sides(hx0, hx1, lo, hi, hr, "s" if side > 0 else "n")
    # End walls of the deck blocks and of the solid under the pipe's curve, facing out.
    for x, facing in ((hx0, -1), (hx1, 1)):
        pts = [(lo, 0), (hi, 0), (hi, hr), (lo, hr)]
        idx = [v(x, y, z) for z, y in pts]
        if facing * side > 0:
            quad(idx[0], idx[1], idx[2], idx[3])
        else:
            quad(idx[3], idx[2], idx[1], idx[0])

# A rim around the floor: walls 1 m high and 0.5 m thick just outside its edges, so that nothing
# rolls off the level (a ball off the platform had crossed the floor and fallen for ever).
box_top_and_sides(-30.5, 30.5, -30.5, -30, 1.0)  # north (-z), its inner side the "s" one
box_top_and_sides(-30.5, 30.5, 30, 30.5, 1.0)  # south (+z)
box_top_and_sides(-30.5, -30, -30, 30, 1.0, "we")  # west (-x), between them
box_top_and_sides(30, 30.5, -30, 30, 1.0, "we")  # east (+x)

with open("level.obj", "w") as f:
    f.write("# Tumble's skate-park level, written by generate_level.py\n")
    for x, y, z in verts:
        f.write(f"v {x:.6g} {y:.6g} {z:.6g}\n")
    for a, b, c in faces:
        f.write(f"f {a} {b} {c}\n")
print(f"level.obj: {len(verts)} vertices, {len(faces)} triangles")
