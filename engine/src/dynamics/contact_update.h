#pragma once
// Internal: the world's contact update of one body pair, on top of the stateless narrow phase
// (collide.h): the manifold's body-local anchors, feature-id matching with last step's manifold
// to carry impulses (warm starting), and the narrow phase's statistics.
#include "tumble/collide.h"
#include "tumble/contact.h"
#include "tumble/detail/body_state.h"
#include "tumble/detail/narrow_scratch.h"

namespace tumble {

/// Rebuilds `m` (its bodies a and b, friction, restitution and rolling resistance already set, a's
/// index lower) from `r`, collide()'s answer for the bodies' shapes at their current transforms:
/// GJK's cache and verdict, the normal and its tangents, and the points as anchors relative to each
/// centre of mass.
/// Impulses of points whose feature id (or, failing that, position on B within 2 cm) matches a
/// point of `previous` are carried over; the load of old points left unmatched goes to the new
/// points left unmatched; friction (and the rolling resistance's impulse) is carried, re-expressed
/// in the new tangents, while the normal turns less than about 25 degrees. Counts the GJK and EPA
/// runs into `counters`.
void updateManifold(const Body& a, const Body& b, const CollideResult& r, const Manifold* previous,
                    Manifold& m, NarrowPhaseCounters& counters);

/// updateManifold for two spheres (both bodies' shapes), without collide()'s CollideResult: the
/// same manifold, bit for bit, as updateManifold with collide()'s answer (collideSpheres). A
/// sphere heap's pairs are most of its narrow phase, and the 520-byte result, written and read
/// again, was a third of each pair's work.
void updateSphereManifold(const Body& a, const Body& b, Real speculative, const Manifold* previous,
                          Manifold& m, NarrowPhaseCounters& counters);

/// Contact recycling (Box3D's idea, written here), step one: may `previous` (a manifold with points
/// from the narrow phase) be kept at the bodies' current poses? True while, since the narrow phase
/// found its points, neither body turned more than 10 degrees and no point of one body moved more
/// than `tolerance` in the other's frame.
///
/// Why: besides skipping GJK, EPA and clipping for resting contacts, the normal stays where the
/// narrow phase put it. Recomputed every step, the normal of a stacked box turns with the tilt of
/// the box below it, and its push has a sideways part that the soft step lets act before the
/// friction stops it: a 20-box tower leaned over at contact.hertz 30 (Box3D stands it at 12 Hz)
/// and the 100-box pyramid buckled out of its plane.
bool canRecycle(const Body& a, const Body& b, const Manifold& previous, Real tolerance);

/// Step two: each separation of `m` (a copy of last step's manifold) measured again along the kept
/// normal between the kept anchors at the current poses (and `overlapping`, `distance`). False
/// when the points' separations moved unevenly since the narrow phase found them, by more than
/// 0.5 mm between the largest and the smallest change (the body is tipping or rocking on the kept
/// points): then `m` must be found again by the narrow phase.
bool remeasure(const Body& a, const Body& b, Manifold& m);

}  // namespace tumble
