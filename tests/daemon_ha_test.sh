#!/usr/bin/env bash
# RM high availability end to end, on loopback: etcd (tests/etcd_lib.sh), two RMs (rm1, rm2)
# electing the active one on it, two NodeManagers and dshell jobs configured with both RMs.
#  1. one RM is ACTIVE, the other STANDBY: /info says so, the standby redirects REST (307) and
#     refuses the protocols (503 StandbyException); rmadmin -getServiceState / -checkHealth, and
#     manual transitions refused under automatic failover unless --forcemanual;
#  2. kill -9 of the active while dshell jobs run and one more waits: the standby is active
#     and serves within 10 s (measured), the NMs and AMs go to it, no app is lost, no running
#     container is killed (each writes a start and an end marker), every job SUCCEEDS, and a
#     new dshell job runs on it;
#  3. a paused active (SIGSTOP past its lease, then SIGCONT) comes back STANDBY and refuses
#     the protocols;
#  4. etcd stopped during operation: the active RM stops being active (logged);
#  5. etcd unreachable at start: the RM refuses to start with a clear message.
# Every wait is bounded; every process is stopped by PID.
#   daemon_ha_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"
source "$(dirname "$0")/etcd_lib.sh"
trap 'cleanup; stop_etcd' EXIT
start_etcd "$work/etcd" || exit 1

p1=$(freeport)
p2=$(freeport)
ha_keys() {
  cat <<KEYS
  <property><name>yarn.resourcemanager.ha.enabled</name><value>true</value></property>
  <property><name>yarn.resourcemanager.ha.rm-ids</name><value>rm1,rm2</value></property>
  <property><name>yarn.resourcemanager.webapp.address.rm1</name><value>127.0.0.1:$p1</value></property>
  <property><name>yarn.resourcemanager.webapp.address.rm2</name><value>127.0.0.1:$p2</value></property>
  <property><name>yarn.resourcemanager.cluster-id</name><value>ha-test</value></property>
KEYS
}
for id in rm1 rm2; do
  mkdir -p "$work/$id"
  cat >"$work/$id/yarn-site.xml" <<SITE
<configuration>
$(ha_keys)
  <property><name>yarn.resourcemanager.ha.id</name><value>$id</value></property>
  <property><name>spindle.resourcemanager.ha.etcd.endpoints</name><value>http://$etcd_endpoint</value></property>
  <property><name>spindle.resourcemanager.ha.etcd.lease-ttl-ms</name><value>2000</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms</name><value>1500</value></property>
</configuration>
SITE
done
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
for n in 1 2; do
  mkdir -p "$work/nm$n"
  cat >"$work/nm$n/yarn-site.xml" <<SITE
<configuration>
$(ha_keys)
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>1024</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm$n/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm$n/local</value></property>
  <property><name>yarn.nodemanager.sleep-delay-before-sigkill.ms</name><value>100</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
SITE
done
mkdir -p "$work/client"
printf '<configuration>\n%s\n</configuration>\n' "$(ha_keys)" >"$work/client/yarn-site.xml"

# ha_state PORT: the haState in that RM's /info ("" when it does not answer).
ha_state() {
  rm_url="http://127.0.0.1:$1" field /info 'd["clusterInfo"]["haState"]' 2>/dev/null
}
start_rm() {
  "$spindle" rm --conf "$work/$1" >>"$work/$1.log" 2>&1 &
  eval "${1}_pid=$!"
  pids+=("$!")
}
# raw PORT PATH: "status location" of one GET, redirects not followed.
raw() {
  python3 - "$1" "$2" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
c.request("GET", sys.argv[2])
r = c.getresponse()
print(r.status, r.getheader("Location", ""))
PY
}
nodes_running() { field "/nodes?states=RUNNING" 'len(d["nodes"]["node"]) if d["nodes"] else 0'; }

start_rm rm1
check "rm1 becomes ACTIVE" 'waitfor 10 "[ \"\$(ha_state $p1)\" = ACTIVE ]"'
start_rm rm2
check "rm2 is STANDBY" 'waitfor 10 "[ \"\$(ha_state $p2)\" = STANDBY ]"'
rm_url="http://127.0.0.1:$p2"
check "the standby redirects REST calls to the active RM (307)" \
  '[ "$(raw $p2 "/ws/v1/cluster/apps?states=RUNNING")" = "307 http://127.0.0.1:$p1/ws/v1/cluster/apps?states=RUNNING" ]'
check "the standby refuses the AM protocol with StandbyException (503) naming the active" \
  'out=$(rest /rpc/v1/am/allocate POST "{}"); [ "$(echo "$out" | head -1)" = 503 ] && echo "$out" | grep -q "StandbyException.*127.0.0.1:$p1"'
check "/info names the etcd connection" \
  'rm_url=http://127.0.0.1:$p1 rest /ws/v1/cluster/info | grep -q "CONNECTED to etcd at $etcd_endpoint"'
check "rmadmin -getServiceState rm1 prints active" \
  '[ "$("$spindle" rmadmin --conf "$work/client" -getServiceState rm1)" = active ]'
check "rmadmin -getServiceState rm2 prints standby" \
  '[ "$("$spindle" rmadmin --conf "$work/client" -getServiceState rm2)" = standby ]'
check "rmadmin -checkHealth rm2 exits 0" '"$spindle" rmadmin --conf "$work/client" -checkHealth rm2'
"$spindle" rmadmin --conf "$work/client" -transitionToStandby rm1 >"$work/manual.out" 2>&1
code=$?
check "a manual transition under automatic failover is refused (exit 1, --forcemanual named)" \
  '[ $code = 1 ] && grep -q "forcemanual" "$work/manual.out"'
mkdir -p "$work/plain"
echo "<configuration/>" >"$work/plain/yarn-site.xml"
check "rmadmin without HA in --conf is refused as YARN's" \
  '"$spindle" rmadmin --conf "$work/plain" -getServiceState rm1 2>&1 | grep -q "HA is not enabled"'

for n in 1 2; do
  "$spindle" nm --conf "$work/nm$n" >"$work/nm$n.log" 2>&1 &
  pids+=("$!")
done
rm_url="http://127.0.0.1:$p1"
check "both NMs register with the active RM" 'waitfor 15 "[ \$(nodes_running) = 2 ]"'
timeout 40 "$spindle" dshell --conf "$work/client" -shell_command "echo before" -num_containers 2 \
  -container_memory 64 -master_memory 64 -timeout 30000 >"$work/before.out" 2>&1
check "a dshell job through the RM list succeeds" 'grep -q "completed successfully" "$work/before.out"'

# 2. kill -9 the active one under load. Six jobs of an AM and two 3 s containers (128 MB
# each: 384 MB a job, 2048 MB in all): five run at once, one waits.
jobs=6
mkdir -p "$work/markers"
task=$(marker_task 3)
client_pids=()
for j in $(seq 1 $jobs); do
  timeout 150 "$spindle" dshell --conf "$work/client" -shell_command "$task" -num_containers 2 \
    -container_memory 128 -master_memory 128 -timeout 120000 >"$work/load$j.out" 2>&1 &
  client_pids+=("$!")
  pids+=("$!")
done
check "the jobs' containers run on rm1" 'waitfor 30 "[ -n \"\$(running_tasks)\" ]"'
before=$(running_tasks)
t0=$(date +%s.%N)
kill -KILL "$rm1_pid"
check "rm2 becomes ACTIVE within 10 s of rm1's kill -9" 'waitfor 10 "[ \"\$(ha_state $p2)\" = ACTIVE ]"'
rm_url="http://127.0.0.1:$p2"
check "rm2 serves the REST API" 'waitfor 5 "rest /ws/v1/cluster/apps | head -1 | grep -q 200"'
t1=$(date +%s.%N)
echo "measure failover_seconds=$(python3 -c "print(round($t1 - $t0, 2))") (lease TTL 2 s)"
check "the NMs register with rm2" 'waitfor 15 "[ \$(nodes_running) = 2 ]"'
alive=$(survivors $before)
check "the $(echo $before | wc -w) containers running at the kill survive the failover" \
  "[ $alive = $(echo $before | wc -w) ]"
finished=0
for p in "${client_pids[@]}"; do
  if waitfor 120 "! kill -0 $p" && wait "$p"; then finished=$((finished + 1)); fi
done
check "every dshell client of the load reports its job SUCCEEDED ($finished of $jobs)" \
  "[ $finished = $jobs ]"
apps=$(field /apps 'len(d["apps"]["app"])')
succeeded=$(field /apps 'sum(1 for a in d["apps"]["app"] if a["state"] == "FINISHED" and a["finalStatus"] == "SUCCEEDED")')
check "no app is lost: rm2 lists $apps apps, $succeeded FINISHED SUCCEEDED (of $((jobs + 1)))" \
  "[ $apps = $((jobs + 1)) ] && [ $succeeded = $((jobs + 1)) ]"
starts=$(ls "$work"/markers/start.* 2>/dev/null | wc -l)
ends=$(ls "$work"/markers/end.* 2>/dev/null | wc -l)
check "no container was killed: $starts started, $ends ended normally" \
  "[ $starts = $((2 * jobs)) ] && [ $starts = $ends ]"
timeout 40 "$spindle" dshell --conf "$work/client" -shell_command "echo after" -num_containers 2 \
  -container_memory 64 -master_memory 64 -timeout 30000 >"$work/after.out" 2>&1
check "a dshell job after the failover succeeds on rm2" 'grep -q "completed successfully" "$work/after.out"'

# 3. rm1 back as standby; pause rm2 past its lease.
start_rm rm1
check "rm1 restarts STANDBY" 'waitfor 10 "[ \"\$(ha_state $p1)\" = STANDBY ]"'
kill -STOP "$rm2_pid"
check "rm1 takes over while rm2 is paused" 'waitfor 10 "[ \"\$(ha_state $p1)\" = ACTIVE ]"'
kill -CONT "$rm2_pid"
check "the resumed rm2 steps down to STANDBY" 'waitfor 10 "[ \"\$(ha_state $p2)\" = STANDBY ]"'
check "  and logs why" 'grep -q "transitions to STANDBY" "$work/rm2.log"'
rm_url="http://127.0.0.1:$p2"
check "the deposed rm2 refuses the NM protocol (503 StandbyException)" \
  'rest /rpc/v1/resource-tracker/heartbeat POST "{}" | head -1 | grep -q 503'

# 4. etcd stops: the active RM (rm1) stops being active.
stop_etcd
check "with etcd gone, rm1 leaves the active state" 'waitfor 10 "[ \"\$(ha_state $p1)\" = STANDBY ]"'
check "  and logs it" 'grep -q "transitions to STANDBY: lease" "$work/rm1.log"'
check "rmadmin -checkHealth rm1 fails without etcd" \
  'waitfor 5 "! \"$spindle\" rmadmin --conf \"$work/client\" -checkHealth rm1"'

# 5. An RM cannot start without etcd.
mkdir -p "$work/rm3"
sed "s/127.0.0.1:$p1/127.0.0.1:$(freeport)/" "$work/rm1/yarn-site.xml" >"$work/rm3/yarn-site.xml"
timeout 20 "$spindle" rm --conf "$work/rm3" >"$work/rm3.log" 2>&1
code=$?
check "an RM with etcd unreachable refuses to start (exit 2, clear message)" \
  '[ $code = 2 ] && grep -q "etcd at $etcd_endpoint is unreachable" "$work/rm3.log" && grep -q "refusing to start" "$work/rm3.log"'

mkdir -p "$work/rm4"
sed "s/<value>rm1<\/value><\/property>/<value>rm9<\/value><\/property>/" "$work/rm1/yarn-site.xml" >"$work/rm4/yarn-site.xml"
timeout 20 "$spindle" rm --conf "$work/rm4" >"$work/rm4.log" 2>&1
code=$?
check "an RM whose ha.id is not in rm-ids refuses to start, naming the key" \
  '[ $code = 2 ] && grep -q "yarn.resourcemanager.ha.id must name one of yarn.resourcemanager.ha.rm-ids (rm1,rm2), got .rm9." "$work/rm4.log"'

echo "daemon_ha: $fails failure(s)"
[ "$fails" = 0 ]
