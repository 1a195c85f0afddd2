// State paths of `expect.state` (docs/scenario-format.md): VIEW.FIELD[.FIELD...], where named
// views (`app:<handle>`, `node:<name>`, `queue:<name>`) take the longest name that exists,
// since node names (127.0.0.1) and queue paths (root.a) contain dots themselves.
#include <charconv>
#include <functional>
#include <optional>

#include "dao/decision_json.h"
#include "dao/rest_views.h"
#include "scenario/expectations.h"
#include "scenario/placement_views.h"
#include "scenario/reservation_steps.h"
#include "scenario/scheduler_views.h"
#include "scenario/starvation_view.h"

namespace spindle {

using nlohmann::json;

namespace {

// Splits at dots outside brackets, so a selector value may contain dots
// (`user[username=first.last]`).
std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    if (c == '.' && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back().push_back(c);
    }
  }
  return parts;
}

// A FIELD `NAME[KEY=VALUE]`: the element of array NAME whose KEY equals VALUE.
struct Selector {
  std::string name, key, value;
};

std::optional<Selector> parseSelector(const std::string& f) {
  auto open = f.find('[');
  if (open == std::string::npos || open == 0 || f.back() != ']') return std::nullopt;
  auto eq = f.find('=', open);
  if (eq == std::string::npos || eq == open + 1) return std::nullopt;
  return Selector{f.substr(0, open), f.substr(open + 1, eq - open - 1),
                  f.substr(eq + 1, f.size() - eq - 2)};
}

// Compares a JSON scalar with the selector's text: strings as they are, numbers and booleans
// as JSON writes them.
bool scalarEquals(const json& v, const std::string& text) {
  if (v.is_string()) return v.get<std::string>() == text;
  if (v.is_number() || v.is_boolean()) return v.dump() == text;
  return false;
}

Result<const json*> select(const json& cur, const Selector& sel, const std::string& path) {
  if (!cur.is_object() || !cur.contains(sel.name)) {
    return notFound("no field '{}' (in {})", sel.name, path);
  }
  const json& arr = cur[sel.name];
  // YARN's JSON writes a one-element list as the element itself in places; accept both.
  if (arr.is_object()) {
    if (arr.contains(sel.key) && scalarEquals(arr[sel.key], sel.value)) return &arr;
  } else if (arr.is_array()) {
    for (const json& e : arr) {
      if (e.is_object() && e.contains(sel.key) && scalarEquals(e[sel.key], sel.value)) return &e;
    }
  } else {
    return notFound("'{}' is not an array (in {})", sel.name, path);
  }
  return notFound("no element of '{}' has {} = {} (in {})", sel.name, sel.key, sel.value, path);
}

std::string join(const std::vector<std::string>& parts, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out.push_back('.');
    out.append(parts[i]);
  }
  return out;
}

Result<json> walk(const json& root, const std::vector<std::string>& fields, size_t from,
                  const std::string& path) {
  const json* cur = &root;
  for (size_t i = from; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (auto sel = parseSelector(f)) {
      SPINDLE_ASSIGN_OR_RETURN(cur, select(*cur, *sel, path));
    } else if (cur->is_array()) {
      size_t idx = 0;
      auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), idx);
      if (ec != std::errc() || p != f.data() + f.size() || idx >= cur->size()) {
        return notFound("'{}' in {} is not an index of an array of {}", f, path, cur->size());
      }
      cur = &(*cur)[idx];
    } else if (cur->is_object() && cur->contains(f)) {
      cur = &(*cur)[f];
    } else {
      return notFound("no field '{}' (in {})", f, path);
    }
  }
  return *cur;
}

// Finds the longest name parts[0..k) accepted by `lookup`; returns k, or 0 if none.
size_t longestName(const std::vector<std::string>& parts,
                   const std::function<bool(const std::string&)>& lookup) {
  for (size_t k = parts.size(); k >= 1; --k) {
    if (lookup(join(parts, 0, k))) return k;
  }
  return 0;
}

const json* findQueue(const json& j, const std::string& name) {
  if (j.is_object()) {
    if ((j.contains("queueName") && j["queueName"] == name) ||
        (j.contains("queuePath") && j["queuePath"] == name)) {
      return &j;
    }
    for (const auto& [k, v] : j.items()) {
      if (const json* q = findQueue(v, name)) return q;
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      if (const json* q = findQueue(v, name)) return q;
    }
  }
  return nullptr;
}

Result<AppId> appByHandle(const std::string& h, const ExpectContext& ctx) {
  auto it = ctx.apps.find(h);
  if (it == ctx.apps.end()) return notFound("unknown app handle '{}'", h);
  return it->second;
}

Result<json> askPath(const std::vector<std::string>& p, const std::string& path,
                     const ExpectContext& ctx) {
  // ask:<handle>.<priority>.<resourceName...> or ask:<handle>.pending.<type>
  if (p.size() < 3) return invalidArgument("expected ask:<app>.<priority>.<resourceName>");
  SPINDLE_ASSIGN_OR_RETURN(AppId id, appByHandle(p[0], ctx));
  const Application* a = ctx.scheduler.findApp(id);
  if (p[1] == "pending") {
    auto idx = ctx.scheduler.cluster().types().indexOf(join(p, 2, p.size()));
    if (!idx) return notFound("unknown resource type in {}", path);
    return json(a->asks().pending().get(*idx));
  }
  int32_t prio = 0;
  auto [q, ec] = std::from_chars(p[1].data(), p[1].data() + p[1].size(), prio);
  if (ec != std::errc()) return invalidArgument("'{}' is not a priority in {}", p[1], path);
  return json(a->asks().count(SchedulerKey{prio, 0}, join(p, 2, p.size())));
}

// headroom:<handle>.<type>: Scheduler::headroom, what the AM's next allocate response carries.
Result<json> headroomPath(const std::vector<std::string>& p, const std::string& path,
                          const ExpectContext& ctx) {
  if (p.size() < 2) return invalidArgument("expected headroom:<app>.<resource type>");
  SPINDLE_ASSIGN_OR_RETURN(AppId id, appByHandle(p[0], ctx));
  std::string type = join(p, 1, p.size());
  if (type == "memory") type = "memory-mb";
  auto idx = ctx.scheduler.cluster().types().indexOf(type);
  if (!idx) return notFound("unknown resource type '{}' in {}", type, path);
  auto h = ctx.scheduler.headroom(id);
  if (!h) return json(nullptr);
  return json(h->get(*idx));
}

Result<json> appScopedPath(const std::string& view, const std::vector<std::string>& p,
                           const std::string& path, const ExpectContext& ctx) {
  if (view == "ask") return askPath(p, path, ctx);
  if (view == "headroom") return headroomPath(p, path, ctx);
  SPINDLE_ASSIGN_OR_RETURN(AppId id, appByHandle(p[0], ctx));
  const Application* a = ctx.scheduler.findApp(id);
  if (view == "app" && p.size() >= 2 && p[1] == "reReservations") {
    return reReservationsStatePath(id, std::vector<std::string>(p.begin() + 2, p.end()), path, ctx);
  }
  if (view == "app") return walk(appView(ctx.scheduler, *a), p, 1, path);
  if (view == "opportunities") {
    if (p.size() != 2) return invalidArgument("expected opportunities:<app>.<priority>");
    int32_t prio = 0;
    auto [q, ec] = std::from_chars(p[1].data(), p[1].data() + p[1].size(), prio);
    if (ec != std::errc()) return invalidArgument("'{}' is not a priority", p[1]);
    return json(a->schedulingOpportunities(SchedulerKey{prio, 0}));
  }
  // pending:<handle>.<field>: the app's last skip.
  const Decision* skip = ctx.scheduler.lastSkip(id);
  if (!skip) return json(nullptr);
  json d = decisionToJson(ctx.scheduler, *skip, 0);
  if (p.size() == 2 && p[1] == "reason") return d["skip"];
  if (p.size() == 2 && d.contains("numbers") && d["numbers"].contains(p[1])) {
    return d["numbers"][p[1]];
  }
  return walk(d, p, 1, path);
}

// --- preemption:<queue>[@partition].<figure>.<type> ------------------------------------------
// The capacity preemption policy's figures for a queue in the last `monitor` round
// (Scheduler::lastPreemptionRound, YARN's TempQueuePerPartition). The queue is its full path
// (root.a.a1) or its unique short name; `@x` selects partition x (default: "").

const std::pair<const char*, Resource QueuePreemptionFigures::*> kPreemptionFigures[] = {
    {"guaranteed", &QueuePreemptionFigures::guaranteed},
    {"maximum", &QueuePreemptionFigures::maximum},
    {"used", &QueuePreemptionFigures::used},
    {"pending", &QueuePreemptionFigures::pending},
    {"idealAssigned", &QueuePreemptionFigures::idealAssigned},
    {"toBePreempted", &QueuePreemptionFigures::toBePreempted},
    {"actuallyToBePreempted", &QueuePreemptionFigures::actuallyToBePreempted},
    {"preemptableExtra", &QueuePreemptionFigures::preemptableExtra},
    {"untouchableExtra", &QueuePreemptionFigures::untouchableExtra},
    {"selected", &QueuePreemptionFigures::selected},
};

// The figures of `name` ("root.a" or "a", optionally "@partition"), or nullptr.
const QueuePreemptionFigures* findPreemptionFigures(const PreemptionRoundReport& r,
                                                    const std::string& name) {
  const auto at = name.find('@');
  const std::string queue = name.substr(0, at);
  const std::string partition = at == std::string::npos ? "" : name.substr(at + 1);
  const QueuePreemptionFigures* byShortName = nullptr;
  int shortMatches = 0;
  for (const QueuePreemptionFigures& q : r.queues) {
    if (q.partition != partition) continue;
    if (q.queue == queue) return &q;
    const auto dot = q.queue.rfind('.');
    if (q.queue.compare(dot == std::string::npos ? 0 : dot + 1, std::string::npos, queue) == 0) {
      byShortName = &q;
      ++shortMatches;
    }
  }
  return shortMatches == 1 ? byShortName : nullptr;
}

Result<json> preemptionPath(const std::vector<std::string>& p, const std::string& path,
                            const ExpectContext& ctx) {
  const PreemptionRoundReport* r = ctx.scheduler.lastPreemptionRound();
  if (!r) {
    return failedPrecondition(
        "no capacity preemption round has run (a `monitor` step with "
        "yarn.resourcemanager.scheduler.monitor.enable) for {}",
        path);
  }
  // <queue>.<figure>.<type>: queue paths and type names (yarn.io/gpu) contain dots, so the
  // figure is the first part after a queue name that is a figure name.
  auto figureOf = [](const std::string& name) -> const Resource QueuePreemptionFigures::* {
    for (const auto& [n, f] : kPreemptionFigures) {
      if (name == n) return f;
    }
    return nullptr;
  };
  size_t queueParts = 0;  // the longest prefix naming a queue, for the errors
  for (size_t i = 1; i < p.size(); ++i) {
    const QueuePreemptionFigures* q = findPreemptionFigures(*r, join(p, 0, i));
    if (q == nullptr) continue;
    queueParts = i;
    const auto field = figureOf(p[i]);
    if (field == nullptr || i + 1 == p.size()) continue;
    std::string type = join(p, i + 1, p.size());
    if (type == "memory") type = "memory-mb";
    auto idx = ctx.scheduler.cluster().types().indexOf(type);
    if (!idx) return notFound("unknown resource type '{}' in {}", type, path);
    return json(((*q).*field).get(*idx));
  }
  if (queueParts == 0) {
    return notFound("no queue (and partition) of the last preemption round is named in {}", path);
  }
  if (queueParts + 1 < p.size() && figureOf(p[queueParts]) == nullptr) {
    std::string figures;
    for (const auto& [name, f] : kPreemptionFigures) {
      figures += figures.empty() ? name : fmt::format(", {}", name);
    }
    return notFound(
        "'{}' after '{}' is neither a preemption figure ({}) nor a queue (and "
        "partition) of the last round, in {}",
        p[queueParts], join(p, 0, queueParts), figures, path);
  }
  return invalidArgument("expected preemption:<queue>[@partition].<figure>.<resource type> in {}",
                         path);
}

}  // namespace

Result<json> resolveStatePath(const std::string& path, const ExpectContext& ctx) {
  const Scheduler& s = ctx.scheduler;
  auto colon = path.find(':');
  const auto dot = path.find('.');
  if (colon == std::string::npos || (dot != std::string::npos && dot < colon)) {
    auto parts = split(path);
    if (parts[0] == "scheduler") {
      return walk(schedulerView(s)["scheduler"]["schedulerInfo"], parts, 1, path);
    }
    if (parts[0] == "metrics") return walk(metricsView(s)["clusterMetrics"], parts, 1, path);
    return invalidArgument(
        "unknown view '{}' (scheduler, metrics, app:, node:, queue:, queueMetrics:, ask:, "
        "opportunities:, appsInQueue:, pending:, headroom:, preemptionSettings:, plan:, "
        "reservation:)",
        parts[0]);
  }
  const std::string view = path.substr(0, colon);
  // Property names contain dots: everything after the colon is the key.
  if (view == "preemptionSettings") {
    return preemptionSettingsStatePath(path.substr(colon + 1), path, ctx);
  }
  auto parts = split(std::string_view(path).substr(colon + 1));
  // A reservation handle names its reservation queue in queue: and appsInQueue:.
  if ((view == "queue" || view == "appsInQueue") && ctx.reservationIds != nullptr) {
    if (auto it = ctx.reservationIds->find(parts[0]); it != ctx.reservationIds->end()) {
      parts[0] = it->second.toString();
    }
  }
  if (view == "plan" || view == "reservation") {
    return reservationStatePath(view, parts, path, ctx);
  }
  if (view == "appsInQueue") {
    auto apps = s.appsInQueue(join(parts, 0, parts.size()));
    return apps ? json(apps->size()) : json(nullptr);
  }
  if (view == "node") {
    size_t k = longestName(
        parts, [&](const std::string& n) { return s.cluster().findNode(n).has_value(); });
    if (k == 0) return notFound("no node named in {}", path);
    NodeId id = *s.cluster().findNode(join(parts, 0, k));
    return walk(nodeView(s, s.cluster().node(id)), parts, k, path);
  }
  if (view == "queue") {
    json sched = schedulerView(s);
    size_t k =
        longestName(parts, [&](const std::string& n) { return findQueue(sched, n) != nullptr; });
    if (k == 0) return notFound("no queue named in {}", path);
    return walk(*findQueue(sched, join(parts, 0, k)), parts, k, path);
  }
  if (view == "starvation") return starvationStatePath(parts, path, ctx);
  if (view == "queueMetrics") return queueMetricsStatePath(parts, path, ctx);
  if (view == "preemption") return preemptionPath(parts, path, ctx);
  if (view == "tags" || view == "satisfies") return placementStatePath(view, parts, path, ctx);
  if (view == "app" || view == "ask" || view == "opportunities" || view == "pending" ||
      view == "headroom") {
    return appScopedPath(view, parts, path, ctx);
  }
  return invalidArgument("unknown view '{}:'", view);
}

}  // namespace spindle
