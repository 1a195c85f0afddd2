// Shared helpers of the pages: REST calls, HTML escaping, number formats, a sortable paged
// table and usage bars. The UI reads only the REST API (docs/rest-api.md).

const BASE = "/ws/v1/cluster";

// GET BASE + path with query params; throws an Error carrying the RemoteException message.
export async function api(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, v);
  const url = BASE + path + (q.toString() ? "?" + q : "");
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!res.ok) {
    const msg = body && body.RemoteException ? body.RemoteException.message : text;
    const err = new Error(`${res.status}: ${msg}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

// api() that answers null for a 404 (an endpoint a source does not have).
export async function apiOptional(path, params) {
  try { return await api(path, params); } catch (e) { if (e.status === 404 || e.status === 400) return null; throw e; }
}

export function esc(v) {
  return String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export const pct = (v) => (v === undefined || v === null || Number.isNaN(+v) ? "–" : (+v).toFixed(1) + "%");
export const mb = (v) => {
  if (v === undefined || v === null || v < 0) return "–";
  return v >= 1024 * 1024 ? (v / 1024 / 1024).toFixed(1) + " TB" : v >= 1024 ? (v / 1024).toFixed(1) + " GB" : v + " MB";
};
export const res = (r) => (r ? `${mb(r.memory)}, ${r.vCores} vcores` : "–");
export const time = (ms) => (ms > 0 ? new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "") : "–");
export const dur = (ms) => {
  if (!(ms >= 0)) return "–";
  const s = Math.round(ms / 1000);
  return s < 60 ? s + " s" : s < 3600 ? Math.floor(s / 60) + " m " + (s % 60) + " s" : Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " m";
};
export const appLink = (id) => `<a href="#/apps/${encodeURIComponent(id)}">${esc(id)}</a>`;
export const queueLink = (q) => `<a href="#/queues/${encodeURIComponent(q)}">${esc(q)}</a>`;
export const stateTag = (s) => `<span class="state state-${esc(String(s).toLowerCase())}">${esc(s)}</span>`;

// A bar of `used` against `guaranteed` and `max` (percent of the cluster or of a parent), with
// the figures in text beside it.
export function bar(used, guaranteed, max) {
  const w = (v) => Math.max(0, Math.min(100, +v || 0));
  return `<div class="bar" title="used ${pct(used)}, guaranteed ${pct(guaranteed)}, max ${pct(max)}">
    <div class="bar-max" style="width:${w(max)}%"></div>
    <div class="bar-used${+used > +guaranteed ? " over" : ""}" style="width:${w(used)}%"></div>
    <div class="bar-guaranteed" style="left:${w(guaranteed)}%"></div></div>`;
}

// A sortable, paged table. columns: [{key, label, render(row) -> html, num, sort(row) -> value}].
// Only one page of rows is in the DOM. With `remote(page) -> {total, rows}` the server sorts and
// pages (page: {sort, desc, offset, limit}), so 10,000 rows never cross the wire at once.
export class Table {
  constructor(container, columns, { pageSize = 50, sortKey = null, desc = false, id = "", remote = null } = {}) {
    this.remote = remote;
    this.total = 0;
    this.el = container;
    this.columns = columns;
    this.pageSize = pageSize;
    this.sortKey = sortKey;
    this.desc = desc;
    this.page = 0;
    this.rows = [];
    this.id = id;
    this.el.addEventListener("click", (e) => {
      const th = e.target.closest("th[data-key]");
      if (th) {
        const k = th.dataset.key;
        this.desc = this.sortKey === k ? !this.desc : false;
        this.sortKey = k;
        this.page = 0;
        this.redraw();
        return;
      }
      const pg = e.target.closest("button[data-page]");
      if (pg) {
        this.page = Math.max(0, Math.min(this.pages() - 1, this.page + +pg.dataset.page));
        this.redraw();
      }
    });
  }
  count() { return this.remote ? this.total : this.rows.length; }
  pages() { return Math.max(1, Math.ceil(this.count() / this.pageSize)); }
  // Remote tables fetch the current page; local ones redraw.
  async reload() {
    if (!this.remote) return this.draw();
    const r = await this.remote({ sort: this.sortKey, desc: this.desc, offset: this.page * this.pageSize, limit: this.pageSize });
    this.total = r.total;
    this.rows = r.rows;
    if (this.page > 0 && this.page >= this.pages()) { this.page = this.pages() - 1; return this.reload(); }
    this.draw();
  }
  redraw() { this.reload().catch((e) => { this.el.innerHTML = `<div class="error" role="alert">${esc(e.message)}</div>`; }); }
  setRows(rows) {
    this.rows = rows;
    if (this.page >= this.pages()) this.page = this.pages() - 1;
    this.draw();
  }
  draw() {
    const col = this.remote ? null : this.columns.find((c) => c.key === this.sortKey);
    let rows = this.rows;
    if (col) {
      const get = col.sort || ((r) => r[col.key]);
      const dir = this.desc ? -1 : 1;
      rows = rows.slice().sort((a, b) => {
        const x = get(a), y = get(b);
        return (x < y ? -1 : x > y ? 1 : 0) * dir;
      });
    }
    const start = this.page * this.pageSize;
    const shown = this.remote ? rows : rows.slice(start, start + this.pageSize);
    const n = this.count();
    const head = this.columns.map((c) => `<th data-key="${c.key}" class="${c.num ? "num" : ""}">${esc(c.label)}${c.key === this.sortKey ? (this.desc ? " ▼" : " ▲") : ""}</th>`).join("");
    const body = shown.map((r) => `<tr>${this.columns.map((c) => `<td class="${c.num ? "num" : ""}">${c.render ? c.render(r) : esc(r[c.key])}</td>`).join("")}</tr>`).join("");
    const pager = n > this.pageSize
      ? `<div class="pager"><button data-page="-1">‹ prev</button> page ${this.page + 1} of ${this.pages()} <button data-page="1">next ›</button></div>` : "";
    this.el.innerHTML = `<div class="count" data-testid="${this.id}-count">${n} row${n === 1 ? "" : "s"}</div>
      <table class="grid" data-testid="${this.id}"><thead><tr>${head}</tr></thead><tbody>${body || `<tr><td colspan="${this.columns.length}" class="empty">nothing to show</td></tr>`}</tbody></table>${pager}`;
  }
}

// Sets the URL's hash parameters of the current page without a reload (filters stay in links).
export function setHashParams(params) {
  const [path] = location.hash.slice(1).split("?");
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  history.replaceState(null, "", "#" + path + (q.toString() ? "?" + q : ""));
}
