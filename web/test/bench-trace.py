#!/usr/bin/env python3
"""Writes an SLS trace for the web UI's benchmark: N jobs (default 10,000) over three Capacity
queues of examples/capacity/conf and a nodes file of M nodes (default 10,000).
  bench-trace.py OUT_DIR [JOBS] [NODES]
Jobs arrive one every 50 ms, each one 1 GB map of 10 to 60 s; nodes have 8 GB and 8 vcores in
racks of 40. Deterministic."""
import json
import sys

out = sys.argv[1]
jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
queues = [("prod", "alice"), ("dev", "bob"), ("adhoc", "carol")]
with open(f"{out}/jobs.json", "w") as f:
    for i in range(jobs):
        q, u = queues[i % 3]
        f.write(json.dumps({"job.id": f"job_{i}", "am.type": "mapreduce", "job.start.ms": i * 50,
                            "job.queue.name": q, "job.user": u,
                            "job.tasks": [{"count": 1, "container.duration.ms": 10000 + (i * 7919) % 50000,
                                           "container.priority": 20, "container.type": "map",
                                           "container.memory-mb": 1024, "container.vcores": 1}]}) + "\n")
with open(f"{out}/nodes.json", "w") as f:
    f.write(json.dumps({"rack": "rack-0", "nodes": [
        {"node": f"node{i}", "memory-mb": 8192, "vcores": 8} for i in range(nodes)]}) + "\n")
