// Reservations: each reservable queue's plan (/reservation/list) with its reservations and,
// when asked, their resource allocations over time.
import { api, esc, time, res } from "../util.js";

let root = null;

const MAX_QUEUES = 50;

// The leaf queues by name (as /reservation/list takes them); the plan queues among them answer.
function leafQueues(info) {
  const out = [];
  const walk = (q) => {
    const kids = (q.queues && q.queues.queue) || (q.childQueues && q.childQueues.queue) || [];
    if (kids.length === 0) out.push(String(q.queueName).replace(/^root\./, ""));
    kids.forEach(walk);
  };
  if (info.type === "fifoScheduler") return ["default"];
  walk(info.type === "fairScheduler" ? info.rootQueue : info);
  return out.slice(0, MAX_QUEUES);
}

const list = (q) => api("/reservation/list", { queue: q, "include-resource-allocations": "true" })
  .then((r) => [q, r, null], (e) => [q, null, e.message]);

async function refresh() {
  const s = await api("/scheduler");
  const info = s.scheduler.schedulerInfo;
  const names = leafQueues(info);
  const first = await list(names[0]);
  if (first[2] && /not enabled|404/.test(first[2])) {
    root.querySelector("#plans").innerHTML = `<p class="muted" data-testid="no-reservations">No reservation system: ${esc(first[2])} (yarn.resourcemanager.reservation-system.enable, docs/reservations.md).</p>`;
    return;
  }
  const lists = [first, ...(await Promise.all(names.slice(1).map(list)))];
  const plans = lists.filter(([, r]) => r);
  if (plans.length === 0) {
    root.querySelector("#plans").innerHTML = `<p class="muted" data-testid="no-reservations">No leaf queue is a reservation plan.</p>`;
    return;
  }
  const parts = plans.map(([q, r]) => {
    const list = r.reservations || [];
    if (list.length === 0) return `<h2>${esc(q)}</h2><p class="muted">No reservations.</p>`;
    return `<h2>${esc(q)}</h2><table class="grid small" data-testid="reservations"><thead><tr><th>Reservation</th><th>Name</th><th>User</th><th>Arrival</th><th>Deadline</th><th>Allocations</th></tr></thead><tbody>
      ${list.map((x) => { const d = x["reservation-definition"] || {}; const al = x["resource-allocations"] || [];
        return `<tr><td>${esc(x["reservation-id"])}</td><td>${esc(d["reservation-name"])}</td><td>${esc(x.user)}</td><td>${time(+d.arrival)}</td><td>${time(+d.deadline)}</td>
        <td>${al.map((a) => `${time(a.startTime)} → ${time(a.endTime)}: ${res(a.resource)}`).join("<br>")}</td></tr>`; }).join("")}</tbody></table>`;
  });
  root.querySelector("#plans").innerHTML = parts.join("");
}

async function mount(el) {
  root = el;
  root.innerHTML = `<h1>Reservations</h1><div id="plans"></div>`;
  return refresh();
}

export default { mount, refresh };
