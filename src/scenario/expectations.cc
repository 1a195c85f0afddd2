#include "scenario/expectations.h"

#include <charconv>
#include <cmath>
#include <regex>

#include "dao/decision_json.h"
#include "dao/rest_views.h"

namespace spindle {

using nlohmann::json;

Result<ContainerId> resolveContainerHandle(const std::string& handle, const Scheduler& s,
                                           const std::map<std::string, AppId>& apps) {
  if (handle.starts_with("container_")) return s.parseContainerId(handle);
  auto colon = handle.rfind(':');
  if (colon == std::string::npos) {
    return invalidArgument("'{}' is not a container handle like 'app1:2'", handle);
  }
  auto it = apps.find(handle.substr(0, colon));
  if (it == apps.end()) return notFound("container '{}': unknown app handle", handle);
  uint64_t seq = 0;
  std::string_view num(handle.data() + colon + 1, handle.size() - colon - 1);
  auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), seq);
  if (ec != std::errc() || p != num.data() + num.size()) {
    return invalidArgument("container '{}': '{}' is not a sequence number", handle, num);
  }
  const Application* a = s.findApp(it->second);
  return ContainerId{a->attemptId(), seq};
}

namespace {

// {"contains": "text"}: a string matcher that holds when the actual value is a string holding
// the text.
bool isContainsMatcher(const json& expected) {
  return expected.is_object() && expected.size() == 1 && expected.contains("contains");
}

bool valuesEqual(const json& expected, const json& actual) {
  if (isContainsMatcher(expected)) {
    const json& text = expected["contains"];
    return text.is_string() && actual.is_string() &&
           actual.get_ref<const std::string&>().find(text.get_ref<const std::string&>()) !=
               std::string::npos;
  }
  if (expected.is_object() && expected.contains("value")) {
    const double tol = expected.value("tolerance", 1e-6);
    if (!actual.is_number() || !expected["value"].is_number()) return false;
    return std::fabs(expected["value"].get<double>() - actual.get<double>()) <= tol;
  }
  if (expected.is_number() && actual.is_number()) {
    return std::fabs(expected.get<double>() - actual.get<double>()) <= 1e-6;
  }
  return expected == actual;
}

// The `$variables` of one expect (docs/scenario-format.md): each binds to the first value it is
// compared with; two variables never bind equal values.
using Bindings = std::map<std::string, json>;

bool isVariable(const json& v) {
  return v.is_string() && v.get<std::string>().size() > 1 && v.get<std::string>()[0] == '$';
}

bool bindVariable(Bindings& b, const std::string& var, const json& actual) {
  if (auto it = b.find(var); it != b.end()) return valuesEqual(it->second, actual);
  for (const auto& [other, value] : b) {
    if (valuesEqual(value, actual)) return false;
  }
  b.emplace(var, actual);
  return true;
}

bool matchesOnce(const json& matcher, const json& d, const ExpectContext& ctx, Bindings& vars) {
  for (const auto& [k, v] : matcher.items()) {
    if (k == "count") continue;
    if (isVariable(v)) {
      const char* field = k == "app" ? "appName" : k.c_str();
      if (!d.contains(field) || !bindVariable(vars, v.get<std::string>(), d[field])) return false;
      continue;
    }
    if (k == "reason" && (d.contains("rejection") || d.contains("skip"))) {
      // The code (COULD_NOT_PLACE_ON_NODE, USER_LIMIT); a contains matcher also reads the
      // reason's text.
      const json& code = d.contains("rejection") ? d["rejection"] : d["skip"];
      const bool text = isContainsMatcher(v) && d.contains("reason") && valuesEqual(v, d["reason"]);
      if (!valuesEqual(v, code) && !text) return false;
    } else if (k == "app") {
      if (!valuesEqual(v, json(d.value("appName", ""))) &&
          !valuesEqual(v, json(d.value("app", ""))))
        return false;
    } else if (k == "resource") {
      if (!v.is_object() || !d.contains("resource")) return false;
      for (const auto& [t, amount] : v.items()) {
        std::string type = t == "memory" ? "memory-mb" : t;
        if (!d["resource"].contains(type) || !valuesEqual(amount, d["resource"][type]))
          return false;
      }
    } else if (k == "container") {
      auto id = resolveContainerHandle(v.get<std::string>(), ctx.scheduler, ctx.apps);
      if (!id || d.value("container", "") != ctx.scheduler.containerIdString(*id)) return false;
    } else {
      if (!d.contains(k) || !valuesEqual(v, d[k])) return false;
    }
  }
  return true;
}

// A match binds its variables only when every field matched.
bool matches(const json& matcher, const json& d, const ExpectContext& ctx, Bindings& vars) {
  Bindings trial = vars;
  if (!matchesOnce(matcher, d, ctx, trial)) return false;
  vars = std::move(trial);
  return true;
}

// `$name` in a state path stands for the value bound to it.
std::string substitute(const std::string& path, const Bindings& vars) {
  static const std::regex kVar(R"(\$[A-Za-z0-9_]+)");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(path.begin(), path.end(), kVar); it != std::sregex_iterator();
       ++it) {
    out.append(path, last, static_cast<size_t>(it->position()) - last);
    auto b = vars.find(it->str());
    out += b == vars.end()         ? it->str()
           : b->second.is_string() ? b->second.get<std::string>()
                                   : b->second.dump();
    last = static_cast<size_t>(it->position() + it->length());
  }
  out.append(path, last, std::string::npos);
  return out;
}

std::vector<json> decisionsOf(const ExpectContext& ctx, DecisionKind kind) {
  std::vector<json> out;
  for (size_t i = 0; i < ctx.since.size(); ++i) {
    const Decision& d = ctx.since[i];
    if (d.kind != kind) continue;
    out.push_back(decisionToJson(ctx.scheduler, d, i));
  }
  return out;
}

std::string brief(const json& d) {
  json b = json::object();
  for (const char* k : {"appName", "node", "locality", "priority", "allocationRequestId", "am",
                        "resource", "skip", "rejection", "exitStatus", "container"}) {
    if (d.contains(k)) b[k] = d[k];
  }
  return b.dump();
}

void checkExactList(const std::string& name, const json& matchers, std::vector<json> got,
                    const ExpectContext& ctx, Bindings& vars, std::vector<std::string>& failures) {
  std::vector<json> expanded;
  for (const json& m : matchers) {
    const int n = m.value("count", 1);
    for (int i = 0; i < n; ++i) expanded.push_back(m);
  }
  Bindings trial = vars;
  bool ok = expanded.size() == got.size();
  for (size_t i = 0; ok && i < got.size(); ++i) ok = matches(expanded[i], got[i], ctx, trial);
  if (ok) {
    vars = std::move(trial);
    return;
  }
  trial = vars;
  std::string msg = fmt::format("{}: expected {}, got {}", name, expanded.size(), got.size());
  for (size_t i = 0; i < std::max(expanded.size(), got.size()); ++i) {
    const bool same =
        i < expanded.size() && i < got.size() && matches(expanded[i], got[i], ctx, trial);
    msg += fmt::format("\n    {} [{}] expected {}\n          got      {}", same ? " " : "!", i,
                       i < expanded.size() ? expanded[i].dump() : "(nothing)",
                       i < got.size() ? brief(got[i]) : "(nothing)");
  }
  failures.push_back(msg);
}

// expect.preemption (docs/scenario-format.md): containers marked for preemption (preempt-mark
// decisions) and killed for it (kill decisions with exit status PREEMPTED) since the previous
// expect, counted per app handle and per "<app>@<node>". Exhaustive (the default): apps not
// named must have 0; `"exhaustive": false` checks only the keys named.
void checkPreemption(const json& body, const ExpectContext& ctx,
                     std::vector<std::string>& failures) {
  using Counts = std::map<std::string, int64_t>;
  auto count = [](Counts& c, const json& d) {
    const std::string app = d.value("appName", "");
    ++c[app];
    if (d.contains("node")) ++c[app + "@" + d["node"].get<std::string>()];
  };
  Counts marked, killed;
  for (const json& d : decisionsOf(ctx, DecisionKind::kPreemptMark)) count(marked, d);
  for (const json& d : decisionsOf(ctx, DecisionKind::kKill)) {
    if (d["exitStatus"] == ContainerExitStatus::PREEMPTED) count(killed, d);
  }
  const bool exhaustive = body.value("exhaustive", true);
  for (auto [what, actual] : {std::pair{"marked", &marked}, std::pair{"killed", &killed}}) {
    if (!body.contains(what)) continue;
    Counts expected;
    for (const auto& [key, n] : body[what].items()) {
      const auto at = key.find('@');
      if (!ctx.apps.contains(key.substr(0, at))) {
        failures.push_back(fmt::format("preemption.{}.{}: unknown app handle", what, key));
        continue;
      }
      if (at != std::string::npos && !ctx.scheduler.cluster().findNode(key.substr(at + 1))) {
        failures.push_back(fmt::format("preemption.{}.{}: unknown node", what, key));
        continue;
      }
      expected[key] = n.get<int64_t>();
    }
    if (exhaustive) {
      for (const auto& [key, n] : *actual) {
        if (key.find('@') == std::string::npos) expected.try_emplace(key, 0);
      }
    }
    for (const auto& [key, n] : expected) {
      auto it = actual->find(key);
      const int64_t got = it == actual->end() ? 0 : it->second;
      if (got != n) {
        failures.push_back(fmt::format("preemption.{}.{}: expected {}, got {}", what, key, n, got));
      }
    }
  }
}

}  // namespace

std::vector<std::string> evaluateExpect(const json& body, const ExpectContext& ctx) {
  std::vector<std::string> failures;
  Bindings vars;
  const std::pair<const char*, DecisionKind> lists[] = {
      {"allocations", DecisionKind::kAllocate},
      {"reservations", DecisionKind::kReserve},
      {"unreservations", DecisionKind::kUnreserve},
      {"kills", DecisionKind::kKill},
      {"rejections", DecisionKind::kRequestRejected}};
  for (const auto& [name, kind] : lists) {
    if (body.contains(name))
      checkExactList(name, body[name], decisionsOf(ctx, kind), ctx, vars, failures);
  }
  if (body.contains("allocationCount")) {
    const size_t got = decisionsOf(ctx, DecisionKind::kAllocate).size();
    if (got != body["allocationCount"].get<size_t>()) {
      failures.push_back(
          fmt::format("allocationCount: expected {}, got {}", body["allocationCount"].dump(), got));
    }
  }
  if (body.contains("skips")) {
    auto skips = decisionsOf(ctx, DecisionKind::kSkip);
    for (const json& m : body["skips"]) {
      bool found = false;
      for (const json& d : skips) found = found || matches(m, d, ctx, vars);
      if (!found) {
        std::string seen;
        for (const json& d : skips) seen += "\n          " + brief(d);
        failures.push_back(fmt::format("skips: no skip matches {}; recorded:{}", m.dump(),
                                       seen.empty() ? " (none)" : seen));
      }
    }
  }
  if (body.contains("preemption")) checkPreemption(body["preemption"], ctx, failures);
  if (body.contains("state")) {
    for (const auto& [written, expected] : body["state"].items()) {
      const std::string path = substitute(written, vars);
      auto actual = resolveStatePath(path, ctx);
      if (!actual) {
        failures.push_back(fmt::format("state {}: {}", path, actual.status().message()));
      } else if (!valuesEqual(expected, *actual)) {
        failures.push_back(
            fmt::format("state {}: expected {}, got {}", path, expected.dump(), actual->dump()));
      }
    }
  }
  return failures;
}

}  // namespace spindle
