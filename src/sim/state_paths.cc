// State paths of `expect.state` (docs/scenario-format.md): VIEW.FIELD[.FIELD...], where named
// views (`app:<handle>`, `node:<name>`, `queue:<name>`) take the longest name that exists,
// since node names (127.0.0.1) and queue paths (root.a) contain dots themselves.
#include <charconv>
#include <functional>

#include "dao/decision_json.h"
#include "dao/rest_views.h"
#include "sim/expectations.h"

namespace spindle {

using nlohmann::json;

namespace {

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    parts.emplace_back(s.substr(start, dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
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
    if (cur->is_array()) {
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

Result<json> appScopedPath(const std::string& view, const std::vector<std::string>& p,
                           const std::string& path, const ExpectContext& ctx) {
  if (view == "ask") return askPath(p, path, ctx);
  SPINDLE_ASSIGN_OR_RETURN(AppId id, appByHandle(p[0], ctx));
  const Application* a = ctx.scheduler.findApp(id);
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
    return invalidArgument("unknown view '{}' (scheduler, metrics, app:, node:, queue:, ask:, "
                           "opportunities:, appsInQueue:, pending:)", parts[0]);
  }
  const std::string view = path.substr(0, colon);
  auto parts = split(std::string_view(path).substr(colon + 1));
  if (view == "appsInQueue") {
    auto apps = s.appsInQueue(join(parts, 0, parts.size()));
    return apps ? json(apps->size()) : json(nullptr);
  }
  if (view == "node") {
    size_t k = longestName(parts, [&](const std::string& n) {
      return s.cluster().findNode(n).has_value();
    });
    if (k == 0) return notFound("no node named in {}", path);
    NodeId id = *s.cluster().findNode(join(parts, 0, k));
    return walk(nodeView(s, s.cluster().node(id)), parts, k, path);
  }
  if (view == "queue") {
    json sched = schedulerView(s);
    size_t k = longestName(parts, [&](const std::string& n) {
      return findQueue(sched, n) != nullptr;
    });
    if (k == 0) return notFound("no queue named in {}", path);
    return walk(*findQueue(sched, join(parts, 0, k)), parts, k, path);
  }
  if (view == "app" || view == "ask" || view == "opportunities" || view == "pending") {
    return appScopedPath(view, parts, path, ctx);
  }
  return invalidArgument("unknown view '{}:'", view);
}

}  // namespace spindle
