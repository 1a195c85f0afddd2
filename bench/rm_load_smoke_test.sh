#!/usr/bin/env bash
# Smoke test of the daemon benchmark (rm_load.sh with rm_load): 50 NMs heartbeating every
# 200 ms and 4 AMs against a real RM with the SQLite store, 4 s measured. Checks that every
# figure it prints is there and consistent: heartbeats close to NMs x rate, allocations and
# returns > 0, no more returned than allocated, a positive allocate latency, the RM's own timing
# of the allocate calls within the AMs' largest (it is part of each call), the RM's CPU and memory
# read.
#   rm_load_smoke_test.sh <spindle> <rm_load> <work folder>
set -u
spindle=$1
rm_load=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
out="$work/out.txt"
STORES=sqlite WORK="$work" HEARTBEAT_MS=200 bash "$(dirname "$0")/rm_load.sh" "$spindle" \
  "$rm_load" --nms 50 --ams 4 --seconds 4 --warmup-seconds 30 --container-ms 300 \
  --pending 50 --am-interval-ms 50 --node-memory-mb 8192 --node-vcores 8 >"$out" 2>&1
rc=$?
cat "$out"
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
num() { awk -v k="$1:" '$1 == k {print $2; exit}' "$out"; }
total() { awk -v k="$1" '$1 == "totals:" { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' "$out"; }
check "rm_load.sh exits 0" '[ "$rc" = 0 ]'
hb=$(num nm_heartbeats_per_s); alloc=$(num allocations_per_s); ret=$(num returned_per_s)
p99=$(awk '$1 == "allocate_latency_ms:" {print $5}' "$out")
max=$(awk '$1 == "allocate_latency_ms:" {print $7}' "$out")
rm_p99=$(awk '$1 == "rm_allocate_total_ms:" {print $5}' "$out")
rm_calls=$(awk '$1 == "rm_allocate_total_ms:" {print substr($6, 2)}' "$out")
cpu=$(num rm_cpu_s); rss=$(awk '$1 == "rm_memory_mb:" {print $3}' "$out")
# 50 NMs at 5 heartbeats/s: 250/s, allowing for a loaded machine.
check "heartbeats/s near 250 ($hb)" "awk 'BEGIN { exit !(${hb:-0} >= 150 && ${hb:-0} <= 260) }'"
check "allocations/s > 0 ($alloc)" "awk 'BEGIN { exit !(${alloc:-0} > 0) }'"
check "returned/s > 0 ($ret)" "awk 'BEGIN { exit !(${ret:-0} > 0) }'"
check "allocate p99 > 0 ($p99 ms)" "awk 'BEGIN { exit !(${p99:-0} > 0) }'"
check "RM timed allocate calls ($rm_calls)" "[ \"${rm_calls:-0}\" -gt 0 ]"
# A bucket's upper end may pass the exact figure by the bucket's width (3 %) and the rounding.
check "RM allocate p99 ($rm_p99 ms) within the AMs' largest ($max ms)" \
  "awk 'BEGIN { exit !(${rm_p99:-1e9} <= ${max:-0} * 1.05 + 0.05) }'"
check "RM CPU read ($cpu s)" "awk 'BEGIN { exit !(${cpu:-0} > 0) }'"
check "RM memory read ($rss MB)" "awk 'BEGIN { exit !(${rss:-0} > 0) }'"
a=$(total allocated); r=$(total returned)
check "returned ($r) <= allocated ($a)" '[ -n "$a" ] && [ -n "$r" ] && [ "$r" -le "$a" ] && [ "$r" -gt 0 ]'
check "every AM finished" 'grep -q "am_finished 4 of 4" "$out"'
check "sqlite figure listed" 'grep -q "^sqlite: [0-9]" "$out"'
[ "$fails" = 0 ] && echo "rm_load smoke: all passed" || echo "rm_load smoke: $fails failed"
exit $((fails > 0))
