#!/usr/bin/env python3
"""Writes the traces of the YARN-569 example (deterministic: fixed seed; rerun after edits).

The model (README.md explains the choices):
  cluster   10 nodes x 16 GB / 16 vcores = 160 GB = 160 one-GB slots (nodes.json)
  sort job  sorts 128 GB: 128 GB / 128 MB blocks = 1024 maps, 1 GB / 1 vcore containers
            maps in groups of 8, reduces in pairs sharing a duration
            experiment 1: maps 25-35 s, then 158 reduces of 1 GB lasting 450-1600 s
            (every free slot of the cluster but one once B's maps are done: B's AM
            and a slot for the next job's AM stay out)
            experiment 2: maps 60-120 s, then 32 reduces of 120-240 s
  AM        1 GB / 1 vcore (sls-runner.xml)
exp1.json   sort_B in queue B at t=0, sort_A in queue A at t=400 s
exp2.json   sort_B in B at t=0, sort_A in A at t=300 s, sort_C in C at t=600 s
"""
import json
import random

NODES = 10
NODE_MB = 16384


def groups(rng, n, size, lo_s, hi_s):
    """n tasks in groups of `size` (the last may be smaller), each group one duration drawn
    uniformly in [lo_s, hi_s] seconds (whole seconds): keeps the trace short."""
    out = []
    while n > 0:
        out.append((min(size, n), rng.randint(lo_s, hi_s) * 1000))
        n -= size
    return out


def sort_job(rng, job_id, queue, user, start_ms, maps, map_s, reduces, reduce_s):
    tasks = []
    for count, d in groups(rng, maps, 8, *map_s):
        tasks.append({"count": count, "container.duration.ms": d, "container.priority": 20,
                      "container.type": "map", "container.memory-mb": 1024,
                      "container.vcores": 1})
    for count, d in groups(rng, reduces, 2, *reduce_s):
        tasks.append({"count": count, "container.duration.ms": d, "container.priority": 10,
                      "container.type": "reduce", "container.memory-mb": 1024,
                      "container.vcores": 1})
    return {"job.id": job_id, "am.type": "mapreduce", "job.start.ms": start_ms,
            "job.queue.name": queue, "job.user": user, "job.tasks": tasks}


def write(path, jobs):
    with open(path, "w") as f:
        for j in jobs:
            head = {k: v for k, v in j.items() if k != "job.tasks"}
            f.write(json.dumps(head)[:-1] + ', "job.tasks": [\n')
            f.write(",\n".join("  " + json.dumps(t) for t in j["job.tasks"]))
            f.write("\n]}\n")


rng = random.Random(569)
EXP1 = dict(maps=1024, map_s=(25, 35), reduces=158, reduce_s=(450, 1600))
write("exp1.json", [sort_job(rng, "sort_B", "B", "bob", 0, **EXP1),
                    sort_job(rng, "sort_A", "A", "alice", 400000, **EXP1)])
EXP2 = dict(maps=1024, map_s=(60, 120), reduces=32, reduce_s=(120, 240))
write("exp2.json", [sort_job(rng, "sort_B", "B", "bob", 0, **EXP2),
                    sort_job(rng, "sort_A", "A", "alice", 300000, **EXP2),
                    sort_job(rng, "sort_C", "C", "carol", 600000, **EXP2)])
with open("nodes.json", "w") as f:
    f.write(json.dumps({"rack": "rack-a", "nodes": [
        {"node": f"node{i:02d}", "memory-mb": NODE_MB, "vcores": 16}
        for i in range(1, NODES + 1)]}, indent=1) + "\n")
