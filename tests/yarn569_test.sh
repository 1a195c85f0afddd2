#!/usr/bin/env bash
# The YARN-569 experiments (examples/yarn-569) end to end: the one command runs all
# eight configurations and writes the combined report; the done-when numbers are checked from the
# simulator's outputs (summary.json is computed by report.py from realtimetrack.json, jobs.csv
# and metrics/; the preemption files are read directly).
#   yarn569_test.sh SPINDLE SOURCE_DIR WORK_DIR
set -u
spindle=$1; src=$2; work=$3; fails=0
rm -rf "$work"; mkdir -p "$work"
check() {  # label command: runs the command, then prints ok/FAIL and what it printed
  local out rc
  out=$(eval "$2" 2>&1); rc=$?
  if [ $rc = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails+1)); fi
  [ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/     /'
}
ex=$src/examples/yarn-569

SPINDLE="$spindle" bash "$ex/run.sh" "$work/out" >"$work/run.out" 2>&1
run_rc=$?
check "run.sh runs all eight configurations and the report" '[ $run_rc = 0 ] || tail -20 "$work/run.out"'
check "combined report.html and summary.json written" \
  '[ -s "$work/out/report.html" ] && [ -s "$work/out/summary.json" ]'
check "report.html states the seed's claims with criteria and bounds, no issue numbers or bare NO" \
  'grep -q "The seed.s claims and the criteria that decide them" "$work/out/report.html" &&
   grep -q "at least 93 s" "$work/out/report.html" &&
   ! grep -qi "issue" "$work/out/report.html" && ! grep -q ">NO<" "$work/out/report.html" &&
   ! grep -qi "issue" "$work/run.out"'
check "summary.json: each claim has a criterion and a bound; A's first container and the splits hold" \
  'python3 - "$work/out/summary.json" <<PY
import json, sys
c = json.load(open(sys.argv[1]))["claims"]
print("measured:", [(x["claim"], x["measured"], x["holds"]) for x in c])
ok = len(c) == 8 and all(x["criterion"] and x["bound"] for x in c)
ok &= all(x["holds"] for x in c if "within 30 s" in x["claim"] or "2-preempt" in x["claim"]
          or "1-capped" in x["claim"])
sys.exit(0 if ok else 1)
PY'

# One python check per done-when figure; each prints the measured value.
num() {  # name python-expression-over-s (s = summary.json), printed, then asserted
  python3 - "$work/out/summary.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
e1, e2 = s["experiment1"], s["experiment2"]
ok, shown = eval(sys.argv[2])
print("measured:", shown)
sys.exit(0 if ok else 1)
PY
}
# Two of the seed's figures are not reachable in this model with the default tunables
# (examples/yarn-569/README.md, "Where the model and the seed differ"); they are reported, not asserted,
# and what the simulator does instead is checked exactly.
report_target() {  # label python-expression-giving-(met, shown)
  if num x "$2" >/dev/null 2>&1; then echo "info target met: $1 ($(num x "$2"))";
  else echo "info target NOT met: $1 ($(num x "$2"))"; fi
}
for c in 1-preempt 1-preempt-wp; do
  report_target "$c: A holds its guarantee within 60 s (the seed)" \
    "(lambda v: (v is not None and v <= 60, v))(e1['$c']['a_guarantee_s'])"
  report_target "$c: B's runtime within 1.25x of 1-elastic's (the seed)" \
    "(lambda r: (r <= 1.25, round(r, 3)))(e1['$c']['b_runtime_s'] / e1['1-elastic']['b_runtime_s'])"
done
# The default tunables bound the rate: total_preemption_per_round 0.1 x 160 GB = 16 GB,
# x natural_termination_factor 0.2 = 3.2 GB per round, i.e. four 1 GB containers (the last one
# overshoots), every 3 s, until B's surplus over its ideal (32 GB) drops below the 16 GB budget,
# then 0.2 of the surplus until B is in its dead zone (<= 35.2 GB). Nothing of B ends by itself
# in that time, so A holds 95 % of its guarantee after about 32 rounds.
check "1-preempt: the defaults preempt 4 containers per 3 s round (28 rounds), then 3,3,2,2,1,1" \
  'python3 - "$work/out/1-preempt/preemption-rounds.csv" <<PY
import csv, sys
marks = [(float(r["t"]), int(r["containers_marked"])) for r in csv.DictReader(open(sys.argv[1]))]
first = [(t, m) for t, m in marks if 400 <= t <= 520 and m > 0]
print("measured:", [m for t, m in first])
ok = [m for t, m in first] == [4] * 28 + [3, 3, 2, 2, 1, 1]
ok &= all(b - a == 3 for (a, _), (b, _) in zip(first, first[1:])) and first[0][0] == 402
sys.exit(0 if ok else 1)
PY'
check "1-preempt: so A holds 95 % of its guarantee 90-105 s after submission (about 32 rounds)" \
  'num g "(lambda v: (v is not None and 90 <= v <= 105, v))(e1[\"1-preempt\"][\"a_guarantee_s\"])"'
check "1-preempt: B's runtime between 1-elastic's and 1-capped's (B is not held to 20 % for the whole run)" \
  'num b "(lambda m: (m[\"1-elastic\"][\"b_runtime_s\"] < m[\"1-preempt\"][\"b_runtime_s\"] < 0.6 * m[\"1-capped\"][\"b_runtime_s\"], (m[\"1-preempt\"][\"b_runtime_s\"], round(m[\"1-preempt\"][\"b_runtime_s\"] / m[\"1-elastic\"][\"b_runtime_s\"], 3))))(e1)"'
check "1-preempt: utilisation high (>= 1-elastic's over the run, 1.5x 1-capped's while contended)" \
  'num u "(lambda m: (m[\"1-preempt\"][\"utilisation\"] >= m[\"1-elastic\"][\"utilisation\"] and m[\"1-preempt\"][\"utilisation_contended\"] >= 1.5 * m[\"1-capped\"][\"utilisation_contended\"], (round(m[\"1-preempt\"][\"utilisation\"], 3), round(m[\"1-preempt\"][\"utilisation_contended\"], 3))))(e1)"'
check "1-capped (80/20): B at least 1.8x slower than 1-elastic" \
  'num c "(lambda r: (r >= 1.8, round(r, 3)))(e1[\"1-capped\"][\"b_runtime_s\"] / e1[\"1-elastic\"][\"b_runtime_s\"])"'
check "2-preempt: every phase within 5 points of the weighted fair split (100; 33/66; 40/20/40)" \
  'num f "(lambda d: (max(d) <= 5, [round(x, 2) for x in d]))([p[\"max_diff_points\"] for p in e2[\"2-preempt\"][\"phases\"]])"'
check "1-elastic keeps the seed's picture: A's first task after > 250 s, its guarantee after > 15 min" \
  'num e "(lambda m: (m[\"a_first_task_s\"] > 250 and m[\"a_guarantee_s\"] > 900, (m[\"a_first_task_s\"], m[\"a_guarantee_s\"])))(e1[\"1-elastic\"])"'
check "1-preempt: A's first task within 30 s (the seed: prompt)" \
  'num p "(lambda v: (v is not None and v <= 30, v))(e1[\"1-preempt\"][\"a_first_task_s\"])"'
# Work-preserving preemption (spindle.sls.am.preemption.work-preserving) changes only what B's
# preempted reduces cost: the monitor's rounds and A's allocation are those of 1-preempt.
check "1-preempt-wp: the rounds and A's allocation of 1-preempt (until B ends), A's guarantee after 90-105 s" \
  'n=$(wc -l <"$work/out/1-preempt-wp/preemption-rounds.csv") &&
   head -n "$n" "$work/out/1-preempt/preemption-rounds.csv" | cmp -s - "$work/out/1-preempt-wp/preemption-rounds.csv" &&
   python3 - "$work/out" <<PY
import json, sys
a = [r.get("queue.A.allocated.memory") for r in json.load(open(sys.argv[1] + "/1-preempt/realtimetrack.json"))]
w = [r.get("queue.A.allocated.memory") for r in json.load(open(sys.argv[1] + "/1-preempt-wp/realtimetrack.json"))]
s = json.load(open(sys.argv[1] + "/summary.json"))["experiment1"]["1-preempt-wp"]
print("measured:", s["a_guarantee_s"])
sys.exit(0 if a[:len(w)] == w[:len(a)] and 90 <= s["a_guarantee_s"] <= 105 else 1)
PY'
check "1-preempt-wp: B's preempted reduces resume, so B ends sooner than in 1-preempt but not before the work bound (1.29x)" \
  'num w "(lambda m: (m[\"1-elastic\"][\"b_runtime_s\"] * 1.285 < m[\"1-preempt-wp\"][\"b_runtime_s\"] < m[\"1-preempt\"][\"b_runtime_s\"], round(m[\"1-preempt-wp\"][\"b_runtime_s\"] / m[\"1-elastic\"][\"b_runtime_s\"], 3)))(e1)"'
check "1-preempt-wp: B's task container-seconds after A's arrival equal its remaining work (nothing redone)" \
  'python3 - "$work/out" <<PY
import json, sys
def busy(c):
    t = json.load(open(sys.argv[1] + "/" + c + "/realtimetrack.json"))
    return sum(r["queue.B.allocated.memory"] - 1 for r in t if r["time"] >= 400 and r.get("queue.B.allocated.memory", 0) > 0)
e, w, p = busy("1-elastic"), busy("1-preempt-wp"), busy("1-preempt")
print("measured GB*s after 400 s: elastic %d, work-preserving %d, restart %d" % (e, w, p))
sys.exit(0 if abs(w - e) <= 0.005 * e and p > 1.2 * e else 1)
PY'
# total_preemption_per_round 1.0 (the seed's second experiment): NTF alone sets the rate.
check "1-preempt-r1: 26, 21, 16, ... containers per round (0.2 of B's surplus), A at 95 % within 60 s" \
  'python3 - "$work/out/1-preempt-r1/preemption-rounds.csv" "$work/out/summary.json" <<PY
import csv, json, sys
marks = [int(r["containers_marked"]) for r in csv.DictReader(open(sys.argv[1])) if 400 <= float(r["t"]) <= 450 and int(r["containers_marked"]) > 0]
g = json.load(open(sys.argv[2]))["experiment1"]["1-preempt-r1"]["a_guarantee_s"]
print("measured:", marks, g)
sys.exit(0 if marks[:5] == [26, 21, 16, 13, 11] and g is not None and g <= 60 else 1)
PY'
check "1-preempt-r1(-wp): B no faster than with the defaults (faster preemption takes B's containers sooner)" \
  'num r "(lambda m: (m[\"1-preempt-r1\"][\"b_runtime_s\"] >= m[\"1-preempt\"][\"b_runtime_s\"] and m[\"1-preempt-r1-wp\"][\"b_runtime_s\"] >= m[\"1-preempt-wp\"][\"b_runtime_s\"], (m[\"1-preempt-r1\"][\"b_runtime_s\"], m[\"1-preempt-r1-wp\"][\"b_runtime_s\"])))(e1)"'
# The bounds (examples/yarn-569/bounds.py): why two of the seed's figures cannot hold here.
SPINDLE="$spindle" python3 "$ex/bounds.py" "$work/out" >"$work/bounds.out" 2>&1
bounds_rc=$?
check "bounds.py: 1 GB containers need 32 rounds (>= 93 s) for 95 % with the defaults, 13 with per-round 1.0; never 100 %" \
  '[ $bounds_rc = 0 ] && python3 - "$work/out/bounds.json" <<PY
import json, sys
b = json.load(open(sys.argv[1]))
r = b["rounds"]["1024"]
print("measured:", r, b["full_guarantee_by_preemption"])
sys.exit(0 if r["defaults"] == 32 and r["per_round_1"] == 13 and b["full_guarantee_by_preemption"] is None else 1)
PY'
check "bounds.py: B's lower bound above 1.25x even work-preserving; every measured B runtime at or above its bound" \
  'python3 - "$work/out/bounds.json" "$work/out/summary.json" <<PY
import json, sys
b = json.load(open(sys.argv[1])); e1 = json.load(open(sys.argv[2]))["experiment1"]
wp, rs = b["b_bound_s"]["work_preserving"], b["b_bound_s"]["restart_all"]
print("measured: bound wp %s s (%.3fx), restart %s s; runs wp %.0f s, restart %.0f s" % (wp, b["b_bound_ratio"]["work_preserving"], rs, e1["1-preempt-wp"]["b_runtime_s"], e1["1-preempt"]["b_runtime_s"]))
ok = b["b_reduces_alive_at_400"] == 158 and b["b_bound_ratio"]["work_preserving"] > 1.25
ok &= e1["1-preempt-wp"]["b_runtime_s"] >= wp and e1["1-preempt"]["b_runtime_s"] >= rs
sys.exit(0 if ok else 1)
PY'
check "1-preempt and 2-preempt marked containers; the runs without preemption ran no round" \
  'num m "(e1[\"1-preempt\"][\"containers_marked\"] > 0 and e2[\"2-preempt\"][\"containers_marked\"] > 0 and all(e1[c][\"preemption_rounds\"] == 0 for c in (\"1-elastic\", \"1-capped\")) and e2[\"2-nopreempt\"][\"preemption_rounds\"] == 0, (e1[\"1-preempt\"][\"containers_marked\"], e2[\"2-preempt\"][\"containers_marked\"]))"'

# The preemption outputs themselves.
for c in 1-elastic 1-capped 2-nopreempt; do
  check "$c: no preemption files and no preemption keys" \
    '[ ! -e "$work/out/$c/preemption.csv" ] && ! grep -q "preemption\|guaranteed" "$work/out/$c/realtimetrack.json"'
done
check "2-preempt: preemption.csv has a row per round per queue (root, A, B, C), every 3 s" \
  'python3 - "$work/out/2-preempt/preemption.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
times = sorted({float(r["t"]) for r in rows})
queues = {r["queue"] for r in rows}
ok = queues == {"root", "root.A", "root.B", "root.C"} and len(rows) == 4 * len(times)
ok &= all(abs(b - a - 3) < 1e-9 for a, b in zip(times, times[1:])) and times[0] == 3
g = {r["queue"]: int(r["guaranteed_mb"]) for r in rows if float(r["t"]) == times[0]}
ok &= g == {"root": 163840, "root.A": 65536, "root.B": 32768, "root.C": 65536}
sys.exit(0 if ok else 1)
PY'
check "2-preempt: actual preemption never exceeds ideal preemption (natural_termination_factor)" \
  'python3 - "$work/out/2-preempt/preemption.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ideal = sum(int(r["ideal_preemption_mb"]) for r in rows)
ok = ideal > 0 and all(int(r["actual_preemption_mb"]) <= int(r["ideal_preemption_mb"]) for r in rows)
sys.exit(0 if ok else 1)
PY'
check "2-preempt: realtimetrack.json carries per-queue guaranteed / ideal / preemption keys" \
  'python3 - "$work/out/2-preempt/realtimetrack.json" <<PY
import json, sys
last = json.load(open(sys.argv[1]))[-1]
keys = ["queue.%s.%s.memory" % (q, m) for q in "ABC" for m in
        ("guaranteed", "ideal.assigned", "ideal.preemption", "actual.preemption", "preemption.selected")]
ok = all(k in last for k in keys) and last["queue.A.guaranteed.memory"] == 64
ok &= last["preemption.rounds"] > 0
sys.exit(0 if ok else 1)
PY'
check "2-preempt report.html has the Preemption monitor section with a chart per queue" \
  'grep -q "<h2>Preemption monitor</h2>" "$work/out/2-preempt/report.html" &&
   ( for q in A B C; do grep -q "id=\"chart-preemption-$q\"" "$work/out/2-preempt/report.html" || exit 1; done )'
check "combined report: both experiments, the seed rows and 13 charts (8 for experiment 1, 5 for 2)" \
  'grep -q "Experiment 1" "$work/out/report.html" && grep -q "Experiment 2" "$work/out/report.html" &&
   grep -q "within 30 s" "$work/out/report.html" && grep -q "1-preempt-wp" "$work/out/report.html" &&
   [ "$(grep -c "<svg" "$work/out/report.html")" = 13 ]'

# Deterministic: a second run of the combined command gives the same files.
SPINDLE="$spindle" bash "$ex/run.sh" "$work/again" >/dev/null 2>&1
check "a second run gives byte-identical outputs and report" \
  'diff -r -x bounds.json "$work/out" "$work/again" >/dev/null'

if [ $fails -gt 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "all checks passed"
