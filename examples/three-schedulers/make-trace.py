#!/usr/bin/env python3
"""Writes jobs.json and nodes.json of the three-schedulers example (rerun after edits).

Cluster: 10 nodes x 8 GB / 8 vcores = 80 GB. All containers 1 GB / 1 vcore.
  big       t = 0, queue "large": 316 maps of 240 s (four waves of 79 beside its AM), then 10
            reduces of 60 s. Alone: about 17 minutes; it asks for maps until its last wave
            starts (~720 s).
  small_1..3  t = 60, 300, 540 s, queue "small": 39 maps of 90 s each. With its AM a small job
            wants 40 GB, exactly half the cluster (its queue's fair share under Fair).
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


jobs = [job("big", "large", "etl", 0, 316, 240000, 10, 60000)]
jobs += [job(f"small_{i}", "small", "analyst", 60000 + (i - 1) * 240000, 39, 90000)
         for i in range(1, 4)]
with open("jobs.json", "w") as f:
    for j in jobs:
        f.write(json.dumps(j) + "\n")
with open("nodes.json", "w") as f:
    f.write(json.dumps({"rack": "rack-a", "nodes": [
        {"node": f"node{i:02d}", "memory-mb": 8192, "vcores": 8} for i in range(1, 11)]},
        indent=1) + "\n")
