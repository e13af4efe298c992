#pragma once
// Renderable meshes for every kind of engine Shape (no GL here): a hull's flat faces (hull_mesh.h),
// and a sphere or capsule as a smooth surface, each vertex carrying the surface normal. The round
// kinds' outlines (the face shader's edge coordinates) are a few circles that show how the body
// turns; their lines, drawn when the faces are off, are the core and circles at the radius.
#include "hull_mesh.h"
#include "tumble/shape.h"

namespace tumble::demo {

/// Segments around a round mesh's axis, and per half turn from pole to pole (a sphere; a capsule
/// has the same rings on its two caps): enough to look round with per-vertex normals, few enough
/// for a heap of 2000 balls on a software renderer.
inline constexpr int kRoundSegments = 32;
inline constexpr int kRoundStacks = 16;

/// A sphere of `radius` (m) about the origin: rings of vertices with per-vertex normals; the
/// equator and the meridian circle through +x outlined. Lines: three great circles (the
/// silhouettes seen along x, y and z) and a cross at the centre (the core).
MeshData sphereMesh(Real radius);

/// A capsule around the segment (0, -halfHeight, 0)-(0, halfHeight, 0) with `radius` (m): two
/// hemispheres joined by a cylinder, per-vertex normals; the two circles where the caps meet the
/// cylinder and the meridian through +x outlined. Lines: the core segment, those two circles and
/// the silhouettes seen along x and z (two sides and the caps' half circles).
MeshData capsuleMesh(Real radius, Real halfHeight);

/// The mesh of a shape in its local frame: hullMesh, or sphereMesh / capsuleMesh placed on the
/// shape's core. An empty shape, or a kind with no mesh here, gives an empty mesh.
MeshData shapeMesh(const Shape& shape);

}  // namespace tumble::demo
