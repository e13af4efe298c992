#pragma once
/// Shape files: `assets/shapes/<name>.json` = `{"name": "<name>", "points": [[x, y, z], ...]}`
/// with an optional `"source"` string (how the points were made). Points are local coordinates in
/// metres; the body is their convex hull (see hull.h).

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tumble/math.h"
#include "tumble/result.h"

namespace tumble {

/// A named point set read from a shape file.
struct ShapeDef {
  std::string name;
  std::vector<Vec3> points;  ///< at least one, all finite, in file order
};

/// Parses the JSON text of a shape file. `origin` names the text in messages (a file name). If
/// `expectedName` is not empty, the file's "name" must equal it. Errors read
/// `<origin>: points[3][1]: expected a number, got "x"`: the JSON path and what was expected;
/// unknown keys, a missing or empty "points", and non-finite coordinates are errors too.
Expected<ShapeDef> parseShapeText(std::string_view text, const std::string& origin,
                                  std::string_view expectedName = {});

/// Reads one shape file; its "name" must equal the file's stem (`box` for `box.json`).
/// Errors name the file (and the JSON path, as parseShapeText).
Expected<ShapeDef> loadShapeFile(const std::filesystem::path& path);

/// Reads every `*.json` file of `directory` (not recursive), sorted by name. Fails on the first
/// bad file (the message names it) or when `directory` is not a readable directory.
Expected<std::vector<ShapeDef>> loadShapeLibrary(const std::filesystem::path& directory);

/// The shape called `name` in `library`, or nullptr.
const ShapeDef* findShape(std::span<const ShapeDef> library, std::string_view name);

}  // namespace tumble
