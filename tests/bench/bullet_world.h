#pragma once
// The Bullet world every side-by-side bench steps: btDiscreteDynamicsWorld with btDbvtBroadphase
// and the sequential impulse solver, gravity -9.81 along y, 10 iterations.
#include <btBulletDynamicsCommon.h>

namespace tumble::bench {

/// The benches' Bullet world.
struct BulletWorld {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
  BulletWorld() {
    world.setGravity(btVector3(0, btScalar(-9.81), 0));
    world.getSolverInfo().m_numIterations = 10;
  }
};

}  // namespace tumble::bench
