#!/usr/bin/env python3
"""Checks a `spindle sim` run of a trace with placement keys: replays the run's decision log
(decisions.jsonl) and checks every placement of a tagged task against its task group's
placement spec at the moment it was made, counting the job's own live containers (the default
`self/` namespace; the container being placed is not counted, as in YARN). Understands the forms
the example uses: in / notin / cardinality over node or rack, node-attribute `name=value` /
`name!=value`, and `and(...)` / `or(...)` of those. Prints the per-rack spread of each tag and the
rejected requests; exits 1 on a violation or if a tagged group got no placement.
Usage: check-sim.py TRACE.json NODES.json OUT_DIR"""
import collections
import json
import sys


def objects(path):
    text, pos, out = open(path).read(), 0, []
    dec = json.JSONDecoder()
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return out
        obj, pos = dec.raw_decode(text, pos)
        out.append(obj)


def tags_of(value):
    if isinstance(value, list):
        return value
    return [t.strip() for t in value.split(",")]


def split_top(text, sep):
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += c == "("
        depth -= c == ")"
        if c == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    return parts + [cur]


def satisfied(expr, node, count, attrs):
    """count(scope, tag) -> live containers of the job with `tag` in the node's scope."""
    e = expr.strip()
    low = e.lower()
    if low.startswith(("and(", "or(")):
        inner = e[e.index("(") + 1:-1]
        results = [satisfied(p, node, count, attrs) for p in split_top(inner, ":")]
        return all(results) if low.startswith("and(") else any(results)
    parts = [p.strip() for p in e.split(",")]
    op = parts[0].lower()
    if op in ("in", "notin"):
        scope, targets = parts[1].lower(), parts[2:]
        counts = [count(scope, t) for t in targets]
        return all(c >= 1 for c in counts) if op == "in" else all(c == 0 for c in counts)
    if op == "cardinality":
        scope, targets, lo, hi = parts[1].lower(), parts[2:-2], int(parts[-2]), int(parts[-1])
        return all(lo <= count(scope, t) <= hi for t in targets)
    neg = "!=" in e
    name, values = e.split("!=" if neg else "=", 1)
    mine = {k.split("/")[-1]: v for k, v in attrs[node].items()}
    hit = mine.get(name.strip()) in [v.strip() for v in values.split(",")]
    return not hit if neg else hit


trace_path, nodes_path, out = sys.argv[1:4]
racks, attrs = {}, {}
for entry in objects(nodes_path):
    rack = entry["rack"] if entry["rack"].startswith("/") else "/" + entry["rack"]
    for n in entry["nodes"]:
        if n:
            racks[n["node"]] = rack
            attrs[n["node"]] = n.get("attributes", {})

# (job, priority, allocationRequestId) -> (tags, spec), keyed as the simulated AM keys its
# task groups: the n-th distinct group shape of a priority gets allocationRequestId n.
groups = {}
for i, job in enumerate(objects(trace_path)):
    jid = str(job.get("job.id", f"job_{i + 1}"))
    shapes = collections.defaultdict(list)
    for t in job.get("job.tasks", []):
        tags = tags_of(t.get("container.tags", job.get("job.tags", [])))
        spec = t.get("container.placement.spec", job.get("job.placement.spec", ""))
        prio = int(t.get("container.priority", 20))
        shape = (int(t.get("container.allocation.id", -1)), t.get("container.memory-mb"),
                 t.get("container.vcores"), tuple(tags), spec)
        if shape not in shapes[prio]:
            shapes[prio].append(shape)
        if tags or spec:
            groups[(jid, prio, shapes[prio].index(shape))] = (tags, spec)

live = {}  # container -> (job, node, tags)
placed = collections.Counter()
violations = []
for line in open(f"{out}/decisions.jsonl"):
    d = json.loads(line)
    if d["kind"] == "allocate" and not d.get("am"):
        key = (d.get("appName"), d.get("priority"), d.get("allocationRequestId"))
        if key not in groups:
            continue
        tags, spec = groups[key]
        job, node = key[0], d["node"]

        def count(scope, tag, job=job, node=node):
            return sum(1 for (j, n, ts) in live.values() if j == job and tag in ts and
                       (n == node if scope == "node" else racks[n] == racks[node]))

        if spec and not satisfied(spec, node, count, attrs):
            violations.append(f"seq {d['seq']}: {job} {tags} on {node} violates '{spec}'")
        live[d["container"]] = (job, node, tags)
        for t in tags:
            placed[(job, t)] += 1
    elif d["kind"] in ("complete", "release", "kill") and d.get("container") in live:
        del live[d["container"]]

spread = collections.defaultdict(collections.Counter)
rows = list(csv_row.split(",") for csv_row in open(f"{out}/placement.csv").read().split("\n")[1:] if csv_row)
for job, tag, rack, n, peak, per_node in rows:
    spread[(job, tag)][rack] = int(peak)
print(f"{out}: placed {dict(placed)}")
print("  peak live per rack: " + "; ".join(f"{j}/{t} {dict(sorted(c.items()))}"
                                           for (j, t), c in sorted(spread.items())))
rejected = [d for d in map(json.loads, open(f"{out}/decisions.jsonl")) if d["kind"] == "request-rejected"]
print(f"  rejected scheduling requests: {len(rejected)}")
for key, (tags, spec) in sorted(groups.items()):
    for t in tags:
        if placed[(key[0], t)] == 0:
            violations.append(f"{key[0]}: no container tagged {t} was placed")
for v in violations:
    print("  VIOLATION", v)
sys.exit(1 if violations else 0)
