#pragma once
// Shapes for the demo's scenes: a shape file read by the engine (tumble/shape_file.h), made into
// a convex hull by the engine (tumble/hull.h).
#include <filesystem>
#include <string>

#include "tumble/hull.h"
#include "tumble/result.h"

namespace tumble::demo {

/// Reads assets/shapes/<name>.json and builds its convex hull. Errors name the file and the JSON
/// path of a bad value (the engine's shape-file reader), or pass on the hull builder's message.
Expected<ConvexHull> loadShape(const std::filesystem::path& assets, const std::string& name);

}  // namespace tumble::demo
