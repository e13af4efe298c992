#pragma once
/// World snapshots: the whole state of a World as bytes (and files), restored bit for bit.
///
/// A snapshot holds everything a step reads: the settings, every body slot (live or free, with
/// its generation), the shapes by content (shared geometry written once), the broad-phase tree
/// as it is, the contact pairs and manifolds with their warm-start impulses and GJK caches, the
/// sleep islands, joints with their impulses, drags, body options, the sensors' overlaps and the
/// pending events, and the step count. A world restored from
/// the snapshot of another and stepped N times has exactly the state hash (World::stateHash) of
/// the original stepped N times, and reports the same events. Not saved: the cross-check log path
/// and the contact filter callback (things of the process, kept by restore) and the statistics of
/// the last step.
///
/// Format (version 2; all numbers little-endian, doubles as their IEEE-754 bits):
///   offset 0  8 bytes  magic "TUMBLESN"
///   offset 8  u32      version (kSnapshotVersion)
///   offset 12 u32      flags (0)
///   offset 16 u64      payload size in bytes
///   offset 24 u64      FNV-1a 64 of the payload
///   offset 32          payload: settings, shapes, bodies, broad phase, pairs, manifolds, joints,
///                      drags, counters (engine/src/dynamics/world_snapshot.cpp lists the fields
///                      in the order written).
/// A snapshot is refused, and the World left as it was, when it is shorter than its header says,
/// has another magic, a newer version or a checksum that does not match, or holds a value out of
/// range (an index past its array, a non-finite number); the message names the byte offset and
/// what was expected there.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "tumble/result.h"

namespace tumble {

class World;

/// The version this build writes and the newest it reads (2 added compound children's filters
/// and sensor flags, and sensor events' child; 3 the contact pairs' separating axes; 4 the joint
/// springs' targets; an older snapshot is read without them).
inline constexpr uint32_t kSnapshotVersion = 4;

/// The world's state as bytes (format above). Deterministic: the same state gives the same bytes.
std::vector<uint8_t> saveSnapshot(const World& world);

/// Replaces `world`'s state with the snapshot's. On failure (message as above) the world is
/// unchanged. The world's cross-check log path is kept.
Expected<void> restoreSnapshot(World& world, std::span<const uint8_t> bytes);

/// saveSnapshot written to `path` through writeFileAtomic (nothing is lost on failure).
Expected<void> saveSnapshotFile(const World& world, const std::filesystem::path& path);

/// Reads `path` and restores it into `world` (errors name the file, then as restoreSnapshot).
Expected<void> restoreSnapshotFile(World& world, const std::filesystem::path& path);

/// FNV-1a 64 of `bytes` (the snapshot's checksum).
uint64_t snapshotChecksum(std::span<const uint8_t> bytes);

}  // namespace tumble
