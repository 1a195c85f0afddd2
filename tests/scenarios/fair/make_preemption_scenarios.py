#!/usr/bin/env python3
"""Writes the Fair Scheduler preemption scenarios of vectors P2-* and P3-* (fs-p2-*.json,
fs-p3-*.json) into the folder given (tests/scenarios/fair/), following docs/scenario-format.md's
mapping of fair-scheduler-vectors.json. Deterministic; rerun after editing.
  make_preemption_scenarios.py tests/scenarios/fair
"""
import json, os, sys

OUT = sys.argv[1]
GB = 1024

def res(mb, vc=None):
    r = {"memory-mb": mb}
    if vc is not None:
        r["vcores"] = vc
    return r

def write(fname, sc):
    with open(os.path.join(OUT, fname), "w") as f:
        f.write(json.dumps(sc, indent=1) + "\n")

def alloc(body):
    return '<?xml version="1.0"?>\n<allocations>\n' + body + '\n</allocations>\n'

# ---------------------------------------------------------------- 2.x
def site2x(threshold="0", preemption=True, extra=None):
    s = {"spindle.scheduler.fair.preemption.design": "2.x",
         "yarn.scheduler.fair.preemption": "true" if preemption else "false",
         "yarn.scheduler.fair.preemption.cluster-utilization-threshold": threshold}
    s.update(extra or {})
    return s

P21_ALLOC = alloc("""  <queue name="default"><maxResources>0mb,0vcores</maxResources></queue>
  <queue name="queueA"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
  <queue name="queueB"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
  <defaultMinSharePreemptionTimeout>5</defaultMinSharePreemptionTimeout>
  <fairSharePreemptionTimeout>10</fairSharePreemptionTimeout>""")

for i, (thr, na, called, marked, why) in enumerate([
        ("0.0", 2, 1024, 0, "utilisation 0.5 > 0: preemptResources gets B's 1024 MB min-share deficit; A (2 GB) is at its 2 GB fair share, so nothing is warned"),
        ("0.8", 3, 0, 0, "utilisation 0.75 > 0.8 is false: no preemption check"),
        ("0.7", 3, 1024, 1, "utilisation 0.75 > 0.7: 1024 MB to preempt; A (3 GB) is over its 2 GB fair share and one container is warned")]):
    write(f"fs-p2-1-case{i + 1}-threshold-{thr}.json", {
        "spindleScenario": 1,
        "name": f"P2-1 case {i + 1}: utilisation threshold {thr}, queueA holds {na} GB",
        "source": {"vector": "P2-1", "test": "TestFairSchedulerPreemption(2.x).testPreemptionWithFreeResources"},
        "description": why + ". The deficit is B's min share: its 5 s timeout has passed, the 10 s fair-share one has not.",
        "scheduler": "fair",
        "configuration": {"yarn-site": site2x(thr), "fair-scheduler": P21_ALLOC},
        "cluster": {"nodes": [{"name": "n1", "rack": "/r1", "resource": res(4096, 4)}]},
        "steps": [
            {"submit": {"app": "a", "queue": "queueA", "am": None}},
            {"ask": {"app": "a", "priority": 1, "resource": res(GB, 1), "count": na}},
            {"heartbeat": {"node": "n1", "times": na}},
            {"expect": {"allocationCount": na}},
            {"submit": {"app": "b", "queue": "queueB", "am": None}},
            {"ask": {"app": "b", "priority": 1, "resource": res(GB, 1), "count": 1}},
            {"monitor": {}},
            {"advance": "6s"},
            {"monitor": {}},
            {"expect": {"state": {"starvation:root.toPreempt.memory-mb": called,
                                  "starvation:root.queueB.deficit.memory-mb": 1024,
                                  "starvation:root.queueB.starved": True},
                        "preemption": {"marked": {"a": marked} if marked else {}}}},
        ]})

write("fs-p2-3-preemption-not-delayed-to-next-round.json", {
    "spindleScenario": 1,
    "name": "P2-3: one 2.x round warns 3 containers for queueA2's 3277 MB deficit",
    "source": {"vector": "P2-3", "test": "TestFairSchedulerPreemption(2.x).testPreemptionIsNotDelayedToNextRound"},
    "description": "A (weight 8) has children A1, A2; B weight 2; one 8 GB node. app1 in A1 holds 7 GB, app2 in B 1 GB. app3 in A2 asks 7 GB. After the 10 s fair-share timeout A2's deficit is its full fair share, 3277 MB (6553.6 / 2, rounded up), and one preemptResources round warns 3 of app1's containers: then A's usage / weight (4096 / 8) ties B's (1024 / 2), B wins the tie by name and is not over its share, so the round stops.",
    "scheduler": "fair",
    "configuration": {
        "yarn-site": site2x("0", True, {"yarn.scheduler.fair.preemptionInterval": "5000",
                                         "yarn.scheduler.fair.waitTimeBeforeKill": "10000"}),
        "fair-scheduler": alloc("""  <queue name="queueA"><weight>8</weight>
    <queue name="queueA1"/><queue name="queueA2"/>
  </queue>
  <queue name="queueB"><weight>2</weight></queue>
  <defaultFairSharePreemptionTimeout>10</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>0.5</defaultFairSharePreemptionThreshold>""")},
    "cluster": {"nodes": [{"name": "n1", "rack": "/r1", "resource": res(8192, 8)}]},
    "steps": [
        {"submit": {"app": "app1", "queue": "queueA.queueA1", "am": None}},
        {"ask": {"app": "app1", "priority": 1, "resource": res(GB, 1), "count": 7}},
        {"submit": {"app": "app2", "queue": "queueB", "am": None}},
        {"ask": {"app": "app2", "priority": 1, "resource": res(GB, 1), "count": 1}},
        {"heartbeat": {"node": "n1", "times": 8}},
        {"expect": {"allocationCount": 8, "state": {"app:app1.runningContainers": 7}}},
        {"submit": {"app": "app3", "queue": "queueA.queueA2", "am": None}},
        {"ask": {"app": "app3", "priority": 1, "resource": res(GB, 1), "count": 7}},
        {"monitor": {}},
        {"advance": "11s"},
        {"monitor": {}},
        {"expect": {"state": {"starvation:root.queueA.queueA2.deficit.memory-mb": 3277,
                              "starvation:root.toPreempt.memory-mb": 3277,
                              "app:app1.runningContainers": 7},
                    "preemption": {"marked": {"app1": 3}}}},
    ]})

def fourQueues(drf):
    if drf:
        mins = ["1024mb,1vcores", "1024mb,2vcores", "1024mb,3vcores", "1024mb,2vcores"]
    else:
        mins = ["1024mb,0vcores"] * 4
    body = ("  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>\n" if drf else "")
    body += '  <queue name="default"><maxResources>0mb,0vcores</maxResources></queue>\n'
    for q, m in zip("ABCD", mins):
        body += f'  <queue name="queue{q}"><weight>.25</weight><minResources>{m}</minResources></queue>\n'
    body += """  <defaultMinSharePreemptionTimeout>5</defaultMinSharePreemptionTimeout>
  <defaultFairSharePreemptionTimeout>10</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>.5</defaultFairSharePreemptionThreshold>"""
    return alloc(body)

def p24(drf):
    steps = []
    for q in "AB":
        for i in range(3):
            h = f"{q.lower()}{i + 1}"
            steps += [{"submit": {"app": h, "queue": f"queue{q}", "am": None}},
                      {"ask": {"app": h, "priority": 1, "resource": res(GB, 1), "count": 1}}]
    steps += [{"monitor": {}}, {"heartbeatAll": {"times": 2}},
              {"expect": {"allocationCount": 6, "state": {"metrics.availableMB": 0}}}]
    for q in "CD":
        for i in range(3):
            h = f"{q.lower()}{i + 1}"
            n = 2 if (drf and q == "D") else 1
            steps += [{"submit": {"app": h, "queue": f"queue{q}", "am": None}},
                      {"ask": {"app": h, "priority": 1, "resource": res(GB, 1), "count": n}}]
    steps.append({"monitor": {}})
    def exp(c, d):
        st = {}
        for q, v in (("C", c), ("D", d)):
            st[f"starvation:root.queue{q}.deficit.memory-mb"] = v[0]
            if drf:
                st[f"starvation:root.queue{q}.deficit.vcores"] = v[1]
        return {"expect": {"state": st}}
    if drf:
        steps += [{"advance": "6s"}, exp((1024, 3), (1024, 2)),
                  {"monitor": {}}, {"advance": "6s"}, exp((1536, 3), (1536, 3))]
    else:
        steps += [exp((0,), (0,)), {"advance": "6s"}, exp((1024,), (1024,)),
                  {"monitor": {}}, {"advance": "6s"}, exp((1536,), (1536,))]
    steps.append({"expect": {"state": {"starvation:root.queueC.starved": True,
                                       "starvation:root.queueA.starved": False}}})
    return steps

write("fs-p2-4-preemption-decision.json", {
    "spindleScenario": 1,
    "name": "P2-4: min-share deficit after 5 s, fair-share deficit after 10 s",
    "source": {"vector": "P2-4", "test": "TestFairSchedulerPreemption(2.x).testPreemptionDecision"},
    "description": "Three 2 GB nodes; A and B hold them with 3 x 1 GB each; C and D then each get 3 apps of 1 GB. resourceDeficit = max(min(min share, demand) - usage after the min-share timeout, min(fair share 6144 / 4, demand) - usage after the fair-share timeout). Preemption stays off: only the deficits are checked.",
    "scheduler": "fair",
    "configuration": {"yarn-site": site2x("0", False), "fair-scheduler": fourQueues(False)},
    "cluster": {"nodes": [{"name": f"n{i}", "rack": "/r1", "resource": res(2048, 2)} for i in (1, 2, 3)]},
    "steps": p24(False)})

write("fs-p2-5-preemption-decision-drf.json", {
    "spindleScenario": 1,
    "name": "P2-5: DRF deficits, componentwise min share and the DRF max of the two",
    "source": {"vector": "P2-5", "test": "TestFairSchedulerPreemption(2.x).testPreemptionDecisionWithDRF"},
    "description": "As P2-4 with drf, three (2048, 4) nodes and vcore min shares; D's apps ask 2 x (1024, 1) each. Fair share (1536, 3) = (6144, 12) / 4.",
    "scheduler": "fair",
    "configuration": {"yarn-site": site2x("0", False), "fair-scheduler": fourQueues(True)},
    "cluster": {"nodes": [{"name": f"n{i}", "rack": "/r1", "resource": res(2048, 4)} for i in (1, 2, 3)]},
    "steps": p24(True)})

p26 = [{"submit": {"app": "a", "queue": "queueA", "am": None}},
       {"ask": {"app": "a", "priority": 1, "resource": res(GB, 1), "count": 6}},
       {"heartbeat": {"node": "n1", "times": 6}},
       {"expect": {"allocationCount": 6}}]
for q in ("queueB.queueB1", "queueB.queueB2", "queueC"):
    for i in range(3):
        h = f"{q.split('.')[-1]}_{i + 1}"
        p26 += [{"submit": {"app": h, "queue": q, "am": None}},
                {"ask": {"app": h, "priority": 1, "resource": res(GB, 1), "count": 1}}]
p26.append({"monitor": {}})
for t, adv, b1, b2, c in [(6, "6s", 1024, 0, 0), (11, "5s", 1024, 1024, 0), (16, "5s", 1024, 1024, 1024),
                          (21, "5s", 1024, 1536, 1024), (26, "5s", 1536, 1536, 1024), (31, "5s", 1536, 1536, 1536)]:
    p26 += [{"monitor": {}}, {"advance": adv},
            {"comment": f"t = {t} s", "expect": {"state": {
                "starvation:root.queueB.queueB1.deficit.memory-mb": b1,
                "starvation:root.queueB.queueB2.deficit.memory-mb": b2,
                "starvation:root.queueC.deficit.memory-mb": c}}}]
write("fs-p2-6-preemption-decision-various-timeouts.json", {
    "spindleScenario": 1,
    "name": "P2-6: inherited min-share and fair-share timeouts decide when deficits appear",
    "source": {"vector": "P2-6", "test": "TestFairSchedulerPreemption(2.x).testPreemptionDecisionWithVariousTimeout"},
    "description": "One 6 GB node held by queueA; B1, B2 and C then get 3 apps of 1 GB each. Min-share timeouts: B1 5 s, B2 10 s (from B), C 15 s (default); fair-share: B2 20 s, B1 25 s (from B), C 30 s (default). Fair shares: A 1536, B 3072 (B1, B2 1536 each), C 1536.",
    "scheduler": "fair",
    "configuration": {"yarn-site": site2x("0", False), "fair-scheduler": alloc("""  <queue name="default"><maxResources>0mb,0vcores</maxResources></queue>
  <queue name="queueA"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
  <queue name="queueB"><weight>2</weight>
    <minSharePreemptionTimeout>10</minSharePreemptionTimeout>
    <fairSharePreemptionTimeout>25</fairSharePreemptionTimeout>
    <queue name="queueB1"><minResources>1024mb,0vcores</minResources>
      <minSharePreemptionTimeout>5</minSharePreemptionTimeout></queue>
    <queue name="queueB2"><minResources>1024mb,0vcores</minResources>
      <fairSharePreemptionTimeout>20</fairSharePreemptionTimeout></queue>
  </queue>
  <queue name="queueC"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
  <defaultMinSharePreemptionTimeout>15</defaultMinSharePreemptionTimeout>
  <defaultFairSharePreemptionTimeout>30</defaultFairSharePreemptionTimeout>""")},
    "cluster": {"nodes": [{"name": "n1", "rack": "/r1", "resource": res(6144, 6)}]},
    "steps": p26})

# ---------------------------------------------------------------- 3.x
def p3alloc(mode, drf):
    if mode == "fair":
        knobs = "<fairSharePreemptionThreshold>1</fairSharePreemptionThreshold><fairSharePreemptionTimeout>0</fairSharePreemptionTimeout>"
        child = ""
    else:
        knobs = "<minSharePreemptionTimeout>0</minSharePreemptionTimeout>"
        child = "<minResources>4096mb,4vcores</minResources>"
    kids = f'<queue name="child-1">{child}</queue><queue name="child-2">{child}</queue>'
    body = ("  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>\n" if drf else "")
    body += f'  <queue name="preemptable">{knobs}{kids}</queue>\n'
    body += f'  <queue name="preemptable-sibling">{knobs}</queue>\n'
    body += f'  <queue name="nonpreemptable"><allowPreemptionFrom>false</allowPreemptionFrom>{knobs}{kids}</queue>'
    return alloc(body)

SITE3 = {"yarn.scheduler.fair.preemption": "true",
         "yarn.scheduler.fair.preemption.cluster-utilization-threshold": "0.0",
         "yarn.scheduler.fair.waitTimeBeforeKill": "0"}
NODES3 = [{"name": "n1", "rack": "/r1", "resource": res(4096, 12)},
          {"name": "n2", "rack": "/r1", "resource": res(4096, 12)}]
MODES = [("fair", False), ("fair", True), ("min", False), ("min", True)]

def mode_name(mode, drf):
    return f"{mode}share-{'drf' if drf else 'fair'}"

def take_all(queue):
    return [{"submit": {"app": "greedy", "queue": queue, "am": None}},
            {"ask": {"app": "greedy", "priority": 1, "resource": res(GB, 1), "count": 8}},
            {"heartbeat": {"node": "n1", "times": 4}},
            {"heartbeat": {"node": "n2", "times": 4}},
            {"expect": {"state": {"app:greedy.runningContainers": 8}}}]

def starve(handle, queue, size_gb, count=4):
    return [{"submit": {"app": handle, "queue": queue, "am": None}},
            {"ask": {"app": handle, "priority": 1, "resource": res(size_gb * GB, size_gb), "count": count}},
            {"advance": "1s"}, {"monitor": {}},
            {"heartbeatAll": {"times": 3}}]

def p3(vid, test, slug, desc, modes, build, site=None):
    for mode, drf in modes:
        steps = build(mode, drf)
        write(f"fs-{vid.lower()}-{slug}-{mode_name(mode, drf)}.json", {
            "spindleScenario": 1,
            "name": f"{vid} ({mode_name(mode, drf)}): {desc}",
            "source": {"vector": vid, "test": f"TestFairSchedulerPreemption.{test}"},
            "description": "Two (4096, 12) nodes; a greedy app fills them with 8 x (1 GB, 1 vcore); preemption on, utilisation threshold 0, waitTimeBeforeKill 0. " + desc,
            "scheduler": "fair",
            "configuration": {"yarn-site": dict(SITE3, **(site or {})), "fair-scheduler": p3alloc(mode, drf)},
            "cluster": {"nodes": NODES3},
            "steps": steps})

def b31(mode, drf):
    if mode == "fair":
        exp = {"app:starving.runningContainers": 2, "app:greedy.runningContainers": 4}
        pre = {"marked": {"greedy": 4}, "killed": {"greedy": 4}}
    else:
        exp = {"app:starving.runningContainers": 0, "app:greedy.runningContainers": 8}
        pre = {"marked": {}, "killed": {}}
    return take_all("preemptable.child-1") + starve("starving", "preemptable.child-1", 2) + [
        {"expect": {"state": exp, "preemption": pre}}]
p3("P3-1", "testPreemptionWithinSameLeafQueue", "within-same-leaf",
   "the starving app shares preemptable.child-1 with the greedy one: in fair-share mode each app's fair share is 4 GB and the starving app gets 2 x 2 GB; min-share deficits exist only for queues, and the queue is at its min share, so min-share mode preempts nothing.", MODES, b31)

def b32(mode, drf):
    return take_all("preemptable.child-1") + starve("starving", "preemptable.child-2", 2) + [
        {"expect": {"state": {"app:starving.runningContainers": 2, "app:greedy.runningContainers": 4,
                              "app:greedy.numNonAMContainerPreempted": 4},
                    "preemption": {"marked": {"greedy": 4}, "killed": {"greedy": 4}}}}]
p3("P3-2", "testPreemptionBetweenTwoSiblingLeafQueues", "two-sibling-leaves",
   "a starving app in preemptable.child-2 asks 4 x 2 GB: the two leaves split preemptable's 8 GB, 4 of the greedy app's containers are preempted and the starving app gets 2.", MODES, b32)

def b34(mode, drf):
    return take_all("nonpreemptable.child-1") + starve("starving", "preemptable.child-1", 2) + [
        {"expect": {"state": {"app:greedy.runningContainers": 8, "app:starving.runningContainers": 0},
                    "preemption": {"marked": {}, "killed": {}}}}]
p3("P3-4", "testNoPreemptionFromDisallowedQueue", "no-preemption-from-disallowed-queue",
   "the greedy app is in nonpreemptable.child-1: allowPreemptionFrom=false on the parent covers its children, so the starving app in preemptable.child-1 gets nothing.", MODES, b34)

def b33(mode, drf):
    return take_all("preemptable.child-1") + starve("starving", "nonpreemptable.child-1", 2) + [
        {"expect": {"state": {"app:starving.runningContainers": 2, "app:greedy.runningContainers": 4,
                              "app:greedy.numNonAMContainerPreempted": 4},
                    "preemption": {"marked": {"greedy": 4}, "killed": {"greedy": 4}}}}]
p3("P3-3", "testPreemptionBetweenNonSiblingQueues", "non-sibling-queues",
   "a starving app in nonpreemptable.child-1 (4 x 2 GB) preempts from preemptable.child-1: a non-preemptable queue can still preempt from others.", MODES, b33)

def b36(mode, drf):
    return take_all("preemptable.child-1") + starve("starving", "preemptable.child-2", 3) + [
        {"expect": {"state": {"app:starving.runningContainers": 1, "app:greedy.runningContainers": 5}}}]
p3("P3-6", "testAppNotPreemptedBelowFairShare", "not-below-fair-share",
   "the starving app in preemptable.child-2 asks 4 x 3 GB: its 4 GB starvation covers floor(4 / 3) = 1 container, and 3 containers of one node free it; the greedy app keeps 5 (never below its 4 GB fair share).", MODES, b36)

def b37(mode, drf):
    return take_all("preemptable.child-1") + starve("starving1", "preemptable-sibling", 2) + [
        {"expect": {"state": {"app:starving1.runningContainers": 2, "app:greedy.runningContainers": 4}}}] + \
        starve("starving2", "preemptable.child-2", 2) + [
        {"expect": {"state": {"app:starving2.runningContainers": 1, "app:greedy.runningContainers": 2,
                              "app:starving1.runningContainers": 2}}}]
p3("P3-7", "testPreemptionBetweenSiblingQueuesWithParentAtFairShare", "siblings-parent-at-fair-share",
   "step 1: a starving app in preemptable-sibling takes 2 x 2 GB (greedy keeps 4); step 2: one in preemptable.child-2 splits preemptable's 4 GB with child-1 and takes 1 x 2 GB (greedy keeps 2).",
   [("fair", False), ("fair", True)], b37)

def relax(node1_ams, node2_ams, host_gb, host_count):
    steps = [{"submit": {"app": "greedy", "queue": "preemptable.child-1", "am": None}}]
    for node, ams in (("n1", node1_ams), ("n2", node2_ams)):
        for _ in range(ams):  # the test flags them as AM containers
            steps.append({"place": {"app": "greedy", "node": node, "resource": res(GB, 1), "priority": 1, "am": True}})
        if 4 - ams:
            steps.append({"place": {"app": "greedy", "node": node, "resource": res(GB, 1), "priority": 1, "count": 4 - ams}})
    steps += [{"expect": {"allocationCount": 8}},
              {"submit": {"app": "starving", "queue": "preemptable.child-2", "am": None}},
              {"ask": {"app": "starving", "requests": [
                  {"name": "n1", "priority": 1, "resource": res(host_gb * GB, host_gb), "count": host_count, "relaxLocality": True},
                  {"name": "/r1", "priority": 1, "resource": res(10 * GB, 1), "count": 1},
                  {"name": "*", "priority": 1, "resource": res(10 * GB, 1), "count": 1}]}},
              {"advance": "1s"}, {"monitor": {}},
              {"heartbeatAll": {"times": 3}}]
    return steps

def b38(mode, drf):
    return relax(4, 0, 1, 4) + [
        {"expect": {"state": {"app:greedy.runningContainers": 4, "app:starving.runningContainers": 0,
                              "node:n1.numContainers": 4, "node:n2.numContainers": 0},
                    "preemption": {"marked": {"greedy": 4}, "killed": {"greedy": 4}}}}]
p3("P3-8", "testRelaxLocalityPreemptionWithLessAMInRemainingNodes", "relax-locality-fewer-ams-elsewhere",
   "the greedy app's 4 containers on n1 are AMs; the starving app (preemptable.child-2) asks 4 x 1 GB on n1 with relaxLocality, 1 x 10 GB on the rack and ANY. Every set on n1 holds an AM, so the relaxed search takes 4 non-AM containers on n2; the starving app gets nothing yet (10 GB fits nowhere, YARN-7655). The test puts its 10 GB requests into the app directly; here the maximum allocation is raised to 16 GB so that the ask is accepted.", MODES, b38, {"yarn.scheduler.maximum-allocation-mb": "16384"})

def b39(mode, drf):
    return relax(3, 4, 2, 1) + [
        {"expect": {"state": {"app:greedy.runningContainers": 6, "app:starving.runningContainers": 0,
                              "node:n1.numContainers": 2, "node:n2.numContainers": 4},
                    "preemption": {"marked": {"greedy": 2}, "killed": {"greedy": 2}}}}]
p3("P3-9", "testRelaxLocalityPreemptionWithNoLessAMInRemainingNodes", "relax-locality-no-fewer-ams-elsewhere",
   "3 of the greedy app's containers on n1 and all 4 on n2 are AMs; the starving app asks 1 x 2 GB on n1 with relaxLocality, 1 x 10 GB on the rack and ANY. n1 needs 1 AM for 2 GB, n2 would need 2, so n1's non-AM container and one AM are preempted. The maximum allocation is raised to 16 GB so that the 10 GB asks are accepted.", MODES, b39, {"yarn.scheduler.maximum-allocation-mb": "16384"})

def starvation_alloc():
    return alloc("""  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <queue name="default"/>
  <queue name="no-preemption"><fairSharePreemptionThreshold>0</fairSharePreemptionThreshold></queue>
  <queue name="minshare"><fairSharePreemptionThreshold>0</fairSharePreemptionThreshold>
    <minSharePreemptionTimeout>0</minSharePreemptionTimeout>
    <minResources>2048mb,2vcores</minResources></queue>
  <queue name="fairshare"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold>
    <fairSharePreemptionTimeout>0</fairSharePreemptionTimeout>
    <schedulingPolicy>fair</schedulingPolicy>
    <queue name="child"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold>
      <fairSharePreemptionTimeout>0</fairSharePreemptionTimeout>
      <schedulingPolicy>fair</schedulingPolicy></queue></queue>
  <queue name="drf"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold>
    <fairSharePreemptionTimeout>0</fairSharePreemptionTimeout>
    <schedulingPolicy>drf</schedulingPolicy>
    <queue name="child"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold>
      <fairSharePreemptionTimeout>0</fairSharePreemptionTimeout>
      <schedulingPolicy>drf</schedulingPolicy></queue></queue>""")

def starvation_case(vid, test, slug, desc, site_over, starved):
    site = {"yarn.scheduler.fair.preemption": "true",
            "yarn.scheduler.fair.preemption.cluster-utilization-threshold": "0.0"}
    site.update(site_over)
    steps = [{"submit": {"app": "greedy", "queue": "default", "am": None}},
             {"ask": {"app": "greedy", "priority": 1, "resource": res(GB, 1), "count": 8}},
             {"heartbeat": {"node": "n1", "times": 4}}, {"heartbeat": {"node": "n2", "times": 4}},
             {"expect": {"state": {"app:greedy.runningContainers": 8}}}]
    handles = {"nopreemption": "no-preemption", "minshare": "minshare",
               "fairshare": "fairshare.child", "drf": "drf.child"}
    for h, q in handles.items():
        steps += [{"submit": {"app": h, "queue": q, "am": None}},
                  {"ask": {"app": h, "priority": 1, "resource": res(GB, 1), "count": 1}}]
    steps += [{"heartbeatAll": {}}, {"advance": "10ms"}, {"monitor": {}}]
    st = {f"starvation:{h}.starved": h in starved for h in handles}
    if starved:
        for h in starved:
            st[f"starvation:root.{handles[h]}.starved"] = True
    steps.append({"expect": {"state": st}})
    write(f"fs-{vid.lower()}-{slug}.json", {
        "spindleScenario": 1,
        "name": f"{vid}: {desc}",
        "source": {"vector": vid, "test": f"TestFSAppStarvation.{test}"},
        "description": "Two (4096, 4) nodes, drf by default; an app in root.default takes 8 x (1 GB, 1 vcore); then one app of 1 x (1 GB, 1 vcore) in each of no-preemption (threshold 0), minshare (min 2048 MB / 2 vcores, timeout 0, threshold 0), fairshare.child and drf.child (threshold 1, timeout 0); node updates; +10 ms; an update. " + desc,
        "scheduler": "fair",
        "configuration": {"yarn-site": site, "fair-scheduler": starvation_alloc()},
        "cluster": {"nodes": [{"name": "n1", "rack": "/r1", "resource": res(4096, 4)},
                              {"name": "n2", "rack": "/r1", "resource": res(4096, 4)}]},
        "steps": steps})

starvation_case("P3-10", "testPreemptionEnabled", "starved-apps",
                "three apps are starved (minshare, fairshare.child, drf.child); the threshold-0 queue's app is not", {},
                ["minshare", "fairshare", "drf"])
starvation_case("P3-11", "testClusterUtilizationThreshold", "utilisation-threshold",
                "utilisation threshold 1.1: starvation is not looked for, no app is starved",
                {"yarn.scheduler.fair.preemption.cluster-utilization-threshold": "1.1"}, [])
starvation_case("P3-12", "testPreemptionDisabled", "preemption-disabled",
                "preemption off: no starvation is tracked, no app is starved",
                {"yarn.scheduler.fair.preemption": "false"}, [])
