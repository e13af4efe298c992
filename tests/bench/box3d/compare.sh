#!/usr/bin/env bash
# Box3D's pyramids beside Tumble's (issue 13): builds Box3D's own benchmark app from a Box3D source
# checkout and runs it alternately with bench_pyramid on the same scenes, one thread, pinned to
# one core, printing ms per step over steps 2 to N (Box3D's app leaves the first step, every
# contact new, out of its time; bench_pyramid prints the same mean) and the ratio.
#
# Usage: tests/bench/box3d/compare.sh BOX3D_SOURCE [ROUNDS]   (from the repository root, after
#        `cmake --build --preset release`; ROUNDS defaults to 2; CPU defaults to 1, set CPU=N)
# Box3D is not a Debian package and cannot be fetched here: BOX3D_SOURCE is a checkout of
# erincatto/box3d (measured at 30c67b5). It is built with its own CMake Release flags (-O3,
# -ffp-contract=off, no -march: its SSE2 solver), BOX3D_VALIDATE off, into BOX3D_SOURCE/build-tumble.
# Read, never copied: nothing of Box3D enters Tumble's build.
set -euo pipefail

src=${1:?usage: tests/bench/box3d/compare.sh BOX3D_SOURCE [ROUNDS]}
rounds=${2:-2}
cpu=${CPU:-1}
build="$src/build-tumble"
bench=build/release/tests/bench/bench_pyramid
[ -x "$bench" ] || { echo "compare.sh: $bench not built (cmake --build --preset release)" >&2; exit 2; }

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBOX3D_SAMPLES=OFF \
  -DBOX3D_UNIT_TESTS=OFF -DBOX3D_BENCHMARKS=ON -DBOX3D_VALIDATE=OFF > "$build.log" 2>&1 ||
  { echo "compare.sh: configuring Box3D failed, see $build.log" >&2; exit 2; }
cmake --build "$build" -j2 --target benchmark >> "$build.log" 2>&1 ||
  { echo "compare.sh: building Box3D failed, see $build.log" >&2; exit 2; }
box3d=$(find "$build" -type f -name benchmark -perm -u+x | head -n 1)

declare -A steps=([large_pyramid]=200 [many_pyramids]=100)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %5s %14s %14s %8s\n' scene round "Box3D ms/step" "Tumble ms/step" ratio
for ((r = 1; r <= rounds; ++r)); do
  for scene in large_pyramid many_pyramids; do
    n=${steps[$scene]}
    # Box3D: the least of two runs, total ms of steps 2..n. Run from a scratch folder (it writes
    # a CSV file into the current one).
    total=$(cd "$build" && taskset -c "$cpu" "$box3d" -t=1 -w=1 -r=2 -b="$scene" |
      awk '/^run/ {v = $4; if (best == "" || v < best) best = v} END {print best}')
    b=$(awk -v t="$total" -v n="$n" 'BEGIN {printf "%.2f", t / (n - 1)}')
    t=$(taskset -c "$cpu" "$bench" "$scene" --steps "$n" --every 0 |
      sed -n 's/.*mean of steps 2 to [0-9]* \([0-9.]*\).*/\1/p')
    ratio=$(awk -v a="$t" -v b="$b" 'BEGIN {printf "%.2f", a / b}')
    printf '%-14s %5d %14s %14s %8s\n' "$scene" "$r" "$b" "$t" "$ratio"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
