#pragma once
// Renderable meshes for every kind of engine Shape (no GL here): a hull's flat faces (hull_mesh.h),
// a sphere, capsule or cylinder as a smooth surface, each vertex carrying the surface normal, and a
// static triangle mesh or height field as flat-shaded triangles. The round kinds' outlines (the
// face shader's edge coordinates) are a few circles that show how the body turns; their lines,
// drawn when the faces are off, are the core and circles at the radius. A compound has no mesh of
// its own: each child is drawn with its mesh at its pose (world_sample.cpp).
#include <array>
#include <numbers>
#include <span>

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

/// A cylinder about the y axis, radius `radius`, from y = -halfHeight to halfHeight (m): the side
/// with per-vertex radial normals, the caps flat; the two rims and the diameter through +x (on the
/// caps and down the side) outlined. Lines: the axis, the rims and the silhouettes seen along x
/// and z.
MeshData cylinderMesh(Real radius, Real halfHeight);
/// Directions over the sphere along which a rounded hull's vertices are pushed out for its mesh.
inline constexpr int kRoundedDirections = 256;

/// A rounded hull (its core grown by its radius) as a smooth surface: the hull of the core's
/// vertices pushed out by the radius along kRoundedDirections directions and the core's face
/// normals, each vertex's normal the direction it was pushed along; the flat faces outlined.
/// Lines: the flat faces' borders and the core's edges.
MeshData roundedHullMesh(const RoundedHullCore& core);

/// Neighbouring triangles of a mesh or height field whose normals differ by more than this
/// (radians) have their shared edge outlined: a crease, not a facet of a gently curved surface
/// (flat shading shows those already, and a terrain outlined on every edge turns dark).
inline constexpr Real kSurfaceCreaseAngle = 20.0 * std::numbers::pi / 180.0;

/// Triangles per part (MeshData::parts) of a mesh's or height field's surface: a 256 x 256 field
/// is 64 parts, which the renderer leaves out when they are outside the view.
inline constexpr int kSurfacePartTriangles = 2048;

/// One-sided triangles (`triangles` index `vertices`, counter-clockwise seen from the front;
/// `normals` one per triangle) flat shaded: every corner carries its triangle's normal. Outlined
/// on the boundary, on edges shared by more than two triangles and on creases sharper than
/// kSurfaceCreaseAngle (convex or concave). Lines: every edge once (the wireframe). `partSizes`
/// cuts the triangles, in order, into parts of that many (summing to their number; empty: none).
MeshData surfaceMesh(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> triangles,
                     std::span<const Vec3> normals, std::span<const int> partSizes);

/// A static triangle mesh's surface (surfaceMesh of its triangles in its tree's order, each
/// subtree of at most kSurfacePartTriangles triangles a part).
MeshData triangleMeshMesh(const TriangleMesh& mesh);

/// A height field's surface: its grid points and the two triangles of each cell as the engine
/// makes them (mesh.h), so the picture is the surface bodies collide with; each block of 32 x 32
/// cells a part.
MeshData heightFieldMesh(const HeightField& field);

/// The mesh of a shape in its local frame: hullMesh, roundedHullMesh, sphereMesh / capsuleMesh
/// placed on the shape's core, triangleMeshMesh or heightFieldMesh. An empty shape or a compound
/// (drawn child by child) gives an empty mesh.
MeshData shapeMesh(const Shape& shape);

}  // namespace tumble::demo
