#pragma once
/// Files written so that nothing is lost: the new contents go to a temporary file in the same
/// folder, which is flushed, fsync'ed and then renamed over the target (rename is atomic on POSIX
/// file systems), and the folder is fsync'ed. A crash, a full disk or a failed writer leaves the
/// old file as it was (and no temporary file behind). For presets, state dumps, screenshots.

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "tumble/result.h"

namespace tumble {

/// Writes `path` through `write`, which gets the temporary file's stream and returns false (or
/// throws) to give up: then the temporary file is removed, `path` is untouched, and the error (or
/// the exception) comes back. Errors name the file and the reason ("cannot create a temporary
/// file in /x: Permission denied", "... write failed: No space left on device").
Expected<void> writeFileAtomic(const std::filesystem::path& path,
                               const std::function<bool(std::FILE*)>& write);

/// Writes `contents` to `path` atomically (as above).
Expected<void> writeFileAtomic(const std::filesystem::path& path, std::string_view contents);

}  // namespace tumble
