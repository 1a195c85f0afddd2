#!/usr/bin/env bash
# Smoke test of the restart benchmark (rm_restart.sh with rm_load --hold) at a tiny size: 10 NMs,
# 20 apps each holding 4 task containers and its AM container (100 containers), the SQLite
# store, SIGKILL and restart. Checks that the restarted RM recovered every app and container,
# that every NM and AM resynced, that the figures are printed in order (to_active <=
# containers_recovered) and that the store and RSS figures are read.
#   rm_restart_smoke_test.sh <spindle> <rm_load> <work folder>
set -u
spindle=$1
rm_load=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
out="$work/out.txt"
NMS=10 AMS=20 HOLD=4 HEARTBEAT_MS=200 AM_INTERVAL_MS=100 SUBMIT_PER_S=0 WAIT_MS=1000 \
  WARMUP_S=30 RESTART_S=30 WORK="$work/run" \
  bash "$(dirname "$0")/rm_restart.sh" "$spindle" "$rm_load" >"$out" 2>&1
rc=$?
cat "$out"
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
secs() { awk -v k="$1:" '$1 == k && $3 == "s" {print $2; exit}' "$out"; }
a=$(secs to_active); b=$(secs containers_recovered); n=$(secs nms_resynced); m=$(secs ams_resynced)
check "rm_restart.sh exits 0" '[ "$rc" = 0 ]'
check "held 100 containers before the kill" 'grep -q "held: 10 NMs, 20 AMs, 100 containers running" "$out"'
check "the restarted RM recovered 20 apps" 'grep -q "^rm2: 20 apps recovered" "$out"'
check "to_active read ($a s)" "awk 'BEGIN { exit !(\"${a}\" != \"\" && ${a:-0} > 0) }'"
check "containers recovered after active ($b s)" "awk 'BEGIN { exit !(\"${b}\" != \"\" && ${b:-0} >= ${a:-0}) }'"
check "every NM resynced ($n s)" 'grep -q "^nms_resynced: 10 of 10" "$out" && [ -n "$n" ]'
check "every AM resynced ($m s)" 'grep -q "^ams_resynced: 20 of 20" "$out" && [ -n "$m" ]'
check "100 containers still running on the NMs" 'grep -q "^totals: running_on_nodes 100 " "$out"'
check "store size read" 'grep -Eq "^store_bytes: [1-9][0-9]* .*before the kill, [1-9][0-9]* .*after" "$out"'
check "peak RSS read" 'grep -Eq "^rm_peak_rss_mb: [1-9][0-9]* first RM, [1-9][0-9]* restarted" "$out"'
[ "$fails" = 0 ] && echo "rm_restart smoke: all passed" || echo "rm_restart smoke: $fails failed"
exit $((fails > 0))
