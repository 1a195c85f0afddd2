// The web UI's shell: the navigation, the hash router (#/overview, #/queues/<path>,
// #/apps?state=..., #/apps/<id>, #/nodes, #/activity, #/reservations, #/placement) and the live
// refresh, which re-reads the REST API every few seconds and redraws the page in place.
import "uplot/dist/uPlot.min.css";
import "./style.css";
import { api, esc } from "./util.js";
import overview from "./pages/overview.js";
import queues from "./pages/queues.js";
import apps from "./pages/apps.js";
import appDetail from "./pages/app_detail.js";
import nodes from "./pages/nodes.js";
import activity from "./pages/activity.js";
import reservations from "./pages/reservations.js";
import placement from "./pages/placement.js";

const PAGES = [
  ["overview", "Overview", overview],
  ["queues", "Queues", queues],
  ["apps", "Applications", apps],
  ["nodes", "Nodes", nodes],
  ["activity", "Scheduler activity", activity],
  ["reservations", "Reservations", reservations],
  ["placement", "Placement", placement],
];
const REFRESH_MS = 3000;

let current = null; // {page, root, state}
let timer = null;
let busy = false;

function parseHash() {
  const [path, query] = location.hash.replace(/^#\/?/, "").split("?");
  const parts = path.split("/").map(decodeURIComponent);
  return { name: parts[0] || "overview", arg: parts.slice(1).join("/"), params: Object.fromEntries(new URLSearchParams(query || "")) };
}

function showError(root, e) {
  root.innerHTML = `<div class="error" role="alert">${esc(e.message)}</div>`;
}

async function route() {
  const { name, arg, params } = parseHash();
  let page = PAGES.find(([n]) => n === name)?.[2] || overview;
  if (name === "apps" && arg) page = appDetail;
  document.querySelectorAll("#nav a").forEach((a) => a.classList.toggle("active", a.dataset.page === name));
  const root = document.getElementById("page");
  root.innerHTML = `<p class="loading">Loading…</p>`;
  const started = performance.now();
  const mine = { page, root, arg, params };
  current = mine;
  try {
    await page.mount(root, arg, params);
    if (current === mine) {
      root.dataset.loadedMs = String(Math.round(performance.now() - started));
      root.dataset.ready = name;
    }
  } catch (e) {
    if (current === mine) showError(root, e);
  }
}

async function tick() {
  if (!document.getElementById("live").checked || document.hidden || busy || !current) return;
  const mine = current;
  if (!mine.page.refresh) return;
  busy = true;
  try {
    await mine.page.refresh();
    const root = document.getElementById("page");
    root.dataset.refreshed = String(+(root.dataset.refreshed || 0) + 1);
  } catch (e) {
    console.warn("refresh failed:", e.message);
  } finally {
    busy = false;
  }
}

async function start() {
  document.getElementById("nav").innerHTML = PAGES.map(([n, label]) => `<a href="#/${n}" data-page="${n}">${esc(label)}</a>`).join("");
  try {
    const info = await api("/info");
    const ci = info.clusterInfo || {};
    document.getElementById("source").textContent =
      ci.resourceManagerVersion === "spindle simulation" ? `simulation (ended at ${Math.round((ci.simulatedTime || 0) / 1000)} s simulated)` : `cluster ${ci.id ?? ""}, ${ci.haState ?? ""}`;
  } catch (e) {
    document.getElementById("source").textContent = "RM unreachable: " + e.message;
  }
  window.addEventListener("hashchange", route);
  await route();
  timer = setInterval(tick, REFRESH_MS);
}

start();
export { timer };
