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
# The pyramids, the second build beside Box3D's app (one run of each per count).
HEAPS=0 REPEATS=1 "$(dirname "$0")/threads_scaling.sh" "$box3d" "$b"
