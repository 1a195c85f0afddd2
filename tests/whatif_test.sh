#!/usr/bin/env bash
# `spindle whatif` on examples/three-schedulers' trace under three configurations: the command
# runs, its comparison agrees with each run's own jobs.csv, and bad options are refused (exit 2);
# then `spindle conf explain` on the example configurations.
#   whatif_test.sh SPINDLE SOURCE_DIR WORK_DIR
set -u
spindle=$1 src=$2 work=$3
ex=$src/examples/three-schedulers
rm -rf "$work"
mkdir -p "$work"
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }

out=$work/cmp
"$spindle" whatif --tracetype SLS --tracelocation "$ex/jobs.json" --nodes "$ex/nodes.json" \
  --conf "$ex/conf-capacity" --conf "$ex/conf-fair" --conf "$ex/conf-fifo" \
  --label capacity --label fair --label fifo --output-dir "$out" --quiet
check "whatif exits 0" '[ $? -eq 0 ]'
check "three run folders" '[ -f "$out/runs/capacity/jobs.csv" ] && [ -f "$out/runs/fair/jobs.csv" ] && [ -f "$out/runs/fifo/jobs.csv" ]'
check "report and tables" '[ -s "$out/report.html" ] && [ -s "$out/comparison.csv" ] && [ -s "$out/comparison.json" ]'
# Every run's all-jobs figures recomputed from its own jobs.csv (nearest-rank p95).
check "figures match each run's jobs.csv" 'python3 - "$out" <<"PY"
import csv, json, math, sys
out = sys.argv[1]
cmp = json.load(open(f"{out}/comparison.json"))
assert cmp["runs"] == ["capacity", "fair", "fifo"], cmp["runs"]
for label in cmp["runs"]:
    rows = list(csv.DictReader(open(f"{out}/runs/{label}/jobs.csv")))
    waits = sorted(int(r["wait_ms"]) for r in rows if r["wait_ms"])
    p95 = waits[math.ceil(0.95 * len(waits)) - 1]
    fig = next(g for g in cmp["groups"] if g["kind"] == "all")["runs"][label]
    assert fig["jobs"] == len(rows), (label, fig["jobs"], len(rows))
    assert fig["finished"] == sum(r["state"] == "FINISHED" for r in rows), label
    assert fig["wait"]["p95Ms"] == p95, (label, fig["wait"]["p95Ms"], p95)
    assert abs(fig["wait"]["meanMs"] - sum(waits) / len(waits)) < 1e-6, label
PY'
# Guaranteed vs obtained share: the report's table recomputed from each run's realtimetrack.json
# (Capacity: the configured guarantee; Fair: the fair share; FIFO: no guarantee).
check "share table matches each run's realtimetrack.json" 'python3 - "$out" <<"PY"
import json, sys
out = sys.argv[1]
html = open(f"{out}/report.html").read()
assert "<h2>Guaranteed and obtained share</h2>" in html
pct = lambda v: f"{100 * v:.2f}%"
for run, key, source in [("capacity", "guarantee", "configured guarantee"),
                         ("fair", "fairshare", "fair share"), ("fifo", None, "none")]:
    track = json.load(open(f"{out}/runs/{run}/realtimetrack.json"))
    queues = sorted({k[6:-17] for r in track for k in r if k.startswith("queue.") and k.endswith(".allocated.memory")})
    assert queues, run
    for q in queues:
        obt, gua, below = [], [], 0
        for r in track:
            total = r["cluster.allocated.memory"] + r["cluster.available.memory"]
            if total <= 0 or f"queue.{q}.allocated.memory" not in r:
                continue
            o = r[f"queue.{q}.allocated.memory"] / total
            obt.append(o)
            if key and f"queue.{q}.{key}.memory" in r:
                g = r[f"queue.{q}.{key}.memory"] / total
                gua.append(g)
                below += r.get(f"queue.{q}.pending.memory", 0) > 0 and o < g
        cells = [pct(sum(gua) / len(gua)), pct(below / len(gua))] if gua else ["—", "—"]
        row = f"<tr><td>{q}</td><td>{run}</td><td>{source}</td><td>{pct(sum(obt) / len(obt))}</td><td>{cells[0]}</td><td>{cells[1]}</td></tr>"
        assert row in html, row
        assert f"{run} obtained" in html, run
        if key:
            assert f"{run} guaranteed ({source})" in html, run
PY'
cp "$out/comparison.csv" "$work/first.csv"
check "same outputs again with --overwrite, one run at a time" '"$spindle" whatif --tracetype SLS --tracelocation "$ex/jobs.json" --nodes "$ex/nodes.json" --conf "$ex/conf-capacity" --conf "$ex/conf-fair" --conf "$ex/conf-fifo" --label capacity --label fair --label fifo --output-dir "$out" --quiet --overwrite --parallel 1 && cmp -s "$out/comparison.csv" "$work/first.csv"'

"$spindle" whatif --tracetype SLS --tracelocation "$ex/jobs.json" --nodes "$ex/nodes.json" \
  --conf "$ex/conf-capacity" --conf "$ex/conf-fair" --seeds 2 --seed 5 --output-dir "$work/seeds" --quiet
check "--seeds 2 runs each configuration twice" '[ -f "$work/seeds/runs/conf-fair/seed-5/jobs.csv" ] && [ -f "$work/seeds/runs/conf-fair/seed-6/jobs.csv" ]'
check "--seeds reports the spread" 'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"seeds\"]==2; assert \"spread\" in d[\"groups\"][0][\"runs\"][\"conf-fair\"]" "$work/seeds/comparison.json"'
# Load and cluster knobs, the same for every run: twice the jobs on 8 nodes.
"$spindle" whatif --tracetype SLS --tracelocation "$ex/jobs.json" --nodes "$ex/nodes.json" \
  --conf "$ex/conf-capacity" --conf "$ex/conf-fair" --scale-load 2 --scale-nodes 8 \
  --output-dir "$work/knobs" --quiet
check "--scale-load 2 doubles the jobs of every run" '[ $(($(wc -l <"$work/knobs/runs/conf-fair/jobs.csv") - 1)) = $((2 * ($(wc -l <"$out/runs/fair/jobs.csv") - 1))) ] && [ $(($(wc -l <"$work/knobs/runs/conf-capacity/jobs.csv") - 1)) = $((2 * ($(wc -l <"$out/runs/fair/jobs.csv") - 1))) ]'
# The example's 10 nodes of 8 vcores (80) become 8 nodes (64); then 25 nodes: 10 plus 15 copies.
check "--scale-nodes 8 runs on the first 8 nodes" 'python3 -c "import json,sys; a=json.load(open(sys.argv[1]))[0]; b=json.load(open(sys.argv[2]))[0]; assert (a[\"cluster.available.vcores\"], b[\"cluster.available.vcores\"]) == (64, 80)" "$work/knobs/runs/conf-fair/realtimetrack.json" "$out/runs/fair/realtimetrack.json"'
"$spindle" sim --tracetype SLS --tracelocation "$ex/jobs.json" --nodes "$ex/nodes.json" --conf "$ex/conf-fair" \
  --scale-nodes 25 --output-dir "$work/n25" --quiet
check "--scale-nodes 25 copies nodes up to 25" 'python3 -c "import json,sys; a=json.load(open(sys.argv[1]))[0]; assert a[\"cluster.available.vcores\"] == 200" "$work/n25/realtimetrack.json"'
check "the report names the knobs" 'grep -q "scale-nodes 8" "$work/knobs/report.html" && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"settings\"][\"options\"] == [\"--scale-load\", \"2\", \"--scale-nodes\", \"8\"]" "$work/knobs/comparison.json"'
# spindle sim --queue-map: the capacity example's prod jobs run in dev; an unknown target is
# refused before the run.
cap=$src/examples/capacity
"$spindle" sim --tracetype SLS --tracelocation "$cap/jobs.json" --nodes "$cap/nodes.json" --conf "$cap/conf" \
  --queue-map prod=dev --output-dir "$work/qmap" --quiet
check "--queue-map prod=dev runs prod's job in root.dev" '[ $? = 0 ] && grep -q "^prod_etl,root.dev," "$work/qmap/jobs.csv"'
msg=$("$spindle" sim --tracetype SLS --tracelocation "$cap/jobs.json" --nodes "$cap/nodes.json" --conf "$cap/conf" \
  --queue-map prod=nowhere --output-dir "$work/qmap2" --quiet 2>&1)
check "--queue-map to an unknown queue is refused" '[ $? = 2 ] && grep -q "unknown queue '"'"'nowhere'"'"'" <<<"$msg"'
msg=$("$spindle" sim --tracetype SLS --tracelocation "$cap/jobs.json" --conf "$cap/conf" --queue-map prod \
  --output-dir "$work/qmap3" --quiet 2>&1)
check "a malformed --queue-map is refused" '[ $? = 2 ] && grep -q "expected OLD=NEW" <<<"$msg"'
msg=$("$spindle" sim --tracetype SLS --tracelocation "$cap/jobs.json" --nodes "$cap/nodes.json" --conf "$cap/conf" --scale-load 0 \
  --output-dir "$work/qmap4" --quiet 2>&1)
check "--scale-load 0 is refused" '[ $? = 2 ] && grep -q "must be above 0" <<<"$msg"'
refused() {  # refused NAME EXPECTED_TEXT ARGS...
  local name=$1 text=$2
  shift 2
  local msg
  msg=$("$spindle" whatif "$@" 2>&1)
  local rc=$?
  check "$name" '[ $rc -eq 2 ] && grep -q -- "$text" <<<"$msg"'
}
common=(--tracetype SLS --tracelocation "$ex/jobs.json" --nodes "$ex/nodes.json")
refused "one configuration" "at least two --conf" "${common[@]}" --conf "$ex/conf-fair" --output-dir "$work/one"
refused "same label twice" "two runs are labelled 'conf-fair'" "${common[@]}" --conf "$ex/conf-fair" --conf "$ex/conf-fair" --output-dir "$work/dup"
refused "label count" "give one label per configuration" "${common[@]}" --conf "$ex/conf-fair" --conf "$ex/conf-fifo" --label a --output-dir "$work/lab"
refused "non-empty output" "is not empty" "${common[@]}" --conf "$ex/conf-fair" --conf "$ex/conf-fifo" --output-dir "$out"
refused "missing conf folder" "not a folder" "${common[@]}" --conf "$ex/conf-fair" --conf "$ex/nowhere" --output-dir "$work/nf"
refused "a failing run names its log" "conf-fair.log" --tracetype SLS --tracelocation "$ex/missing.json" --conf "$ex/conf-fair" --conf "$ex/conf-fifo" --output-dir "$work/bad" --parallel 1
# spindle conf explain: the example configurations, a comparison, JSON, and refusals.
for c in conf-capacity conf-fair conf-fifo; do
  check "conf explain $c" '"$spindle" conf explain "$ex/$c" > "$work/explain-$c.txt" && [ -s "$work/explain-$c.txt" ]'
done
check "capacity values name their file and line" 'grep -q "capacity-scheduler.xml:[0-9]" "$work/explain-conf-capacity.txt"'
check "conf explain --json is JSON with queues" '"$spindle" conf explain "$ex/conf-capacity" --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"scheduler\"]==\"capacity\" and len(d[\"queues\"])>1"'
mkdir -p "$work/conf-b"
cp "$src/examples/capacity/conf/"* "$work/conf-b/"
sed -i 's|<value>30</value>|<value>40</value>|; s|<value>20</value>|<value>10</value>|' "$work/conf-b/capacity-scheduler.xml"
"$spindle" conf explain "$src/examples/capacity/conf" --compare "$work/conf-b" > "$work/diff.txt"
check "compare lists the changed capacity" 'grep -q "^root.dev capacity %: 30.0 (capacity-scheduler.xml:[0-9]*) -> 40.0" "$work/diff.txt"'
check "compare lists nothing unchanged" '! grep -q "root.prod" "$work/diff.txt"'
check "compare of a folder with itself" '"$spindle" conf explain "$ex/conf-fair" --compare "$ex/conf-fair" | grep -q "resolve to the same values"'
mkdir -p "$work/conf-bad"
cp "$src/examples/capacity/conf/"* "$work/conf-bad/"
sed -i 's|<value>30</value>|<value>90</value>|' "$work/conf-bad/capacity-scheduler.xml"
conf_refused() {  # conf_refused NAME EXPECTED_TEXT ARGS...
  local name=$1 text=$2
  shift 2
  local msg
  msg=$("$spindle" conf explain "$@" 2>&1)
  local rc=$?
  check "$name" '[ $rc -eq 2 ] && grep -q -- "$text" <<<"$msg"'
}
conf_refused "conf explain of a missing folder" "not a folder" "$work/nowhere"
conf_refused "conf explain of a refused configuration" "capacity-scheduler.xml" "$work/conf-bad"
conf_refused "conf explain with a bad --cluster" "MEMORY_MB,VCORES" "$ex/conf-fair" --cluster 12
[ $fails -eq 0 ] && echo "all whatif checks passed" || { echo "$fails whatif checks failed"; exit 1; }
