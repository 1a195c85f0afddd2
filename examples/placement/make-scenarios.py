#!/usr/bin/env python3
"""Writes service-scheduler.json and service-processor.json: the same service-beside-batch
workload under the two placement-constraints handlers. Deterministic; rerun after editing."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# 12 nodes of 16 GB on 3 racks; java=1.8 on 10 of them (rm.yarn.io, admin-set), 1.7 on two.
NODES = [{"name": f"n{i:02d}", "rack": f"/rack{(i - 1) // 4}",
          "resource": {"memory-mb": 16384, "vcores": 16},
          "attributes": {"rm.yarn.io/java": "1.7" if i in (4, 9) else "1.8"}}
         for i in range(1, 13)]

WEB = "and(notin,node,web:java=1.8)"      # one web server per node, on Java 1.8 nodes
CACHE = "cardinality,rack,cache,0,2"       # at most 2 other caches in the rack: 3 per rack


def sreq(rid, tags, count, constraint, mb):
    return {"allocationRequestId": rid, "priority": 1, "resource": {"memory-mb": mb, "vcores": 1},
            "count": count, "tags": tags, "constraint": constraint}


def scenario(handler):
    hb = [{"heartbeatAll": {"times": 6}}]
    steps = [
        {"submit": {"app": "batch", "queue": "default"}},
        {"submit": {"app": "service", "queue": "default", "tags": ["web-service"]}},
        {"heartbeatAll": {}},
        {"comment": "the batch job asks for 40 maps of 2 GB",
         "ask": {"app": "batch", "priority": 2, "resource": {"memory-mb": 2048, "vcores": 1},
                 "count": 40}},
        {"comment": "the service: 8 web servers (anti-affine, Java 1.8) and 9 caches (3 per rack)",
         "schedulingRequest": {"app": "service", "requests": [sreq(1, ["web"], 8, WEB, 2048),
                                                              sreq(2, ["cache"], 9, CACHE, 1024)]}},
    ] + hb + [
        {"expect": {"state": {"tags:n04.service.web": 0, "tags:n09.service.web": 0,
                              "tags:/rack0.service.cache": 3, "tags:/rack1.service.cache": 3,
                              "tags:/rack2.service.cache": 3}}},
        {"comment": "a node running a web server is lost: its tags go with it",
         "removeNode": "n01"},
        {"comment": "the AM asks for a replacement web server",
         "schedulingRequest": {"app": "service", "requests": [sreq(1, ["web"], 1, WEB, 2048)]}},
    ] + hb + [
        {"expect": {"state": {"tags:n04.service.web": 0, "tags:n09.service.web": 0}}},
        {"snapshot": "end"},
    ]
    return {
        "spindleScenario": 1,
        "name": f"examples/placement: a service with anti-affinity and a cardinality limit beside a batch job ({handler})",
        "description": "12 nodes on 3 racks with the node attribute java (1.7 on n04 and n09). The service asks for 8 web servers (NOTIN node web AND java=1.8) and 9 caches (CARDINALITY rack cache 0..2, i.e. 3 per rack); a batch job asks for 40 maps beside it. A web node is then lost and the AM asks for a replacement. check.py replays the decision log and checks every placement against its constraint.",
        "scheduler": "capacity",
        "configuration": {"yarn-site": {
            "yarn.scheduler.minimum-allocation-mb": 1024,
            "yarn.resourcemanager.placement-constraints.handler": handler}},
        "cluster": {"nodes": NODES},
        "steps": steps,
    }


for handler, name in (("scheduler", "service-scheduler.json"),
                      ("placement-processor", "service-processor.json")):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(json.dumps(scenario(handler), indent=2) + "\n")
