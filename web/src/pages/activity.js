// Scheduler activity: the recent decisions (allocations, skips with their reasons,
// reservations, preemption, app and node changes), searched by app, node, queue, kind and
// reason through /spindle/decisions.
import { api, esc, time, Table, appLink, setHashParams } from "../util.js";

const KINDS = ["", "allocate", "skip", "reserve", "unreserve", "release", "complete", "kill", "preempt-mark", "app-accepted", "app-rejected", "app-finished", "node-added", "node-removed", "node-updated", "request-rejected"];
let root = null;
let table = null;
let filters = {};

async function refresh() {
  const d = await api("/spindle/decisions", { ...filters, limit: 500 });
  root.querySelector("#total").textContent = `${d.decisions.total} matching of the ${d.decisions.kept} kept (newest first, at most 500 shown)`;
  table.setRows(d.decisions.decision);
}

async function mount(el, _arg, params) {
  root = el;
  filters = { app: params.app || "", node: params.node || "", queue: params.queue || "", kind: params.kind || "", reason: params.reason || "" };
  const input = (k, label) => `<label>${label} <input name="${k}" data-testid="activity-${k}" value="${esc(filters[k])}"></label>`;
  root.innerHTML = `<h1>Scheduler activity</h1><form class="filters" id="act-filters">${input("app", "App")}${input("node", "Node")}${input("queue", "Queue")}
    <label>Kind <select name="kind" data-testid="activity-kind">${KINDS.map((k) => `<option value="${k}"${k === filters.kind ? " selected" : ""}>${k || "any"}</option>`).join("")}</select></label>
    ${input("reason", "Reason")}<button type="submit">Search</button></form><p class="muted" id="total"></p><div id="act-table"></div>`;
  table = new Table(root.querySelector("#act-table"), [
    { key: "seq", label: "#", num: true },
    { key: "time", label: "Time", render: (d) => time(d.time) },
    { key: "kind", label: "Kind" },
    { key: "app", label: "App", render: (d) => (d.app ? appLink(d.app) : "") },
    { key: "queue", label: "Queue" },
    { key: "node", label: "Node" },
    { key: "skip", label: "Code", render: (d) => esc(d.skip || d.rejection || d.locality || "") },
    { key: "reason", label: "Reason" },
  ], { id: "activity", sortKey: "seq", desc: true });
  root.querySelector("#act-filters").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    filters = Object.fromEntries([...f.entries()].map(([k, v]) => [k, String(v).trim()]));
    setHashParams(filters);
    refresh().catch((err) => { root.querySelector("#act-table").innerHTML = `<div class="error" role="alert">${esc(err.message)}</div>`; });
  });
  return refresh();
}

export default { mount, refresh };
