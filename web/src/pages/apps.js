// Applications: every app, filtered by state, queue and user (the REST API's own filters, so the
// URL a person shares is the query a script would run) and sorted by any column.
import { api, esc, mb, dur, Table, appLink, stateTag, queueLink, setHashParams } from "../util.js";

const STATES = ["", "NEW", "SUBMITTED", "ACCEPTED", "RUNNING", "FINISHED", "FAILED", "KILLED"];
let root = null;
let table = null;
let filters = {};

// One page of the filtered apps, sorted by the server (/spindle/apps).
async function fetchPage(page) {
  const a = await api("/spindle/apps", { states: filters.state, queue: filters.queue, user: filters.user, q: filters.q, deSelects: "resourceRequests", ...page });
  return { total: a.appsPage.total, rows: a.appsPage.items };
}

async function refresh() {
  await table.reload();
}

async function mount(el, _arg, params) {
  root = el;
  filters = { state: params.state || "", queue: params.queue || "", user: params.user || "", q: params.q || "" };
  root.innerHTML = `<h1>Applications</h1>
    <form class="filters" id="app-filters">
      <label>State <select name="state" data-testid="filter-state">${STATES.map((s) => `<option value="${s}"${s === filters.state ? " selected" : ""}>${s || "any"}</option>`).join("")}</select></label>
      <label>Queue <input name="queue" data-testid="filter-queue" value="${esc(filters.queue)}" placeholder="leaf or path"></label>
      <label>User <input name="user" data-testid="filter-user" value="${esc(filters.user)}"></label>
      <label>Search <input name="q" data-testid="filter-text" value="${esc(filters.q)}"></label>
      <button type="submit">Filter</button>
    </form><div id="apps-table"></div>`;
  table = new Table(root.querySelector("#apps-table"), [
    { key: "id", label: "Application", render: (r) => appLink(r.id) },
    { key: "name", label: "Name" },
    { key: "user", label: "User" },
    { key: "queue", label: "Queue", render: (r) => queueLink(r.queue) },
    { key: "state", label: "State", render: (r) => stateTag(r.state) },
    { key: "finalStatus", label: "Final status" },
    { key: "priority", label: "Priority", num: true },
    { key: "allocatedMB", label: "Memory", num: true, render: (r) => mb(r.allocatedMB) },
    { key: "allocatedVCores", label: "Vcores", num: true, render: (r) => (r.allocatedVCores >= 0 ? r.allocatedVCores : "–") },
    { key: "runningContainers", label: "Containers", num: true, render: (r) => (r.runningContainers >= 0 ? r.runningContainers : "–") },
    { key: "startedTime", label: "Started", num: true, render: (r) => (r.startedTime > 0 ? new Date(r.startedTime).toLocaleTimeString() : "–") },
    { key: "elapsedTime", label: "Elapsed", num: true, render: (r) => dur(r.elapsedTime) },
  ], { id: "apps", sortKey: "startedTime", desc: true, remote: fetchPage });
  root.querySelector("#app-filters").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    filters = { state: f.get("state"), queue: f.get("queue").trim(), user: f.get("user").trim(), q: f.get("q").trim() };
    setHashParams(filters);
    table.page = 0;
    refresh().catch((err) => { root.querySelector("#apps-table").innerHTML = `<div class="error" role="alert">${esc(err.message)}</div>`; });
  });
  root.querySelector("[data-testid=filter-state]").addEventListener("change", () => root.querySelector("#app-filters").requestSubmit());
  return refresh();
}

export default { mount, refresh };
