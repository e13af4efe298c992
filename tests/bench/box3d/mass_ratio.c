// Box3D on issue 13's mass-ratio case (README, "Solver"): a 1 m cube of 1 kg on a ground box and
// a 1 m cube of RATIO kg (default 100) on it, built through Box3D's public API with its world
// defaults (contactHertz 30 capped at an eighth of the substep rate, damping ratio 10; contacts
// with the ground at twice the rate), sleeping off, gravity -9.81, 600 steps of 1/60 s with
// SUBSTEPS substeps (default 4) on one thread. Prints how far each cube's centre sank below where
// it would rest on rigid contacts and the speeds at the end, beside the soft contacts' spring law
// (at rest each contact's push-out spring holds its load: k = m_eff (2 pi f)^2, m_eff the pair's
// reduced mass), the law test_stability checks for Tumble's own contacts. Not part of Tumble's
// build: it needs a Box3D checkout built by compare.sh, e.g.
//   cc -O2 -I BOX3D/include tests/bench/box3d/mass_ratio.c BOX3D/build-tumble/src/libbox3d.a
//      -lm -lpthread -o /tmp/mass_ratio   (one line), then /tmp/mass_ratio [RATIO [SUBSTEPS [HERTZ]]]
#include "box3d/box3d.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  double ratio = argc > 1 ? atof(argv[1]) : 100.0;
  int sub = argc > 2 ? atoi(argv[2]) : 4;
  float hertz = argc > 3 ? (float)atof(argv[3]) : -1.0f;
  if (!(ratio > 0.0) || sub < 1) {
    fprintf(stderr, "usage: mass_ratio [RATIO > 0 [SUBSTEPS >= 1 [HERTZ]]]\n");
    return 2;
  }
  const double g = 9.81, dt = 1.0 / 60.0;
  b3WorldDef worldDef = b3DefaultWorldDef();
  worldDef.workerCount = 1;
  worldDef.gravity = (b3Vec3){0.0f, (float)-g, 0.0f};
  if (hertz > 0) worldDef.contactHertz = hertz;
  b3WorldId worldId = b3CreateWorld(&worldDef);
  b3World_EnableSleeping(worldId, false);
  {
    b3BodyDef bodyDef = b3DefaultBodyDef();
    bodyDef.position = (b3Pos){0.0f, -1.0f, 0.0f};
    b3BodyId groundId = b3CreateBody(worldId, &bodyDef);
    b3BoxHull ground = b3MakeBoxHull(20.0f, 1.0f, 20.0f);
    b3ShapeDef shapeDef = b3DefaultShapeDef();
    b3CreateHullShape(groundId, &shapeDef, &ground.base);
  }
  b3BoxHull cube = b3MakeBoxHull(0.5f, 0.5f, 0.5f);
  b3BodyDef bodyDef = b3DefaultBodyDef();
  bodyDef.type = b3_dynamicBody;
  b3ShapeDef shapeDef = b3DefaultShapeDef();
  bodyDef.position = (b3Pos){0.0f, 0.5f, 0.0f};
  b3BodyId light = b3CreateBody(worldId, &bodyDef);
  shapeDef.density = 1.0f;
  b3CreateHullShape(light, &shapeDef, &cube.base);
  bodyDef.position = (b3Pos){0.0f, 1.5f, 0.0f};
  b3BodyId heavy = b3CreateBody(worldId, &bodyDef);
  shapeDef.density = (float)ratio;
  b3CreateHullShape(heavy, &shapeDef, &cube.base);
  for (int i = 0; i < 600; ++i) b3World_Step(worldId, (float)dt, sub);

  // Box3D's rates (physics_world.c): contactHertz capped at 0.125 of the substep rate, twice
  // that against a static body.
  const double cap = 0.125 * sub / dt;
  const double f = fmin(worldDef.contactHertz, cap);
  const double w = 2.0 * M_PI * f, ws = 2.0 * M_PI * 2.0 * f;
  const double bottom = (1.0 + ratio) * g / (ws * ws);
  const double top = ratio * g / ((ratio / (1.0 + ratio)) * w * w);
  b3Pos pl = b3Body_GetPosition(light), ph = b3Body_GetPosition(heavy);
  b3Vec3 vl = b3Body_GetLinearVelocity(light), vh = b3Body_GetLinearVelocity(heavy);
  const double sinkLight = 0.5 - pl.y, sinkHeavy = 1.5 - ph.y;
  printf("Box3D, %g kg on 1 kg, contactHertz %.1f (used %.1f, ground %.1f), %d substeps, 600 steps\n",
         ratio, worldDef.contactHertz, f, 2.0 * f, sub);
  printf("1 kg cube sinks %.2f mm (spring law %.2f), the %g kg cube %.2f mm more (law %.2f): "
         "%.2f mm in all\n",
         1e3 * sinkLight, 1e3 * bottom, ratio, 1e3 * (sinkHeavy - sinkLight), 1e3 * top,
         1e3 * sinkHeavy);
  printf("speeds at the end: %.2g m/s, %.2g m/s\n",
         sqrt(vl.x * vl.x + vl.y * vl.y + vl.z * vl.z), sqrt(vh.x * vh.x + vh.y * vh.y + vh.z * vh.z));
  return 0;
}
