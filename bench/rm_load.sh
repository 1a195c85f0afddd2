#!/usr/bin/env bash
# The daemon benchmark: starts `spindle rm` on a free loopback port with a configuration for
# the load (1000 ms heartbeats, up to 20 containers per node heartbeat, off-switch included),
# runs rm_load against it, stops the RM by PID; once per state store named in STORES
# (none, sqlite, etcd), then prints allocations/s per store and the ratio to the first.
#   bench/rm_load.sh build/spindle build/bench/rm_load [rm_load options...]
#   STORES="none sqlite etcd" bench/rm_load.sh build/spindle build/bench/rm_load --seconds 30
# Environment: STORES (default "none sqlite"), WORK (default a fresh temporary folder),
# HEARTBEAT_MS (the RM's heartbeat interval, default 1000), PERF=1 (perf record --call-graph dwarf of the RM
# during the run, report in $WORK/<store>/perf.txt), EXTRA_PROPS (more <property> elements for
# the RM's yarn-site.xml, e.g. to compare settings).
set -u
spindle=${1:?usage: rm_load.sh SPINDLE RM_LOAD [rm_load options]}
rm_load=${2:?usage: rm_load.sh SPINDLE RM_LOAD [rm_load options]}
shift 2
stores=${STORES:-none sqlite}
work=${WORK:-$(mktemp -d /tmp/rm_load.XXXXXX)}
heartbeat_ms=${HEARTBEAT_MS:-1000}
mkdir -p "$work"
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

rm_pid=
etcd_started=
cleanup() {
  [ -n "$rm_pid" ] && kill -TERM "$rm_pid" 2>/dev/null
  [ -n "$etcd_started" ] && stop_etcd
}
trap cleanup EXIT

store_conf() {  # store_conf STORE DIR: the store's properties
  case $1 in
    none) ;;
    sqlite)
      echo "<property><name>yarn.resourcemanager.recovery.enabled</name><value>true</value></property>"
      echo "<property><name>yarn.resourcemanager.store.class</name><value>sqlite</value></property>"
      echo "<property><name>spindle.resourcemanager.store.sqlite.path</name><value>$2/rm-state.db</value></property>"
      ;;
    etcd)
      echo "<property><name>yarn.resourcemanager.recovery.enabled</name><value>true</value></property>"
      echo "<property><name>yarn.resourcemanager.store.class</name><value>etcd</value></property>"
      echo "<property><name>yarn.resourcemanager.ha.enabled</name><value>true</value></property>"
      # A second RM id that never starts: HA needs two; rm1 wins the election alone.
      echo "<property><name>yarn.resourcemanager.ha.rm-ids</name><value>rm1,rm2</value></property>"
      echo "<property><name>yarn.resourcemanager.webapp.address.rm2</name><value>127.0.0.1:$(freeport)</value></property>"
      echo "<property><name>yarn.resourcemanager.ha.id</name><value>rm1</value></property>"
      echo "<property><name>yarn.resourcemanager.webapp.address.rm1</name><value>127.0.0.1:$3</value></property>"
      echo "<property><name>spindle.resourcemanager.ha.etcd.endpoints</name><value>http://$etcd_endpoint</value></property>"
      ;;
    *) echo "rm_load.sh: unknown store '$1' (none, sqlite, etcd)" >&2; exit 2 ;;
  esac
}

declare -A rate
status=0
for store in $stores; do
  dir="$work/$store"
  rm -rf "$dir"
  mkdir -p "$dir/conf"
  if [ "$store" = etcd ] && [ -z "$etcd_started" ]; then
    source "$(dirname "$0")/../tests/etcd_lib.sh"
    start_etcd "$work/etcd-server" || { echo "rm_load.sh: etcd did not start" >&2; continue; }
    etcd_started=1
  fi
  port=$(freeport)
  cat >"$dir/conf/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>$heartbeat_ms</value></property>
  <property><name>yarn.nm.liveness-monitor.expiry-interval-ms</name><value>600000</value></property>
  <property><name>yarn.scheduler.maximum-allocation-mb</name><value>262144</value></property>
  <property><name>yarn.scheduler.maximum-allocation-vcores</name><value>256</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.scheduler.capacity.maximum-applications</name><value>100000</value></property>
  <property><name>yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments</name><value>20</value></property>
  <property><name>yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments</name><value>20</value></property>
  $(store_conf "$store" "$dir" "$port")
  ${EXTRA_PROPS:-}
</configuration>
EOF
  "$spindle" rm --conf "$dir/conf" >"$dir/rm.out" 2>"$dir/rm.log" &
  rm_pid=$!
  for _ in $(seq 1 100); do
    grep -q "serving on" "$dir/rm.out" 2>/dev/null && break
    kill -0 "$rm_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q "serving on" "$dir/rm.out"; then
    echo "rm_load.sh: the RM ($store) did not start; its log:" >&2
    tail -5 "$dir/rm.log" >&2
    status=1
    rm_pid=
    continue
  fi
  echo "== store: $store (RM pid $rm_pid, port $port, work $dir)"
  perf_pid=
  if [ "${PERF:-0}" = 1 ]; then
    perf record -F ${PERF_FREQ:-199} --call-graph dwarf,16384 -p "$rm_pid" -o "$dir/perf.data" >/dev/null 2>&1 &
    perf_pid=$!
  fi
  "$rm_load" --rm "127.0.0.1:$port" --rm-pid "$rm_pid" "$@" | tee "$dir/rm_load.out"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  if [ -n "$perf_pid" ]; then
    kill -INT "$perf_pid"
    wait "$perf_pid"
    perf report -i "$dir/perf.data" --no-children --percent-limit 1.5 --stdio 2>/dev/null \
      | grep -v '^$' | head -60 >"$dir/perf.txt"
    echo "perf: $dir/perf.txt"
  fi
  kill -TERM "$rm_pid"
  for _ in $(seq 1 100); do kill -0 "$rm_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$rm_pid" 2>/dev/null
  wait "$rm_pid" 2>/dev/null
  rm_pid=
  rate[$store]=$(awk '/^allocations_per_s:/ {print $2}' "$dir/rm_load.out")
done

first=
echo "== allocations per second by state store"
for store in $stores; do
  r=${rate[$store]:-}
  [ -z "$r" ] && { echo "$store: no figure"; continue; }
  if [ -z "$first" ]; then
    first=$r
    echo "$store: $r"
  else
    echo "$store: $r ($(awk -v a="$r" -v b="$first" 'BEGIN { printf "%.1f", (b > 0 ? 100 * (a - b) / b : 0) }') % against the first)"
  fi
done
exit $status
