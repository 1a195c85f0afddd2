#!/usr/bin/env python3
"""Replays a run's decision log (decisions.jsonl) against its scenario and checks that every
placement of the service satisfied its constraint at the moment it was made, counting only the
containers live then (the container being placed is not counted, as in YARN):
  web   (allocationRequestId 1): no other web container on the node, and the node has java=1.8;
  cache (allocationRequestId 2): at most 2 other cache containers in the node's rack.
Also prints the per-rack spread of each tag and how many of each were placed.
Usage: check.py SCENARIO.json OUT_DIR   (exit 1 on a violation)"""
import collections
import json
import sys

scenario = json.load(open(sys.argv[1]))
nodes = {n["name"]: n for n in scenario["cluster"]["nodes"]}
decisions = [json.loads(line) for line in open(f"{sys.argv[2]}/decisions.jsonl")]

TAGS = {1: "web", 2: "cache"}
live = {}  # container -> (node, tag)
violations = []
placed = collections.Counter()
for d in decisions:
    kind = d["kind"]
    if kind == "allocate" and d.get("appName") == "service" and d.get("priority") == 1:
        tag = TAGS[d["allocationRequestId"]]
        node = d["node"]
        rack = nodes[node]["rack"]
        here = [t for (n, t) in live.values() if n == node and t == tag]
        in_rack = [t for (n, t) in live.values() if nodes[n]["rack"] == rack and t == tag]
        if tag == "web":
            java = nodes[node].get("attributes", {}).get("rm.yarn.io/java")
            if here:
                violations.append(f"seq {d['seq']}: web on {node}, which already runs one")
            if java != "1.8":
                violations.append(f"seq {d['seq']}: web on {node}, java={java}")
        if tag == "cache" and len(in_rack) > 2:
            violations.append(f"seq {d['seq']}: cache on {node}: {len(in_rack)} others in {rack}")
        live[d["container"]] = (node, tag)
        placed[tag] += 1
    elif kind in ("complete", "release", "kill") and d.get("container") in live:
        del live[d["container"]]

spread = collections.defaultdict(collections.Counter)
for node, tag in live.values():
    spread[tag][nodes[node]["rack"]] += 1
print(f"{sys.argv[2]}: placed {dict(placed)}; live per rack: "
      + "; ".join(f"{tag} {dict(sorted(c.items()))}" for tag, c in sorted(spread.items())))
rejected = [d for d in decisions if d["kind"] == "request-rejected"]
print(f"  rejected scheduling requests: {len(rejected)}")
if placed["web"] < 9 or placed["cache"] < 9:
    violations.append(f"expected 9 web (8 + the replacement) and 9 cache placements, got {dict(placed)}")
for v in violations:
    print("  VIOLATION", v)
sys.exit(1 if violations else 0)
