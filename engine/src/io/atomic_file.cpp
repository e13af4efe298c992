// Atomic file replacement (atomic_file.h): temporary file beside the target, fsync, rename.
#include "tumble/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace tumble {
namespace {

std::string reason() {
  return std::strerror(errno);
}

// Makes the rename itself durable; failure here is not an error (some file systems refuse).
void syncFolder(const std::filesystem::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The steps of writeFileAtomic; a value is the error message.
std::optional<std::string> writeAtomically(const std::filesystem::path& path,
                                           const std::function<bool(std::FILE*)>& write) {
  const std::filesystem::path folder = path.parent_path();
  std::string temp = (folder / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0)
    return path.string() + ": cannot create a temporary file in " +
           (folder.empty() ? std::string(".") : folder.string()) + ": " + reason();
  // mkstemp makes the file 0600: keep the old file's mode, or the usual 0644 for a new one.
  struct stat old {};
  ::fchmod(fd, ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644);
  std::FILE* file = ::fdopen(fd, "w");
  if (file == nullptr) {
    const std::string why = reason();
    ::close(fd);
    ::unlink(temp.c_str());
    return path.string() + ": cannot open a temporary file: " + why;
  }
  auto giveUp = [&](const std::string& what) {
    std::fclose(file);
    ::unlink(temp.c_str());
    return path.string() + ": " + what + "; the old file is unchanged";
  };
  bool ok = false;
  try {
    ok = write(file);
  } catch (...) {
    std::fclose(file);
    ::unlink(temp.c_str());
    throw;
  }
  if (!ok) return giveUp("the writer failed");
  if (std::fflush(file) != 0 || std::ferror(file)) return giveUp("write failed: " + reason());
  if (::fsync(fd) != 0) return giveUp("fsync failed: " + reason());
  if (std::fclose(file) != 0) {
    const std::string why = reason();
    ::unlink(temp.c_str());
    return path.string() + ": close failed: " + why + "; the old file is unchanged";
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = reason();
    ::unlink(temp.c_str());
    return path.string() + ": cannot replace the file: " + why + "; the old file is unchanged";
  }
  syncFolder(folder);
  return std::nullopt;
}

}  // namespace

Expected<void> writeFileAtomic(const std::filesystem::path& path,
                               const std::function<bool(std::FILE*)>& write) {
  if (std::optional<std::string> error = writeAtomically(path, write))
    return Expected<void>::failure(std::move(*error));
  return ok();
}

Expected<void> writeFileAtomic(const std::filesystem::path& path, std::string_view contents) {
  return writeFileAtomic(path, [&](std::FILE* f) {
    return contents.empty() ||
           std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
  });
}

}  // namespace tumble
