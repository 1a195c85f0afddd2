#!/usr/bin/env bash
# `spindle sim` on hostile inputs and what it tells the user: malformed numbers and types in
# every input kind, deep nesting, sizes and times beyond the limits (exit 2 with file, position
# or job, and field; never an abort), the end-of-run summary on stderr, --fail-on-rejected,
# unknown queues, kill reasons, and the --output-dir reuse rule (--overwrite).
#   sim_inputs_test.sh SPINDLE SOURCE_DIR WORK_DIR
set -u
spindle=$1; src=$2; work=$3; fails=0
rm -rf "$work"; mkdir -p "$work"
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi; }
data=$src/tests/data/sim
ex=$src/examples
n=0
# expect_error description pattern args...: exit 2 (not a signal) and the message matches.
expect_error() {
  local what=$1 pattern=$2; shift 2
  n=$((n+1))
  timeout 60 "$spindle" sim "$@" --output-dir "$work/err$n" --quiet >"$work/err$n.out" 2>&1
  local code=$?
  check "$what: exit 2 and says so" '[ $code = 2 ] && grep -q -- "$pattern" "$work/err$n.out" ||
    { echo "    exit $code:"; head -c 600 "$work/err$n.out" | sed "s/^/    /"; false; }'
}
sls() { echo --tracetype SLS --tracelocation "$1"; }

# --- Malformed numbers and types in every input kind --------------------------------------------
sed 's/"container.duration.ms": 5000/"container.duration.ms": 1e999/' "$data/tiny-jobs.json" >"$work/overflow-jobs.json"
expect_error "1e999 in an SLS trace" "overflow-jobs.json:8:.*number overflow parsing '1e999' (field 'container.duration.ms')" \
  $(sls "$work/overflow-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf"
sed '0,/"memory-mb": [0-9]*/s//"memory-mb": 1e999/' "$ex/sim/sls/nodes.json" >"$work/overflow-nodes.json"
expect_error "1e999 in a nodes file" "overflow-nodes.json:.*number overflow.*memory-mb" \
  $(sls "$data/tiny-jobs.json") --nodes "$work/overflow-nodes.json" --conf "$data/conf"
sed '0,/"submitTime" *: *[0-9]*/s//"submitTime": 1e999/' "$ex/sim/rumen/rumen-jobs.json" >"$work/overflow-rumen.json"
expect_error "1e999 in a Rumen trace" "overflow-rumen.json:.*number overflow.*submitTime" \
  --tracetype RUMEN --tracelocation "$work/overflow-rumen.json" --conf "$ex/sim/rumen"
sed '0,/"num_jobs" *: *[0-9]*/s//"num_jobs": 1e999/' "$ex/sim/synth/synth.json" >"$work/overflow-synth.json"
expect_error "1e999 in a SYNTH spec" "overflow-synth.json:.*number overflow.*num_jobs" \
  --tracetype SYNTH --tracelocation "$work/overflow-synth.json" --conf "$ex/sim/synth"
sed 's/"job.start.ms": 500/"job.start.ms": [1, {"a": "b"}]/' "$data/tiny-jobs.json" >"$work/type-jobs.json"
expect_error "an array where a number is expected" 'job #2 (id dag_b): field job.start.ms: expected an integer, got \[1,{"a":"b"}\]' \
  $(sls "$work/type-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf"

# --- Deep nesting, generated ----------------------------------------------------------------------
deep() { python3 -c "import sys; n=int(sys.argv[1]); sys.stdout.write('['*n + ']'*n)" "$1"; }
{ printf '{"job.start.ms": 0, "job.queue.name": "default", "job.tasks": [{"container.duration.ms": 5}],\n "job.tags": '
  deep 300000; printf '}\n'; } >"$work/deep-jobs.json"
expect_error "deep nesting in a wrong-typed trace field" "deep-jobs.json:2:.*nested deeper than 64 levels" \
  $(sls "$work/deep-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf"
{ printf '{"rack": "r", "nodes": [{"node": "a", "memory-mb": '; deep 300000; printf '}]}\n'; } >"$work/deep-nodes.json"
expect_error "deep nesting in a nodes file" "deep-nodes.json:1:.*nested deeper than 64 levels" \
  $(sls "$data/tiny-jobs.json") --nodes "$work/deep-nodes.json" --conf "$data/conf"
{ printf '{"num_jobs": 1, "workloads": '; deep 300000; printf '}\n'; } >"$work/deep-synth.json"
expect_error "deep nesting in a SYNTH spec" "deep-synth.json:1:.*nested deeper than 64 levels" \
  --tracetype SYNTH --tracelocation "$work/deep-synth.json" --conf "$ex/sim/synth"
mkdir -p "$work/deep-fair"
cp "$data/fair/yarn-site.xml" "$data/fair/sls-runner.xml" "$work/deep-fair/"
python3 -c "
n = 8000
print('<?xml version=\"1.0\"?>\n<allocations>')
print('<queue name=\"q\">\n' * n + '</queue>\n' * n + '</allocations>')" >"$work/deep-fair/fair-scheduler.xml"
expect_error "8,000 nested <queue> elements" "fair-scheduler.xml:66:.*nested deeper than 64 levels" \
  $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$work/deep-fair"

# --- Sizes and times beyond the limits ------------------------------------------------------------
sed 's/"count": 2,/"count": 30000000,/' "$data/tiny-jobs.json" >"$work/count-jobs.json"
expect_error "a task count of 30 million" "job #1 (id mr_a): field job.tasks\[0\].count: 30000000 containers exceed spindle.sls.max-containers-per-job (1000000)" \
  $(sls "$work/count-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf"
sed 's/"count": 2,/"count": 1099511627776,/' "$data/tiny-jobs.json" >"$work/count2-jobs.json"
expect_error "a task count of 2^40" "field job.tasks\[0\].count: 1099511627776 containers exceed" \
  $(sls "$work/count2-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf"
sed 's/"container.duration.ms": 5000/"container.duration.ms": 9223372036854775000/' "$data/tiny-jobs.json" >"$work/time-jobs.json"
expect_error "a duration near the 64-bit limit" "field job.tasks\[0\].container.duration.ms: 9223372036854775000 ms is beyond the largest time" \
  $(sls "$work/time-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf"
expect_error "--until beyond the largest time" "is beyond the largest simulated time" \
  $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf" --until 999999999999999d
mkdir -p "$work/limit-conf"
cp "$data/conf/yarn-site.xml" "$work/limit-conf/"
sed 's#</configuration>#<property><name>spindle.sls.max-containers-per-job</name><value>2</value></property></configuration>#' \
  "$data/conf/sls-runner.xml" >"$work/limit-conf/sls-runner.xml"
grep -q max-containers-per-job "$work/limit-conf/sls-runner.xml" || echo "FAIL: test setup (limit conf)"
sed 's/"count": 2,/"count": 3,/' "$data/tiny-jobs.json" >"$work/count3-jobs.json"
expect_error "spindle.sls.max-containers-per-job is configurable" "field job.tasks\[0\].count: 3 containers exceed spindle.sls.max-containers-per-job (2)" \
  $(sls "$work/count3-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$work/limit-conf"
# A tiny metrics interval: warned about before the run, with the estimated records (the run
# itself would write gigabytes: it is stopped once the warning is out).
mkdir -p "$work/tiny-interval"
cp "$data/conf/yarn-site.xml" "$work/tiny-interval/"
sed 's#</configuration>#<property><name>yarn.sls.metrics.record.interval.ms</name><value>2</value></property></configuration>#' \
  "$data/conf/sls-runner.xml" >"$work/tiny-interval/sls-runner.xml"
printf '{"job.start.ms": 0, "job.queue.name": "default", "job.tasks": [{"container.host": "/rack1/host1", "container.duration.ms": 3600000}]}\n' >"$work/hour-jobs.json"
timeout 3 "$spindle" sim $(sls "$work/hour-jobs.json") --conf "$work/tiny-interval" \
  --output-dir "$work/interval" >"$work/interval.out" 2>&1
check "yarn.sls.metrics.record.interval.ms=2 over an hour: warned (about 1.8 million records)" \
  'grep -q "warning: yarn.sls.metrics.record.interval.ms=2 over about 3600 s simulated writes about 1800001 metric records" "$work/interval.out"'

# --- The end-of-run summary and --fail-on-rejected ------------------------------------------------
"$spindle" sim $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf" \
  --output-dir "$work/summary" --no-timings >"$work/summary.out" 2>"$work/summary.err"
check "summary on stderr: jobs by outcome, makespan, wall time" \
  'grep -q "^spindle sim: 2 job(s): 2 finished, 0 failed, 0 killed, 0 rejected; makespan 13.000 s simulated; wall time" "$work/summary.err"'
check "summary says where the outputs are" \
  'grep -q "^outputs in $work/summary: jobruntime.csv, jobs.csv, realtimetrack.json, report.html, run.json, snapshot.json, metrics/$" "$work/summary.err"'
check "stdout stays empty without --print-simulation" '[ ! -s "$work/summary.out" ]'
"$spindle" sim $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf" \
  --output-dir "$work/quiet" --quiet >"$work/quiet.out" 2>&1
check "--quiet: no summary" '[ ! -s "$work/quiet.out" ]'
# Fair with a placement policy that rejects undeclared queues: every job is rejected.
mkdir -p "$work/reject-conf"
cp "$data/fair/yarn-site.xml" "$data/fair/sls-runner.xml" "$work/reject-conf/"
cat >"$work/reject-conf/fair-scheduler.xml" <<XML
<?xml version="1.0"?>
<allocations>
  <queue name="prod"/>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="reject"/>
  </queuePlacementPolicy>
</allocations>
XML
for flag in "" --fail-on-rejected; do
  "$spindle" sim $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$work/reject-conf" \
    --output-dir "$work/rejected$flag" $flag >"$work/rejected$flag.out" 2>&1
  echo $? >"$work/rejected$flag.rc"
done
check "all jobs rejected: the summary counts them and gives the reason" \
  'grep -q "2 job(s): 0 finished, 0 failed, 0 killed, 2 rejected" "$work/rejected.out" &&
   grep -A1 "^rejected 2:" "$work/rejected.out" | grep -q "application application_\* rejected by the queue placement policy (2)$"'
check "without --fail-on-rejected: exit 0" '[ "$(cat "$work/rejected.rc")" = 0 ]'
check "--fail-on-rejected: exit 1 and says why" \
  '[ "$(cat "$work/rejected--fail-on-rejected.rc")" = 1 ] && grep -q "error: 2 job(s) rejected (--fail-on-rejected)" "$work/rejected--fail-on-rejected.out"'
check "jobs.csv carries the rejection reason" \
  'head -1 "$work/rejected/jobs.csv" | grep -q ",state,reason$" && [ $(grep -c ",REJECTED,." "$work/rejected/jobs.csv") = 2 ]'
check "report.html lists the rejection reason" 'grep -q "id=\"job-reasons\"" "$work/rejected/report.html"'

# --- Unknown queues and kills carry their reasons -------------------------------------------------
sed 's/"job.queue.name": "default"/"job.queue.name": "nosuch"/' "$data/tiny-jobs.json" >"$work/queue-jobs.json"
expect_error "a job naming an unknown Capacity queue" "job #1 (id mr_a): field job.queue.name: unknown queue 'nosuch' (known: adhoc, dev, prod, root.adhoc, root.dev, root.prod)" \
  $(sls "$work/queue-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$ex/capacity/conf"
sed 's/"container.duration.ms": 3000,/"container.duration.ms": 3000, "container.memory-mb": 100000,/' "$data/tiny-jobs.json" >"$work/big-jobs.json"
"$spindle" sim $(sls "$work/big-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf" \
  --output-dir "$work/killed" >"$work/killed.out" 2>&1
check "a job asking above the maximum allocation: KILLED, and the summary and jobs.csv say why" \
  'grep -q "1 killed" "$work/killed.out" && grep -A1 "^killed 1:" "$work/killed.out" | grep -qi "maximum" &&
   grep "^mr_a," "$work/killed/jobs.csv" | grep -q ",KILLED,.*maximum"'

# --- Output folder reuse --------------------------------------------------------------------------
out=$work/reuse
"$spindle" sim $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf" \
  --output-dir "$out" --decision-log --quiet >/dev/null 2>&1
echo "mine" >"$out/notes.txt"; echo "x" >"$out/metrics/notes.md"
"$spindle" sim $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf" \
  --output-dir "$out" --quiet >"$work/reuse.out" 2>&1
code=$?
check "a non-empty --output-dir is refused" \
  '[ $code = 2 ] && grep -q "output-dir $out is not empty; pass --overwrite" "$work/reuse.out" && [ -s "$out/decisions.jsonl" ]'
"$spindle" sim $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$data/conf" \
  --output-dir "$out" --overwrite --quiet >/dev/null 2>&1
code=$?
check "--overwrite clears the previous run's outputs and keeps other files" \
  '[ $code = 0 ] && [ ! -e "$out/decisions.jsonl" ] && [ -s "$out/jobs.csv" ] &&
   [ "$(cat "$out/notes.txt")" = mine ] && [ -s "$out/metrics/notes.md" ] &&
   [ -s "$out/metrics/variable.running.container.csv" ]'
mkdir -p "$work/metrics-off"
cp "$data/conf/yarn-site.xml" "$work/metrics-off/"
sed 's#</configuration>#<property><name>yarn.sls.metrics.switch</name><value>OFF</value></property></configuration>#' \
  "$data/conf/sls-runner.xml" >"$work/metrics-off/sls-runner.xml"
"$spindle" sim $(sls "$data/tiny-jobs.json") --nodes "$data/tiny-nodes.json" --conf "$work/metrics-off" \
  --output-dir "$work/off" >"$work/off.out" 2>&1
check "yarn.sls.metrics.switch OFF: says there is no report" \
  'grep -q "^outputs in $work/off: jobruntime.csv, jobs.csv, run.json, snapshot.json$" "$work/off.out" &&
   grep -q "^no report.html: yarn.sls.metrics.switch is OFF" "$work/off.out"'
exit $((fails > 0))
