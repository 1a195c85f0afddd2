#!/usr/bin/env bash
# A ResourceManager and two NodeManagers on this machine, on loopback, in the foreground;
# Ctrl-C (or SIGTERM) stops all three by PID.
#   tools/minicluster.sh [spindle binary] [work folder] [RM web port]
# Defaults: build/spindle, /tmp/spindle-minicluster, 8088. Configuration, logs and container
# output go under the work folder; edit <work>/rm/*.xml and restart to try another scheduler
# configuration.
set -u
spindle=${1:-build/spindle}
work=${2:-/tmp/spindle-minicluster}
port=${3:-8088}
mkdir -p "$work/rm" "$work/nm1" "$work/nm2"
# The NMs register with a shared secret (spindle.nodemanager.registration.secret), made once.
[ -f "$work/registration-secret" ] || od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$work/registration-secret"
secret=$(cat "$work/registration-secret")
# Containers never run as root unless configured: as root, say so explicitly.
allow_root=false
if [ "$(id -u)" = 0 ]; then
  allow_root=true
  echo "minicluster: running as root, so containers run as root (spindle.nodemanager.allow-root=true)"
fi
[ -f "$work/rm/yarn-site.xml" ] || cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>200</value></property>
  <property><name>yarn.nm.liveness-monitor.expiry-interval-ms</name><value>10000</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.5</value></property>
  <property><name>spindle.nodemanager.registration.secret</name><value>$secret</value></property>
  <property><name>yarn.resourcemanager.recovery.enabled</name><value>true</value></property>
  <property><name>spindle.resourcemanager.store.sqlite.path</name><value>$work/rm-state.db</value></property>
  <property><name>yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms</name><value>2000</value></property>
</configuration>
EOF
for n in 1 2; do
  cat >"$work/nm$n/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>4096</value></property>
  <property><name>yarn.nodemanager.resource.cpu-vcores</name><value>4</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm$n/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm$n/local</value></property>
  <property><name>spindle.nodemanager.registration.secret</name><value>$secret</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
EOF
done
pids=()
stop() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
  wait
  echo "minicluster stopped"
  exit 0
}
trap stop INT TERM
"$spindle" rm --conf "$work/rm" >"$work/rm.log" 2>&1 &
pids+=("$!")
echo "$!" >"$work/rm.pid"  # the README's restart step kills it by this PID
sleep 0.3
for n in 1 2; do
  "$spindle" nm --conf "$work/nm$n" >"$work/nm$n.log" 2>&1 &
  pids+=("$!")
done
for _ in $(seq 50); do
  if "$spindle" node --rm "127.0.0.1:$port" -list 2>/dev/null | grep -q "^Total Nodes:2"; then break; fi
  sleep 0.1
done
"$spindle" node --rm "127.0.0.1:$port" -list
cat <<EOF
minicluster up: RM http://127.0.0.1:$port/ws/v1/cluster, logs in $work (Ctrl-C stops it). Try:
  $spindle dshell --rm 127.0.0.1:$port -shell_command "echo hello" -num_containers 4 -container_memory 128
  $spindle application --rm 127.0.0.1:$port -list -appStates ALL
  curl -s http://127.0.0.1:$port/ws/v1/cluster/metrics
EOF
wait
