#!/usr/bin/env bash
# Runs every fuzz target built by fuzz/build.sh for FUZZ_SECONDS seconds each (default 30), from
# the seed corpus in fuzz/corpus/<target> plus what earlier runs found (.build/fuzz/corpus).
# A crash, leak, timeout or out-of-memory is a finding: its input is kept in .build/fuzz/findings
# and the script fails. Prints executions and coverage per target. FUZZ_SEED fixes libFuzzer's
# random seed: from the same corpus the same inputs are tried in the same order, so a short CI run
# repeats (a prefix of) a longer run made here, and fails only on a regression, not by chance.
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-30}
BUILD=.build/fuzz
mkdir -p "$BUILD/findings" "$BUILD/logs"
failed=()
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
printf '%-14s %12s %8s %8s %s\n' target executions cov ft result
for binary in "$BUILD"/bin/*; do
  name=$(basename "$binary")
  if [ -n "${FUZZ_TARGETS:-}" ] && ! [[ " $FUZZ_TARGETS " == *" $name "* ]]; then continue; fi
  work="$BUILD/corpus/$name"
  mkdir -p "$work"
  log="$BUILD/logs/$name.log"
  seed=()
  [ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")
  "$binary" "${seed[@]}" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$BUILD/findings/$name-" "$work" "fuzz/corpus/$name" >"$log" 2>&1
  status=$?
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  result=ok
  if [ $status -ne 0 ]; then result="FINDING (see $log)"; failed+=("$name"); fi
  printf '%-14s %12s %8s %8s %s\n' "$name" "${executions:-?}" "${cov:-?}" "${ft:-?}" "$result"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; inputs in $BUILD/findings" >&2
  exit 1
fi
