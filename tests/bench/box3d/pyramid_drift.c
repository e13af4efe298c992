// Box3D's own large_pyramid against issue 13's standing rule (README, "Box3D's pyramids"): the
// pyramid of Box3D's shared/benchmarks.c (base 100, boxes of half-extent 0.5 at 1 m spacing,
// density 100, a ground box, sleeping off) built through Box3D's public API, stepped at 60 Hz with
// SUBSTEPS substeps on one thread; prints the largest sideways (x, z) displacement of any box from
// its start at steps 25, 50, 100, 200, 500, 1000 and the closest pair of centres (hash grid, 1 m
// cells). Not part of Tumble's build: it needs a Box3D checkout built by compare.sh, e.g.
//   cc -O2 -I BOX3D/include tests/bench/box3d/pyramid_drift.c BOX3D/build-tumble/src/libbox3d.a \
//      -lm -lpthread -o /tmp/pyramid_drift && taskset -c 1 /tmp/pyramid_drift [STEPS [SUBSTEPS [HERTZ]]]
#include "box3d/box3d.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { float x, y, z; } V;

static double closest(const V* p, int n) {
  // brute force over neighbours in a hash grid of cell 1 m
  enum { H = 1 << 16 };
  static int head[H]; static int next[8192];
  memset(head, -1, sizeof head);
  for (int i = 0; i < n; ++i) {
    int cx = (int)floorf(p[i].x), cy = (int)floorf(p[i].y), cz = (int)floorf(p[i].z);
    unsigned h = ((unsigned)cx * 73856093u ^ (unsigned)cy * 19349663u ^ (unsigned)cz * 83492791u) & (H - 1);
    next[i] = head[h]; head[h] = i;
  }
  double best = 1e9;
  for (int i = 0; i < n; ++i) {
    int cx = (int)floorf(p[i].x), cy = (int)floorf(p[i].y), cz = (int)floorf(p[i].z);
    for (int dx = -1; dx <= 1; ++dx) for (int dy = -1; dy <= 1; ++dy) for (int dz = -1; dz <= 1; ++dz) {
      unsigned h = ((unsigned)(cx + dx) * 73856093u ^ (unsigned)(cy + dy) * 19349663u ^ (unsigned)(cz + dz) * 83492791u) & (H - 1);
      for (int j = head[h]; j != -1; j = next[j]) {
        if (j <= i) continue;
        double ex = p[i].x - p[j].x, ey = p[i].y - p[j].y, ez = p[i].z - p[j].z;
        double d = sqrt(ex * ex + ey * ey + ez * ez);
        if (d < best) best = d;
      }
    }
  }
  return best;
}

int main(int argc, char** argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 1000;
  int sub = argc > 2 ? atoi(argv[2]) : 4;
  float hertz = argc > 3 ? (float)atof(argv[3]) : -1.0f;
  b3WorldDef worldDef = b3DefaultWorldDef();
  worldDef.workerCount = 1;
  if (hertz > 0) worldDef.contactHertz = hertz;
  printf("Box3D large_pyramid: contactHertz %.1f damping %.1f contactSpeed %.1f, %d substeps, %d steps\n",
         worldDef.contactHertz, worldDef.contactDampingRatio, worldDef.contactSpeed, sub, steps);
  b3WorldId worldId = b3CreateWorld(&worldDef);
  b3World_EnableSleeping(worldId, false);
  int baseCount = 100;
  {
    b3BodyDef bodyDef = b3DefaultBodyDef();
    bodyDef.position = (b3Pos){0.0f, -1.0f, 0.0f};
    b3BodyId groundId = b3CreateBody(worldId, &bodyDef);
    b3BoxHull box = b3MakeBoxHull(400.0f, 1.0f, 400.0f);
    b3ShapeDef shapeDef = b3DefaultShapeDef();
    b3CreateHullShape(groundId, &shapeDef, &box.base);
  }
  b3BodyDef bodyDef = b3DefaultBodyDef();
  bodyDef.type = b3_dynamicBody;
  b3ShapeDef shapeDef = b3DefaultShapeDef();
  shapeDef.density = 100.0f;
  float h = 0.5f;
  b3BoxHull box = b3MakeBoxHull(h, h, h);
  float shift = 1.0f * h;
  int n = baseCount * (baseCount + 1) / 2;
  b3BodyId* ids = malloc(sizeof(b3BodyId) * n);
  V* start = malloc(sizeof(V) * n);
  V* cur = malloc(sizeof(V) * n);
  int k = 0;
  for (int i = 0; i < baseCount; ++i) {
    float y = (2.0f * i + 1.0f) * shift;
    for (int j = i; j < baseCount; ++j) {
      float x = (i + 1.0f) * shift + 2.0f * (j - i) * shift - h * baseCount;
      bodyDef.position = (b3Pos){x, y, 0.0f};
      ids[k] = b3CreateBody(worldId, &bodyDef);
      b3CreateHullShape(ids[k], &shapeDef, &box.base);
      start[k] = (V){x, y, 0.0f};
      ++k;
    }
  }
  double worst = 0, minPair = 1e9; int worstStep = 0, firstOver = -1;
  for (int s = 1; s <= steps; ++s) {
    b3World_Step(worldId, 1.0f / 60.0f, sub);
    double side = 0; int arg = 0;
    for (int i = 0; i < n; ++i) {
      b3Pos p = b3Body_GetPosition(ids[i]);
      cur[i] = (V){p.x, p.y, p.z};
      double dx = p.x - start[i].x, dz = p.z - start[i].z;
      double d = sqrt(dx * dx + dz * dz);
      if (d > side) { side = d; arg = i; }
    }
    double c = closest(cur, n);
    if (c < minPair) minPair = c;
    if (side > worst) { worst = side; worstStep = s; }
    if (firstOver < 0 && side > 0.1) firstOver = s;
    if (s == 25 || s == 50 || s == 100 || s == 200 || s == 500 || s == 1000 || s == steps) {
      b3Pos top = b3Body_GetPosition(ids[n - 1]);
      printf("step %4d: sideways max %.4f m (box %d at y0 %.1f x0 %.1f), closest centres so far %.4f m, top drop %.3f m\n",
             s, side, arg, start[arg].y, start[arg].x, minPair, start[n - 1].y - top.y);
    }
  }
  printf("largest sideways over all steps %.4f m at step %d; first over 0.1 m: %d; closest centres %.4f m\n",
         worst, worstStep, firstOver, minPair);
  b3DestroyWorld(worldId);
  return 0;
}
