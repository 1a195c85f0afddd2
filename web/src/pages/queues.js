// Queues: the scheduler's queue tree with bars for used, guaranteed, maximum and pending per
// partition (Capacity Scheduler), fair and steady fair shares (Fair Scheduler), or the one FIFO
// queue; a queue's page lists its limits, users and apps.
import { api, esc, pct, mb, res, bar, Table, appLink, stateTag, queueLink } from "../util.js";

let root = null;
let arg = "";
let appTable = null;

const part = (p) => (p ? p : "DEFAULT");
const children = (q) => (q.queues && q.queues.queue) || (q.childQueues && q.childQueues.queue) || [];
const pathOf = (q) => q.queuePath || q.queueName;

// Rows of one queue, one per partition: {path, partition, used, guaranteed, max, pending}.
function capacityRows(q) {
  const caps = (q.capacities && q.capacities.queueCapacitiesByPartition) || [];
  const usages = (q.resources && q.resources.resourceUsagesByPartition) || [];
  if (caps.length === 0) {
    return [{ partition: "", used: q.absoluteUsedCapacity, guaranteed: q.absoluteCapacity, max: q.absoluteMaxCapacity, pending: null }];
  }
  return caps.map((c) => {
    const u = usages.find((x) => x.partitionName === c.partitionName) || {};
    return { partition: c.partitionName, used: c.absoluteUsedCapacity, guaranteed: c.absoluteCapacity, max: c.absoluteMaxCapacity, pending: u.pending || null, usedRes: u.used || null };
  });
}

function fairRows(q, cluster) {
  const f = (r) => (cluster && cluster.memory > 0 && r ? (100 * r.memory) / cluster.memory : 0);
  const demand = q.demandResources || { memory: 0, vCores: 0 };
  const used = q.usedResources || { memory: 0, vCores: 0 };
  return [{
    partition: "", used: f(used), guaranteed: f(q.fairResources), max: f(q.maxResources), steady: f(q.steadyFairResources),
    pending: { memory: Math.max(0, demand.memory - used.memory), vCores: Math.max(0, demand.vCores - used.vCores) }, usedRes: used,
  }];
}

function queueRow(q, depth, rows, fair) {
  const path = pathOf(q);
  const kids = children(q);
  return rows.map((r, i) => `<tr class="queue-row" data-queue="${esc(path)}" data-partition="${esc(r.partition)}">
    <td style="padding-left:${depth * 18 + 6}px">${i === 0 ? `${kids.length ? "▾ " : "• "}${queueLink(path)}` : ""}</td>
    <td>${esc(part(r.partition))}</td>
    <td class="barcell">${bar(r.used, r.guaranteed, r.max)}</td>
    <td class="num" data-testid="q-used">${pct(r.used)}</td>
    <td class="num" data-testid="q-guaranteed">${pct(r.guaranteed)}</td>
    ${fair ? `<td class="num" data-testid="q-steady">${pct(r.steady)}</td>` : ""}
    <td class="num" data-testid="q-max">${pct(r.max)}</td>
    <td class="num" data-testid="q-pending">${r.pending ? res(r.pending) : "–"}</td>
    <td class="num">${i === 0 ? esc(q.numApplications ?? (q.numActiveApps ?? 0) + (q.numPendingApps ?? 0)) : ""}</td></tr>`).join("");
}

function tree(info) {
  const fair = info.type === "fairScheduler";
  const out = [];
  const walk = (q, depth) => {
    const rows = fair ? fairRows(q, info.rootQueue.clusterResources) : capacityRows(q);
    out.push(queueRow(q, depth, rows, fair));
    for (const c of children(q)) walk(c, depth + 1);
  };
  if (info.type === "fifoScheduler") {
    out.push(queueRow({ queueName: "default", numApplications: "" }, 0,
      [{ partition: "", used: 100 * info.usedCapacity, guaranteed: 100 * info.capacity, max: 100, pending: null }], false));
  } else {
    walk(fair ? info.rootQueue : info, 0);
  }
  const guaranteed = fair ? "Fair share" : "Guaranteed";
  return `<p class="legend"><span class="sw used"></span> used <span class="sw guaranteed"></span> ${guaranteed.toLowerCase()} <span class="sw max"></span> maximum (percent of the cluster${fair ? "'s memory" : ""})</p>
    <table class="grid queues" data-testid="queue-tree"><thead><tr><th>Queue</th><th>Partition</th><th></th><th class="num">Used</th><th class="num">${guaranteed}</th>
    ${fair ? `<th class="num">Steady fair</th>` : ""}<th class="num">Max</th><th class="num">Pending</th><th class="num">Apps</th></tr></thead><tbody>${out.join("")}</tbody></table>`;
}

function findQueue(info, path) {
  if (info.type === "fifoScheduler") return path === "default" || path === "root.default" ? { queueName: "default", fifo: info } : null;
  let found = null;
  const walk = (q) => {
    if (found) return;
    const p = pathOf(q);
    if (p === path || q.queueName === path || p === "root." + path) found = q;
    children(q).forEach(walk);
  };
  walk(info.type === "fairScheduler" ? info.rootQueue : info);
  return found;
}

function limits(q) {
  const items = [
    ["State", q.state], ["Type", q.type], ["Capacity", q.capacity !== undefined ? pct(q.capacity) : undefined],
    ["Max capacity", q.maxCapacity !== undefined ? pct(q.maxCapacity) : undefined],
    ["Used", q.resourcesUsed ? res(q.resourcesUsed) : q.usedResources ? res(q.usedResources) : undefined],
    ["User limit", q.userLimit !== undefined ? q.userLimit + "%" : undefined], ["User limit factor", q.userLimitFactor],
    ["Max applications", q.maxApplications], ["Max applications per user", q.maxApplicationsPerUser],
    ["Max parallel apps", q.maxParallelApps ?? q.maxApps], ["AM resource limit", q.AMResourceLimit ? res(q.AMResourceLimit) : q.amMaxResources ? res(q.amMaxResources) : undefined],
    ["User AM resource limit", q.userAMResourceLimit ? res(q.userAMResourceLimit) : undefined],
    ["AM used", q.usedAMResource ? res(q.usedAMResource) : q.amUsedResources ? res(q.amUsedResources) : undefined],
    ["Fair share", q.fairResources ? res(q.fairResources) : undefined], ["Steady fair share", q.steadyFairResources ? res(q.steadyFairResources) : undefined],
    ["Min resources", q.minResources ? res(q.minResources) : undefined], ["Max resources", q.maxResources ? res(q.maxResources) : undefined],
    ["Scheduling policy", q.schedulingPolicy ?? q.orderingPolicyInfo], ["Pending apps", q.numPendingApplications ?? q.numPendingApps],
    ["Active apps", q.numActiveApplications ?? q.numActiveApps], ["Preemption disabled", q.preemptionDisabled],
  ].filter(([, v]) => v !== undefined && v !== null && v !== "");
  return `<table class="grid small kv" data-testid="queue-limits">${items.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join("")}</table>`;
}

function users(q) {
  const list = (q.users && q.users.user) || [];
  if (list.length === 0) return `<p class="muted">No active users.</p>`;
  return `<table class="grid small" data-testid="queue-users"><thead><tr><th>User</th><th class="num">Used</th><th class="num">Active apps</th><th class="num">Pending apps</th><th class="num">User limit</th><th class="num">AM used</th><th class="num">AM limit</th></tr></thead><tbody>
    ${list.map((u) => `<tr><td><a href="#/apps?user=${encodeURIComponent(u.username)}">${esc(u.username)}</a></td><td class="num">${res(u.resourcesUsed)}</td><td class="num">${esc(u.numActiveApplications)}</td><td class="num">${esc(u.numPendingApplications)}</td><td class="num">${res(u.userResourceLimit)}</td><td class="num">${res(u.AMResourceUsed)}</td><td class="num">${res(u.AMResourceLimit)}</td></tr>`).join("")}</tbody></table>`;
}

async function drawDetail() {
  const s = await api("/scheduler");
  const info = s.scheduler.schedulerInfo;
  const q = findQueue(info, arg);
  if (!q) throw new Error(`no queue ${arg} in the scheduler`);
  root.querySelector("#q-info").innerHTML = `<div class="two"><div><h2>Limits</h2>${limits(q)}</div><div><h2>Users</h2>${users(q)}</div></div>`;
  await appTable.reload();
}

async function refresh() {
  if (arg) return drawDetail();
  const s = await api("/scheduler");
  root.querySelector("#tree").innerHTML = tree(s.scheduler.schedulerInfo);
}

async function mount(el, a) {
  root = el;
  arg = a || "";
  if (!arg) {
    root.innerHTML = `<h1>Queues</h1><div id="tree"></div>`;
    return refresh();
  }
  root.innerHTML = `<h1>Queue ${esc(arg)}</h1><p><a href="#/queues">‹ all queues</a> · <a href="#/activity?queue=${encodeURIComponent(arg)}">its scheduler activity</a></p><div id="q-info"></div><h2>Applications</h2><div id="q-apps"></div>`;
  appTable = new Table(root.querySelector("#q-apps"), [
    { key: "id", label: "Application", render: (r) => appLink(r.id) },
    { key: "user", label: "User" },
    { key: "state", label: "State", render: (r) => stateTag(r.state) },
    { key: "allocatedMB", label: "Memory", num: true, render: (r) => mb(r.allocatedMB) },
    { key: "allocatedVCores", label: "Vcores", num: true },
    { key: "startedTime", label: "Started", num: true, render: (r) => new Date(r.startedTime).toLocaleTimeString() },
  ], { id: "queue-apps", sortKey: "startedTime", desc: true, remote: async (page) => {
    const a = await api("/spindle/apps", { queue: arg, deSelects: "resourceRequests", ...page });
    return { total: a.appsPage.total, rows: a.appsPage.items };
  } });
  return drawDetail();
}

export default { mount, refresh };
