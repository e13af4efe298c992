#!/usr/bin/env python3
"""Writes hills.png: a 129 x 129 16-bit greyscale height map for the `terrain` scene (rolling
hills around a shallow basin in the middle, where the scene pours its bodies). Grey 0 is the
lowest point, 65535 the highest; the scene scales it (height_scale). Pure Python (zlib): run from
this folder, python3 generate_hills.py"""
import math
import struct
import zlib

N = 129


def height(x, z):
    """0..1 at grid point (x, z)."""
    u, v = (x - 64) / 64.0, (z - 64) / 64.0
    r = math.hypot(u, v)
    basin = 0.35 * min(1.0, (r / 0.45) ** 2)  # a bowl-shaped basin in the middle
    hills = 0.25 * (math.sin(3.1 * u + 0.4) * math.cos(2.3 * v - 0.2) + 1.0) * min(1.0, r / 0.5)
    ridges = 0.08 * math.sin(9.0 * u + 5.0 * v)
    return max(0.0, min(1.0, 0.1 + basin + hills + ridges * min(1.0, r / 0.6)))


rows = []
for z in range(N):
    row = b"\x00"  # filter: none
    for x in range(N):
        row += struct.pack(">H", int(round(65535 * height(x, z))))
    rows.append(row)


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


png = b"\x89PNG\r\n\x1a\n"
png += chunk(b"IHDR", struct.pack(">IIBBBBB", N, N, 16, 0, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
png += chunk(b"IEND", b"")
with open("hills.png", "wb") as f:
    f.write(png)
print(f"hills.png: {N} x {N}, {len(png)} bytes")
