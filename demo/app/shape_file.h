#pragma once
// Shape files: assets/shapes/<name>.json = {"name": "box", "points": [[x, y, z], ...]}.
#include <filesystem>
#include <string>

#include "tumble/hull.h"
#include "tumble/result.h"

namespace tumble::demo {

/// Reads assets/shapes/<name>.json and builds its convex hull with the engine. Errors name the
/// file and the JSON path of a bad value, or pass on the hull builder's message.
Expected<ConvexHull> loadShape(const std::filesystem::path& assets, const std::string& name);

}  // namespace tumble::demo
