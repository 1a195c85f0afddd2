// One application: its state, why it waits (the scheduler's latest skip for it), attempts,
// containers and resource usage over time (from its decision records), preemption history and
// every recent decision about it.
import uPlot from "uplot";
import { api, apiOptional, esc, mb, dur, time, res, stateTag, queueLink, Table } from "../util.js";

let root = null;
let id = "";
let chart = null;
let live = { t: [], mb: [] };

const WAITING = ["NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED"];

// Containers from the decisions: allocated (node, resource, time), then ended (how, exit status).
function containers(decisions) {
  const byId = new Map();
  for (const d of decisions) {
    if (!d.container) continue;
    if (d.kind === "allocate") byId.set(d.container, { id: d.container, node: d.node, resource: d.resource, start: d.time, am: d.am, end: null, how: "running" });
    else if (["complete", "release", "kill"].includes(d.kind) && byId.has(d.container)) {
      const c = byId.get(d.container);
      c.end = d.time; c.how = d.kind; c.exitStatus = d.exitStatus; c.reason = d.reason;
    }
  }
  return [...byId.values()];
}

// Allocated memory over time, a step per allocation and end.
function usageSeries(list) {
  const ev = [];
  for (const c of list) {
    const m = (c.resource && (c.resource["memory-mb"] ?? c.resource.memory)) || 0;
    ev.push([c.start, m]);
    if (c.end !== null) ev.push([c.end, -m]);
  }
  ev.sort((a, b) => a[0] - b[0]);
  const t = [], v = [];
  let cur = 0;
  for (const [at, d] of ev) { cur += d; t.push(at / 1000); v.push(cur); }
  return [t, v];
}

function whyBox(app, why) {
  if (WAITING.includes(app.state) || (app.state === "RUNNING" && why)) {
    if (why) {
      return `<div class="why" data-testid="why-pending"><h2>Why it waits</h2><p class="reason"><b>${esc(why.skip || why.kind)}</b>: ${esc(why.reason)}</p>
        <p class="muted">queue ${esc(why.queue)}${why.node ? `, on node ${esc(why.node)}` : ""}, ${time(why.time)}</p></div>`;
    }
    return `<div class="why" data-testid="why-pending"><h2>Why it waits</h2><p class="reason">No scheduler skip recorded yet: the app waits for a node heartbeat to be considered${app.diagnostics ? `. Diagnostics: ${esc(app.diagnostics)}` : ""}.</p></div>`;
  }
  return "";
}

async function load() {
  const enc = encodeURIComponent(id);
  const [a, att, dec] = await Promise.all([api(`/apps/${enc}`), apiOptional(`/apps/${enc}/appattempts`), apiOptional(`/spindle/app-decisions/${enc}`)]);
  return { app: a.app, attempts: (att && att.appAttempts && att.appAttempts.appAttempt) || [], dec: dec ? dec.appDecisions : { decision: [], whyPending: null } };
}

function draw({ app, attempts, dec }) {
  const list = containers(dec.decision);
  const preempt = dec.decision.filter((d) => d.kind === "preempt-mark" || (d.kind === "kill" && /preempt/i.test(d.reason)));
  const kv = [["User", esc(app.user)], ["Queue", queueLink(app.queue)], ["State", `<span data-testid="app-state">${stateTag(app.state)}</span>`], ["Final status", esc(app.finalStatus)],
    ["Name", esc(app.name)], ["Type", esc(app.applicationType)], ["Priority", esc(app.priority)], ["Progress", esc(Math.round(app.progress)) + "%"],
    ["Started", time(app.startedTime)], ["Launched", time(app.launchTime)], ["Finished", time(app.finishedTime)], ["Elapsed", dur(app.elapsedTime)],
    ["Allocated", app.allocatedMB >= 0 ? res({ memory: app.allocatedMB, vCores: app.allocatedVCores }) : "–"], ["Running containers", app.runningContainers >= 0 ? app.runningContainers : "–"],
    ["Memory seconds", esc(app.memorySeconds)], ["Vcore seconds", esc(app.vcoreSeconds)], ["AM host", esc(app.amHostHttpAddress)],
    ["Preempted", `${esc(app.numAMContainerPreempted ?? 0)} AM, ${esc(app.numNonAMContainerPreempted ?? 0)} other`], ["Diagnostics", esc(app.diagnostics)]];
  root.querySelector("#summary").innerHTML = `${whyBox(app, dec.whyPending)}<table class="grid small kv">${kv.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join("")}</table>`;
  root.querySelector("#attempts").innerHTML = attempts.length === 0 ? `<p class="muted">No attempt yet.</p>` :
    `<table class="grid small" data-testid="attempts"><thead><tr><th>Attempt</th><th>State</th><th>Started</th><th>Finished</th><th>AM container</th><th>Node</th><th>Diagnostics</th></tr></thead><tbody>
    ${attempts.map((t) => `<tr><td>${esc(t.appAttemptId)}</td><td>${stateTag(t.appAttemptState)}</td><td>${time(t.startTime)}</td><td>${time(t.finishedTime)}</td><td>${esc(t.containerId)}</td><td>${esc(t.nodeId || t.nodeHttpAddress)}</td><td>${esc(t.diagnosticsInfo)}</td></tr>`).join("")}</tbody></table>`;
  root.querySelector("#containers").innerHTML = list.length === 0 ? `<p class="muted">No container in the recent decisions.</p>` :
    `<table class="grid small" data-testid="containers"><thead><tr><th>Container</th><th>Node</th><th>Resource</th><th>Started</th><th>Ended</th><th>How</th></tr></thead><tbody>
    ${list.map((c) => `<tr><td>${esc(c.id)}${c.am ? " (AM)" : ""}</td><td>${esc(c.node)}</td><td>${esc(c.resource ? `${c.resource["memory-mb"]} MB, ${c.resource.vcores} vcores` : "")}</td><td>${time(c.start)}</td><td>${c.end !== null ? time(c.end) : "–"}</td><td>${esc(c.how)}${c.exitStatus !== undefined ? ` (exit ${esc(c.exitStatus)})` : ""}</td></tr>`).join("")}</tbody></table>`;
  root.querySelector("#preemption").innerHTML = preempt.length === 0 ? `<p class="muted" data-testid="preemption">No preemption.</p>` :
    `<table class="grid small" data-testid="preemption"><tbody>${preempt.map((d) => `<tr><td>${time(d.time)}</td><td>${esc(d.kind)}</td><td>${esc(d.container)}</td><td>${esc(d.reason)}</td></tr>`).join("")}</tbody></table>`;
  decTable.setRows(dec.decision);
  // Usage: the decisions' steps, and live samples of allocatedMB while the page is open.
  if (app.allocatedMB >= 0) { live.t.push(Date.now() / 1000); live.mb.push(app.allocatedMB); }
  const [t, v] = usageSeries(list);
  const data = t.length > 1 ? [t, v] : [live.t, live.mb];
  const el = root.querySelector("#usage");
  if (data[0].length === 0) { el.innerHTML = `<p class="muted">No usage recorded.</p>`; return; }
  if (!chart) {
    el.innerHTML = "";
    chart = new uPlot({ width: Math.max(320, el.clientWidth || 600), height: 200, series: [{}, { label: "allocated MB", stroke: "#d9480f", fill: "rgba(217,72,15,0.15)", paths: uPlot.paths.stepped({ align: 1 }) }], axes: [{}, { size: 60 }] }, data, el);
  } else chart.setData(data);
}

let decTable = null;

async function refresh() { draw(await load()); }

async function mount(el, arg) {
  root = el;
  id = arg;
  if (chart) { chart.destroy(); chart = null; }
  live = { t: [], mb: [] };
  root.innerHTML = `<h1>Application ${esc(id)}</h1><p><a href="#/apps">‹ all applications</a> · <a href="#/activity?app=${encodeURIComponent(id)}">its scheduler activity</a></p>
    <div id="summary"></div><h2>Attempts</h2><div id="attempts"></div><h2>Containers</h2><div id="containers"></div>
    <h2>Allocated memory over time</h2><div id="usage" class="chart"></div><h2>Preemption</h2><div id="preemption"></div><h2>Decisions</h2><div id="decisions"></div>`;
  decTable = new Table(root.querySelector("#decisions"), [
    { key: "seq", label: "#", num: true },
    { key: "time", label: "Time", render: (d) => time(d.time) },
    { key: "kind", label: "Kind" },
    { key: "node", label: "Node" },
    { key: "skip", label: "Skip", render: (d) => esc(d.skip || d.rejection || "") },
    { key: "reason", label: "Reason" },
  ], { id: "app-decisions", sortKey: "seq", desc: true, pageSize: 25 });
  return refresh();
}

export default { mount, refresh };
