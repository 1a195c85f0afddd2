#!/usr/bin/env python3
"""Writes jobs.json and nodes.json of the three-schedulers example (rerun after edits).

Cluster: 10 nodes x 8 GB / 8 vcores = 80 GB. All containers 1 GB / 1 vcore.
  big       t = 0, queue "large": 800 maps of 60 s, then 20 reduces of 60 s. Alone it needs
            about 10 waves of maps (~11 minutes).
  small_1..6  t = 60, 120, ..., 360 s, queue "small": 10 maps of 30 s each (alone: ~35 s).
"""
import json


def job(job_id, queue, user, start_ms, maps, map_ms, reduces=0, reduce_ms=0):
    tasks = [{"count": maps, "container.duration.ms": map_ms, "container.priority": 20,
              "container.type": "map", "container.memory-mb": 1024, "container.vcores": 1}]
    if reduces:
        tasks.append({"count": reduces, "container.duration.ms": reduce_ms,
                      "container.priority": 10, "container.type": "reduce",
                      "container.memory-mb": 1024, "container.vcores": 1})
    return {"job.id": job_id, "am.type": "mapreduce", "job.start.ms": start_ms,
            "job.queue.name": queue, "job.user": user, "job.tasks": tasks}


jobs = [job("big", "large", "etl", 0, 800, 60000, 20, 60000)]
jobs += [job(f"small_{i}", "small", "analyst", i * 60000, 10, 30000) for i in range(1, 7)]
with open("jobs.json", "w") as f:
    for j in jobs:
        f.write(json.dumps(j) + "\n")
with open("nodes.json", "w") as f:
    f.write(json.dumps({"rack": "rack-a", "nodes": [
        {"node": f"node{i:02d}", "memory-mb": 8192, "vcores": 8} for i in range(1, 11)]},
        indent=1) + "\n")
