#!/usr/bin/env python3
"""Writes the joint demo scenes door.json, car.json, rope.json, cradle.json (issue 15) and loops.json.

Run from this folder: python3 generate_joint_scenes.py [NAME...] (default: every scene). The sizes are chosen here, once; the
tests in tests/unit/test_joint_scenes.cpp read the files, not these numbers.
"""
import json
import math
import sys

ROT_X90 = [math.sqrt(0.5), math.sqrt(0.5), 0.0, 0.0]  # y axis to z (cylinders as wheels)
ROT_Z90 = [math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)]  # y axis to -x (capsules lying along x)


def r(v):
    return [round(x, 6) for x in v] if isinstance(v, list) else round(v, 6)


def box(scale, position, static=False, **extra):
    b = {"shape": "box", "scale": r(scale), "position": r(position)}
    if static:
        b["static"] = True
    b.update(extra)
    return b


def ground(width, depth):
    return box([width, 1, depth], [0, -0.5, 0], static=True)


def write(name, description, bodies, joints, settings=None):
    scene = {"name": name, "description": description}
    if settings:
        scene["settings"] = settings
    scene["bodies"] = bodies
    scene["joints"] = joints
    with open(name + ".json", "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")


def door():
    # Two doors 1 m wide and 2 m tall in frames of static posts: the left one swings both ways
    # within +-90 degrees with 4 N m of hinge friction (a motor at speed 0), the right one opens one
    # way to 100 degrees and a spring closes it. Push them with the mouse.
    bodies = [ground(12, 8)]
    joints = []
    for x0, limits, spring in ((-1.5, [-1.5708, 1.5708], None), (1.5, [0.0, 1.75], 1.0)):
        bodies.append(box([0.1, 2.3, 0.2], [x0 - 0.62, 1.15, 0], static=True))
        bodies.append(box([0.1, 2.3, 0.2], [x0 + 0.62, 1.15, 0], static=True))
        bodies.append(box([1.34, 0.12, 0.2], [x0, 2.36, 0], static=True))
        d = len(bodies)
        door = box([1.0, 2.0, 0.06], [x0, 1.03, 0], density=600, friction=0.4)
        if spring:
            door["angular_velocity"] = [0, 3.0, 0]  # thrown open: the spring closes it
        bodies.append(door)
        j = {"type": "hinge", "a": -1, "b": d, "anchor": [x0 - 0.53, 1.03, 0], "axis": [0, 1, 0],
             "limits": limits, "motor": {"speed": 0, "max_torque": 4.0}}
        if spring:
            j["spring"] = {"hz": spring, "damping": 0.7}
        joints.append(j)
    # Something to knock over with a door.
    for i in range(3):
        bodies.append(box([0.3, 0.3, 0.3], [-1.5 + 0.35 * (i - 1), 0.15, 1.0], density=200))
    write("door", "Joints: two hinged doors in their frames (left: +-90 degree limits and 4 N m "
          "of hinge friction; right: opens one way to 100 degrees, a 1 Hz spring closes it); push "
          "them with the mouse.", bodies, joints)


def car():
    # A 300 kg chassis on four cylinder wheels (radius 0.35 m). Each wheel turns on a hinge
    # (axis -z: a positive motor speed rolls the car towards +x) on a small hub; the rear hubs are
    # welded to the chassis, the front ones turn on vertical steering hinges whose limits the demo
    # closes on the steering angle. The demo's arrow keys set the motor speed and steer.
    bodies = [ground(80, 40)]
    joints = []
    chassis = len(bodies)
    cy = 0.6
    def cuboid(lo, hi):
        return [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    # One body of two boxes: the floor and a cabin on it.
    bodies.append({"shape": {"compound": [
        {"shape": cuboid([-1.2, -0.15, -0.55], [1.2, 0.15, 0.55])},
        {"shape": cuboid([-0.7, 0.15, -0.45], [0.3, 0.5, 0.45])}]},
        "position": [0, cy, 0], "mass": 300, "friction": 0.5})
    radius, half, wy = 0.35, 0.12, 0.35
    for x, front in ((0.85, True), (-0.85, False)):
        for z in (0.78, -0.78):
            hub = len(bodies)
            hz = 0.6 if z > 0 else -0.6
            bodies.append({"shape": {"sphere": {"radius": 0.06}}, "position": r([x, wy, hz]),
                           "mass": 12})
            if front:
                joints.append({"type": "hinge", "a": chassis, "b": hub, "anchor": r([x, wy, hz]),
                               "axis": [0, 1, 0], "limits": [0, 0]})
            else:
                joints.append({"type": "fixed", "a": chassis, "b": hub})
            wheel = len(bodies)
            bodies.append({"shape": {"cylinder": {"radius": radius, "half_height": half}},
                           "position": r([x, wy, z]), "orientation": r(ROT_X90), "mass": 20,
                           "friction": 1.2})
            joints.append({"type": "hinge", "a": hub, "b": wheel, "anchor": r([x, wy, z]),
                           "axis": [0, 0, -1], "motor": {"speed": 0, "max_torque": 150}})
    # Ramps and boxes ahead of the car.
    for x, z, angle, length in ((12, 0, 0.18, 6), (8, -7, -0.15, 5), (-9, 3, -0.2, 5)):
        c, s = math.cos(angle / 2), math.sin(angle / 2)
        bodies.append({"shape": "box", "scale": r([length, 0.3, 3]),
                       "position": r([x, length / 2 * abs(math.sin(angle)) - 0.05, z]),
                       "orientation": r([c, 0, 0, s]), "static": True})
    for i in range(6):
        bodies.append(box([0.5, 0.5, 0.5], [7 + 0.6 * (i % 3), 0.25 + 0.5 * (i // 3), 4 + 0.1 * i],
                          density=150))
    write("car", "Joints: a 300 kg car on four motorised hinge wheels (cylinders); the front wheels "
          "steer on vertical hinges. In the demo Up/Down set the wheels' motor speed, Left/Right "
          "steer; ramps and boxes ahead.", bodies, joints)


def rope():
    # 60 capsules (radius 0.05 m, 0.25 m pitch) on ball joints hanging from a static pin 8 m up,
    # released level, with a box 50 times a link's mass at the end: it swings across a drum and two
    # pegs, the box lands and drags, and the 15 m rope folds onto itself on the ground.
    n, radius, half = 60, 0.05, 0.075
    pitch = 2 * (half + radius)
    top = 8.0
    bodies = [ground(40, 12)]
    joints = []
    link_mass = 1000 * (math.pi * radius ** 2 * 2 * half + 4 / 3 * math.pi * radius ** 3)
    # A drum under the pin and two pegs (cylinders along z) inside the rope's sweep.
    for x, y, rr in ((0, 6, 0.8), (-5, 2.5, 0.5), (5, 2.5, 0.5)):
        bodies.append({"shape": {"cylinder": {"radius": rr, "half_height": 1.5}},
                       "position": [x, y, 0], "orientation": r(ROT_X90), "static": True})
    first = len(bodies)
    for i in range(n):
        bodies.append({"shape": {"capsule": {"radius": radius, "half_height": half}},
                       "position": r([(i + 0.5) * pitch, top, 0]), "orientation": r(ROT_Z90),
                       "friction": 0.4})
        joints.append({"type": "ball", "a": -1 if i == 0 else first + i - 1, "b": first + i,
                       "anchor": r([i * pitch, top, 0])})
    side = 0.5
    bodies.append(box([side, side, side], [n * pitch + side / 2, top, 0],
                      mass=round(50 * link_mass, 4), friction=0.4))
    joints.append({"type": "ball", "a": first + n - 1, "b": first + n,
                   "anchor": r([n * pitch, top, 0])})
    write("rope", "Joints: a rope of 60 capsules on ball joints with a box 50 times a link's mass "
          "at its end, released level from a pin 8 m up; it swings across a drum and two pegs "
          "and folds onto itself without passing through itself or them.", bodies, joints,
          {"sleep.enabled": False})


def cradle():
    # Newton's cradle: 5 balls (radius 0.15 m) each hung by two 1.2 m rods (distance joints) from
    # a static frame, restitution 1 and no friction; the first is lifted 25 degrees (1.42 m/s at
    # the bottom). The balls hang 2.5 cm apart, more than the fastest ball moves in a step
    # (2.4 cm): the solver's restitution acts on the approach speed at the step's start, so balls
    # touching at rest would share one impact instead of passing it on.
    radius, length, gap, spread = 0.15, 1.2, 0.025, 0.5
    top = 2.0
    bodies = [ground(6, 4)]
    bodies.append(box([2.2, 0.08, 0.08], [0, top + 0.04, spread], static=True))
    bodies.append(box([2.2, 0.08, 0.08], [0, top + 0.04, -spread], static=True))
    for x in (-1.06, 1.06):
        for z in (spread, -spread):
            bodies.append(box([0.08, top + 0.08, 0.08], [x, (top + 0.08) / 2, z], static=True))
    joints = []
    drop = math.sqrt(length ** 2 - spread ** 2)  # the pivot line to the ball's centre
    angle = math.radians(25)
    for i in range(5):
        px = (i - 2) * (2 * radius + gap)
        if i == 0:
            pos = [px - drop * math.sin(angle), top - drop * math.cos(angle), 0]
        else:
            pos = [px, top - drop, 0]
        ball = len(bodies)
        bodies.append({"shape": {"sphere": {"radius": radius}}, "position": r(pos),
                       "density": 7800, "friction": 0, "restitution": 1})
        for z in (spread, -spread):
            joints.append({"type": "distance", "a": -1, "b": ball, "anchor_a": r([px, top, z]),
                           "anchor_b": r(pos)})
    write("cradle", "Joints: Newton's cradle, 5 steel balls each hung by two rods (distance "
          "joints) 2.5 cm apart, restitution 1 and no friction; the first is lifted 25 degrees "
          "and the last leaves with its speed.", bodies, joints, {"sleep.enabled": False})


def loops():
    # Closed loops of jointed bodies, each solved with its group exactly (JointSet::Closure): a
    # curtain of 5 x 4 spheres on ball joints hung by its two top corners and pushed (12 loops),
    # a necklace of 12 boxes on hinges hung from one box and spinning (one loop), and a hoop of
    # 10 capsules on ball joints dropped tilted onto the ground (one loop, no joint to the world).
    bodies = [ground(16, 8)]
    joints = []
    # The curtain, in the plane z = 0 from x = -6.6, its top row at y = 4.5, 0.7 m apart.
    cols, rows, step = 5, 4, 0.7
    x0, top = -6.6, 4.5
    first = len(bodies)
    for i in range(rows):
        for j in range(cols):
            bodies.append({"shape": {"sphere": {"radius": 0.2}}, "position": r([x0 + j * step, top - i * step, 0]),
                           "linear_velocity": r([0, 0, 0.6 * i]), "linear_damping": 0.3,
                           "angular_damping": 0.3, "filter": {"group": -1}})
    def at(i, j):
        return first + i * cols + j
    for i in range(rows):
        for j in range(cols):
            if i > 0:
                joints.append({"type": "ball", "a": at(i - 1, j), "b": at(i, j),
                               "anchor": r([x0 + j * step, top - (i - 0.5) * step, 0])})
            if j > 0:
                joints.append({"type": "ball", "a": at(i, j - 1), "b": at(i, j),
                               "anchor": r([x0 + (j - 0.5) * step, top - i * step, 0])})
    for j in (0, cols - 1):
        joints.append({"type": "ball", "a": -1, "b": at(0, j), "anchor": r([x0 + j * step, top + 0.3, 0])})
    # The necklace: 12 boxes on a circle of radius 1.1 m about (0, 3.3, 0), hinged about z at the
    # points between them, hung by the top box from a point 0.35 m above it; each box starts turning about z.
    n, radius, cy = 12, 1.1, 3.3
    first = len(bodies)
    for k in range(n):
        a = 2 * math.pi * (k + 0.5) / n
        c, sn = math.cos(a), math.sin(a)
        q = [math.cos(a / 2), 0, 0, math.sin(a / 2)]  # the box's x axis along the radius
        bodies.append(box([0.16, 0.5, 0.16], [radius * c, cy + radius * sn, 0], orientation=r(q),
                          angular_velocity=[0, 0, 2.0 if k % 2 == 0 else -1.5],
                          linear_damping=0.2, angular_damping=0.2))
    for k in range(n):
        a = 2 * math.pi * (k + 1) / n
        joints.append({"type": "hinge", "a": first + k, "b": first + (k + 1) % n,
                       "anchor": r([radius * math.cos(a), cy + radius * math.sin(a), 0]),
                       "axis": [0, 0, 1]})
    topBox = first + 2  # the box at a = 75 degrees, nearest the top
    a = 2 * math.pi * 2.5 / n
    peg = [radius * math.cos(a), cy + radius * math.sin(a) + 0.35, 0]
    joints.append({"type": "ball", "a": -1, "b": topBox, "anchor": r(peg)})
    # The hoop: 10 capsules (radius 0.08, cores 0.4 m long) on a circle of radius
    # 0.9 m about (4.8, 2.5, 0), tilted 30 degrees about x, joined by ball joints at their ends.
    n, radius = 10, 0.9
    centre = [4.8, 2.5, 0.0]
    tilt = math.radians(30)
    def place(p):  # the circle's plane z = 0 turned by tilt about x, then moved to the centre
        x, y, z = p
        return [centre[0] + x, centre[1] + y * math.cos(tilt) - z * math.sin(tilt),
                centre[2] + y * math.sin(tilt) + z * math.cos(tilt)]
    first = len(bodies)
    for k in range(n):
        a = 2 * math.pi * (k + 0.5) / n
        # the capsule's core along y; turned so y runs along the circle's tangent, then tilted
        qa = [math.cos(a / 2), 0, 0, math.sin(a / 2)]
        qt = [math.cos(tilt / 2), math.sin(tilt / 2), 0, 0]
        q = [qt[0] * qa[0] - qt[1] * qa[1] - qt[2] * qa[2] - qt[3] * qa[3],
             qt[0] * qa[1] + qt[1] * qa[0] + qt[2] * qa[3] - qt[3] * qa[2],
             qt[0] * qa[2] - qt[1] * qa[3] + qt[2] * qa[0] + qt[3] * qa[1],
             qt[0] * qa[3] + qt[1] * qa[2] - qt[2] * qa[1] + qt[3] * qa[0]]
        bodies.append({"shape": {"capsule": {"radius": 0.08, "half_height": 0.2}},
                       "position": r(place([radius * math.cos(a), radius * math.sin(a), 0])),
                       "orientation": r(q), "density": 600})
    for k in range(n):
        a = 2 * math.pi * (k + 1) / n
        joints.append({"type": "ball", "a": first + k, "b": first + (k + 1) % n,
                       "anchor": r(place([radius * math.cos(a), radius * math.sin(a), 0]))})
    write("loops", "Joints in closed loops, each loop solved with its group exactly: a curtain of "
          "5 x 4 spheres on ball joints hung by two corners and pushed (12 loops), a necklace of "
          "12 hinged boxes hung from one point and spinning, and a hoop of 10 capsules on ball joints "
          "dropped tilted onto the ground.", bodies, joints)


# The scenes named on the command line, or all: each file as it is in the tree, byte for byte.
SCENES = {"door": door, "car": car, "rope": rope, "cradle": cradle, "loops": loops}
for name in sys.argv[1:] or SCENES:
    SCENES[name]()
