#pragma once
// Compound bodies built in code for the demo: the spawn menu's compound_table and
// compound_dumbbell (world_sample.cpp) and the valley scene's bodies (sample_valley.cpp).
#include "tumble/shape.h"

namespace tumble::demo {

/// A table 1.2 x 0.8 m, 0.75 m tall, about its local origin (the legs' middle): a 4 cm top on four
/// 5 cm square legs, all boxes (one leg hull shared by the four legs, so they are drawn as one
/// instanced mesh).
Expected<Shape> makeSampleTable();

/// A dumbbell along x, 1.3 m long: a capsule bar (radius 5 cm; its axis, y, turned onto x) with a
/// ball of radius 0.2 m at each end.
Expected<Shape> makeSampleDumbbell();

}  // namespace tumble::demo
