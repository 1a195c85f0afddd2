#include "scenario/placement_views.h"

#include <regex>

#include "placement/spec_parser.h"
#include "scheduler/scheduler_placement.h"

namespace spindle {

using nlohmann::json;
using placement::PlacementConstraint;

namespace {

constexpr std::string_view kMarker = "__scenario_ns";

// Puts the namespaces set aside by parseScenarioConstraint back on their targets.
std::vector<placement::TargetExpression> restore(std::vector<placement::TargetExpression> targets,
                                                 const std::vector<std::string>& namespaces) {
  for (placement::TargetExpression& t : targets) {
    for (std::string& v : t.values) {
      if (!v.starts_with(kMarker)) continue;
      const size_t end = v.find("__", kMarker.size());
      const size_t k = std::stoul(v.substr(kMarker.size(), end - kMarker.size()));
      t.key = namespaces[k];
      v = v.substr(end + 2);
    }
    std::sort(t.values.begin(), t.values.end());
  }
  return targets;
}

PlacementConstraint restore(const PlacementConstraint& c,
                            const std::vector<std::string>& namespaces) {
  if (const auto* s = c.get<placement::SingleConstraint>()) {
    placement::SingleConstraint copy = *s;
    copy.targets = restore(copy.targets, namespaces);
    return copy;
  }
  if (const auto* t = c.get<placement::TargetConstraint>()) {
    placement::TargetConstraint copy = *t;
    copy.targets = restore(copy.targets, namespaces);
    return copy;
  }
  if (const auto* a = c.get<placement::AndConstraint>()) {
    placement::AndConstraint copy;
    for (const PlacementConstraint& child : a->children) {
      copy.children.push_back(restore(child, namespaces));
    }
    return copy;
  }
  if (const auto* o = c.get<placement::OrConstraint>()) {
    placement::OrConstraint copy;
    for (const PlacementConstraint& child : o->children) {
      copy.children.push_back(restore(child, namespaces));
    }
    return copy;
  }
  return c;
}

Result<AppId> handleOf(const std::string& handle, const std::map<std::string, AppId>& apps) {
  auto it = apps.find(handle);
  if (it == apps.end()) return notFound("unknown app handle '{}'", handle);
  return it->second;
}

std::string joinFrom(const std::vector<std::string>& parts, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out.push_back('.');
    out += parts[i];
  }
  return out;
}

// tags:<node or rack>.<handle or *>.<tag or *>.
Result<json> tagsPath(const std::vector<std::string>& p, const std::string& path,
                      const ExpectContext& ctx) {
  const Scheduler& s = ctx.scheduler;
  // The longest prefix naming a node or a rack, with an app and a tag after it.
  for (size_t k = p.size() >= 2 ? p.size() - 2 : 0; k >= 1; --k) {
    const std::string name = joinFrom(p, 0, k);
    const std::optional<NodeId> node = s.cluster().findNode(name);
    if (!node && !s.cluster().hasRack(name)) continue;
    std::optional<AppId> app;
    if (p[k] != "*") {
      SPINDLE_ASSIGN_OR_RETURN(app, handleOf(p[k], ctx.apps));
    }
    const std::string tag = joinFrom(p, k + 1, p.size());
    const SchedulerPlacement* pl = s.placement();
    if (pl == nullptr) return json(0);
    const placement::AppSet apps = app ? placement::AppSet::one(*app) : placement::AppSet::all();
    std::vector<std::string> tags;
    if (tag != "*") tags.push_back(tag);
    if (node) {
      return json(pl->tags().nodeCardinality(*node, apps, tags, placement::CardinalityOp::kSum));
    }
    const RackId rack = pl->rackId(name);
    if (!rack.valid()) return json(0);
    return json(pl->tags().rackCardinality(rack, apps, tags, placement::CardinalityOp::kSum));
  }
  return invalidArgument("expected tags:<node or rack>.<app or *>.<tag or *>, got {}", path);
}

// satisfies:<handle>.<allocationRequestId>.<node>.
Result<json> satisfiesPath(const std::vector<std::string>& p, const std::string& path,
                           const ExpectContext& ctx) {
  const Scheduler& s = ctx.scheduler;
  if (p.size() < 3) {
    return invalidArgument("expected satisfies:<app>.<allocationRequestId>.<node>, got {}", path);
  }
  SPINDLE_ASSIGN_OR_RETURN(AppId app, handleOf(p[0], ctx.apps));
  int64_t id = 0;
  try {
    id = std::stoll(p[1]);
  } catch (const std::exception&) {
    return invalidArgument("'{}' is not an allocationRequestId in {}", p[1], path);
  }
  const std::string nodeName = joinFrom(p, 2, p.size());
  const std::optional<NodeId> node = s.cluster().findNode(nodeName);
  if (!node) return notFound("unknown node '{}' in {}", nodeName, path);
  const SchedulerPlacement* pl = s.placement();
  const auto* requests = pl ? pl->requestsOf(app) : nullptr;
  if (requests != nullptr) {
    for (const auto& [key, r] : *requests) {
      if (key.allocationRequestId != id) continue;
      return json(placement::canSatisfy(r.levels, app, pl->context(s.cluster().node(*node)),
                                        pl->tags(), pl->attributes()));
    }
  }
  return notFound("{} has no SchedulingRequest with allocationRequestId {} ({})", p[0], id, path);
}

}  // namespace

Result<PlacementConstraint> parseScenarioConstraint(std::string_view text, const Scheduler& s,
                                                    const std::map<std::string, AppId>& apps) {
  static const std::regex kNamespaced(R"((app-id|app-tag)/([^,/:()\s]+)/([^,:()\s]+))");
  std::vector<std::string> namespaces;
  std::string rewritten;
  std::string input(text);
  auto begin = std::sregex_iterator(input.begin(), input.end(), kNamespaced);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    rewritten.append(input, last, static_cast<size_t>(m.position()) - last);
    std::string ns = m[1].str() + "/";
    if (m[1] == "app-id") {
      SPINDLE_ASSIGN_OR_RETURN(AppId app, handleOf(m[2].str(), apps));
      ns += s.appIdString(app);
    } else {
      ns += m[2].str();
    }
    rewritten += fmt::format("{}/{}{}__{}", m[1].str(), kMarker, namespaces.size(), m[3].str());
    namespaces.push_back(std::move(ns));
    last = static_cast<size_t>(m.position() + m.length());
  }
  rewritten.append(input, last, std::string::npos);
  SPINDLE_ASSIGN_OR_RETURN(PlacementConstraint c, placement::parseExpression(rewritten));
  if (namespaces.empty()) return c;
  return restore(c, namespaces);
}

Result<json> placementStatePath(const std::string& view, const std::vector<std::string>& parts,
                                const std::string& path, const ExpectContext& ctx) {
  if (view == "tags") return tagsPath(parts, path, ctx);
  return satisfiesPath(parts, path, ctx);
}

}  // namespace spindle
