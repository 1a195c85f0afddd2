#!/usr/bin/env bash
# Slurm and Spindle side by side on this machine: N one-task jobs that each run `true` in a real
# process, first on Slurm (one slurmctld, four `slurmd -N n1..n4`, Slurm's best scheduling
# settings), then on Spindle (one `spindle rm`, four `spindle nm`, each job an application whose
# AM, bench/bench_am.cc, registers, runs /bin/true and unregisters). Prints jobs started per
# second, completed per second and the controller's (slurmctld's, the RM's) CPU-ms per job, with
# the ratios (bench/README.md, "Slurm side by side").
#   bench/slurm_side_by_side.sh [spindle binary] [jobs]      (make bench-slurm)
# Every daemon binds to 127.0.0.1 on free ports, keeps its state under a temporary folder and is
# stopped by PID. Needs Debian's slurmctld, slurmd and slurm-client (make bench-slurm-deps).
# KEEP_WORK=1 keeps the folder (logs, job records); SKIP_SLURM=1 runs Spindle only;
# SPINDLE_FIRST=1 runs Spindle before Slurm; PAUSE_S idle seconds in between (60); PERF=1
# records the RM with perf from the first submission to the last completion (report in
# <work>/spindle/perf.txt, with KEEP_WORK=1).
#
# How each figure is taken (the same way for both systems):
# - the jobs are all queued before the cluster may run them (Slurm: the partition is DOWN;
#   Spindle: no NodeManager is running); T0 is the moment it may (the partition set UP; the
#   NodeManagers started);
# - a start is the controller's allocation (Slurm's "sched: Allocate JobId=" log line, Spindle's
#   launchTime); an end is the job's completion (Slurm's "_job_complete: JobId=N done" line;
#   Spindle's finishedTime, set when the AM unregisters after /bin/true exited 0);
# - started/s = (N - 1) / (last start - first start) and completed/s = (N - 1) / (last end -
#   first start), the steady rates; the table adds, in brackets, N / (last start or end - T0);
#   Spindle's AM process starts (the time each AM logged first) give one more rate;
# - controller CPU-ms per job = (utime + stime of slurmctld or the RM, from /proc/<pid>/stat,
#   from before the first submission to after the last completion) / N; the node daemons' own
#   CPU (slurmd, the NMs, without their children) likewise.
set -u
spindle=$(realpath "${1:-build/spindle}")
jobs=${2:-2000}
hz=$(getconf CLK_TCK)
# Debian's python3 (a pyenv shim on the PATH costs a bash script per call).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
work=$(mktemp -d /tmp/spindle-slurm-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
  sleep 0.5
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  [ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
die() {
  echo "slurm_side_by_side: $*" >&2
  exit 1
}
source "$(dirname "${BASH_SOURCE[0]}")/../tests/wait_lib.sh"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# node_ticks PID...: the summed utime + stime of the node daemons themselves (not their jobs).
node_ticks() {
  local t=0 p
  for p in "$@"; do t=$((t + $(cpu_ticks "$p"))); done
  echo "$t"
}
now() { $py -c 'import time; print(time.time())'; }
# wait_done file PATH | rm PORT: polls every 0.2 s, from one process (a shell loop forking
# curl and python each time would cost the machine more than the jobs do), until $jobs jobs
# ended (jobs COMPLETED in Slurm's job completion file; the RM's ended apps) or
# 900 s passed; prints how many ended.
wait_done() {
  $py - "$1" "$2" "$jobs" <<'EOF'
import http.client, json, sys, time
kind, where, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
conn = http.client.HTTPConnection("127.0.0.1", int(where), timeout=30) if kind == "rm" else None
def count():
    if conn is None:
        try:
            with open(where) as f:  # a requeued job has a record per run: count jobs
                return len({line.split()[0] for line in f if "JobState=COMPLETED" in line})
        except OSError:
            return 0
    conn.request("GET", "/ws/v1/cluster/metrics")
    m = json.loads(conn.getresponse().read())["clusterMetrics"]
    return m["appsCompleted"] + m["appsFailed"] + m["appsKilled"]
end, done = time.time() + 900, 0
while time.time() < end:
    done = count()
    if done >= n:
        break
    time.sleep(0.2)
print(done)
EOF
}
[ -x "$spindle" ] || die "no spindle binary at $spindle (make build)"
# The AM of every Spindle job (bench/bench_am.cc): registers, runs /bin/true, unregisters.
am=$(dirname "$spindle")/bench/spindle_bench_am
[ -x "$am" ] || die "no AM binary at $am (make build)"
for b in slurmctld slurmd sbatch scontrol squeue; do
  command -v "$b" >/dev/null || die "$b is not installed (make bench-slurm-deps)"
done
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the run"

# ---------------------------------------------------------------- Slurm ----
run_slurm() {
  local s=$work/slurm
  mkdir -p "$s/state" "$s/spool"
  local ctld_port node_ports=()
  ctld_port=$(freeport)
  for n in 1 2 3 4; do node_ports+=("$(freeport)"); done
  # Slurm's best scheduling settings here (sched/builtin, deep queue, no minimum interval);
  # auth/none keeps munge out (every daemon is on loopback); no accounting.
  cat >"$s/slurm.conf" <<EOF
ClusterName=bench
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool/%n
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.%n.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=default_queue_depth=5000,sched_min_interval=0,max_sched_time=10
JobCompType=jobcomp/filetxt
JobCompLoc=$s/jobcomp.txt
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmdParameters=config_overrides
BatchStartTimeout=600
MessageTimeout=60
ReturnToService=2
MaxJobCount=100000
SlurmctldDebug=info
SlurmdDebug=info
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=${node_ports[0]} CPUs=512 State=UNKNOWN
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=${node_ports[1]} CPUs=512 State=UNKNOWN
NodeName=n3 NodeHostname=localhost NodeAddr=127.0.0.1 Port=${node_ports[2]} CPUs=512 State=UNKNOWN
NodeName=n4 NodeHostname=localhost NodeAddr=127.0.0.1 Port=${node_ports[3]} CPUs=512 State=UNKNOWN
PartitionName=main Nodes=n[1-4] Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$s/slurm.conf
  slurmctld -D -i -f "$s/slurm.conf" >"$s/slurmctld.out" 2>&1 &
  local ctld=$!
  pids+=("$ctld")
  local nodes=()
  for n in 1 2 3 4; do
    slurmd -D -N "n$n" -f "$s/slurm.conf" >"$s/slurmd.n$n.out" 2>&1 &
    pids+=("$!")
    nodes+=("$!")
  done
  waitfor 30 "[ \$(sinfo -h -t idle -o %D 2>/dev/null | awk '{s+=\$1} END {print s+0}') = 4 ]" ||
    die "Slurm: the four nodes did not become idle in 30 s (see $s/*.log)"
  # Queue every job with the partition DOWN, then let it run (T0).
  scontrol update PartitionName=main State=DOWN || die "Slurm: scontrol update failed"
  mkdir -p "$s/out"
  local cpu0 node0 i
  cpu0=$(cpu_ticks "$ctld")
  node0=$(node_ticks "${nodes[@]}")
  for ((i = 0; i < jobs; i++)); do
    sbatch -Q -o /dev/null -e /dev/null --wrap true || die "Slurm: sbatch failed at job $i"
  done
  local t0
  t0=$(now)
  scontrol update PartitionName=main State=UP
  local done_count
  done_count=$(wait_done file "$s/jobcomp.txt")
  local cpu1 node1
  cpu1=$(cpu_ticks "$ctld")
  node1=$(node_ticks "${nodes[@]}")
  [ "${done_count:-0}" -ge "$jobs" ] || die "Slurm: only $done_count of $jobs jobs completed in 900 s"
  # Under load slurmd may fail to confirm a batch launch in MessageTimeout: Slurm requeues the
  # job (a NODE_FAIL record) and runs it again; the count is reported.
  local requeued
  requeued=$(grep -vc 'JobState=COMPLETED' "$s/jobcomp.txt" || true)
  echo "requeued=${requeued:-0}" >"$work/slurm.requeued"
  $py - "$s/slurmctld.log" "$t0" "$jobs" "$((cpu1 - cpu0))" "$((node1 - node0))" "$hz" >"$work/slurm.result" <<'EOF'
import re, sys, datetime
log, t0, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
ticks, node_ticks, hz = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
ts = re.compile(r'^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)\]')
starts, ends = {}, {}
for line in open(log, errors="replace"):
    m = ts.match(line)
    if not m:
        continue
    t = datetime.datetime.fromisoformat(m.group(1)).timestamp()
    a = re.search(r'sched: Allocate JobId=(\d+)', line)
    if a:
        starts[a.group(1)] = t
    e = re.search(r'_job_complete: JobId=(\d+) done', line)
    if e:
        ends[e.group(1)] = t
if len(starts) < n or len(ends) < n:
    sys.exit(f"Slurm: the log shows {len(starts)} allocations and {len(ends)} completions of {n}")
first, last_start, last_end = min(starts.values()), max(starts.values()), max(ends.values())
print(f"system=Slurm jobs={n} first_start_s={first - t0:.3f}")
print(f"started_t0={n / (last_start - t0):.1f} completed_t0={n / (last_end - t0):.1f}")
print(f"started={(n - 1) / max(last_start - first, 1e-3):.1f} completed={(n - 1) / max(last_end - first, 1e-3):.1f}")
print(f"ctld_ms={ticks * 1000.0 / hz / n:.3f} node_ms={node_ticks * 1000.0 / hz / n:.3f}")
EOF
  [ -s "$work/slurm.result" ] || die "Slurm: no result (see $s/slurmctld.log)"
  cat "$work/slurm.requeued" >>"$work/slurm.result"
  unset SLURM_CONF
}


# -------------------------------------------------------------- Spindle ----
run_spindle() {
  local s=$work/spindle
  mkdir -p "$s/rm"
  local port
  port=$(freeport)
  # Each node holds 512 AMs of <64 MB, 1 vcore> (the Capacity Scheduler counts memory), as each
  # slurmd declares 512 CPUs. AMs may use the whole cluster; a node heartbeat places as many
  # containers as fit.
  cat >"$s/rm/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.scheduler.minimum-allocation-mb</name><value>64</value></property>
  <property><name>yarn.resourcemanager.nodemanagers.heartbeat-interval-ms</name><value>${SPINDLE_HEARTBEAT_MS:-1000}</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>1.0</value></property>
  <property><name>yarn.scheduler.capacity.maximum-applications</name><value>100000</value></property>
  <property><name>yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments</name><value>-1</value></property>
  <property><name>yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments</name><value>100000</value></property>
</configuration>
EOF
  for n in 1 2 3 4; do
    mkdir -p "$s/nm$n"
    cat >"$s/nm$n/yarn-site.xml" <<EOF
<configuration>
  <property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:$port</value></property>
  <property><name>yarn.nodemanager.webapp.address</name><value>127.0.0.1:0</value></property>
  <property><name>yarn.nodemanager.resource.memory-mb</name><value>32768</value></property>
  <property><name>yarn.nodemanager.resource.cpu-vcores</name><value>512</value></property>
  <property><name>yarn.nodemanager.log-dirs</name><value>$s/nm$n/logs</value></property>
  <property><name>yarn.nodemanager.local-dirs</name><value>$s/nm$n/local</value></property>
  <property><name>spindle.nodemanager.allow-root</name><value>true</value></property>
</configuration>
EOF
  done
  "$spindle" rm --conf "$s/rm" >"$s/rm.out" 2>"$s/rm.log" &
  local rmpid=$!
  pids+=("$rmpid")
  waitfor 30 "curl -sf http://127.0.0.1:$port/ws/v1/cluster/info" ||
    die "Spindle: the RM did not answer in 30 s (see $s/rm.log)"
  # Queue every application before any NodeManager runs (T0 is when they start).
  local cpu0 perfpid=
  cpu0=$(cpu_ticks "$rmpid")
  if [ "${PERF:-0}" = 1 ]; then
    perf record -g -F 999 -p "$rmpid" -o "$s/perf.data" >/dev/null 2>&1 &
    perfpid=$!
  fi
  $py - "$port" "$jobs" "$am" <<'EOF' || die "Spindle: submission failed"
import http.client, json, sys
port, n, am = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
def post(path, body):
    c.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    r = c.getresponse()
    data = r.read()
    if r.status not in (200, 202):
        sys.exit(f"POST {path}: HTTP {r.status}: {data[:300]!r}")
    return json.loads(data) if data else {}
for i in range(n):
    app = post("/ws/v1/cluster/apps/new-application", {})["application-id"]
    post("/ws/v1/cluster/apps", {
        "application-id": app, "application-name": "true", "queue": "default",
        "application-type": "YARN", "resource": {"memory": 64, "vCores": 1},
        "am-container-spec": {"commands": {"command": f"exec {am}"}}})
EOF
  local t0 n
  t0=$(now)
  local nodes=()
  for n in 1 2 3 4; do
    "$spindle" nm --conf "$s/nm$n" >"$s/nm$n.out" 2>"$s/nm$n.log" &
    pids+=("$!")
    nodes+=("$!")
  done
  local done_count
  done_count=$(wait_done rm "$port")
  local cpu1 node1
  cpu1=$(cpu_ticks "$rmpid")
  node1=$(node_ticks "${nodes[@]}")
  if [ -n "$perfpid" ]; then
    kill -INT "$perfpid"
    wait "$perfpid"
    perf report -i "$s/perf.data" --no-children --percent-limit 0.5 --stdio 2>/dev/null |
      grep -v '^$' >"$s/perf.txt"
  fi
  [ "${done_count:-0}" -ge "$jobs" ] || die "Spindle: only $done_count of $jobs apps ended in 900 s"
  curl -sf "http://127.0.0.1:$port/ws/v1/cluster/apps" >"$s/apps.json" || die "Spindle: GET apps failed"
  $py - "$s" "$t0" "$jobs" "$((cpu1 - cpu0))" "$node1" "$hz" >"$work/spindle.result" <<'EOF'
import glob, json, sys
s, t0, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
ticks, node_ticks, hz = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
apps = json.load(open(f"{s}/apps.json"))["apps"]["app"]
bad = [a["id"] for a in apps if a["state"] != "FINISHED" or a["finalStatus"] != "SUCCEEDED"]
if len(apps) != n or bad:
    sys.exit(f"Spindle: {len(apps)} apps, not SUCCEEDED: {bad[:5]}")
launch = [a["launchTime"] / 1000.0 for a in apps]
fin = [a["finishedTime"] / 1000.0 for a in apps]
procs = []
for f in glob.glob(f"{s}/nm*/logs/*/*/stdout"):
    for line in open(f):
        if line.startswith("am-start "):
            procs.append(float(line.split()[1]))
if len(procs) != n:
    sys.exit(f"Spindle: {len(procs)} AM processes logged their start, expected {n}")
first = min(launch)
print(f"system=Spindle jobs={n} first_start_s={first - t0:.3f}")
print(f"started_t0={n / (max(launch) - t0):.1f} completed_t0={n / (max(fin) - t0):.1f}")
print(f"started={(n - 1) / max(max(launch) - first, 1e-3):.1f} completed={(n - 1) / max(max(fin) - first, 1e-3):.1f}")
print(f"am_processes={(n - 1) / max(max(procs) - first, 1e-3):.1f}")
print(f"ctld_ms={ticks * 1000.0 / hz / n:.3f} node_ms={node_ticks * 1000.0 / hz / n:.3f}")
EOF
  [ -s "$work/spindle.result" ] || die "Spindle: no result (see $s/rm.log)"
}

# One after the other, with the machine left idle for PAUSE_S seconds in between (default 60):
# on this VM a system run straight after the other's minutes of load measured up to 20 %
# slower. SPINDLE_FIRST=1 runs Spindle first.
pause() {
  echo "idle for ${PAUSE_S:-60} s between the two systems (PAUSE_S)"
  sleep "${PAUSE_S:-60}"
}
if [ "${SKIP_SLURM:-0}" = 1 ]; then
  run_spindle
elif [ "${SPINDLE_FIRST:-0}" = 1 ]; then
  run_spindle
  pause
  run_slurm
else
  run_slurm
  pause
  run_spindle
fi
$py - "$work" <<'EOF'
import sys
def read(name):
    try:
        text = open(f"{sys.argv[1]}/{name}.result").read().split()
    except OSError:
        return None
    return dict(kv.split("=", 1) for kv in text)
rows = [r for r in (read("slurm"), read("spindle")) if r]
print()
print("started/s and completed/s: from the first job start (steady rate) and, in brackets, from T0")
print("(the moment the queued jobs may run). CPU-ms per job: the controller (slurmctld, the RM) and")
print("the node daemons' own CPU (slurmd, the NMs; not the jobs' processes).")
print(f"{'system':<8} {'jobs':>5} {'started/s':>18} {'completed/s':>18} {'ctrl CPU-ms/job':>16} {'node CPU-ms/job':>16}")
for r in rows:
    print(f"{r['system']:<8} {r['jobs']:>5} {r['started'] + ' (' + r['started_t0'] + ')':>18} "
          f"{r['completed'] + ' (' + r['completed_t0'] + ')':>18} {r['ctld_ms']:>16} {r['node_ms']:>16}")
if len(rows) == 2:
    a, b = rows
    def ratio(k):
        return float(b[k]) / max(float(a[k]), 1e-9)
    print(f"Spindle/Slurm: started {ratio('started'):.1f}x ({ratio('started_t0'):.1f}x), "
          f"completed {ratio('completed'):.1f}x ({ratio('completed_t0'):.1f}x), "
          f"controller CPU per job {float(a['ctld_ms']) / max(float(b['ctld_ms']), 1e-9):.1f}x less")
for r in rows:
    if int(r.get("requeued", "0")) > 0:
        print(f"Slurm: {r['requeued']} batch launches failed and were requeued (then completed)")
    if "am_processes" in r:
        print(f"Spindle: AM processes started {r['am_processes']}/s (first allocation to the last AM's own start)")
print(f"machine: {' '.join(open('/proc/loadavg').read().split()[:3])} load average after the run")
EOF
