#!/usr/bin/env python3
"""Writes jobs.json and nodes.json of the whatif example (seeded: rerun gives the same files).

Cluster: 64 nodes x 8 GB / 8 vcores = 512 GB. All containers 1 GB / 1 vcore.
One simulated day (86,400 s), three queues, several users each:
  prod   user etl: an ETL job every 30 minutes, all day (48 jobs): 150 to 300 maps of 4 to 8
         minutes, then 10 to 30 reduces of 3 minutes. The guaranteed queue. Each is due 30
         minutes after it starts, before the next one (job.deadline.ms): under a configuration
         with the reservation system on and prod reservable, it reserves for that deadline;
         elsewhere the deadline is ignored.
  dev    users dev1..dev8: working hours only (08:00 to 18:00), Poisson arrivals: 20 to 300
         maps of 8 to 25 minutes. Enough to fill the cluster by itself in the afternoon, so
         it runs far above its guarantee on the capacity prod is not using.
  adhoc  users analyst1..analyst6: all day, small jobs: 5 to 60 maps of 2 to 10 minutes.
"""
import json
import random

SEED = 20
DAY_MS = 86_400_000
rng = random.Random(SEED)


def job(job_id, queue, user, start_ms, maps, map_ms, reduces=0, reduce_ms=0, deadline_ms=None):
    tasks = [{"count": maps, "container.duration.ms": map_ms, "container.priority": 20,
              "container.type": "map", "container.memory-mb": 1024, "container.vcores": 1}]
    if reduces:
        tasks.append({"count": reduces, "container.duration.ms": reduce_ms,
                      "container.priority": 10, "container.type": "reduce",
                      "container.memory-mb": 1024, "container.vcores": 1})
    out = {"job.id": job_id, "am.type": "mapreduce", "job.start.ms": start_ms,
           "job.queue.name": queue, "job.user": user, "job.tasks": tasks}
    if deadline_ms is not None:
        out["job.deadline.ms"] = deadline_ms
    return out


jobs = []
for i in range(48):
    start = i * 1_800_000 + rng.randrange(0, 60_000)
    jobs.append(job(f"etl_{i:02d}", "prod", "etl", start,
                    rng.randint(150, 300), rng.randint(4, 8) * 60_000,
                    rng.randint(10, 30), 180_000, deadline_ms=start + 1_800_000))
t, n = 8 * 3_600_000, 0
while True:
    t += int(rng.expovariate(1 / 300_000))  # one job every 5 minutes on average
    if t >= 18 * 3_600_000:
        break
    jobs.append(job(f"dev_{n:03d}", "dev", f"dev{rng.randint(1, 8)}", t,
                    rng.randint(20, 300), rng.randint(8, 25) * 60_000))
    n += 1
t, n = 0, 0
while True:
    t += int(rng.expovariate(1 / 600_000))  # one job every 10 minutes on average
    if t >= DAY_MS:
        break
    jobs.append(job(f"adhoc_{n:03d}", "adhoc", f"analyst{rng.randint(1, 6)}", t,
                    rng.randint(5, 60), rng.randint(2, 10) * 60_000))
    n += 1
jobs.sort(key=lambda j: (j["job.start.ms"], j["job.id"]))
with open("jobs.json", "w") as f:
    for j in jobs:
        f.write(json.dumps(j) + "\n")
with open("nodes.json", "w") as f:
    f.write(json.dumps({"rack": "rack-a", "nodes": [
        {"node": f"node{i:02d}", "memory-mb": 8192, "vcores": 8} for i in range(1, 65)]},
        indent=1) + "\n")
