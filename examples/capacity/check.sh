#!/usr/bin/env bash
# Checks the capacity example's outputs (run ./run.sh first): reads out/*/realtimetrack.json (or
# DIR/realtimetrack.json for each DIR argument) and,
# in three stated windows, compares each queue's mean share of the allocated memory with the
# share the Capacity Scheduler should give it. Exits 1 if a share is off by more than TOL
# percentage points or if a window's premise (which queues have pending demand) does not hold.
#
#   window       premise                          expected share of allocated memory
#   [15, 55] s   only prod has demand            prod 100 %          (elastic: maximum-capacity 100)
#   [90, 240] s  prod, dev and adhoc have demand prod 50, dev 30, adhoc 20 (configured capacities)
#   [290, 360] s prod is done; dev, adhoc demand dev 60, adhoc 40    (spare split 30:20)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
TOL="${TOL:-3}"
shopt -s nullglob
# Output folders may be given as arguments (make demo passes build/demo); default out/*.
if [ $# -gt 0 ]; then
  tracks=(); for d in "$@"; do tracks+=("$d/realtimetrack.json"); done
else
  tracks=("$here"/out/*/realtimetrack.json)
fi
[ ${#tracks[@]} -gt 0 ] || { echo "check.sh: no out/*/realtimetrack.json; run ./run.sh first" >&2; exit 1; }
python3 - "$TOL" "${tracks[@]}" <<'PY'
import json, sys
tol = float(sys.argv[1])
QUEUES = ["prod", "dev", "adhoc"]
WINDOWS = [  # (from s, to s, queues that must have pending demand throughout, expected % share)
    (15, 55, ["prod"], {"prod": 100, "dev": 0, "adhoc": 0}),
    (90, 240, ["prod", "dev", "adhoc"], {"prod": 50, "dev": 30, "adhoc": 20}),
    (290, 360, ["dev", "adhoc"], {"prod": 0, "dev": 60, "adhoc": 40}),
]
ok = True
for path in sys.argv[2:]:
    rows = json.load(open(path))
    print(f"{path}:")
    print(f"  {'window':>12} {'queue':>6} {'expected %':>10} {'mean %':>8} {'min %':>7} {'max %':>7} {'diff':>6}  cluster used %")
    for lo, hi, busy, expected in WINDOWS:
        rs = [r for r in rows if lo <= r["time"] <= hi]
        if not rs:
            print(f"  [{lo},{hi}] s: no samples"); ok = False; continue
        for q in busy:
            idle = [r["time"] for r in rs if r.get(f"queue.{q}.pending.memory", 0) <= 0]
            if idle:
                print(f"  premise broken: {q} has no pending demand at t={idle[0]} s in [{lo},{hi}]")
                ok = False
        total = [r["cluster.allocated.memory"] + r["cluster.available.memory"] for r in rs]
        used = sum(r["cluster.allocated.memory"] for r in rs) / sum(total) * 100
        for q in QUEUES:
            shares = []
            for r in rs:
                alloc = r["cluster.allocated.memory"]
                shares.append(100.0 * r.get(f"queue.{q}.allocated.memory", 0) / alloc if alloc else 0.0)
            mean = sum(shares) / len(shares)
            diff = mean - expected[q]
            flag = "" if abs(diff) <= tol else "  <-- off by more than %g" % tol
            ok = ok and abs(diff) <= tol
            print(f"  {'[%d,%d] s' % (lo, hi):>12} {q:>6} {expected[q]:>10} {mean:>8.1f} "
                  f"{min(shares):>7.1f} {max(shares):>7.1f} {diff:>+6.1f}  {used:.1f}{flag}")
    # Convergence: first sample after the second wave (t = 60 s) from which every queue stays
    # within tol of its capacity share for the rest of the contended window.
    exp = WINDOWS[1][3]
    contended = [r for r in rows if 60 <= r["time"] <= WINDOWS[1][1]]
    def close(r):
        alloc = r["cluster.allocated.memory"]
        return alloc > 0 and all(abs(100.0 * r.get(f"queue.{q}.allocated.memory", 0) / alloc
                                     - exp[q]) <= tol for q in QUEUES)
    settled = None
    for i in range(len(contended)):
        if all(close(r) for r in contended[i:]):
            settled = contended[i]["time"]
            break
    print(f"  after dev and adhoc arrive at 60 s the shares are within {tol:g} points of 50/30/20"
          + (f" from t = {settled:g} s on ({settled - 60:g} s later)" if settled is not None
             else ": never for good"))
print("OK: shares within %g points of the expected shares" % tol if ok else "FAILED")
sys.exit(0 if ok else 1)
PY
