// Opens every page of the web UI in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) and checks what a person sees against the REST API it reads.
//   node browser.mjs --url http://127.0.0.1:PORT --out DIR [--waiting APPID] [--finished APPID]
//                    [--bench N]
// --waiting: an app that waits (its page must show ACCEPTED and why); --finished: a finished app
// (the FINISHED filter must list it). --bench N: load each page N times and print the median and
// worst load times (navigation to drawn page). Prints "N passed, M failed"; exit 1 on a failure.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1] && !all[i + 1].startsWith("--") ? all[i + 1] : "1"]] : acc), []));
const base = args.url;
const out = args.out || ".";
mkdirSync(out, { recursive: true });
let passed = 0, failed = 0;
const check = (name, ok, detail = "") => {
  if (ok) { passed++; console.log(`ok   ${name}`); } else { failed++; console.log(`FAIL ${name} ${detail}`); }
};
const rest = async (path) => {
  const r = await fetch(base + "/ws/v1/cluster" + path);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
};
const pct = (v) => (+v).toFixed(1) + "%";

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
let errors = [];
page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
page.on("pageerror", (e) => errors.push(e.message));

// Loads #/<hash> and waits until the page has drawn; answers the milliseconds it took.
async function open(hash, ready) {
  // A fresh document every time: going to the same URL with another hash only re-routes in the
  // loaded page, and to the same hash does nothing at all.
  await page.goto("about:blank");
  const t0 = Date.now();
  await page.goto(`${base}/#/${hash}`);
  await page.waitForSelector(`#page[data-ready="${ready}"], #page .error`, { timeout: 15000 });
  return Date.now() - t0;
}

async function visit(name, hash, ready, allowedErrors = null) {
  errors = [];
  const ms = await open(hash, ready);
  const err = await page.$("#page .error");
  check(`${name}: page drawn without an error box (${ms} ms)`, !err, err ? await err.textContent() : "");
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
  const real = errors.filter((e) => !(allowedErrors && allowedErrors.test(e)));
  check(`${name}: no console errors`, real.length === 0, JSON.stringify(real));
}

if (args.bench) {
  const n = +args.bench;
  const pages = [["overview", "overview"], ["queues", "queues"], ["apps", "apps"], ["nodes", "nodes"], ["activity", "activity"], ["placement", "placement"], ["reservations", "reservations"]];
  const m = await rest("/metrics");
  console.log(`bench: ${m.clusterMetrics.appsSubmitted} apps, ${m.clusterMetrics.totalNodes} nodes`);
  // The browser's first page compiles the bundle with an empty cache: reported apart.
  console.log(`bench: cold start (first load of a fresh browser) ${await open("overview", "overview")} ms`);
  for (const [hash, ready] of pages) {
    const times = [];
    for (let i = 0; i < n; i++) times.push(await open(hash, ready));
    times.sort((a, b) => a - b);
    const med = times[Math.floor(times.length / 2)], worst = times[times.length - 1];
    console.log(`bench: ${hash} median ${med} ms, worst ${worst} ms`);
    check(`bench: ${hash} median load under ${args.limit || 300} ms`, med < +(args.limit || 300), `${med} ms`);
  }
  const apps = await rest("/apps?limit=1");
  if (apps.apps.app.length) {
    const times = [];
    for (let i = 0; i < n; i++) times.push(await open("apps/" + apps.apps.app[0].id, "apps"));
    times.sort((a, b) => a - b);
    console.log(`bench: app detail median ${times[Math.floor(n / 2)]} ms, worst ${times[n - 1]} ms`);
    check(`bench: app detail median load under ${args.limit || 300} ms`, times[Math.floor(n / 2)] < +(args.limit || 300));
  }
} else {
  // Overview: the cards are the REST metrics.
  await visit("overview", "overview", "overview");
  const m = (await rest("/metrics")).clusterMetrics;
  check("overview: vcores allocated equals REST", (await page.textContent("[data-testid=vc-allocated]")).trim() === String(m.allocatedVirtualCores));
  check("overview: apps submitted equals REST", (await page.textContent("[data-testid=apps-submitted]")).trim() === String(m.appsSubmitted));
  check("overview: the live chart is drawn", (await page.$$("#chart-mem canvas")).length === 1);

  // Queues: each bar's figures are the REST figures of that queue and partition.
  await visit("queues", "queues", "queues");
  const info = (await rest("/scheduler")).scheduler.schedulerInfo;
  const rows = await page.$$eval(".queue-row", (trs) => trs.map((tr) => ({
    queue: tr.dataset.queue, partition: tr.dataset.partition,
    used: tr.querySelector("[data-testid=q-used]").textContent, guaranteed: tr.querySelector("[data-testid=q-guaranteed]").textContent,
    max: tr.querySelector("[data-testid=q-max]").textContent })));
  const expected = [];
  const walk = (q) => {
    const caps = (q.capacities && q.capacities.queueCapacitiesByPartition) || [];
    for (const c of caps) expected.push({ queue: q.queuePath || q.queueName, partition: c.partitionName, used: pct(c.absoluteUsedCapacity), guaranteed: pct(c.absoluteCapacity), max: pct(c.absoluteMaxCapacity) });
    for (const k of (q.queues && q.queues.queue) || []) walk(k);
  };
  if (info.type === "capacityScheduler") {
    walk(info);
    check(`queues: one row per queue and partition (${expected.length})`, rows.length === expected.length, `${rows.length} rows`);
    const bad = expected.filter((e) => !rows.some((r) => r.queue === e.queue && r.partition === e.partition && r.used === e.used && r.guaranteed === e.guaranteed && r.max === e.max));
    check("queues: used, guaranteed and max figures equal REST", bad.length === 0, JSON.stringify(bad));
  } else {
    check("queues: the tree has rows", rows.length > 0);
  }
  const leaf = rows.find((r) => r.queue && r.queue !== "root" && r.queue.split(".").length > 1) || rows[0];
  await page.click(`.queue-row[data-queue="${leaf.queue}"] a`);
  await page.waitForSelector("[data-testid=queue-limits]", { timeout: 10000 });
  check(`queues: clicking ${leaf.queue} opens its limits and apps`, (await page.textContent("h1")).includes(leaf.queue) && !!(await page.$("[data-testid=queue-apps]")));
  await page.screenshot({ path: `${out}/queue-detail.png`, fullPage: true });

  // Applications: the state filter lists exactly the REST's apps in that state.
  await visit("apps", "apps", "apps");
  const all = (await rest("/apps")).apps.app;
  check("apps: every app listed", (await page.textContent("[data-testid=apps-count]")).startsWith(`${all.length} row`));
  for (const state of ["FINISHED", "ACCEPTED", "RUNNING"]) {
    await page.selectOption("[data-testid=filter-state]", state);
    const want = all.filter((a) => a.state === state).length;
    // Wait for this filter's rows, not only the count: two filters may give the same count.
    await page.waitForFunction(([w, st]) => document.querySelector("[data-testid=apps-count]")?.textContent.startsWith(`${w} row`) &&
      [...document.querySelectorAll("[data-testid=apps] tbody tr .state")].every((x) => x.textContent === st), [want, state], { timeout: 5000 }).catch(() => {});
    const states = await page.$$eval("[data-testid=apps] tbody tr .state", (s) => s.map((x) => x.textContent));
    check(`apps: the ${state} filter shows the ${want} ${state} apps`, (await page.textContent("[data-testid=apps-count]")).startsWith(`${want} row`) && states.every((s) => s === state), JSON.stringify(states));
  }
  if (args.finished) {
    await page.selectOption("[data-testid=filter-state]", "FINISHED");
    await page.waitForSelector(`[data-testid=apps] a[href="#/apps/${args.finished}"]`, { timeout: 5000 }).catch(() => {});
    check("apps: the finished app is in the FINISHED list", !!(await page.$(`[data-testid=apps] a[href="#/apps/${args.finished}"]`)));
  }
  await page.screenshot({ path: `${out}/apps-filtered.png`, fullPage: true });

  // An app's page: its state, and why it waits, as the REST answers say.
  const target = args.waiting || all[0].id;
  await visit("app-detail", `apps/${target}`, "apps");
  const app = (await rest(`/apps/${target}`)).app;
  check(`app: ${target} shows its state ${app.state}`, (await page.textContent("[data-testid=app-state]")).trim() === app.state);
  if (args.waiting) {
    const why = (await rest(`/spindle/app-decisions/${target}`)).appDecisions.whyPending;
    const shown = await page.textContent("[data-testid=why-pending]").catch(() => "");
    check("app: the page says why it waits, as the decision records do", !!why && shown.includes(why.reason) && shown.includes(why.skip), `REST ${JSON.stringify(why)} page ${shown}`);
  }

  // Nodes, activity (searched by app), reservations, placement.
  await visit("nodes", "nodes", "nodes");
  const nodes = (await rest("/nodes")).nodes.node;
  check("nodes: every node listed", (await page.textContent("[data-testid=nodes-count]")).startsWith(`${nodes.length} row`));
  await visit("activity", `activity?app=${target}`, "activity");
  const apps = await page.$$eval("[data-testid=activity] tbody tr td:nth-child(4)", (tds) => tds.map((t) => t.textContent));
  check("activity: the search by app lists only that app's decisions", apps.length > 0 && apps.every((a) => a === target), JSON.stringify(apps.slice(0, 5)));
  await visit("placement", "placement", "placement");
  check("placement: partitions listed", !!(await page.$("[data-testid=partitions]")));
  // A reservation list of a queue that is no plan is answered 400 by design (the page says so);
  // visited last of the checked pages, so a late 400 of its own is not counted against another.
  await visit("reservations", "reservations", "reservations", /status of 40[04]/);
  // Live: the page redraws without a reload.
  await open("overview", "overview");
  await page.evaluate(() => { window.__marker = 1; });
  await page.waitForFunction(() => +(document.getElementById("page").dataset.refreshed || 0) >= 1, null, { timeout: 8000 }).catch(() => {});
  check("live: the overview refreshed in place", await page.evaluate(() => window.__marker === 1 && +(document.getElementById("page").dataset.refreshed || 0) >= 1));
}

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
