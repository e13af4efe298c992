#!/usr/bin/env bash
# Two builds' bench_threads side by side at 1, 2, 4, 8 and 16 threads (wall-clock ms per step),
# in the order given, then the second build's bench_pyramid on Box3D's pyramids beside Box3D's
# own benchmark app when its binary is given. Meant for a many-core machine (the device machine
# some tasks are lent); bench_threads and bench_pyramid copied into one folder per build (with
# libtinyobjloader on LD_LIBRARY_PATH when the folder is not a build tree).
#
# Usage (from the repository root):
#   tests/bench/threads_ab.sh DIR_A DIR_B [BOX3D_BENCHMARK]
# ORDER (default "A B") runs the builds in that order, e.g. "A B B A".
set -u

a=${1:?usage: threads_ab.sh DIR_A DIR_B [BOX3D_BENCHMARK]}
b=${2:?usage: threads_ab.sh DIR_A DIR_B [BOX3D_BENCHMARK]}
box3d=${3:-}
for d in "$a" "$b"; do
  for p in bench_threads bench_pyramid; do
    [ -x "$d/$p" ] || { echo "threads_ab.sh: $d/$p is not a program" >&2; exit 2; }
  done
done
[ -z "$box3d" ] || [ -x "$box3d" ] || { echo "threads_ab.sh: $box3d is not a program" >&2; exit 2; }
[ -z "$box3d" ] || box3d=$(cd "$(dirname "$box3d")" && pwd)/$(basename "$box3d")

echo "cores $(nproc); $(lscpu | grep 'Model name'); load $(cut -d' ' -f1-3 /proc/loadavg)"
T=1,2,4,8,16
for v in ${ORDER:-A B}; do
  d=$a
  [ "$v" = B ] && d=$b
  echo "== $v ($d)"
  TUMBLE_THREADS_REPEATS=2 "$d/bench_threads" --threads $T --steps 300 --heaps boxes_2000,hull20_2000
  TUMBLE_THREADS_REPEATS=1 "$d/bench_threads" --threads $T --steps 100 --heaps boxes_8000,hull20_8000
done
[ -n "$box3d" ] || exit 0

# Box3D's app writes a CSV file into the current folder: run it in a scratch one. Its figure is
# the total of steps 2..n over n - 1 (bench_pyramid's mean of steps 2..n likewise).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '\n%-14s %7s %10s %10s %8s\n' scene threads "Box3D ms" "Tumble ms" ratio
for scene in large_pyramid many_pyramids; do
  n=200
  [ "$scene" = many_pyramids ] && n=100
  for t in 1 2 4 8 16; do
    total=$(cd "$scratch" && "$box3d" -t="$t" -w="$t" -r=1 -b="$scene" |
      awk '/^run/ {v = $4; if (best == "" || v < best) best = v} END {print best}')
    ms=$(awk -v t="$total" -v n="$n" 'BEGIN {printf "%.2f", t / (n - 1)}')
    tm=$("$b/bench_pyramid" "assets/scenes/$scene.json" --wall --set threads="$t" --every 0 |
      sed -n 's/.*mean of steps 2 to [0-9]* \([0-9.]*\).*/\1/p')
    ratio=$(awk -v x="$tm" -v y="$ms" 'BEGIN {printf "%.2f", x / y}')
    printf '%-14s %7s %10s %10s %8s\n' "$scene" "$t" "$ms" "$tm" "$ratio"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
