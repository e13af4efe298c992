#!/usr/bin/env bash
# Builds the fuzz targets (the `fuzz` preset: clang-14, libFuzzer, ASan, UBSan, in build/fuzz)
# and runs each for SECONDS (30) from its committed seed corpus (tests/fuzz/corpus/<target>; new
# inputs go to build/fuzz/fuzz-work/<target>, the committed corpus is not touched). Prints the
# executions per target. A crash or a failed check stops that target; its input is saved in
# build/fuzz/fuzz-artifacts/<target>/ and the script exits 1 after the others ran. Commit such an
# input to tests/fuzz/corpus/<target>/ (named crash-<what>) once fixed: CTest replays it
# (fuzz_replay:<target>).
# Targets named in $TUMBLE_FUZZ_KNOWN_FAILING (space separated) have a known finding not fixed yet
# (tests/fuzz/known/README.md): a failure there is printed but does not set the exit status.
# Usage: tests/fuzz/run_fuzzers.sh [SECONDS] [TARGET...]
set -euo pipefail

seconds=${1:-30}
shift || true
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
all=(hull narrowphase scene collide chain_script chain_fold)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

cd "$root"
cmake --preset fuzz > /dev/null
cmake --build --preset fuzz -j2 --target "${targets[@]/#/fuzz_}"

build=$root/build/fuzz
failed=0
summary=$(printf '%-14s %8s %12s %10s %8s  %s' target seconds executions exec/s corpus result)
for t in "${targets[@]}"; do
  work=$build/fuzz-work/$t
  artifacts=$build/fuzz-artifacts/$t
  log=$build/fuzz-work/$t.log
  rm -rf "$work"
  mkdir -p "$work" "$artifacts"
  echo "==== fuzz_$t for ${seconds} s"
  rc=0
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$work" "$root/tests/fuzz/corpus/$t" > "$log" 2>&1 || rc=$?
  execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
  corpus=$(find "$work" -type f | wc -l)
  result=ok
  if [ "$rc" -ne 0 ]; then
    result="FAILED (exit $rc): $(ls "$artifacts" | head -3 | tr '\n' ' ')"
    if [[ " ${TUMBLE_FUZZ_KNOWN_FAILING:-} " == *" $t "* ]]; then
      result+=" (known, tests/fuzz/known)"
    else
      failed=1
    fi
    grep -E 'ERROR|fuzz check failed|runtime error|disagreement' "$log" | head -5 || true
  fi
  summary+=$'\n'$(printf '%-14s %8s %12s %10s %8s  %s' "$t" "$seconds" "${execs:-?}" \
                    "${rate:-?}" "$((corpus))" "$result")
done
echo
echo "$summary"
exit $failed
