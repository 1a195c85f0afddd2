#!/usr/bin/env bash
# Work-preserving restart end to end (YARN-556) on loopback free ports: a ResourceManager with
# the SQLite state store and two NodeManagers run dshell jobs whose containers sleep; the RM
# is killed with SIGKILL three times while jobs run and more wait, and restarted on the same
# store and ports. Checked: no app lost, no container killed (each container writes a start
# and an end marker; the processes running at each kill are still alive after the restart),
# the waiting apps start, every app ends FINISHED SUCCEEDED. Then the store's faults: a
# truncated and a corrupt file are refused (exit 2, the file named, the file unchanged), and a
# file size limit hit while running stops the RM (exit 3, a clear message) with everything it
# had answered still loadable. Every wait is bounded; processes are stopped by PID.
#   daemon_restart_test.sh <spindle> <work folder>
set -u
spindle=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/daemon_lib.sh"

port=$(freeport)
rm_url="http://127.0.0.1:$port"
store="$work/rm-state.db"
mkdir -p "$work/rm" "$work/nm1" "$work/nm2" "$work/markers"
write_rm_conf() {  # write_rm_conf STORE_PATH
  cat >"$work/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.resourcemanager.recovery.enabled</name><value>true</value></property>
  <property><name>yarn.resourcemanager.store.class</name><value>org.apache.hadoop.yarn.server.resourcemanager.recovery.LeveldbRMStateStore</value></property>
  <property><name>spindle.resourcemanager.store.sqlite.path</name><value>$1</value></property>
  <property><name>yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms</name><value>1500</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>100</value></property>
  <property><name>yarn.nm.liveness-monitor.expiry-interval-ms</name><value>20000</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
</configuration>
EOF
}
write_rm_conf "$store"
allow_root=$([ "$(id -u)" = 0 ] && echo true || echo false)
for n in 1 2; do
  cat >"$work/nm$n/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>1024</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$work/nm$n/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$work/nm$n/local</value></property>
  <property><name>yarn.resourcemanager.connect.retry-interval.ms</name><value>200</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>$allow_root</value></property>
</configuration>
EOF
done

rm_pid=""
start_rm() {
  "$spindle" rm --conf "$work/rm" >>"$work/rm.log" 2>&1 &
  rm_pid=$!
  pids+=("$rm_pid")
  waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"
}
check "the RM starts with a new SQLite store" 'start_rm && grep -q "state store sqlite:$store, epoch 1" "$work/rm.log"'
nm_pids=()
for n in 1 2; do
  "$spindle" nm --conf "$work/nm$n" >"$work/nm$n.log" 2>&1 &
  pids+=("$!")
  nm_pids+=("$!")
done
check "two NMs register" 'waitfor 10 "[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 2 ]"'

# Eight jobs of an AM and two 3 s containers (128 MB each: 384 MB a job, 2048 MB in all):
# about five run at once, the others wait. Each container writes a start marker with its PID
# and, when its sleep ends normally, an end marker.
jobs=8
task=$(marker_task 3)
client_pids=()
for j in $(seq 1 $jobs); do
  "$spindle" dshell --rm "127.0.0.1:$port" -shell_command "$task" -num_containers 2 \
    -container_memory 128 -master_memory 128 -timeout 120000 >"$work/job$j.out" 2>&1 &
  client_pids+=("$!")
  pids+=("$!")
done
check "every job is submitted" 'waitfor 20 "[ \$(cat $work/job*.out 2>/dev/null | grep -c \"^Submitted application\") = $jobs ]"'

for round in 1 2 3; do
  waitfor 20 '[ -n "$(running_tasks)" ]'
  before=$(running_tasks)
  kill -KILL "$rm_pid"
  wait "$rm_pid" 2>/dev/null
  sleep 0.5
  check "round $round: the RM restarts on the same store (epoch $((round + 1)), $jobs apps)" \
    "start_rm && grep -q \"epoch $((round + 1)), $jobs apps recovered\" \"$work/rm.log\""
  check "round $round: the NMs resync and register again" \
    "waitfor 10 '[ \$(field /nodes?states=RUNNING \"len(d[\\\"nodes\\\"][\\\"node\\\"])\") = 2 ]'"
  sleep 1  # a container the RM did not recover would be stopped by now
  alive=$(survivors $before)
  check "round $round: the $(echo $before | wc -w) containers running at the kill survive it" \
    "[ $alive = $(echo $before | wc -w) ]"
  sleep 1
done

finished=0
for p in "${client_pids[@]}"; do
  if waitfor 90 "! kill -0 $p" && wait "$p"; then finished=$((finished + 1)); fi
done
check "every dshell client reports its job SUCCEEDED" "[ $finished = $jobs ]"
apps=$(field /apps 'len(d["apps"]["app"])')
succeeded=$(field /apps 'sum(1 for a in d["apps"]["app"] if a["state"] == "FINISHED" and a["finalStatus"] == "SUCCEEDED")')
check "no app is lost: $apps apps, $succeeded FINISHED SUCCEEDED" "[ $apps = $jobs ] && [ $succeeded = $jobs ]"
starts=$(ls "$work"/markers/start.* 2>/dev/null | wc -l)
ends=$(ls "$work"/markers/end.* 2>/dev/null | wc -l)
check "no container was killed: $starts started, $ends ended normally" "[ $starts -ge $((2 * jobs)) ] && [ $starts = $ends ]"
check "the AMs were told AM_RESYNC and registered again" \
  '[ $(cat "$work"/nm*/logs/*/*/stdout 2>/dev/null | grep -c "registered again after AM_RESYNC") -ge 1 ]'
check "the RM recovered AM and task containers from the NMs' reports" \
  'grep -q "recovered AM container" "$work/rm.log" && grep -q "recovered a container" "$work/rm.log"'
check "container ids carry the epoch" 'ls "$work"/markers/ | grep -q "start.container_e[2-4]_"'
check "REST info names the store" 'rest /ws/v1/cluster/info | grep -q "sqlite:$store"'

# --- The store's faults (no NodeManagers: nothing runs) ----------------------------------------
kill -TERM "$rm_pid" "${nm_pids[@]}"
waitfor 10 "! kill -0 $rm_pid ${nm_pids[*]}"
size=$(stat -c %s "$store")
head -c $((size / 2)) "$store" >"$work/truncated.db"
sum=$(md5sum <"$work/truncated.db")
write_rm_conf "$work/truncated.db"
timeout 20 "$spindle" rm --conf "$work/rm" >"$work/truncated.out" 2>&1
code=$?
check "a truncated store is refused: exit 2, the file named" \
  "[ $code = 2 ] && grep -q \"$work/truncated.db\" \"$work/truncated.out\" && grep -q refusing \"$work/truncated.out\""
check "the truncated file is left as it was" '[ "$(md5sum <"$work/truncated.db")" = "$sum" ]'
cp "$store" "$work/corrupt.db"
python3 -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(4096); f.write(b'\x5a' * 3000)
" "$work/corrupt.db"
sum=$(md5sum <"$work/corrupt.db")
write_rm_conf "$work/corrupt.db"
timeout 20 "$spindle" rm --conf "$work/rm" >"$work/corrupt.out" 2>&1
code=$?
check "a corrupt store is refused: exit 2, the file named" \
  "[ $code = 2 ] && grep -q \"$work/corrupt.db\" \"$work/corrupt.out\""
check "the corrupt file is left as it was" '[ "$(md5sum <"$work/corrupt.db")" = "$sum" ]'

# A full disk: a file size limit (SIGXFSZ ignored by the RM, so the write fails with EFBIG).
# The RM's output goes through a pipe, which the limit does not cover.
write_rm_conf "$work/full.db"
(ulimit -f 256; exec "$spindle" rm --conf "$work/rm") > >(cat >"$work/full.out") 2>&1 &
full_pid=$!
pids+=("$full_pid")
waitfor 10 "rest /ws/v1/cluster/info | grep -q clusterInfo"
acked=$(python3 - "$rm_url" <<'EOF'
import json, sys, urllib.request
url = sys.argv[1]
def call(path, body):
    req = urllib.request.Request(url + path + "?user.name=tester", method="POST",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read() or b"{}")
acked = []
try:
    for i in range(2000):
        app = call("/ws/v1/cluster/apps/new-application", {})["application-id"]
        call("/ws/v1/cluster/apps", {"application-id": app, "application-name": "fill-" + "x" * 2000,
                                     "resource": {"memory": 128, "vCores": 1},
                                     "am-container-spec": {"commands": {"command": "true"}}})
        acked.append(app)
except Exception:
    pass
print(" ".join(acked))
EOF
)
waitfor 10 "! kill -0 $full_pid"
wait "$full_pid"
code=$?
n_acked=$(echo $acked | wc -w)
check "a full disk stops the RM: exit 3 after $n_acked acknowledged submissions" \
  "[ $code = 3 ] && [ $n_acked -gt 0 ] && [ $n_acked -lt 2000 ]"
check "the RM says why" 'waitfor 5 "grep -q \"the state store failed\" \"$work/full.out\" && grep -q \"without durable state\" \"$work/full.out\""'
start_rm
stored=$(field /apps '" ".join(a["id"] for a in d["apps"]["app"])')
missing=$(python3 -c 'import sys; print(len(set(sys.argv[1].split()) - set(sys.argv[2].split())))' "$acked" "$stored")
check "every acknowledged app is still in the store ($n_acked acknowledged, $missing missing)" \
  '[ "$missing" = 0 ]'
echo "daemon_restart: $fails failure(s)"
[ $fails = 0 ]
