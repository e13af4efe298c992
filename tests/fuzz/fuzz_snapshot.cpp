// Fuzz target: the snapshot loader (tumble/snapshot.h) on arbitrary bytes. The first byte picks
// the form: even, the rest is a whole snapshot (header checks: magic, version, size, checksum);
// odd, the rest is a payload that gets a good header (so the field readers and the cross-reference
// check see every mutation, as a flipped byte behind a good checksum would). Checks: refused with
// a message starting "snapshot: offset" or naming the problem, the world left as it was; or
// restored, and then saving it and restoring that again gives the same bytes. Stepping absurd
// but finite states (a mass of 1e300) is the non-finite policy's business (test_nonfinite), not
// the loader's, so restored worlds are not stepped here.
#include <cstring>
#include <vector>

#include "fuzz_support.h"
#include "tumble/snapshot.h"
#include "tumble/world.h"

using namespace tumble;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::vector<uint8_t> bytes;
  if (data[0] & 1) {
    bytes.assign(32, 0);
    const char magic[8] = {'T', 'U', 'M', 'B', 'L', 'E', 'S', 'N'};
    const uint32_t version = kSnapshotVersion, flags = 0;
    const uint64_t payload = size - 1;
    const uint64_t sum = snapshotChecksum(std::span(data + 1, size - 1));
    std::memcpy(bytes.data(), magic, 8);
    std::memcpy(bytes.data() + 8, &version, 4);
    std::memcpy(bytes.data() + 12, &flags, 4);
    std::memcpy(bytes.data() + 16, &payload, 8);
    std::memcpy(bytes.data() + 24, &sum, 8);
  }
  bytes.insert(bytes.end(), data + 1, data + size);
  static const std::vector<uint8_t> empty = saveSnapshot(World{});
  World w;
  const Expected<void> restored = restoreSnapshot(w, bytes);
  if (!restored) {
    TUMBLE_FUZZ_CHECK(restored.error().rfind("snapshot: ", 0) == 0);
    TUMBLE_FUZZ_CHECK(saveSnapshot(w) == empty);  // unchanged
    return 0;
  }
  const std::vector<uint8_t> again = saveSnapshot(w);
  World w2;
  TUMBLE_FUZZ_CHECK(restoreSnapshot(w2, again).ok());
  TUMBLE_FUZZ_CHECK(saveSnapshot(w2) == again);
  return 0;
}
