#pragma once
// Internal: the LP cross-check beside GJK in the world's narrow-phase (off, sample or all).
#include <cstdint>
#include <string>

#include "tumble/contact.h"
#include "tumble/detail/body_state.h"
#include "tumble/detail/narrow_scratch.h"
#include "tumble/settings.h"

namespace tumble {

/// Runs the LP test on the pair when the mode and the deterministic sample say so; counts checked
/// and disagreeing pairs, adds the pivots, and appends a disagreement to `logPath` (when not empty)
/// as a line of `tumble-cli collide` input with world-space points.
void crossCheckPair(const Body& a, const Body& b, int indexA, int indexB, const Settings& s,
                    uint64_t sequence, const std::string& logPath, int64_t& checked,
                    int64_t& disagreed, int64_t& pivots);

/// The same for one touching pair of children (ChildContact::key) of a pair with a compound,
/// mesh or height field: the two children's cores (a compound's child, a triangle, or the convex
/// shape itself) under their world poses. Logged ids add the key.
void crossCheckChildren(const Body& a, const Body& b, uint64_t key, int indexA, int indexB,
                        const Settings& s, uint64_t sequence, const std::string& logPath,
                        int64_t& checked, int64_t& disagreed, int64_t& pivots);

/// The cross-check in two parts, for the narrow phase with threads: the merge numbers the pairs
/// in key order and keeps the sampled ones (crossCheckSampled), the checks run in parallel
/// (crossCheckRun: GJK, EPA and the LP, writing only `run.result`), then each is counted and a
/// disagreement logged in sequence order (crossCheckRecord): the same counts, pivots and log as
/// crossCheckPair and crossCheckChildren called in key order. The bodies' poses do not change
/// between the merge and the checks. (CrossCheckRun: tumble/detail/narrow_scratch.h.)
bool crossCheckSampled(const Settings& s, uint64_t sequence);
void crossCheckRun(const Body& a, const Body& b, CrossCheckRun& run, const Settings& s);
void crossCheckRecord(const Body& a, const Body& b, const CrossCheckRun& run,
                      const std::string& logPath, int64_t& checked, int64_t& disagreed,
                      int64_t& pivots);

}  // namespace tumble
