#!/usr/bin/env python3
"""Writes jobs.json and nodes.json of the capacity example (deterministic; rerun after edits).

Cluster: 10 nodes x 8 GB / 8 vcores = 80 GB. Every task is a 1 GB / 1 vcore map of 20 s.
Three waves:
  wave 1, t=0     prod  (50 %): one job of 600 maps: alone, it takes the whole cluster (elastic).
  wave 2, t=60 s  dev   (30 %): one job of 500 maps; adhoc (20 %): one job of 340 maps.
                  All three queues now have demand: the scheduler hands freed containers to
                  the queue furthest below its capacity, so the shares move to 50/30/20.
  wave 3          prod runs out of maps (about t=250 s): dev and adhoc share the whole
                  cluster in proportion to their capacities (60/40 of the cluster).
"""
import json

NODES = 10
NODE_MB = 8192

def job(job_id, queue, user, start_ms, maps, duration_ms=20000):
    return {"job.id": job_id, "am.type": "mapreduce", "job.start.ms": start_ms,
            "job.queue.name": queue, "job.user": user,
            "job.tasks": [{"count": maps, "container.duration.ms": duration_ms,
                           "container.priority": 20, "container.type": "map",
                           "container.memory-mb": 1024, "container.vcores": 1}]}

jobs = [job("prod_etl", "prod", "alice", 0, 600),
        job("dev_build", "dev", "bob", 60000, 500),
        job("adhoc_query", "adhoc", "carol", 60000, 340)]

with open("jobs.json", "w") as f:
    for j in jobs:
        f.write(json.dumps(j, indent=1) + "\n")
with open("nodes.json", "w") as f:
    f.write(json.dumps({"rack": "rack-a", "nodes": [
        {"node": f"node{i}", "memory-mb": NODE_MB, "vcores": 8} for i in range(1, NODES + 1)]},
        indent=1) + "\n")
