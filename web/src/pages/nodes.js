// Nodes: state, health report, partition label, attributes and usage, filtered by state and
// searched by host, rack, label or attribute.
import { api, esc, mb, time, Table, stateTag, setHashParams } from "../util.js";

const STATES = ["", "RUNNING", "NEW", "UNHEALTHY", "LOST", "DECOMMISSIONING", "DECOMMISSIONED", "REBOOTED", "SHUTDOWN"];
let root = null;
let table = null;
let filters = {};

const attrs = (n) => ((n.nodeAttributesInfo && n.nodeAttributesInfo.nodeAttributeInfo) || []).map((a) => `${a.prefix}/${a.name}=${a.value}`).join(", ");
const labels = (n) => (n.nodeLabels || []).join(", ");
const usedPct = (n) => { const t = n.usedMemoryMB + n.availMemoryMB; return t > 0 ? (100 * n.usedMemoryMB) / t : 0; };

// One page of the filtered nodes, sorted by the server (/spindle/nodes).
async function fetchPage(page) {
  const d = await api("/spindle/nodes", { states: filters.state, q: filters.q, ...page });
  return { total: d.nodesPage.total, rows: d.nodesPage.items };
}

async function refresh() {
  await table.reload();
}

async function mount(el, _arg, params) {
  root = el;
  filters = { state: params.state || "", q: params.q || "" };
  root.innerHTML = `<h1>Nodes</h1><form class="filters" id="node-filters">
    <label>State <select name="state" data-testid="node-filter-state">${STATES.map((s) => `<option value="${s}"${s === filters.state ? " selected" : ""}>${s || "any"}</option>`).join("")}</select></label>
    <label>Host, rack, label or attribute <input name="q" data-testid="node-filter-text" value="${esc(filters.q)}"></label><button type="submit">Filter</button></form><div id="nodes-table"></div>`;
  table = new Table(root.querySelector("#nodes-table"), [
    { key: "id", label: "Node" },
    { key: "rack", label: "Rack" },
    { key: "state", label: "State", render: (n) => stateTag(n.state) },
    { key: "healthReport", label: "Health", render: (n) => esc(n.healthReport || n.healthStatus || "") },
    { key: "nodeLabels", label: "Partition", render: (n) => esc(labels(n) || "DEFAULT") },
    { key: "nodeAttributesInfo", label: "Attributes", render: (n) => esc(attrs(n)) },
    { key: "numContainers", label: "Containers", num: true },
    { key: "usedMemoryMB", label: "Memory used", num: true, render: (n) => `${mb(n.usedMemoryMB)} of ${mb(n.usedMemoryMB + n.availMemoryMB)} <span class="mini"><span style="width:${usedPct(n).toFixed(0)}%"></span></span>` },
    { key: "usedVirtualCores", label: "Vcores used", num: true, render: (n) => `${n.usedVirtualCores} of ${n.usedVirtualCores + n.availableVirtualCores}` },
    { key: "lastHealthUpdate", label: "Last heartbeat", num: true, render: (n) => time(n.lastHealthUpdate) },
  ], { id: "nodes", sortKey: "id", remote: fetchPage });
  root.querySelector("#node-filters").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    filters = { state: f.get("state"), q: f.get("q").trim() };
    setHashParams(filters);
    table.page = 0;
    refresh().catch((err) => { root.querySelector("#nodes-table").innerHTML = `<div class="error" role="alert">${esc(err.message)}</div>`; });
  });
  root.querySelector("[data-testid=node-filter-state]").addEventListener("change", () => root.querySelector("#node-filters").requestSubmit());
  return refresh();
}

export default { mount, refresh };
