// Tumble's hello world: a 1 m box dropped from 4 m onto the ground comes to rest on it.
#include <cstdio>

#include <tumble/world.h>

int main() {
  // A world with the default settings (gravity 9.81 m/s^2 down the y axis).
  tumble::Expected<std::unique_ptr<tumble::World>> made = tumble::World::create();
  if (!made) {
    std::fprintf(stderr, "%s\n", made.error().c_str());
    return 1;
  }
  tumble::World& world = **made;

  // A static ground box whose top face is the plane y = 0.
  tumble::BodyDef ground;
  ground.type = tumble::BodyType::Static;
  ground.shape = *tumble::makeBox(tumble::Vec3(20.0, 1.0, 20.0));
  ground.position = tumble::Vec3(0.0, -1.0, 0.0);

  // A dynamic 1 m cube (1000 kg/m^3 by default), 4 m up.
  tumble::BodyDef box;
  box.shape = *tumble::makeBox(tumble::Vec3(0.5));
  box.position = tumble::Vec3(0.0, 4.0, 0.0);

  tumble::Expected<tumble::BodyId> groundId = world.createBody(ground);
  tumble::Expected<tumble::BodyId> boxId = world.createBody(box);
  if (!groundId || !boxId) {
    std::fprintf(stderr, "%s\n", (groundId ? boxId : groundId).error().c_str());
    return 1;
  }

  // Two seconds at 60 Hz; a game passes its frame time here.
  for (int i = 0; i < 120; ++i) {
    if (tumble::Expected<void> stepped = world.step(1.0 / 60.0); !stepped) {
      std::fprintf(stderr, "%s\n", stepped.error().c_str());
      return 1;
    }
  }

  const tumble::BodyView view = *world.body(*boxId);
  std::printf("box height: %.3f m\n", view.position.y);
  return 0;
}
