// tumble-image-compare: compares two PNGs with a tolerance. A pixel differs when any channel
// differs by more than --tolerance (0-255); the images match when they have the same size and at
// most --max-fraction of their pixels differ. Exit 0 match, 1 mismatch, 2 usage or read error.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <stb_image.h>
#include <stb_image_write.h>

namespace {

struct Rect {
  int x = 0, y = 0, w = 0, h = 0;
  bool contains(int px, int py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};

struct Image {
  int width = 0;
  int height = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};
};

bool load(const char* file, Image& image) {
  int channels = 0;
  image.pixels.reset(stbi_load(file, &image.width, &image.height, &channels, 3));
  if (!image.pixels) {
    std::fprintf(stderr, "tumble-image-compare: cannot read %s: %s\n", file, stbi_failure_reason());
    return false;
  }
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: tumble-image-compare EXPECTED.png ACTUAL.png [--tolerance T] "
               "[--max-fraction F] [--ignore X,Y,W,H]... [--diff DIFF.png]\n"
               "defaults: T = 32 (per channel, 0-255), F = 0.003\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  int tolerance = 32;
  double maxFraction = 0.003;
  std::string diffFile;
  std::vector<Rect> ignored;
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool hasValue = i + 1 < args.size();
    if (args[i] == "--tolerance" && hasValue) {
      tolerance = std::atoi(args[++i].c_str());
    } else if (args[i] == "--max-fraction" && hasValue) {
      maxFraction = std::atof(args[++i].c_str());
    } else if (args[i] == "--ignore" && hasValue) {
      Rect r;
      if (std::sscanf(args[++i].c_str(), "%d,%d,%d,%d", &r.x, &r.y, &r.w, &r.h) != 4)
        return usage();
      ignored.push_back(r);
    } else if (args[i] == "--diff" && hasValue) {
      diffFile = args[++i];
    } else if (args[i].rfind("--", 0) == 0) {
      return usage();
    } else {
      files.push_back(args[i]);
    }
  }
  if (files.size() != 2 || tolerance < 0 || tolerance > 255 || maxFraction < 0.0) return usage();

  Image expected, actual;
  if (!load(files[0].c_str(), expected) || !load(files[1].c_str(), actual)) return 2;
  if (expected.width != actual.width || expected.height != actual.height) {
    std::printf("size differs: expected %dx%d, got %dx%d\n", expected.width, expected.height,
                actual.width, actual.height);
    return 1;
  }

  const size_t count = static_cast<size_t>(expected.width) * static_cast<size_t>(expected.height);
  std::vector<unsigned char> diff(count * 3);
  size_t differing = 0;
  size_t compared = 0;
  int largest = 0;
  for (size_t p = 0; p < count; ++p) {
    const int px = static_cast<int>(p % static_cast<size_t>(expected.width));
    const int py = static_cast<int>(p / static_cast<size_t>(expected.width));
    bool skip = false;
    for (const Rect& r : ignored) skip = skip || r.contains(px, py);
    if (skip) {
      diff[p * 3 + 0] = diff[p * 3 + 1] = diff[p * 3 + 2] = 0;
      continue;
    }
    ++compared;
    int worst = 0;
    int gray = 0;
    for (size_t c = 0; c < 3; ++c) {
      const int e = expected.pixels.get()[p * 3 + c];
      const int a = actual.pixels.get()[p * 3 + c];
      worst = std::max(worst, std::abs(e - a));
      gray += e;
    }
    largest = std::max(largest, worst);
    const bool differs = worst > tolerance;
    differing += differs ? 1 : 0;
    // The diff image: the expected picture faded to gray, differing pixels in red.
    const auto faded = static_cast<unsigned char>(128 + gray / 12);
    diff[p * 3 + 0] = differs ? 255 : faded;
    diff[p * 3 + 1] = differs ? 0 : faded;
    diff[p * 3 + 2] = differs ? 0 : faded;
  }
  const double fraction =
      compared == 0 ? 0.0 : static_cast<double>(differing) / static_cast<double>(compared);
  std::printf(
      "%zu of %zu pixels differ by more than %d (fraction %.5f, allowed %.5f); largest "
      "channel difference %d\n",
      differing, compared, tolerance, fraction, maxFraction, largest);
  if (!diffFile.empty() && differing > 0) {
    stbi_write_png(diffFile.c_str(), expected.width, expected.height, 3, diff.data(),
                   expected.width * 3);
  }
  return fraction <= maxFraction ? 0 : 1;
}
