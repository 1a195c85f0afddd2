// Overview: cluster resources, apps by state, nodes by state, and a live chart of allocated
// against available memory and vcores (sampled from /metrics at each refresh).
import uPlot from "uplot";
import { api, esc, mb } from "../util.js";

const history = { t: [], allocMB: [], availMB: [], allocVC: [], availVC: [] };
const MAX_POINTS = 600;
let root = null;
let charts = [];

function sample(m) {
  history.t.push(Date.now() / 1000);
  history.allocMB.push(m.allocatedMB);
  history.availMB.push(m.availableMB);
  history.allocVC.push(m.allocatedVirtualCores);
  history.availVC.push(m.availableVirtualCores);
  for (const k of Object.keys(history)) if (history[k].length > MAX_POINTS) history[k].shift();
}

const card = (label, value, id) => `<div class="card"><div class="card-label">${esc(label)}</div><div class="card-value" data-testid="${id}">${esc(value)}</div></div>`;

function draw(m) {
  const cards = [
    card("Memory allocated", mb(m.allocatedMB), "mem-allocated"),
    card("Memory available", mb(m.availableMB), "mem-available"),
    card("Memory total", mb(m.totalMB), "mem-total"),
    card("Vcores allocated", m.allocatedVirtualCores, "vc-allocated"),
    card("Vcores available", m.availableVirtualCores, "vc-available"),
    card("Containers", m.containersAllocated, "containers"),
    card("Containers pending", m.containersPending, "containers-pending"),
    card("Reserved", mb(m.reservedMB), "mem-reserved"),
  ].join("");
  const apps = [["Submitted", m.appsSubmitted], ["Pending", m.appsPending], ["Running", m.appsRunning], ["Completed", m.appsCompleted], ["Failed", m.appsFailed], ["Killed", m.appsKilled]];
  const nodes = [["Active", m.activeNodes], ["Lost", m.lostNodes], ["Unhealthy", m.unhealthyNodes], ["Decommissioning", m.decommissioningNodes], ["Decommissioned", m.decommissionedNodes], ["Rebooted", m.rebootedNodes], ["Shutdown", m.shutdownNodes]];
  const states = (list, link) => list.map(([k, v]) => `<tr><td>${link ? `<a href="#/${link}?state=${k === "Pending" ? "ACCEPTED" : k === "Completed" ? "FINISHED" : k.toUpperCase()}">${k}</a>` : k}</td><td class="num" data-testid="${link || "nodes"}-${k.toLowerCase()}">${v ?? 0}</td></tr>`).join("");
  root.querySelector("#cards").innerHTML = cards;
  root.querySelector("#by-state").innerHTML = `<div><h3>Applications by state</h3><table class="grid small">${states(apps, "apps")}</table></div>
    <div><h3>Nodes by state</h3><table class="grid small">${states(nodes, "")}</table><p><a href="#/nodes">all nodes ›</a></p></div>`;
}

function makeChart(el, title, labels, a, b) {
  const opts = {
    title, width: Math.max(320, el.clientWidth || 480), height: 220,
    series: [{}, { label: labels[0], stroke: "#d9480f", fill: "rgba(217,72,15,0.15)" }, { label: labels[1], stroke: "#1c7ed6" }],
    axes: [{}, { size: 70 }],
  };
  return new uPlot(opts, [history.t, history[a], history[b]], el);
}

function drawCharts() {
  if (charts.length === 0) {
    charts = [
      makeChart(root.querySelector("#chart-mem"), "Memory (MB)", ["allocated", "available"], "allocMB", "availMB"),
      makeChart(root.querySelector("#chart-vc"), "Vcores", ["allocated", "available"], "allocVC", "availVC"),
    ];
    charts[0].keys = ["allocMB", "availMB"];
    charts[1].keys = ["allocVC", "availVC"];
  } else {
    for (const c of charts) c.setData([history.t, history[c.keys[0]], history[c.keys[1]]]);
  }
}

async function refresh() {
  const m = (await api("/metrics")).clusterMetrics;
  sample(m);
  draw(m);
  drawCharts();
}

async function mount(el) {
  root = el;
  charts.forEach((c) => c.destroy());
  charts = [];
  const m = (await api("/metrics")).clusterMetrics;
  root.innerHTML = `<h1>Cluster overview</h1><div id="cards" class="cards"></div>
    <div id="by-state" class="two"></div>
    <h2>Allocated and available, live</h2><div class="two"><div id="chart-mem" class="chart"></div><div id="chart-vc" class="chart"></div></div>`;
  sample(m);
  draw(m);
  drawCharts();
}

export default { mount, refresh };
