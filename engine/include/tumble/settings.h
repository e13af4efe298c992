#pragma once
/// Every tolerance, iteration cap and world parameter of Tumble, in one struct that may change
/// between any two steps. Keys (the names used by scene files, `tumble-cli --set key=value` and the
/// demo panel) are listed in `settingsTable()`, each with its unit, valid range and default.

#include <span>
#include <string>
#include <string_view>

#include "tumble/math.h"
#include "tumble/result.h"

namespace tumble {

/// How the LP test runs beside GJK in the world's narrow-phase.
enum class CrossCheckMode { Off, Sample, All };

struct Settings {
  Vec3 gravity{0.0, -9.81, 0.0};  ///< m/s^2, each component in [-1000, 1000]
  /// s, [1e-5, 0.1]: the fixed step of scene files, tumble-cli and the demo. World::step takes
  /// its own dt (a game's frame time), so the World itself does not read this value.
  Real dt = 1.0 / 60.0;
  /// Worker threads of a step, [0, 64]: 1 steps on the calling thread alone, 0 takes the
  /// hardware's count. The result is the same bits at any count (tumble/task.h).
  int threads = 1;

  struct Solver {
    int substeps = 4;            ///< [1, 64]; collision runs once per step
    int velocityIterations = 2;  ///< solve passes per substep, [1, 500]
    int positionIterations = 1;  ///< relax passes per substep, [0, 500]
    bool warmStarting = true;    ///< reuse last step's impulses
  } solver;

  struct Contact {
    Real slop = 0.005;              ///< m, [0, 0.1]: no effect since the soft step
    Real baumgarte = 0.2;           ///< [0, 1]: no effect since the soft step
    Real hertz = 60.0;              ///< Hz, push-out spring, [0.1, 1000]
    Real dampingRatio = 10.0;       ///< push-out spring, [0, 100]
    Real pushVelocity = 3.0;        ///< m/s, fastest push-out, [0, 1000]
    Real speculativeMargin = 0.02;  ///< m, contacts created this far apart, [0, 1]
    /// m, [0, 1]: a manifold's points are kept while the bodies moved less than this relative to
    /// each other (and turned less than 10 degrees) since the narrow phase found them; 0: never.
    Real recycleDistance = 0.02;
    Real restitutionThreshold = 1.0;  ///< m/s, no bounce below this approach speed, [0, 100]
    /// [0, 1e6]: contacts joined (through their dynamic bodies) to a contact whose two bodies'
    /// masses differ by this factor or more, and forming no loop, have their normal rows solved
    /// together exactly (a heavy box on a light one sinks no deeper than on its own); 0: never.
    Real exactRatio = 10.0;
  } contact;

  struct Gjk {
    Real tolerance = 1e-10;  ///< relative progress below which GJK stops, [1e-15, 1e-2]
    int maxIterations = 64;  ///< [1, 1000]
  } gjk;

  struct Epa {
    Real tolerance = 1e-8;    ///< relative gap between bounds at which EPA stops, [1e-15, 1e-2]
    int maxIterations = 128;  ///< [1, 1000]
  } epa;

  struct Lp {
    Real epsilon = 1e-9;   ///< relative zero of the LP objective and pivots, [1e-15, 1e-2]
    int maxPivots = 2000;  ///< [1, 100000]
  } lp;

  CrossCheckMode crosscheck = CrossCheckMode::Off;  ///< off, sample or all
  Real crosscheckSampleRate = 0.05;  ///< fraction of pairs checked in sample mode, [0, 1]

  struct Broadphase {
    Real aabbMargin = 0.1;  ///< m, fat AABB margin, [0, 10]
  } broadphase;

  struct Sleep {
    bool enabled = true;  ///< sleeping on or off
    Real linear = 0.05;   ///< m/s, [0, 10]
    Real angular = 0.05;  ///< rad/s, [0, 10]
    Real time = 0.5;      ///< s, [0, 60]
  } sleep;

  struct Chain {
    Real tolerance = 0.01;     ///< fraction of the radius, [1e-6, 0.5]
    int maxSubsteps = 100000;  ///< conservative-advancement steps per fold, [10, 10000000]
  } chain;
};

/// The kind of value a key holds.
enum class SettingKind { Number, Integer, Boolean, Vector, CrossCheck };

/// One settings key: its name, unit, description and valid range (inclusive).
struct SettingInfo {
  std::string_view key;
  SettingKind kind;
  std::string_view unit;
  std::string_view description;
  Real min;
  Real max;
  Real* (*real)(Settings&);  ///< set for Number and Vector (first component) keys
  int* (*integer)(Settings&);
};

/// All keys in documentation order.
std::span<const SettingInfo> settingsTable();

/// The key's entry, or nullptr when no such key exists.
const SettingInfo* findSetting(std::string_view key);

/// Sets `key` from its text form ("0.01", "12", "true", "0,-9.81,0", "sample").
/// Fails with a message naming the key, the value and the valid range, and leaves `settings`
/// unchanged.
Expected<void> setSetting(Settings& settings, std::string_view key, std::string_view value);

/// Parses "key=value" as given to `--set`.
Expected<void> setSettingAssignment(Settings& settings, std::string_view assignment);

/// The key's current value as text, in the form setSetting accepts.
std::string settingValue(const Settings& settings, const SettingInfo& info);

/// Fails on the first out-of-range or non-finite value, naming the key, value and range.
Expected<void> validate(const Settings& settings);

const char* toString(CrossCheckMode mode);

}  // namespace tumble
