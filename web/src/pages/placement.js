// Placement: node partitions (labels) and attributes across the cluster, and the recent
// placement-constraint rejections (request-rejected and CONSTRAINT skips).
import { api, apiOptional, esc, time, appLink } from "../util.js";

let root = null;

async function refresh() {
  const [sum, attrs, rej, skips] = await Promise.all([
    api("/spindle/node-summary"), apiOptional("/node-attributes"), api("/spindle/decisions", { kind: "request-rejected", limit: 200 }),
    api("/spindle/decisions", { kind: "skip", reason: "constraint", limit: 200 })]);
  // Counted by the server: the page never fetches the node list itself.
  const byLabel = new Map(Object.entries(sum.nodeSummary.byPartition));
  const byAttr = new Map(Object.entries(sum.nodeSummary.byAttribute));
  const keys = attrs && attrs.nodeAttributes ? attrs.nodeAttributes.length : null;
  const rows = (m) => [...m.entries()].sort().map(([k, v]) => `<tr><td>${esc(k)}</td><td class="num">${v}</td></tr>`).join("");
  const decisions = [...rej.decisions.decision, ...skips.decisions.decision].sort((a, b) => b.seq - a.seq);
  root.querySelector("#content").innerHTML = `<div class="two"><div><h2>Partitions</h2><table class="grid small" data-testid="partitions"><thead><tr><th>Partition</th><th class="num">Nodes</th></tr></thead><tbody>${rows(byLabel)}</tbody></table></div>
    <div><h2>Node attributes</h2>${byAttr.size ? `<table class="grid small" data-testid="attributes"><thead><tr><th>Attribute</th><th class="num">Nodes</th></tr></thead><tbody>${rows(byAttr)}</tbody></table>` : `<p class="muted">No node attributes.</p>`}
    ${keys !== null ? `<p class="muted">${keys} attribute key(s) known to the RM.</p>` : ""}</div></div>
    <h2>Placement refusals</h2>${decisions.length ? `<table class="grid small" data-testid="placement-refusals"><thead><tr><th>Time</th><th>App</th><th>Node</th><th>Code</th><th>Reason</th></tr></thead><tbody>
    ${decisions.map((d) => `<tr><td>${time(d.time)}</td><td>${appLink(d.app)}</td><td>${esc(d.node)}</td><td>${esc(d.rejection || d.skip)}</td><td>${esc(d.reason)}</td></tr>`).join("")}</tbody></table>` : `<p class="muted">No placement constraint refused a request recently.</p>`}`;
}

async function mount(el) {
  root = el;
  root.innerHTML = `<h1>Placement</h1><div id="content"></div>`;
  return refresh();
}

export default { mount, refresh };
