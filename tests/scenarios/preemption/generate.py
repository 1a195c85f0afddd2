#!/usr/bin/env python3
"""Writes one scenario per public capacity-preemption vector (tests/scenarios/preemption/).

    python3 tests/scenarios/preemption/generate.py          # rewrites the *.json next to it
    python3 tests/scenarios/preemption/generate.py --out D  # writes them into D instead

Input: src/scheduler/capacity/preemption/testdata/vectors.json, the transcription of
shared/reference/vectors/preemption-capacity-vectors.json that the policy's unit tests read
(same ids, inputs, knobs and expectations; table rows and DSL strings as the Hadoop tests
write them). Mapping: docs/scenario-format.md, "Capacity preemption"; the choices this script
makes on top of it are listed there too. The generated files are checked in; edit this script,
not them, and re-run it.

Not generated: the vectors in SKIPPED below, each with the reason (also in the docs).
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VECTORS = os.path.join(ROOT, "src/scheduler/capacity/preemption/testdata/vectors.json")

P = "yarn.resourcemanager.monitor.capacity.preemption."
CS = "yarn.scheduler.capacity."

SKIPPED = {
    "table/testContainerOrdering":
        "a candidate sort without queues: unit test (VectorContainerOrdering)",
    "table/testPreemptSkippedAllAMContainers":
        "AM preemption off has no configuration key (AM_PREEMPTION_ENABLED's key string is "
        "unknown, docs/preemption.md), so a live scheduler cannot be told",
    "table/testZeroGuar":
        "queueB's zero guarantee has no absolute form the Capacity Scheduler accepts "
        "([memory=0] is refused: YARN ignores an absolute resource without memory), and the "
        "table's root children (100 + 100) exceed its cluster (199 = the leaves' sum)",
    "TestPreemptionForQueueWithPriorities/"
    "testPriorityPreemptionWithMandatoryResourceForHierarchicalOfQueues":
        "the DSL's queue figures disagree with the containers of their apps in the dimension "
        "the expectation depends on: a1 says used 10:30 while app1 holds 10 x 1:4 (10:40), b1 "
        "says 20:40 while app3 holds 10 x 3:4 (30:40); a live b1 is over its 20:40 guarantee "
        "and gives 4 containers (the mock's b1 is at it and gives none), and no container count "
        "of those sizes gives the DSL's figures",
}

# Vectors whose DSL queue figure disagrees with the containers of its apps (an oddity of the
# ProportionalCapacityPreemptionPolicyMockFramework test data): the mock hands the policy the
# queue's figure, a live scheduler can only count containers. The scenario changes the container
# count the expectation does not look at so that the queue's used is the DSL's again; the expected
# counts are the vector's.
ADJUSTED = {
    "ForReservedContainers/testPreemptionForReservedContainerWhichHasNondivisibleAvailableResource":
        ("app1", 1, 21,
         "queue a says used 90 while app1 holds 24 + 23 containers of 2 (94), which with b's "
         "reservation of 9 over-commits the 100 of the cluster; app1 holds 21 containers on n2 "
         "(not 23) so that a's used is 90; n1, which the expectation is about, keeps its 24"),
    "IntraQueue/testNoPreemptionWhenQueueIsUnderCapacityLimit":
        ("app3", 0, 20,
         "queue b says used 25 while app3 and app4 hold 40 + 5 containers; the threshold check "
         "reads the queue's used (25 of 60 is under intra-queue-preemption.minimum-threshold "
         "0.5), so app3 holds 20 containers (not 40) and b's used is 25"),
}

# testPreemptionToBalanceWithConfiguredTimeout marks 21 of app2: 20 from the FIFO selector
# (a below its guarantee) and 1 from the balance selector, whose kill wait is 60 s.
BALANCE_KILLS = {"PreemptToBalance/testPreemptionToBalanceWithConfiguredTimeout": {"app2": 20}}

# --- resources --------------------------------------------------------------------------------

def parse_res(text):
    """'m', 'm:v' or 'm:v:r1' -> [m, v, r1]; a single number is both memory and vcores (as the
    Hadoop harnesses build Resource.newInstance(v, v))."""
    parts = [int(p) for p in text.strip().split(":")]
    if len(parts) == 1:
        parts = [parts[0], parts[0]]
    while len(parts) < 3:
        parts.append(0)
    return parts


def res_obj(r, types):
    out = {"memory-mb": r[0], "vcores": r[1]}
    if types > 2:
        out["res1"] = r[2]
    return out


def res_conf(r, types):
    s = "[memory={},vcores={}".format(r[0], r[1])
    if types > 2:
        s += ",res1={}".format(r[2])
    return s + "]"


def add(a, b):
    return [x + y for x, y in zip(a, b)]


def is_zero(r):
    return all(x == 0 for x in r)


def ask_shape(r):
    """A pending total as count x size: the count is the gcd of the non-zero amounts."""
    nz = [x for x in r if x]
    g = 0
    for x in nz:
        g = math.gcd(g, x)
    return g, [x // g for x in r]


# --- common configuration ---------------------------------------------------------------------

def base_config(cfg, calculator, types, max_alloc):
    site = {
        "yarn.resourcemanager.scheduler.monitor.enable": True,
        "yarn.scheduler.minimum-allocation-mb": 1,
        "yarn.scheduler.minimum-allocation-vcores": 1,
        "yarn.scheduler.maximum-allocation-mb": max_alloc[0],
        "yarn.scheduler.maximum-allocation-vcores": max_alloc[1],
        "yarn.cluster.max-application-priority": 10,
        P + "total_preemption_per_round": cfg["total_preemption_per_round"],
        P + "natural_termination_factor": cfg["natural_termination_factor"],
        P + "max_wait_before_kill": cfg["max_wait_before_kill_ms"],
        P + "monitoring_interval": cfg["monitoring_interval_ms"],
        P + "max_ignored_over_capacity": cfg["max_ignored_over_capacity"],
        P + "observe_only": cfg["observe_only"],
    }
    if cfg.get("select_based_on_reserved_containers"):
        site[P + "select_based_on_reserved_containers"] = True
    if cfg.get("preemption_to_balance_queues_beyond_guaranteed"):
        site[P + "preemption-to-balance-queue-after-satisfied.enabled"] = True
    if "max_wait_before_kill_for_queue_balance_preemption_ms" in cfg:
        site[P + "preemption-to-balance-queue-after-satisfied.max-wait-before-kill"] = \
            cfg["max_wait_before_kill_for_queue_balance_preemption_ms"]
    if cfg.get("intra_queue_preemption_enabled"):
        site[P + "intra-queue-preemption.enabled"] = True
    if "intra_queue_preemption_max_allowable_limit" in cfg:
        site[P + "intra-queue-preemption.max-allowable-limit"] = \
            cfg["intra_queue_preemption_max_allowable_limit"]
    if "intra_queue_preemption_order_policy" in cfg:
        site[P + "intra-queue-preemption.preemption-order-policy"] = \
            cfg["intra_queue_preemption_order_policy"]
    cs = {}
    if calculator == "dominant":
        cs[CS + "resource-calculator"] = \
            "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"
    # The mocks spare no AM (maxAMCapacityForThisQueue = 0).
    cs[CS + "maximum-am-resource-percent"] = 0
    conf = {"yarn-site": site, "capacity-scheduler": cs}
    if types > 2:
        conf["resource-types"] = {"yarn.resource-types": "res1"}
    return conf


def leaf_user_limits(cs, path, intra):
    """The mocks hand the policy each leaf's pending as given. A live leaf reports pending
    considering user limits, and a user over the guarantee gets a limit of used + one minimum
    allocation; minimum-user-limit-percent 10000 with user-limit-factor -1 lift the limit to the
    queue's maximum so the asked pending reaches the policy. The intra-queue vectors keep the
    defaults: their user limit (ceil(guarantee / users)) is what the mock gives intra-queue."""
    if intra:
        return
    cs[CS + path + ".minimum-user-limit-percent"] = 10000
    cs[CS + path + ".user-limit-factor"] = -1


def disable_preemption(cs, cfg):
    for q, v in cfg.get("per_queue_disable_preemption", {}).items():
        cs[CS + q + ".disable_preemption"] = v


# --- expectations -----------------------------------------------------------------------------

def marked_expectation(e, reserved):
    """expect.preemption, plus the unreservations: the FIFO selector takes an app's reserved
    containers before its live ones (FifoCandidatesSelector), and YARN's MARK event for a
    reserved container is a no-op after KILL_RESERVED_CONTAINER (CapacityScheduler.handle); a
    live scheduler shows those as unreservations, not marks."""
    if e.get("no_preemption_events_at_all"):
        return {"marked": {}}, None
    marked = {}
    unreserved = []
    for app, n in e.get("containers_marked_for_preemption_per_app", {}).items():
        u = min(n, reserved.get(app, 0))
        if u:
            unreserved.append({"app": app, "count": u})
        marked[app] = n - u
    for app in e.get("apps_with_no_preemption", []):
        marked[app] = 0
    for key, n in e.get("per_app_node", {}).items():
        if key != "uncertainty":
            marked[key] = n
    return {"marked": marked, "exhaustive": False}, unreserved or None


def ideal_state(e, path_of):
    state = {}
    for q, want in e.get("ideal_assigned", {}).items():
        r = parse_res(want if isinstance(want, str) else str(want))
        state["preemption:{}.idealAssigned.memory-mb".format(path_of[q])] = r[0]
        if isinstance(want, str) and ":" in want:
            state["preemption:{}.idealAssigned.vcores".format(path_of[q])] = r[1]
    return state


# --- TestProportionalCapacityPreemptionPolicy's int[][] tables --------------------------------

def build_table(v):
    t = v["table"]
    cfg = v["config"]
    n = len(t["abs"])
    types = 2
    names, paths, parent_of, children = [], [], [], {}
    stack = []
    for i in range(n):
        parent = stack.pop() if i > 0 else None
        name = "root" if i == 0 else "queue" + chr(ord("A") + i - 1)
        path = name if i == 0 else paths[parent] + "." + name
        names.append(name)
        paths.append(path)
        parent_of.append(parent)
        children.setdefault(i, [])
        if parent is not None:
            children[parent].append(i)
        stack.extend([i] * t["subqueues"][i])
    for k in children:
        children[k].sort()
    leaves = [i for i in range(n) if t["subqueues"][i] == 0]
    cell = {row: [parse_res(x) for x in t[row]] for row in ("abs", "maxCap", "used", "pending",
                                                            "reserved")}
    cluster = [0, 0, 0]
    for i in leaves:
        cluster = add(cluster, cell["abs"][i])
    conf = base_config(cfg, v["calculator"], types, cluster)
    cs = conf["capacity-scheduler"]
    for i in range(n):
        if children[i]:
            cs[CS + paths[i] + ".queues"] = ",".join(names[c] for c in children[i])
            cs[CS + paths[i] + ".ordering-policy"] = "priority-utilization"
        if i == 0:
            continue
        cs[CS + paths[i] + ".capacity"] = res_conf(cell["abs"][i], types)
        cs[CS + paths[i] + ".maximum-capacity"] = res_conf(cell["maxCap"][i], types)
        if not children[i]:
            leaf_user_limits(cs, paths[i], False)
    disable_preemption(cs, cfg)

    am_first = cfg.get("first_live_container_of_each_app_is_AM", False)
    apps = []   # (handle, leaf index, live count, reserved count, size, pending)
    seq = 0
    for i in leaves:
        napps = t["apps"][i]
        if napps <= 0:
            continue
        gran = parse_res(t["granularity"][i])
        app_used = -(-cell["used"][i][0] // napps)
        app_res = -(-cell["reserved"][i][0] // napps)
        for k in range(napps):
            handle = "app" + chr(ord("A") + seq)
            seq += 1
            nres = -(-app_res // gran[0])
            # A live queue's used includes its reservations (YARN's ResourceUsage), the table's
            # does not: live containers make up the rest of the used column.
            nlive = -(-(app_used - nres * gran[0]) // gran[0]) if app_used > 0 else 0
            apps.append({"handle": handle, "leaf": i, "live": nlive, "reserved": nres,
                         "size": gran, "pending": [0, 0, 0]})
    # Each leaf's pending goes to its first app; a leaf with pending and no app gets a
    # demand-only app (unmanaged AM, no container) named after the queue.
    demand_apps = []
    for i in leaves:
        p = cell["pending"][i]
        if is_zero(p):
            continue
        mine = [a for a in apps if a["leaf"] == i]
        if mine:
            mine[0]["pending"] = p
        else:
            demand_apps.append({"handle": names[i] + "-demand", "leaf": i, "live": 0,
                                "reserved": 0, "size": [1, 1, 0], "pending": p})

    nres_total = sum(a["reserved"] for a in apps)
    nodes = []
    reserve_nodes = []
    if nres_total:
        # One reserved container per node: each reservation gets a node of its own, of the
        # container's size; the live containers share n1 with the rest of the cluster.
        k = 0
        for a in apps:
            for _ in range(a["reserved"]):
                k += 1
                reserve_nodes.append(("r{}".format(k), a))
        rest = list(cluster)
        for name, a in reserve_nodes:
            rest = [x - y for x, y in zip(rest, a["size"])]
        nodes.append({"name": "n1", "resource": res_obj(rest, types)})
        for name, a in reserve_nodes:
            nodes.append({"name": name, "resource": res_obj(a["size"], types)})
    else:
        nodes.append({"name": "n1", "resource": res_obj(cluster, types)})

    steps = []
    for a in apps + demand_apps:
        steps.append({"submit": {"app": a["handle"], "queue": paths[a["leaf"]], "am": None}})
    for a in apps:
        if a["live"] == 0:
            continue
        size = res_obj(a["size"], types)
        if am_first:
            steps.append({"place": {"app": a["handle"], "node": "n1", "resource": size,
                                    "priority": 0, "am": True}})
            if a["live"] > 1:
                steps.append({"place": {"app": a["handle"], "node": "n1", "resource": size,
                                        "priority": 1, "count": a["live"] - 1}})
        else:
            steps.append({"place": {"app": a["handle"], "node": "n1", "resource": size,
                                    "priority": 1, "count": a["live"]}})
    for name, a in reserve_nodes:
        steps.append({"place": {"app": a["handle"], "node": name,
                                "resource": res_obj(a["size"], types), "priority": 1,
                                "reserved": True}})
    for a in apps + demand_apps:
        if is_zero(a["pending"]):
            continue
        count, shape = ask_shape(a["pending"])
        steps.append({"ask": {"app": a["handle"], "priority": 1,
                              "resource": res_obj(shape, types), "count": count}})
    path_of = {names[i]: paths[i] for i in range(n)}
    reserved = {a["handle"]: a["reserved"] for a in apps if a["reserved"]}
    return conf, {"nodes": nodes}, steps, path_of, reserved


# --- ProportionalCapacityPreemptionPolicyMockFramework's string DSL ---------------------------

def split_semis(s):
    return [x for x in s.split(";") if x.strip()]


def build_dsl(v):
    d = v["dsl"]
    cfg = v["config"]
    intra = cfg.get("intra_queue_preemption_enabled", False)
    types = 2
    for text in (d["labels"], d["queues"], d["apps"]):
        for tok in text.replace("[", " ").replace("]", " ").replace(",", " ").replace(
                "(", " ").replace(")", " ").replace("=", " ").split():
            if ":" in tok and all(p.isdigit() for p in tok.split(":")):
                types = max(types, len(tok.split(":")))
    # labels: partition=total,exclusive
    partitions = {}
    order = []
    for e in split_semis(d["labels"]):
        name, rest = e.split("=", 1)
        total, excl = rest.split(",")
        partitions[name.strip()] = {"total": parse_res(total), "exclusive": excl.strip() == "true"}
        order.append(name.strip())
    # nodes: host=partition[ res=resource]
    nodes = []
    for e in split_semis(d["nodes"]):
        host, rest = e.split("=", 1)
        rest = rest.strip()
        part = rest.split(" ")[0] if rest and not rest.startswith("res=") else ""
        res = None
        if "res=" in rest:
            res = parse_res(rest.split("res=")[1])
        nodes.append({"host": host.strip(), "partition": part, "res": res})
    per_part = {}
    for nd in nodes:
        per_part[nd["partition"]] = per_part.get(nd["partition"], 0) + 1
    for nd in nodes:
        if nd["res"] is None:
            tot = partitions[nd["partition"]]["total"]
            nd["res"] = [x // per_part[nd["partition"]] for x in tot]
    # queues
    queues = []
    stack = []
    by_name = {}
    for raw in split_semis(d["queues"]):
        e = raw.strip()
        depth = len(e) - len(e.lstrip("-"))
        open_ = e.index("(")
        close = e.rindex(")")
        name = e[depth:open_]
        stack = stack[:depth]
        parent = stack[-1] if stack else None
        path = name if parent is None else parent["path"] + "." + name
        q = {"name": name, "path": path, "parent": parent, "children": [], "parts": {},
             "opts": {}}
        if parent is not None:
            parent["children"].append(q)
        stack.append(q)
        body = e[open_ + 1:close]
        pos = 0
        while pos < len(body):
            eq = body.index("=", pos)
            lb = body.index("[", eq)
            rb = body.index("]", lb)
            part = body[pos:eq].strip().lstrip(",").strip()
            vals = [parse_res(x) for x in body[lb + 1:rb].split()]
            q["parts"][part] = {"guaranteed": vals[0], "max": vals[1], "used": vals[2],
                                "pending": vals[3]}
            pos = rb + 1
            while pos < len(body) and body[pos] in ", ":
                pos += 1
        if "{" in e[close:]:
            opts = e[e.index("{", close) + 1:e.index("}", close)]
            for kv in opts.split(","):
                k, val = kv.split("=")
                q["opts"][k.strip()] = val.strip()
        queues.append(q)
        by_name[name] = q
        by_name[path] = q
    cluster = [0, 0, 0]
    for p in partitions.values():
        cluster = add(cluster, p["total"])
    node_max = [0, 0, 0]
    for nd in nodes:
        node_max = [max(a, b) for a, b in zip(node_max, nd["res"])]
    conf = base_config(cfg, v["calculator"], types, node_max)
    cs = conf["capacity-scheduler"]
    for q in queues:
        if q["children"]:
            cs[CS + q["path"] + ".queues"] = ",".join(c["name"] for c in q["children"])
            cs[CS + q["path"] + ".ordering-policy"] = "priority-utilization"
        if q["parent"] is None:
            continue
        labels = [p for p in q["parts"] if p]
        for p, a in q["parts"].items():
            key = CS + q["path"] + ("." if not p else ".accessible-node-labels.{}.".format(p))
            cs[key + "capacity"] = res_conf(a["guaranteed"], types)
            cs[key + "maximum-capacity"] = res_conf(a["max"], types)
        if labels:
            cs[CS + q["path"] + ".accessible-node-labels"] = ",".join(labels)
        if "priority" in q["opts"]:
            cs[CS + q["path"] + ".priority"] = int(q["opts"]["priority"])
        if q["opts"].get("disable_preemption") == "true":
            cs[CS + q["path"] + ".disable_preemption"] = True
        if not q["children"]:
            leaf_user_limits(cs, q["path"], intra)
    disable_preemption(cs, cfg)

    node_part = {nd["host"]: nd["partition"] for nd in nodes}
    # apps: queue \t (priority,resource,host,label,repeat,reserved[,pending[,user]])...
    apps = []
    for i, raw in enumerate(split_semis(d["apps"])):
        qname, groups = raw.split("\t", 1)
        q = by_name[qname.strip()]
        app = {"handle": "app{}".format(i + 1), "queue": q, "groups": [], "pending": {},
               "user": "user", "priority": 0, "own_pending": False}
        pos = 0
        while "(" in groups[pos:]:
            s = groups.index("(", pos)
            t = groups.index(")", s)
            f = groups[s + 1:t].split(",")
            pos = t + 1
            g = {"priority": int(f[0]), "size": parse_res(f[1]), "host": f[2].strip(),
                 "label": f[3].strip(), "count": int(f[4]), "reserved": f[5].strip() == "true"}
            app["groups"].append(g)
            app["priority"] = g["priority"]
            if len(f) > 6:
                app["own_pending"] = True
                app["pending"][""] = add(app["pending"].get("", [0, 0, 0]), parse_res(f[6]))
            if len(f) > 7:
                app["user"] = f[7].strip()
        apps.append(app)
    if v["id"] in ADJUSTED:
        handle, group, count, _ = ADJUSTED[v["id"]]
        [a for a in apps if a["handle"] == handle][0]["groups"][group]["count"] = count
    # Queue pending: the intra-queue vectors give it per app (7th field); otherwise each leaf's
    # pending per partition goes to its first app, or to a demand-only app named after the queue.
    demand = []
    if not any(a["own_pending"] for a in apps):
        for q in queues:
            if q["children"]:
                continue
            for p, amounts in q["parts"].items():
                if is_zero(amounts["pending"]):
                    continue
                mine = [a for a in apps if a["queue"] is q]
                if not mine:
                    found = [a for a in demand if a["queue"] is q]
                    if found:
                        mine = found
                    else:
                        da = {"handle": q["name"] + "-demand", "queue": q, "groups": [],
                              "pending": {}, "user": "user", "priority": 0}
                        demand.append(da)
                        mine = [da]
                mine[0]["pending"][p] = add(mine[0]["pending"].get(p, [0, 0, 0]),
                                            amounts["pending"])

    steps = []
    for a in apps + demand:
        sub = {"app": a["handle"], "queue": a["queue"]["path"], "am": None}
        if a["user"] != "user":
            sub["user"] = a["user"]
        if a["priority"]:
            sub["priority"] = a["priority"]
        steps.append({"submit": sub})
    for a in apps:
        first = True
        for g in a["groups"]:
            body = {"app": a["handle"], "node": g["host"], "resource": res_obj(g["size"], types),
                    "priority": g["priority"]}
            if g["reserved"]:
                body["reserved"] = True
                if g["label"]:
                    body["nodeLabel"] = g["label"]
                for _ in range(g["count"]):
                    steps.append({"place": dict(body)})
                first = False
                continue
            if g["label"]:
                body["nodeLabel"] = g["label"]
            if first:
                body["am"] = True
                first = False
            if g["count"] > 1:
                body["count"] = g["count"]
            steps.append({"place": body})
    for a in apps + demand:
        # One request per partition: asks for the same (priority, allocationRequestId, "*")
        # replace each other, so each partition's ask gets its own allocationRequestId.
        for n, (p, r) in enumerate(sorted(a["pending"].items())):
            if is_zero(r):
                continue
            count, shape = ask_shape(r)
            ask = {"app": a["handle"], "priority": a["priority"] or 1,
                   "resource": res_obj(shape, types), "count": count}
            if n:
                ask["allocationRequestId"] = n
            if p:
                ask["nodeLabel"] = p
            steps.append({"ask": ask})
    cluster_obj = {}
    labels = [p for p in order if p]
    if labels:
        cluster_obj["nodeLabels"] = [
            p if partitions[p]["exclusive"] else {"name": p, "exclusive": False} for p in labels]
    cluster_obj["nodes"] = []
    for nd in nodes:
        node = {"name": nd["host"], "resource": res_obj(nd["res"], types)}
        if nd["partition"]:
            node["labels"] = [nd["partition"]]
        cluster_obj["nodes"].append(node)
    path_of = {}
    for q in queues:
        path_of[q["name"]] = q["path"]
    return conf, cluster_obj, steps, path_of, {}


# --- scenario assembly ------------------------------------------------------------------------

def scenario(v):
    e = v["expected"]
    if "table" in v:
        conf, cluster, steps, path_of, reserved = build_table(v)
    else:
        conf, cluster, steps, path_of, reserved = build_dsl(v)
    desc = "Generated by generate.py from the vector (docs/scenario-format.md, Capacity " \
           "preemption)."
    if v.get("notes"):
        desc += " Vector notes: " + v["notes"]
    if v["id"] in ADJUSTED:
        desc += " Adjusted input: " + ADJUSTED[v["id"]][3] + "."
    if "uncertainty" in e:
        desc += " Uncertain: " + e["uncertainty"] + "; only the recorded nodes are checked."
    doc = {
        "spindleScenario": 1,
        "name": "Capacity preemption vector {}".format(v["id"]),
        "source": {"vector": v["id"], "test": test_name(v["id"])},
        "description": desc,
        "scheduler": "capacity",
        "configuration": conf,
        "cluster": cluster,
    }
    if "timeline" in e:
        # testExpireKill: marks at 0, no new event at 5000, the kill at 10001 (first marked +
        # max_wait_before_kill <= now).
        steps += [
            {"monitor": {}, "at": 0},
            {"expect": {"preemption": {"marked": {"appC": 10}, "killed": {}}}},
            {"monitor": {}, "at": 5000},
            {"expect": {"preemption": {"marked": {}, "killed": {}}}},
            {"monitor": {}, "at": 10001},
            {"expect": {"preemption": {"marked": {}, "killed": {"appC": 10}}}},
        ]
    else:
        steps.append({"monitor": {}})
        preemption, unreserved = marked_expectation(e, reserved)
        ex = {"preemption": preemption}
        if unreserved:
            ex["unreservations"] = unreserved
        state = ideal_state(e, path_of)
        if "asserts" in e:
            state["preemption:root.queueA.queueC.queueE.preemptableExtra.memory-mb"] = 10
            state["preemption:root.queueA.untouchableExtra.memory-mb"] = 0
            state["preemption:root.queueA.preemptableExtra.memory-mb"] = 10
        if state:
            ex["state"] = state
        steps.append({"expect": ex})
        if "balance_selector_max_kill_wait_ms" in e:
            # The FIFO selector's candidates are killed after max_wait_before_kill, the balance
            # selector's only after its own wait: 1 ms before it, every mark but the balance
            # selector's has turned into a kill.
            wait = e["balance_selector_max_kill_wait_ms"]
            steps += [
                {"comment": "{} ms: the balance selector's candidate is still waiting".format(
                    wait - 1), "monitor": {}, "at": wait - 1},
                {"expect": {"preemption": {"marked": {}, "killed": BALANCE_KILLS[v["id"]]}}},
            ]
    doc["steps"] = steps
    return doc


def dump(doc):
    """Readable JSON: configuration maps one property a line, one step a line."""
    lines = ["{"]
    keys = list(doc.keys())
    for i, k in enumerate(keys):
        comma = "," if i + 1 < len(keys) else ""
        val = doc[k]
        if k == "configuration":
            lines.append('  "configuration": {')
            members = list(val.items())
            for j, (m, props) in enumerate(members):
                lines.append('    {}: {{'.format(json.dumps(m)))
                items = list(props.items())
                for n, (pk, pv) in enumerate(items):
                    lines.append('      {}: {}{}'.format(json.dumps(pk), json.dumps(pv),
                                                         "," if n + 1 < len(items) else ""))
                lines.append("    }" + ("," if j + 1 < len(members) else ""))
            lines.append("  }" + comma)
        elif k == "cluster":
            lines.append('  "cluster": {')
            members = list(val.items())
            for j, (m, items) in enumerate(members):
                lines.append('    {}: ['.format(json.dumps(m)))
                for n, it in enumerate(items):
                    lines.append("      " + json.dumps(it) + ("," if n + 1 < len(items) else ""))
                lines.append("    ]" + ("," if j + 1 < len(members) else ""))
            lines.append("  }" + comma)
        elif k == "steps":
            lines.append('  "steps": [')
            for n, st in enumerate(val):
                lines.append("    " + json.dumps(st) + ("," if n + 1 < len(val) else ""))
            lines.append("  ]" + comma)
        else:
            lines.append("  {}: {}{}".format(json.dumps(k), json.dumps(val), comma))
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_name(vid):
    """The upstream test method of a vector id ("ForNodePartitions/testX" ->
    "TestProportionalCapacityPreemptionPolicyForNodePartitions#testX")."""
    group, method = vid.split("/")[0], vid.split("/")[1]
    cls = {"table": "TestProportionalCapacityPreemptionPolicy",
           "TestPreemptionForQueueWithPriorities": "TestPreemptionForQueueWithPriorities"}.get(
               group, "TestProportionalCapacityPreemptionPolicy" + group)
    return cls + "#" + method


def file_name(vid):
    return vid.replace("/", "-") + ".json"


def main():
    out = HERE
    if len(sys.argv) == 3 and sys.argv[1] == "--out":
        out = sys.argv[2]
        os.makedirs(out, exist_ok=True)
    elif len(sys.argv) != 1:
        print("usage: generate.py [--out DIR]", file=sys.stderr)
        return 2
    with open(VECTORS) as f:
        vectors = json.load(f)["vectors"]
    written = 0
    for v in vectors:
        if v["id"] in SKIPPED:
            continue
        with open(os.path.join(out, file_name(v["id"])), "w") as f:
            f.write(dump(scenario(v)))
        written += 1
    print("wrote {} scenarios; not generated: {}".format(written, ", ".join(SKIPPED)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
