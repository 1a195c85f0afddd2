#!/usr/bin/env bash
# `spindle sim` end to end: hand-worked job times on a tiny trace, the SLS / Rumen / SYNTH
# examples' outputs (content, not just presence), option spellings, bad input (exit 2 with the
# reason), and byte-for-byte determinism with --no-timings.
#   sim_test.sh SPINDLE SOURCE_DIR WORK_DIR
set -u
spindle=$1; src=$2; work=$3; fails=0
rm -rf "$work"; mkdir -p "$work"
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
data=$src/tests/data/sim
ex=$src/examples/sim

# --- Tiny trace, worked by hand ---------------------------------------------------------------
# conf: NM heartbeat 1 ms (every offset 0), AM heartbeat 1000 ms. mr_a (submitted at 0): AM
# container at 0; maps asked at the AM's beat at 1000 and allocated at once; they start at 2000
# (the AM's next beat) and end at 7000, reported by the node at 7000; the AM sees that at 8000 and
# asks the reduce, which starts at 9000, ends at 12000; the AM finishes at its beat at 13000.
# dag_b (submitted at 500): AM at 500; its AM starts at 1500 and asks task 0 (delay 0), which runs
# 2500-4500; task 1 (delay 2500) is due at 4000 and asked at the beat at 4500, starts at 5500,
# ends 6500; the AM finishes at 7500.
"$spindle" sim --tracetype=SLS --tracelocation="$data/tiny-jobs.json" --nodes "$data/tiny-nodes.json" \
  --conf "$data/conf" --output-dir "$work/tiny" --no-timings --quiet >"$work/tiny.out" 2>&1
check "tiny trace runs" '[ $? = 0 ]'
check "jobs.csv is the hand-worked table" 'diff <(printf "%s\n" \
  "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state" \
  "mr_a,default,ann,mapreduce,0,0,13000,0,13000,3,FINISHED" \
  "dag_b,default,ben,dag,500,500,7500,0,7000,2,FINISHED") "$work/tiny/jobs.csv"'
check "jobruntime.csv: SLS header, trace times then simulated times" 'diff <(printf "%s\n" \
  "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time" \
  "mr_a,0,14000,0,13000" "dag_b,500,,500,7500") "$work/tiny/jobruntime.csv"'
check "realtimetrack.json has one record per second up to the end (0..13)" \
  'python3 -c "import json,sys; t=json.load(open(sys.argv[1])); sys.exit(0 if [r[\"time\"] for r in t]==list(range(14)) else 1)" "$work/tiny/realtimetrack.json"'
# At 10 s: mr_a's AM and reduce run (the DAG job ended at 7.5 s): 2 containers, 2 GB of 8 GB.
check "realtimetrack at 10 s: 2 containers, 2 GB allocated, 6 GB available, 1 app running" \
  'python3 - "$work/tiny/realtimetrack.json" <<PY
import json, sys
r = json.load(open(sys.argv[1]))[10]
ok = (r["running.containers"] == 2 and r["cluster.allocated.memory"] == 2 and
      r["cluster.available.memory"] == 6 and r["running.applications"] == 1 and
      r["completed.applications"] == 1 and r["queue.default.allocated.memory"] == 2)
sys.exit(0 if ok else 1)
PY'
check "--no-timings leaves out timecost keys and sampler files" \
  '! grep -q timecost "$work/tiny/realtimetrack.json" && ! ls "$work/tiny/metrics" | grep -q sampler'
check "variable.running.container.csv: t,value rows, 2 at t=10" \
  'head -1 "$work/tiny/metrics/variable.running.container.csv" | grep -qx "t,value" &&
   grep -qx "10,2" "$work/tiny/metrics/variable.running.container.csv"'

# --- The examples ---------------------------------------------------------------------------------
run_example() {  # name type location [extra args]
  local name=$1 type=$2 loc=$3; shift 3
  "$spindle" sim --tracetype "$type" --tracelocation "$loc" --conf "$ex/$name" \
    --output-dir "$work/$name" --print-simulation --quiet "$@" >"$work/$name.out" 2>&1
}
run_example sls SLS "$ex/sls/jobs.json" --nodes "$ex/sls/nodes.json" --track-jobs job_etl_1 --decision-log
check "SLS example runs" '[ $? = 0 ]'
run_example rumen RUMEN "$ex/rumen/rumen-jobs.json"
check "Rumen example runs" '[ $? = 0 ]'
run_example synth SYNTH "$ex/synth/synth.json"
check "SYNTH example runs" '[ $? = 0 ]'
for name in sls rumen synth; do
  check "$name: jobruntime.csv header" \
    'head -1 "$work/$name/jobruntime.csv" | grep -qx "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time"'
  check "$name: every job FINISHED with end >= start >= submit, wait and runtime consistent" \
    'python3 - "$work/$name/jobs.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = len(rows) > 0
for r in rows:
    s, st, e = int(r["submit_ms"]), int(r["start_ms"]), int(r["end_ms"])
    ok &= r["state"] == "FINISHED" and s <= st <= e
    ok &= int(r["wait_ms"]) == st - s and int(r["runtime_ms"]) == e - st
sys.exit(0 if ok else 1)
PY'
  check "$name: realtimetrack allocated <= total, running containers >= 0, SLS keys present" \
    'python3 - "$work/$name/realtimetrack.json" <<PY
import json, sys
t = json.load(open(sys.argv[1]))
keys = ["time", "running.applications", "running.containers", "cluster.allocated.memory",
        "cluster.allocated.vcores", "cluster.available.memory", "cluster.available.vcores",
        "scheduler.allocate.timecost", "scheduler.handle.timecost",
        "scheduler.commit.success.throughput", "cluster.pending.memory", "pending.applications"]
ok = len(t) > 1 and all(all(k in r for k in keys) for r in t)
total = t[0]["cluster.allocated.memory"] + t[0]["cluster.available.memory"]
for r in t:
    ok &= 0 <= r["cluster.allocated.memory"] <= total and r["cluster.available.memory"] >= 0
    ok &= r["running.containers"] >= 0
ok &= max(r["running.containers"] for r in t) > 0 and t[-1]["completed.applications"] > 0
sys.exit(0 if ok else 1)
PY'
  queue=default; [ $name = sls ] && queue=prod  # the SLS example runs the Capacity Scheduler
  check "$name: metrics CSVs exist with positive allocations at some point" \
    'for f in variable.cluster.allocated.memory variable.running.application nodes.memory.0-10 \
              counter.queue.$queue.allocated.memory sampler.scheduler.operation.handle.timecost; do
       [ -s "$work/$name/metrics/$f.csv" ] || exit 1; done &&
     awk -F, "NR>1 && \$2>0 {found=1} END {exit !found}" "$work/$name/metrics/variable.cluster.allocated.memory.csv"'
done
check "SLS example: job counts (job.count 2 gives 6 jobs) and tracked job files" \
  '[ $(($(wc -l <"$work/sls/jobs.csv") - 1)) = 6 ] &&
   [ -s "$work/sls/metrics/variable.app.job_etl_1.live.containers.csv" ] &&
   [ -s "$work/sls/metrics/variable.app.job_etl_1.reserved.containers.csv" ]'
check "SLS example: decisions.jsonl has one allocation per container" \
  '[ "$(grep -c "\"kind\":\"allocate\"" "$work/sls/decisions.jsonl")" = \
     "$(grep "containers:" "$work/sls.out" | sed "s/[^0-9]*\([0-9]*\) allocated.*/\1/")" ]'
check "report.html is written and lists every job of the SLS example" \
  'for id in job_etl_1 job_report_2 job_adhoc_3_1 job_adhoc_3_2 job_stream_4 job_dag_5; do
     grep -q "$id" "$work/sls/report.html" || exit 1; done && grep -q "<svg" "$work/sls/report.html"'
check "--print-simulation prints makespan and sim/real ratio" \
  'grep -q "^makespan:" "$work/sls.out" && grep -q "^sim/real ratio:" "$work/sls.out"'

# --- Option spellings and --until ------------------------------------------------------------------
"$spindle" sim --input-sls="$data/tiny-jobs.json" --nodes="$data/tiny-nodes.json" --conf="$data/conf" \
  --output-dir="$work/alias" --no-timings --quiet >/dev/null 2>&1
check "deprecated --input-sls= gives the same jobs.csv" 'diff -q "$work/tiny/jobs.csv" "$work/alias/jobs.csv" >/dev/null'
"$spindle" sim --tracetype SLS --tracelocation "$data/tiny-jobs.json" --nodes "$data/tiny-nodes.json" \
  --conf "$data/conf" --output-dir "$work/until" --until 10s --quiet >/dev/null 2>&1
check "--until 10s: mr_a still RUNNING, dag_b FINISHED, last record at 10 s" \
  'grep -q "^mr_a,default,ann,mapreduce,0,0,,0,,3,RUNNING$" "$work/until/jobs.csv" &&
   grep -q "^dag_b,.*,FINISHED$" "$work/until/jobs.csv" &&
   python3 -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))[-1][\"time\"]==10 else 1)" "$work/until/realtimetrack.json"'

# --- Bad input -------------------------------------------------------------------------------------
expect_error() {  # description pattern args...
  local what=$1 pattern=$2; shift 2
  "$spindle" sim "$@" >"$work/err.out" 2>&1; local code=$?
  check "$what: exit 2 and says so" '[ $code = 2 ] && grep -q -- "$pattern" "$work/err.out"'
}
expect_error "unknown --tracetype" "unknown trace type 'FOO'" \
  --tracetype FOO --tracelocation "$data/tiny-jobs.json" --output-dir "$work/bad"
expect_error "unreadable trace file" "no-such.json" \
  --tracetype SLS --tracelocation "$work/no-such.json" --output-dir "$work/bad"
expect_error "bad XML in --conf" "sls-runner.xml:4" \
  --tracetype SLS --tracelocation "$data/tiny-jobs.json" --conf "$data/badxml" --output-dir "$work/bad"
expect_error "bad job names its index and field" "job #2 (id bad).*container.duration.ms" \
  --tracetype SLS --tracelocation "$data/bad-job.json" --output-dir "$work/bad"
expect_error "--until without a unit it knows" "unknown unit" \
  --tracetype SLS --tracelocation "$data/tiny-jobs.json" --until 5y --output-dir "$work/bad"
expect_error "--track-jobs naming no job" "no job 'nope'" \
  --tracetype SLS --tracelocation "$data/tiny-jobs.json" --track-jobs nope --output-dir "$work/bad"
"$spindle" sim --tracetype SLS --tracelocation "$data/bad-job.json" --output-dir "$work/skip" \
  --skip-bad-jobs --print-simulation --quiet >"$work/skip.out" 2>"$work/skip.err"
check "--skip-bad-jobs runs the rest and reports the count" \
  '[ $? = 0 ] && grep -q "skipped 1 bad job" "$work/skip.err" && grep -q "^skipped jobs: *1" "$work/skip.out" &&
   [ $(($(wc -l <"$work/skip/jobs.csv") - 1)) = 1 ]'

# --- Determinism -----------------------------------------------------------------------------------
for run in a b; do
  "$spindle" sim --tracetype SYNTH --tracelocation "$ex/synth/synth.json" --conf "$ex/synth" \
    --output-dir "$work/det-$run" --seed 5 --no-timings --decision-log --quiet >/dev/null 2>&1
done
"$spindle" sim --tracetype SYNTH --tracelocation "$ex/synth/synth.json" --conf "$ex/synth" \
  --output-dir "$work/det-c" --seed 6 --no-timings --quiet >/dev/null 2>&1
"$spindle" sim --tracetype SYNTH --tracelocation "$ex/synth/synth.json" --conf "$ex/synth" \
  --output-dir "$work/det-naive" --seed 5 --no-timings --decision-log --no-heartbeat-skip --quiet >/dev/null 2>&1
check "same seed: every output file byte-identical (report.html included)" \
  '[ -s "$work/det-a/report.html" ] && diff -r "$work/det-a" "$work/det-b" >/dev/null'
check "other seed: a different SYNTH workload" '! diff -q "$work/det-a/jobs.csv" "$work/det-c/jobs.csv" >/dev/null'
check "heartbeat skipping changes no output (decision log included)" \
  'diff -r "$work/det-a" "$work/det-naive" >/dev/null'
# Fair Scheduler: reservations, preemption (kills, held room), locality delay, maxRunningApps, a
# dynamic queue and an idle gap before the last two jobs. FairScheduler's hasPendingDemand /
# emptyHeartbeatIsNoop must skip only heartbeats that change nothing (a reservation left without
# asks is dropped on its node's next heartbeat, so that heartbeat is not skippable).
fair=$data/fair
for mode in skip naive; do
  extra=""; [ $mode = naive ] && extra=--no-heartbeat-skip
  "$spindle" sim --tracetype SLS --tracelocation "$fair/jobs.json" --nodes "$fair/nodes.json" --conf "$fair" \
    --output-dir "$work/fair-$mode" --seed 3 --no-timings --decision-log --print-simulation --quiet $extra \
    >"$work/fair-$mode.out" 2>&1
done
check "fair: runs with reservations and preemption kills" \
  'grep -q "\"kind\":\"reserve\"" "$work/fair-skip/decisions.jsonl" && grep -q "\"kind\":\"preempt-mark\"" "$work/fair-skip/decisions.jsonl"'
check "fair: some heartbeats skipped" 'grep -Eq "NM heartbeats processed, [1-9][0-9]* skipped" "$work/fair-skip.out"'
check "fair: heartbeat skipping changes no output (decision log included)" \
  'diff -r "$work/fair-skip" "$work/fair-naive" >/dev/null'
# SLS's FairSchedulerMetrics gauges per queue: demand, usage, min/max/fair share, MB and vcores.
# The cluster is 8 x 8 GB; prod's minResources is 64 GB; no queue has a maximum (the gauge shows
# the cluster); a queue's usage is its allocation; demand and fair share (from the scheduler's
# update pass) are not all zero.
fm=$work/fair-skip/metrics
check "fair: every per-queue share gauge, memory and vcores" 'for q in prod dev adhoc; do
  for m in demand usage minshare maxshare fairshare; do for r in memory vcores; do
    head -1 "$fm/variable.queue.$q.$m.$r.csv" | grep -qx "t,value" || exit 1; done; done; done'
check "fair: min share is the configured minResources, max share the cluster" \
  '[ "$(tail -n +2 "$fm/variable.queue.prod.minshare.memory.csv" | cut -d, -f2 | sort -u)" = 65536 ] &&
   [ "$(tail -n +2 "$fm/variable.queue.prod.minshare.vcores.csv" | cut -d, -f2 | sort -u)" = 64 ] &&
   [ "$(tail -n +2 "$fm/variable.queue.dev.minshare.memory.csv" | cut -d, -f2 | sort -u)" = 0 ] &&
   [ "$(tail -n +2 "$fm/variable.queue.dev.maxshare.memory.csv" | cut -d, -f2 | sort -u)" = 65536 ]'
check "fair: usage is the queue allocation, demand covers it, fair shares are computed" \
  '[ "$(join -t, <(tail -n +2 "$fm/variable.queue.dev.usage.memory.csv" | sort -t, -k1,1) \
              <(tail -n +2 "$fm/counter.queue.dev.allocated.memory.csv" | sort -t, -k1,1) |
         awk -F, "\$2 != \$3 { bad++ } END { print (NR > 100 && bad == 0) }")" = 1 ] &&
   tail -n +2 "$fm/variable.queue.dev.demand.memory.csv" | cut -d, -f2 | grep -qv "^0$" &&
   tail -n +2 "$fm/variable.queue.prod.fairshare.memory.csv" | cut -d, -f2 | grep -qv "^0$"'
# run.json: what ran and the container totals, which add up; the report shows them, the Fair
# Scheduler's preemption per queue, each queue's configured shares on its allocation chart and
# its share of the cluster.
check "fair: run.json names the run and its container totals add up" 'python3 - "$work/fair-skip/run.json" "$fair" <<"PY"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["scheduler"] == "FairScheduler", r
assert r["configuration"] == sys.argv[2] and r["trace"].endswith("jobs.json") and r["trace_type"] == "SLS"
assert r["seed"] == 3 and r["version"], r
c = r["containers"]
assert c["allocated"] > c["am"] > 0, c
assert c["allocated"] == c["completed"] + c["released"] + c["killed"] + c["running_at_end"], c
assert 0 < c["preempted"] <= c["killed"], c
PY'
fr=$work/fair-skip/report.html
check "fair report: run table, preemption per queue, configured shares, share of cluster" \
  'grep -q "<td>Scheduler</td><td>FairScheduler</td>" "$fr" && grep -q "<td>Seed</td><td>3</td>" "$fr" &&
   grep -q "<span id=\"containers-allocated\">" "$fr" &&
   grep -q "id=\"preemption-by-queue\"" "$fr" && grep -q "<th>killed as preempted</th>" "$fr" &&
   grep -q "id=\"chart-queue-detail-prod\"" "$fr" &&
   sed -n "/id=\"chart-queue-detail-prod\"/,/<\/svg>/p" "$fr" | grep -q ">fair share</text>" &&
   sed -n "/id=\"chart-queue-detail-prod\"/,/<\/svg>/p" "$fr" | grep -q ">guarantee</text>" &&
   grep -q "<th>mean share of cluster</th>" "$fr" && grep -q "<tr><td>prod</td><td>64.000</td>" "$fr"'
check "print-simulation: container counts add up" 'python3 - "$work/fair-skip.out" <<"PY"
import re, sys
m = re.search(r"containers: +(\d+) allocated \((\d+) AM, (\d+) task\) = (\d+) completed \+ (\d+) released \+ (\d+) killed \((\d+) preempted\) \+ (\d+) running", open(sys.argv[1]).read())
a, am, task, done, rel, killed, pre, run = map(int, m.groups())
assert a == am + task == done + rel + killed + run and pre <= killed, m.groups()
PY'
# --- What a new user tries -------------------------------------------------------------------------
# examples/sim/sls selects the Capacity Scheduler, so a capacity changed in its folder changes the
# run (examples/sim/README.md says to try it).
cp -r "$ex/sls" "$work/sls-conf"
sed -i -e '/root.prod.capacity</s/>50</>65</' -e '/root.adhoc.capacity</s/>20</>5</' \
  -e '/root.adhoc.maximum-capacity</s/>50</>5</' "$work/sls-conf/capacity-scheduler.xml"
"$spindle" sim --tracetype SLS --tracelocation "$ex/sls/jobs.json" --nodes "$ex/sls/nodes.json" \
  --conf "$work/sls-conf" --output-dir "$work/sls-edited" --no-timings --quiet >/dev/null 2>&1
check "examples/sim/sls: a smaller adhoc capacity changes the adhoc jobs' times" \
  'grep -q CapacityScheduler "$ex/sls/yarn-site.xml" &&
   [ -s "$work/sls-edited/jobs.csv" ] && ! diff -q <(grep adhoc "$work/sls/jobs.csv") \
     <(grep adhoc "$work/sls-edited/jobs.csv") >/dev/null'
# The nodes-file example of docs/trace-formats.md, as printed there, parses.
python3 - "$src/docs/trace-formats.md" >"$work/doc-nodes.json" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = text[text.index("## Nodes file"):]
print(re.search(r"```json\n(.*?)```", section, re.S).group(1))
PY
"$spindle" sim --tracetype SLS --tracelocation "$data/tiny-jobs.json" --nodes "$work/doc-nodes.json" \
  --conf "$data/conf" --output-dir "$work/doc-nodes" --no-timings --quiet >"$work/doc-nodes.out" 2>&1
check "docs/trace-formats.md: the nodes-file example parses and runs" \
  '[ $? = 0 ] || cat "$work/doc-nodes.out"'
# Misspelled settings are warned about with the nearest known name; the run goes on.
cp -r "$data/conf" "$work/typo-conf"
sed -i 's/scheduler.fifo.FifoScheduler/scheduler.capacity.CapacityScheduler/' "$work/typo-conf/yarn-site.xml"
cat >"$work/typo-conf/capacity-scheduler.xml" <<'XML'
<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>
  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.root.default.user-limit-factr</name><value>2</value></property>
  <property><name>spindle.sls.max-containers-per-jb</name><value>5</value></property>
</configuration>
XML
"$spindle" sim --tracetype SLS --tracelocation "$data/tiny-jobs.json" --nodes "$data/tiny-nodes.json" \
  --conf "$work/typo-conf" --output-dir "$work/typo" --no-timings >/dev/null 2>"$work/typo.err"
check "misspelled capacity and spindle keys: warnings with the near miss, exit 0" \
  '[ $? = 0 ] && grep -q "^warning: .*user-limit-factr.*did you mean .user-limit-factor.?" "$work/typo.err" &&
   grep -q "^warning: .spindle.sls.max-containers-per-jb. is not a setting.*did you mean .spindle.sls.max-containers-per-job.?" "$work/typo.err"'
mkdir -p "$work/typo-fair"
cat >"$work/typo-fair/yarn-site.xml" <<'XML'
<configuration><property><name>yarn.resourcemanager.scheduler.class</name>
<value>org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler</value></property></configuration>
XML
cat >"$work/typo-fair/fair-scheduler.xml" <<'XML'
<allocations>
  <queue name="default"><weigth>2</weigth></queue>
</allocations>
XML
"$spindle" sim --tracetype SLS --tracelocation "$data/tiny-jobs.json" --nodes "$data/tiny-nodes.json" \
  --conf "$work/typo-fair" --output-dir "$work/typo-f" --no-timings >/dev/null 2>"$work/typo-f.err"
check "unknown allocation-file element: YARN's warning with file, line and element, exit 0" \
  '[ $? = 0 ] && grep -q "^warning: .*fair-scheduler.xml:2: <weigth>.*Bad element in allocations file" "$work/typo-f.err"'
check "make demo: the last line says where the report is" \
  'make -n --no-print-directory -C "$src" demo 2>/dev/null | tail -1 | grep -q "report: build/demo/report.html"'
exit $((fails > 0))
