#pragma once
/// Static meshes and height fields from files: a Wavefront OBJ (through Debian's tinyobjloader)
/// and a greyscale PNG (through stb_image). Errors name the file and what was wrong with it.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "tumble/result.h"
#include "tumble/shape.h"

namespace tumble {

/// Every face of every object in `file` (polygons triangulated by tinyobjloader, keeping their
/// winding: counter-clockwise seen from the front),
/// scaled by `scale`, as one static mesh. Fails naming the file: unreadable, not OBJ, no faces, or
/// what makeMesh says of the triangles (an index out of range, zero area).
Expected<Shape> loadObjMesh(const std::filesystem::path& file, Real scale = 1.0);

/// A height field from a greyscale image (8 or 16 bits; colour images are read as their luma):
/// pixel row r, column c is point (r, c) of the field, its height heightScale times the grey
/// level over its maximum (0 to heightScale m). Fails naming the file: unreadable, not an image,
/// smaller than 2 x 2, or bad spacing or scale (finite, > 0).
Expected<Shape> loadHeightFieldImage(const std::filesystem::path& file, Real dx, Real dz,
                                     Real heightScale);

/// loadObjMesh on OBJ text in memory; errors start with `origin` (a file name or "<input>").
Expected<Shape> parseObjMesh(std::string_view text, const std::string& origin, Real scale = 1.0);

/// loadHeightFieldImage on an image's bytes in memory; errors start with `origin`.
Expected<Shape> decodeHeightFieldImage(std::span<const uint8_t> bytes, const std::string& origin,
                                       Real dx, Real dz, Real heightScale);

}  // namespace tumble
