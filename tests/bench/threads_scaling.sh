#!/usr/bin/env bash
# Issue 18's scaling table: bench_threads on bench_heap's heaps and bench_pyramid on Box3D's
# pyramids at 1, 2, 4, 8 and 16 threads (wall-clock ms per step), with Box3D's own benchmark app
# beside the pyramids when its binary is given. Meant for a many-core machine; on the 2-core VM
# the counts above 2 only oversubscribe it.
#
# Usage (from the repository root, after `cmake --build --preset release`):
#   tests/bench/threads_scaling.sh [BOX3D_BENCHMARK] [BIN_DIR]
# BOX3D_BENCHMARK: Box3D's `benchmark` binary (tests/bench/box3d/compare.sh builds it into
# BOX3D_SOURCE/build-tumble/bin); BIN_DIR: where bench_threads and bench_pyramid are (default
# build/release/tests/bench; a copy elsewhere needs libtinyobjloader on LD_LIBRARY_PATH).
# THREADS (default "1 2 4 8 16") and REPEATS (default 2) change the counts and the runs per count;
# HEAPS=0 runs the pyramids alone.
set -euo pipefail

box3d=${1:-}
bin=${2:-build/release/tests/bench}
threads=${THREADS:-1 2 4 8 16}
repeats=${REPEATS:-2}
list=$(echo "$threads" | tr ' ' ',')
for b in bench_threads bench_pyramid; do
  [ -x "$bin/$b" ] || { echo "threads_scaling.sh: $bin/$b not built" >&2; exit 2; }
done
[ -z "$box3d" ] || [ -x "$box3d" ] || { echo "threads_scaling.sh: $box3d is not a program" >&2; exit 2; }
[ -z "$box3d" ] || box3d=$(cd "$(dirname "$box3d")" && pwd)/$(basename "$box3d")  # run from a scratch folder

echo "cores: $(nproc); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${HEAPS:-1}" != 0 ]; then
  TUMBLE_THREADS_REPEATS=$repeats "$bin/bench_threads" --threads "$list" --steps 300 \
    --heaps boxes_2000,hull20_2000
  TUMBLE_THREADS_REPEATS=$repeats "$bin/bench_threads" --threads "$list" --steps 100 \
    --heaps boxes_8000,hull20_8000
fi

# The pyramids: Tumble's mean of steps 2..n by the wall clock; Box3D's app, the least of
# `repeats` runs' total of steps 2..n over n - 1 (it leaves the first step out, as bench_pyramid's
# figure does). Box3D's app writes a CSV file into the current folder: run it in a scratch one.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '\n%-14s %7s %10s %10s %8s\n' scene threads "Box3D ms" "Tumble ms" ratio
for scene in large_pyramid many_pyramids; do
  n=200
  [ "$scene" = many_pyramids ] && n=100
  for t in $threads; do
    b=-
    if [ -n "$box3d" ]; then
      total=$(cd "$scratch" && "$box3d" -t="$t" -w="$t" -r="$repeats" -b="$scene" |
        awk '/^run/ {v = $4; if (best == "" || v < best) best = v} END {print best}')
      b=$(awk -v t="$total" -v n="$n" 'BEGIN {printf "%.2f", t / (n - 1)}')
    fi
    tm=$("$bin/bench_pyramid" "assets/scenes/$scene.json" --wall --set threads="$t" --every 0 |
      sed -n 's/.*mean of steps 2 to [0-9]* \([0-9.]*\).*/\1/p')
    ratio=-
    [ "$b" = - ] || ratio=$(awk -v a="$tm" -v b="$b" 'BEGIN {printf "%.2f", a / b}')
    printf '%-14s %7s %10s %10s %8s\n' "$scene" "$t" "$b" "$tm" "$ratio"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
