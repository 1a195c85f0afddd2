#!/usr/bin/env bash
# Runs each fuzz target for a bounded time, one after the other on one core, and prints what
# each did (make fuzz; docs/architecture.md, fuzz/).
#
#   fuzz/run.sh BUILD_DIR SECONDS [TARGET...]     # default: every target
#
# Per target: BUILD_DIR/fuzz/fuzz_<t> mutates BUILD_DIR/corpus/<t>/ (seeded by fuzz/seeds.py;
# new inputs are added there) for SECONDS (-max_total_time), an input taking over 10 s is a
# hang (-timeout), over 2 GB of memory an OOM (-rss_limit_mb); a finding stops that target and
# is written to BUILD_DIR/crashes/<t>/ (crash-*, timeout-*, oom-*, leak-*), the log to
# BUILD_DIR/logs/<t>.log. Exits 1 when any target found something.
set -uo pipefail
build=${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scenario sls rumen synth nodes conf fair)

found=0
summary=()
for t in "${targets[@]}"; do
  bin=$build/fuzz/fuzz_$t
  if [ ! -x "$bin" ]; then
    echo "fuzz: $bin is not built (make build-fuzz)" >&2
    exit 2
  fi
  case $t in conf | fair) dict=$here/xml.dict ;; *) dict=$here/json.dict ;; esac
  # Each run reports its own findings: the previous run's are cleared.
  rm -rf "$build/crashes/$t"
  mkdir -p "$build/corpus/$t" "$build/crashes/$t" "$build/logs"
  log=$build/logs/$t.log
  echo "fuzz: $t for ${seconds} s (log $log)"
  # timeout(1) as a backstop: libFuzzer stops itself at -max_total_time; nothing outlives this.
  timeout --kill-after=10 $((seconds + 60)) \
    nice -n 10 "$bin" "$build/corpus/$t" -dict="$dict" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=2048 -artifact_prefix="$build/crashes/$t/" \
    -print_final_stats=1 >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ -z "$execs" ]; then  # a crash ends the run before the final stats
    execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  fi
  corpus=$(find "$build/corpus/$t" -type f | wc -l)
  crashes=$(find "$build/crashes/$t" -type f | wc -l)
  if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    found=1
    tail -n 40 "$log" | grep -E 'ERROR|SUMMARY|==[0-9]+==|Test unit written|runtime error' | head -8
  fi
  summary+=("$(printf '%-9s execs %10s  corpus %6s  crashes %3s  exit %s' "$t" "${execs:-?}" \
    "$corpus" "$crashes" "$rc")")
done
echo "fuzz: results (${seconds} s per target; crashes in $build/crashes/<target>/)"
printf '  %s\n' "${summary[@]}"
exit $found
