#!/usr/bin/env bash
# The restart benchmark: starts `spindle rm` with recovery on a free loopback port, drives it
# with rm_load --hold until AMS apps hold AMS x (HOLD + 1) running containers (each app's AM
# container and HOLD task containers) on NMS simulated NMs, kills the RM with SIGKILL, starts it
# again on the same store and port, and measures from the new process's start:
#   (a) to_active: /ws/v1/cluster/info answers state STARTED, haState ACTIVE, with every app
#       loaded (/ws/v1/cluster/metrics appsSubmitted = AMS);
#   (b) containers_recovered: cluster metrics containersAllocated = every running container;
#       nms_resynced: the last simulated NM registered again after its RESYNC;
#   (c) ams_resynced: the last AM registered again after its AM_RESYNC.
# Also the store's size (the SQLite file and its WAL) and both RMs' peak RSS (VmHWM).
#   bench/rm_restart.sh build/spindle build/bench/rm_load
#   NMS=20 AMS=20 HOLD=4 bench/rm_restart.sh build/spindle build/bench/rm_load   # smoke size
# Environment: NMS (1000), AMS (10000), HOLD (9: task containers per app), STORE (sqlite or
# etcd), HEARTBEAT_MS (the RM's NM heartbeat interval, 3000), AM_INTERVAL_MS (2000),
# SUBMIT_PER_S (500), WAIT_MS (the scheduling wait after recovery, 10000), WARMUP_S (900),
# WORK (a fresh temporary folder), PERF=1 (perf record -g of the restarted RM for RESTART_S
# seconds; report in $WORK/perf.txt). Every daemon binds 127.0.0.1; each is stopped by PID.
set -u
spindle=${1:?usage: rm_restart.sh SPINDLE RM_LOAD}
rm_load=${2:?usage: rm_restart.sh SPINDLE RM_LOAD}
nms=${NMS:-1000}
ams=${AMS:-10000}
hold=${HOLD:-9}
store=${STORE:-sqlite}
heartbeat_ms=${HEARTBEAT_MS:-3000}
am_interval_ms=${AM_INTERVAL_MS:-2000}
submit_per_s=${SUBMIT_PER_S:-500}
wait_ms=${WAIT_MS:-10000}
warmup_s=${WARMUP_S:-900}
restart_s=${RESTART_S:-300}
work=${WORK:-$(mktemp -d /tmp/rm_restart.XXXXXX)}
containers=$((ams * (hold + 1)))
mkdir -p "$work/conf"
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now_ms() { date +%s%3N; }

rm_pid=
load_pid=
perf_pid=
poll_pid=
etcd_started=
cleanup() {
  [ -n "$perf_pid" ] && kill -INT "$perf_pid" 2>/dev/null
  [ -n "$load_pid" ] && kill -TERM "$load_pid" 2>/dev/null
  [ -n "$poll_pid" ] && kill -TERM "$poll_pid" 2>/dev/null
  [ -n "$rm_pid" ] && kill -TERM "$rm_pid" 2>/dev/null
  [ -n "$etcd_started" ] && stop_etcd
}
trap cleanup EXIT
die() {
  echo "rm_restart.sh: $*" >&2
  exit 1
}

port=$(freeport)
case $store in
  sqlite)
    rm -f "$work"/rm-state.db*
    store_conf="<property><name>yarn.resourcemanager.store.class</name><value>sqlite</value></property>
  <property><name>spindle.resourcemanager.store.sqlite.path</name><value>$work/rm-state.db</value></property>"
    ;;
  etcd)
    source "$(dirname "$0")/../tests/etcd_lib.sh"
    start_etcd "$work/etcd-server" || die "etcd did not start"
    etcd_started=1
    # HA needs two RM ids; rm2 never starts, rm1 wins the election alone.
    store_conf="<property><name>yarn.resourcemanager.store.class</name><value>etcd</value></property>
  <property><name>yarn.resourcemanager.ha.enabled</name><value>true</value></property>
  <property><name>yarn.resourcemanager.ha.rm-ids</name><value>rm1,rm2</value></property>
  <property><name>yarn.resourcemanager.ha.id</name><value>rm1</value></property>
  <property><name>yarn.resourcemanager.webapp.address.rm1</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.resourcemanager.webapp.address.rm2</name><value>127.0.0.1:$(freeport)</value></property>
  <property><name>spindle.resourcemanager.ha.etcd.endpoints</name><value>http://$etcd_endpoint</value></property>"
    ;;
  *) die "unknown STORE '$store' (sqlite, etcd)" ;;
esac
cat >"$work/conf/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.resourcemanager.recovery.enabled</name><value>true</value></property>
  $store_conf
  <property><name>yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms</name><value>$wait_ms</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>$heartbeat_ms</value></property>
  <property><name>yarn.nm.liveness-monitor.expiry-interval-ms</name><value>600000</value></property>
  <property><name>yarn.am.liveness-monitor.expiry-interval-ms</name><value>600000</value></property>
  <property><name>yarn.scheduler.maximum-allocation-mb</name><value>262144</value></property>
  <property><name>yarn.scheduler.maximum-allocation-vcores</name><value>256</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.scheduler.capacity.maximum-applications</name><value>100000</value></property>
  <property><name>yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments</name><value>20</value></property>
  <property><name>yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments</name><value>20</value></property>
</configuration>
EOF

# start_rm LOG: starts the RM, waits (bounded) for its "serving on" line.
start_rm() {
  "$spindle" rm --conf "$work/conf" >"$work/$1.out" 2>"$work/$1.log" &
  rm_pid=$!
  echo "$rm_pid" >"$work/$1.pid"
  local i
  for i in $(seq 1 1200); do
    grep -q "serving on" "$work/$1.out" 2>/dev/null && return 0
    kill -0 "$rm_pid" 2>/dev/null || break
    sleep 0.05
  done
  tail -5 "$work/$1.log" >&2
  die "the RM ($1) did not start"
}
hwm_mb() { awk '/^VmHWM:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status" 2>/dev/null; }
rss_mb() { awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status" 2>/dev/null; }
store_size() {  # bytes of the SQLite file (+ its WAL); etcd: its data dir
  if [ "$store" = sqlite ]; then
    echo "$(stat -c %s "$work/rm-state.db") (+ WAL $(stat -c %s "$work/rm-state.db-wal" 2>/dev/null || echo 0))"
  else
    du -sb "$work/etcd-server/data" | cut -f1
  fi
}

echo "== rm_restart: $store, $nms NMs, $ams apps x ($hold + 1 AM) = $containers containers, port $port, work $work"
echo "loadavg: $(cut -d' ' -f1-3 /proc/loadavg) at the start"
start_rm rm1
"$rm_load" --rm "127.0.0.1:$port" --rm-pid "$rm_pid" --nms "$nms" --ams "$ams" --hold "$hold" \
  --submit-per-s "$submit_per_s" --am-interval-ms "$am_interval_ms" \
  --node-memory-mb $((1024 * 256)) --node-vcores 256 --container-mb 1024 \
  --warmup-seconds "$warmup_s" --hold-seconds "$((warmup_s + restart_s))" >"$work/rm_load.out" 2>&1 &
load_pid=$!
deadline=$(($(now_ms) + warmup_s * 1000 + 10000))
until grep -q "^rm_load: held:" "$work/rm_load.out"; do
  kill -0 "$load_pid" 2>/dev/null || { cat "$work/rm_load.out" >&2; die "rm_load ended before holding"; }
  [ "$(now_ms)" -lt "$deadline" ] || die "not held after $warmup_s s"
  sleep 0.2
done
grep "^rm_load: held:" "$work/rm_load.out"
rm1_hwm=$(hwm_mb "$rm_pid")
size1=$(store_size)
kill -KILL "$rm_pid"
wait "$rm_pid" 2>/dev/null
rm_pid=

# The restart: the poller (started first: Python takes a while to start here) notes when the
# REST API answers ACTIVE with every app, then when the metrics count every container; wall
# ms since the epoch, as rm_load's resync lines.
rm -f "$work/rm2.pid"
python3 - "$port" "$ams" "$containers" "$restart_s" "$work/rm2.pid" >"$work/poll.out" <<'EOF' &
import json, os, sys, time, urllib.request
port, apps, containers, limit, pidfile = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
print("ready", flush=True)
def cpu():  # the RM's CPU (user + system) and its time waiting for a CPU, in s
    try:
        pid = open(pidfile).read().strip()
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        wait = int(open(f"/proc/{pid}/schedstat").read().split()[1]) / 1e9
        return f"cpu_s {(int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK'):.2f} runqueue_wait_s {wait:.2f}"
    except (OSError, ValueError, IndexError):
        return "cpu_s none"
def get(path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
            return json.load(r)
    except Exception:
        return None
end = time.time() + limit
phase = "active"
while time.time() < end:
    if phase == "active":
        info = get("/ws/v1/cluster/info")
        i = info.get("clusterInfo", {}) if info else {}
        if i.get("state") == "STARTED" and i.get("haState") == "ACTIVE":
            m = (get("/ws/v1/cluster/metrics") or {}).get("clusterMetrics", {})
            if m.get("appsSubmitted") == apps:
                print(f"to_active_at_ms {int(time.time() * 1000)} apps {m['appsSubmitted']} {cpu()}", flush=True)
                phase = "containers"
                continue
    else:
        m = (get("/ws/v1/cluster/metrics") or {}).get("clusterMetrics", {})
        if m.get("containersAllocated", 0) >= containers:
            print(f"containers_recovered_at_ms {int(time.time() * 1000)} containers {m['containersAllocated']} {cpu()}", flush=True)
            sys.exit(0)
    time.sleep(0.02)
print(f"timeout in phase {phase}", flush=True)
sys.exit(1)
EOF
poll_pid=$!
for _ in $(seq 1 300); do
  grep -q "^ready" "$work/poll.out" 2>/dev/null && break
  sleep 0.05
done
grep -q "^ready" "$work/poll.out" || die "the REST poller did not start"
t0=$(now_ms)
start_rm rm2
if [ "${PERF:-0}" = 1 ]; then
  perf record -g -F 499 -p "$rm_pid" -o "$work/perf.data" -- sleep "${PERF_S:-20}" >/dev/null 2>&1 &
  perf_pid=$!
fi
wait "$poll_pid"
poll_rc=$?
poll_pid=
for _ in $(seq 1 $((restart_s * 5))); do
  kill -0 "$load_pid" 2>/dev/null || break
  sleep 0.2
done
wait "$load_pid"
load_rc=$?
load_pid=
if [ -n "$perf_pid" ]; then
  wait "$perf_pid"
  perf_pid=
  perf report -i "$work/perf.data" --no-children --percent-limit 1 --stdio 2>/dev/null |
    grep -v '^$' | head -150 >"$work/perf.txt"
  echo "perf: $work/perf.txt"
fi
cat "$work/rm_load.out"
rm2_hwm=$(hwm_mb "$rm_pid")
rm2_rss=$(rss_mb "$rm_pid")
size2=$(store_size)
recovered=$(grep -o "[0-9]* apps recovered" "$work/rm2.out")
kill -TERM "$rm_pid"
for _ in $(seq 1 100); do kill -0 "$rm_pid" 2>/dev/null || break; sleep 0.1; done
kill -KILL "$rm_pid" 2>/dev/null
wait "$rm_pid" 2>/dev/null
rm_pid=

ms_to_s() { awk -v v="$1" 'BEGIN { if (v == "") print "none"; else printf "%.2f s", v / 1000 }'; }
a_at=$(awk '$1 == "to_active_at_ms" {print $2}' "$work/poll.out")
b_at=$(awk '$1 == "containers_recovered_at_ms" {print $2}' "$work/poll.out")
nm_at=$(awk '$1 == "nms_resynced:" {print $6}' "$work/rm_load.out")
am_at=$(awk '$1 == "ams_resynced:" {print $6}' "$work/rm_load.out")
echo "== restart of $store with $ams apps and $containers running containers ($ams AM containers + $ams x $hold), $nms NMs"
echo "rm2: $recovered"
echo "to_active: $(ms_to_s "${a_at:+$((a_at - t0))}")   (a: start to cluster/info STARTED + ACTIVE with $ams apps; RM $(awk '$1 == "to_active_at_ms" {print $5, $6, $7, $8}' "$work/poll.out"))"
echo "containers_recovered: $(ms_to_s "${b_at:+$((b_at - t0))}")   (b: cluster metrics containersAllocated = $containers; RM $(awk '$1 == "containers_recovered_at_ms" {print $5, $6, $7, $8}' "$work/poll.out"))"
echo "nms_resynced: $(ms_to_s "${nm_at:+$((nm_at - t0))}")   (b: the last of $nms NMs registered again)"
echo "ams_resynced: $(ms_to_s "${am_at:+$((am_at - t0))}")   (c: the last of $ams AMs registered again; AM allocate every $am_interval_ms ms)"
echo "store_bytes: $size1 before the kill, $size2 after the restart"
echo "rm_peak_rss_mb: $rm1_hwm first RM, $rm2_hwm restarted RM (rss $rm2_rss at the end)"
echo "loadavg: $(cut -d' ' -f1-3 /proc/loadavg) at the end"
[ "$poll_rc" = 0 ] && [ "$load_rc" = 0 ] && [ -n "$nm_at" ] && [ -n "$am_at" ]
