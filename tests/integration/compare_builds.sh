#!/usr/bin/env bash
# Determinism across builds and compilers (README, "Determinism"): the same commit built as
#   release     gcc 12, -O3 (README's test command builds it)
#   asan-ubsan  gcc 12, -O2 -g, AddressSanitizer and UBSan
#   debug       gcc 12, -O0
#   clang       clang 14, -O3
#   avx2        gcc 12, -O3 -mavx2 -mfma (TUMBLE_AVX2), only where the CPU has AVX2
# gives the same state hash on every scene below (tumble-cli sim --json, state_hash). Builds
# tumble-cli in each preset's folder (configuring it when needed), runs the scenes, prints the
# table and exits 1 on the first hash that differs from the first preset's.
# Usage: tests/integration/compare_builds.sh [PRESET...]   (default: all of them; .ci/run runs it)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
  presets=(release asan-ubsan debug clang)
  if grep -qw avx2 /proc/cpuinfo; then
    presets+=(avx2)
  else
    echo "compare_builds.sh: this CPU has no AVX2: the avx2 build is left out"
  fi
fi
runs=("pile 60" "pile 600" "heap_boxes_500 300" "heap_hull20_500 300" "ragdolls 300"
      "bridge 300" "terrain 300" "shapes 300" "compound 300" "sensors 300" "rope 300"
      "car 300" "cradle 300" "door 300" "level 300" "pendulum 600" "loops 300")
for p in "${presets[@]}"; do
  [ -f "build/$p/build.ninja" ] || cmake --preset "$p" > /dev/null
  cmake --build --preset "$p" -j2 --target tumble-cli > /dev/null
done
declare -A first
status=0
printf '%-22s' "scene steps"
for p in "${presets[@]}"; do printf ' %-17s' "$p"; done
echo
for run in "${runs[@]}"; do
  read -r scene steps <<< "$run"
  printf '%-22s' "$scene $steps"
  for p in "${presets[@]}"; do
    hash=$(ASAN_OPTIONS=detect_leaks=1 "build/$p/demo/tumble-cli" sim "$scene" --steps "$steps" --json |
           sed -n 's/.*"state_hash": "\([0-9a-f]*\)".*/\1/p')
    [ -n "${first[$run]:-}" ] || first[$run]=$hash
    mark=" "
    if [ "$hash" != "${first[$run]}" ]; then mark="!"; status=1; fi
    printf ' %s%-16s' "$mark" "$hash"
  done
  echo
done
if [ $status -ne 0 ]; then
  echo "compare_builds.sh: a build differs (marked !): determinism across builds is broken" >&2
else
  echo "compare_builds.sh: ${#runs[@]} runs, ${#presets[@]} builds: every hash the same"
fi
exit $status
