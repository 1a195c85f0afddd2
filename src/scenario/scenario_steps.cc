// Parsing of the individual step kinds of docs/scenario-format.md.
#include "base/json_parse.h"
#include "scenario/json_reader.h"
#include "scenario/reservation_steps.h"
#include "scenario/scenario.h"
#include "scenario/scenario_internal.h"

namespace spindle {

using nlohmann::json;

namespace {

Result<Resource> resourceField(const JsonReader& r, std::string_view key,
                               const ResourceTypes& types, std::optional<Resource> def) {
  if (!r.has(key)) {
    if (def) return *def;
    return r.error("missing required field '{}'", key);
  }
  SPINDLE_ASSIGN_OR_RETURN(JsonReader c, r.child(key));
  return parseResource(c.json(), c.path(), types);
}

Result<int32_t> int32Field(const JsonReader& r, std::string_view key, int32_t def) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t v, r.getInt(key, def));
  if (v < INT32_MIN || v > INT32_MAX) return r.error("'{}' is out of range", key);
  return static_cast<int32_t>(v);
}

Result<int32_t> countField(const JsonReader& r, std::string_view key, int32_t def) {
  SPINDLE_ASSIGN_OR_RETURN(int32_t v, int32Field(r, key, def));
  if (v < 0) return r.error("'{}' must not be negative, got {}", key, v);
  return v;
}

Result<StepBody> parseAddNode(const JsonReader& r, const ResourceTypes& types,
                              const std::set<std::string>& labels) {
  AddNodeStep s;
  SPINDLE_RETURN_IF_ERROR(parseNodeEntry(r, types, labels, s.nodes));
  return StepBody(s);
}

Result<StepBody> parseHeartbeat(const JsonReader& r, bool all) {
  HeartbeatStep s;
  s.all = all;
  if (r.json().is_string() && !all) {
    s.node = r.json().get<std::string>();
    return StepBody(s);
  }
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys(all ? std::set<std::string>{"times"}
                                         : std::set<std::string>{"node", "completed", "times"}));
  if (!all) {
    SPINDLE_ASSIGN_OR_RETURN(s.node, r.getString("node"));
  }
  SPINDLE_ASSIGN_OR_RETURN(int64_t times, r.getInt("times", 1));
  if (times < 1 || times > 1000000) return r.error("times must be in 1..1000000");
  s.times = static_cast<int>(times);
  if (r.has("completed")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader list, r.child("completed"));
    SPINDLE_RETURN_IF_ERROR(list.expectArray());
    for (size_t i = 0; i < list.json().size(); ++i) {
      JsonReader c = list.at(i);
      SPINDLE_RETURN_IF_ERROR(c.onlyKeys({"container", "exitStatus"}));
      SPINDLE_ASSIGN_OR_RETURN(std::string id, c.getString("container"));
      SPINDLE_ASSIGN_OR_RETURN(int32_t exit, int32Field(c, "exitStatus", 0));
      s.completed.emplace_back(id, exit);
    }
  }
  return StepBody(s);
}

Result<StepBody> parseSubmit(const JsonReader& r, const ResourceTypes& types) {
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "queue", "user", "priority", "am", "amLabel", "type",
                                      "tags", "placementConstraints", "reservation"}));
  SubmitStep s;
  SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
  SPINDLE_ASSIGN_OR_RETURN(s.queue, r.getString("queue", "default"));
  SPINDLE_ASSIGN_OR_RETURN(s.user, r.getString("user", "user"));
  SPINDLE_ASSIGN_OR_RETURN(s.priority, int32Field(r, "priority", 0));
  SPINDLE_ASSIGN_OR_RETURN(s.amLabel, r.getString("amLabel", ""));
  SPINDLE_ASSIGN_OR_RETURN(s.type, r.getString("type", "YARN"));
  SPINDLE_ASSIGN_OR_RETURN(s.tags, r.getStrings("tags"));
  if (r.has("placementConstraints")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader pc, r.child("placementConstraints"));
    SPINDLE_RETURN_IF_ERROR(pc.expectObject());
    for (const auto& [tag, spec] : pc.json().items()) {
      if (!spec.is_string()) {
        return invalidArgument("{}.{}: expected a PlacementSpec constraint string", pc.path(), tag);
      }
      s.placementConstraints.emplace_back(tag, spec.get<std::string>());
    }
  }
  SPINDLE_ASSIGN_OR_RETURN(s.reservation, r.getString("reservation", ""));
  if (r.has("am") && r.json()["am"].is_null()) {
    s.am = Resource();
  } else {
    SPINDLE_ASSIGN_OR_RETURN(s.am, resourceField(r, "am", types, Resource::of(1024, 1)));
  }
  return StepBody(s);
}

Result<ResourceRequest> parseRawRequest(const JsonReader& r, const ResourceTypes& types) {
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"name", "priority", "allocationRequestId", "resource",
                                      "count", "relaxLocality", "nodeLabel"}));
  ResourceRequest rr;
  SPINDLE_ASSIGN_OR_RETURN(rr.resourceName, r.getString("name"));
  SPINDLE_ASSIGN_OR_RETURN(rr.key.priority, int32Field(r, "priority", 0));
  SPINDLE_ASSIGN_OR_RETURN(rr.key.allocationRequestId, r.getInt("allocationRequestId", 0));
  SPINDLE_ASSIGN_OR_RETURN(rr.capability, resourceField(r, "resource", types, std::nullopt));
  SPINDLE_ASSIGN_OR_RETURN(rr.numContainers, countField(r, "count", 1));
  SPINDLE_ASSIGN_OR_RETURN(rr.relaxLocality, r.getBool("relaxLocality", true));
  SPINDLE_ASSIGN_OR_RETURN(rr.nodeLabelExpression, r.getString("nodeLabel", ""));
  return rr;
}

Result<StepBody> parseAsk(const JsonReader& r, const ResourceTypes& types) {
  AskStep s;
  SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
  if (r.has("requests")) {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "requests"}));
    SPINDLE_ASSIGN_OR_RETURN(JsonReader list, r.child("requests"));
    SPINDLE_RETURN_IF_ERROR(list.expectArray());
    for (size_t i = 0; i < list.json().size(); ++i) {
      SPINDLE_ASSIGN_OR_RETURN(ResourceRequest rr, parseRawRequest(list.at(i), types));
      s.requests.push_back(std::move(rr));
    }
    return StepBody(s);
  }
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "priority", "allocationRequestId", "resource", "count",
                                      "relaxLocality", "nodeLabel", "locality"}));
  ResourceRequest any;
  any.resourceName = std::string(kAnyResourceName);
  SPINDLE_ASSIGN_OR_RETURN(any.key.priority, int32Field(r, "priority", 0));
  SPINDLE_ASSIGN_OR_RETURN(any.key.allocationRequestId, r.getInt("allocationRequestId", 0));
  SPINDLE_ASSIGN_OR_RETURN(any.capability, resourceField(r, "resource", types, std::nullopt));
  SPINDLE_ASSIGN_OR_RETURN(any.numContainers, countField(r, "count", 1));
  SPINDLE_ASSIGN_OR_RETURN(any.relaxLocality, r.getBool("relaxLocality", true));
  SPINDLE_ASSIGN_OR_RETURN(any.nodeLabelExpression, r.getString("nodeLabel", ""));
  if (r.has("locality")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader list, r.child("locality"));
    SPINDLE_RETURN_IF_ERROR(list.expectArray());
    for (size_t i = 0; i < list.json().size(); ++i) {
      JsonReader e = list.at(i);
      SPINDLE_RETURN_IF_ERROR(e.onlyKeys({"name", "count", "relaxLocality"}));
      ResourceRequest rr = any;
      SPINDLE_ASSIGN_OR_RETURN(rr.resourceName, e.getString("name"));
      if (rr.resourceName == kAnyResourceName) return e.error("use the ask's own count for '*'");
      SPINDLE_ASSIGN_OR_RETURN(rr.numContainers, countField(e, "count", any.numContainers));
      SPINDLE_ASSIGN_OR_RETURN(rr.relaxLocality, e.getBool("relaxLocality", true));
      s.requests.push_back(std::move(rr));
    }
  }
  s.requests.push_back(any);
  return StepBody(s);
}

Result<StepBody> parsePlace(const JsonReader& r, const ResourceTypes& types) {
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys(
      {"app", "node", "resource", "priority", "am", "count", "reserved", "nodeLabel", "tags"}));
  PlaceStep s;
  SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
  SPINDLE_ASSIGN_OR_RETURN(s.node, r.getString("node"));
  SPINDLE_ASSIGN_OR_RETURN(s.resource, resourceField(r, "resource", types, std::nullopt));
  SPINDLE_ASSIGN_OR_RETURN(s.priority, int32Field(r, "priority", 0));
  SPINDLE_ASSIGN_OR_RETURN(s.am, r.getBool("am", false));
  SPINDLE_ASSIGN_OR_RETURN(int32_t count, countField(r, "count", 1));
  if (count < 1) return r.error("count must be at least 1");
  s.count = count;
  SPINDLE_ASSIGN_OR_RETURN(s.reserved, r.getBool("reserved", false));
  SPINDLE_ASSIGN_OR_RETURN(s.nodeLabel, r.getString("nodeLabel", ""));
  SPINDLE_ASSIGN_OR_RETURN(s.tags, r.getStrings("tags"));
  if (s.reserved && !s.tags.empty()) return r.error("a reserved container carries no 'tags'");
  if (s.reserved && count != 1) {
    return r.error("a node holds one reserved container: 'count' must be 1 with 'reserved'");
  }
  if (s.reserved && s.am)
    return r.error("a reserved container cannot be the AM ('am' and 'reserved')");
  return StepBody(s);
}

Result<SchedulingRequestSpec> parseOneSchedulingRequest(const JsonReader& r,
                                                        const ResourceTypes& types) {
  SchedulingRequestSpec s;
  SPINDLE_ASSIGN_OR_RETURN(s.allocationRequestId, r.getInt("allocationRequestId", 0));
  SPINDLE_ASSIGN_OR_RETURN(s.priority, int32Field(r, "priority", 0));
  SPINDLE_ASSIGN_OR_RETURN(s.resource, resourceField(r, "resource", types, std::nullopt));
  SPINDLE_ASSIGN_OR_RETURN(s.count, countField(r, "count", 1));
  SPINDLE_ASSIGN_OR_RETURN(s.tags, r.getStrings("tags"));
  if (r.has("constraint")) {
    SPINDLE_ASSIGN_OR_RETURN(std::string c, r.getString("constraint"));
    s.constraint = std::move(c);
  }
  return s;
}

// {"app", <one request's fields>} or {"app", "requests": [{<fields>}, ...]}: one allocate call.
Result<StepBody> parseSchedulingRequest(const JsonReader& r, const ResourceTypes& types) {
  SchedulingRequestStep s;
  SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
  const std::set<std::string> fields = {
      "allocationRequestId", "priority", "resource", "count", "tags", "constraint"};
  if (r.has("requests")) {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "requests"}));
    SPINDLE_ASSIGN_OR_RETURN(JsonReader list, r.child("requests"));
    SPINDLE_RETURN_IF_ERROR(list.expectArray());
    if (list.json().empty()) return list.error("at least one scheduling request");
    for (size_t i = 0; i < list.json().size(); ++i) {
      SPINDLE_RETURN_IF_ERROR(list.at(i).onlyKeys(fields));
      SPINDLE_ASSIGN_OR_RETURN(SchedulingRequestSpec one,
                               parseOneSchedulingRequest(list.at(i), types));
      s.requests.push_back(std::move(one));
    }
    return StepBody(s);
  }
  std::set<std::string> keys = fields;
  keys.insert("app");
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys(keys));
  SPINDLE_ASSIGN_OR_RETURN(SchedulingRequestSpec one, parseOneSchedulingRequest(r, types));
  s.requests.push_back(std::move(one));
  return StepBody(s);
}

Result<StepBody> parseFinishApp(const JsonReader& r) {
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "state"}));
  FinishAppStep s;
  SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
  SPINDLE_ASSIGN_OR_RETURN(std::string st, r.getString("state", "FINISHED"));
  if (st == "FINISHED")
    s.state = AppState::FINISHED;
  else if (st == "FAILED")
    s.state = AppState::FAILED;
  else if (st == "KILLED")
    s.state = AppState::KILLED;
  else
    return r.error("state must be FINISHED, FAILED or KILLED, got '{}'", st);
  return StepBody(s);
}

const std::set<std::string> kExpectKeys = {"allocations",    "allocationCount", "reservations",
                                           "unreservations", "preemption",      "skips",
                                           "kills",          "rejections",      "state"};

// expect.preemption: {"marked": COUNTS, "killed": COUNTS, "exhaustive": bool} where COUNTS maps
// an app handle, or "<app>@<node>" (that app's containers on that node), to a count.
Status parseExpectPreemption(const JsonReader& p) {
  SPINDLE_RETURN_IF_ERROR(p.onlyKeys({"marked", "killed", "exhaustive"}));
  SPINDLE_RETURN_IF_ERROR(p.getBool("exhaustive", true).status());
  for (const char* what : {"marked", "killed"}) {
    if (!p.has(what)) continue;
    SPINDLE_ASSIGN_OR_RETURN(JsonReader counts, p.child(what));
    SPINDLE_RETURN_IF_ERROR(counts.expectObject());
    for (const auto& [key, n] : counts.json().items()) {
      const auto at = key.find('@');
      if (key.empty() || at == 0 || (at != std::string::npos && at + 1 == key.size()) ||
          (at != std::string::npos && key.find('@', at + 1) != std::string::npos)) {
        return invalidArgument("{}: '{}' is not an app handle or '<app>@<node>'", counts.path(),
                               key);
      }
      if (!n.is_number_integer() || n.get<int64_t>() < 0) {
        return invalidArgument("{}.{}: expected a non-negative integer, got {}", counts.path(), key,
                               briefJson(n));
      }
    }
  }
  return Status::ok();
}

// {"contains": "text"} and nothing else, wherever a member of `r` uses the contains matcher.
Status checkContainsMatchers(const JsonReader& r) {
  for (const auto& [key, v] : r.json().items()) {
    if (v.is_object() && v.contains("contains") && (v.size() != 1 || !v["contains"].is_string())) {
      return invalidArgument("{}.{}: a contains matcher is {{\"contains\": \"text\"}}, got {}",
                             r.path(), key, v.dump());
    }
  }
  return Status::ok();
}

// A compared value: {"value": V, "tolerance": T} needs a numeric V and a non-negative number T;
// objects and arrays are checked member by member (nesting is bounded by the parser).
Status checkCompared(const JsonReader& v) {
  const nlohmann::json& j = v.json();
  if (j.is_object() && j.contains("value") && j.contains("tolerance")) {
    SPINDLE_ASSIGN_OR_RETURN(double tol, v.getDouble("tolerance", 0));
    if (!(tol >= 0)) return v.error("tolerance must not be negative, got {}", tol);
  }
  if (j.is_object()) {
    for (const auto& [k, member] : j.items()) {
      SPINDLE_RETURN_IF_ERROR(checkCompared(JsonReader(member, v.pathOf(k))));
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) SPINDLE_RETURN_IF_ERROR(checkCompared(v.at(i)));
  }
  return Status::ok();
}

// Most copies one matcher may stand for (`count`): far beyond any scenario, small enough that
// expanding the list cannot exhaust memory.
constexpr int64_t kMaxMatcherCount = 1'000'000;

// One matcher of an expect list: `count` a bounded non-negative integer, `container` a handle.
Status checkMatcher(const JsonReader& m) {
  SPINDLE_RETURN_IF_ERROR(m.expectObject());
  SPINDLE_ASSIGN_OR_RETURN(int64_t count, m.getInt("count", 1));
  if (count < 0 || count > kMaxMatcherCount) {
    return invalidArgument("{}: must be between 0 and {}, got {}", m.pathOf("count"),
                           kMaxMatcherCount, count);
  }
  if (m.has("container")) SPINDLE_RETURN_IF_ERROR(m.getString("container").status());
  return checkCompared(m);
}

Result<StepBody> parseExpect(const JsonReader& r) {
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys(kExpectKeys));
  for (const char* list :
       {"allocations", "reservations", "unreservations", "skips", "kills", "rejections"}) {
    if (!r.has(list)) continue;
    SPINDLE_ASSIGN_OR_RETURN(JsonReader l, r.child(list));
    SPINDLE_RETURN_IF_ERROR(l.expectArray());
    for (size_t i = 0; i < l.json().size(); ++i) {
      SPINDLE_RETURN_IF_ERROR(checkMatcher(l.at(i)));
      SPINDLE_RETURN_IF_ERROR(checkContainsMatchers(l.at(i)));
    }
  }
  if (r.has("allocationCount")) {
    SPINDLE_ASSIGN_OR_RETURN(int64_t n, r.getInt("allocationCount"));
    if (n < 0) return invalidArgument("{}: must not be negative", r.pathOf("allocationCount"));
  }
  if (r.has("state")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader st, r.child("state"));
    SPINDLE_RETURN_IF_ERROR(st.expectObject());
    SPINDLE_RETURN_IF_ERROR(checkContainsMatchers(st));
    SPINDLE_RETURN_IF_ERROR(checkCompared(st));
  }
  if (r.has("preemption")) {
    SPINDLE_ASSIGN_OR_RETURN(JsonReader p, r.child("preemption"));
    SPINDLE_RETURN_IF_ERROR(parseExpectPreemption(p));
  }
  return StepBody(ExpectStep{r.json()});
}

// {"configuration": {...}}: the same members as the top-level configuration.
Result<StepBody> parseRefreshConfig(const JsonReader& r) {
  SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"configuration"}));
  SPINDLE_ASSIGN_OR_RETURN(JsonReader conf, r.child("configuration"));
  RefreshConfigStep s;
  SPINDLE_RETURN_IF_ERROR(parseConfigurationObject(conf, s.properties, s.configError, &s.removed));
  return StepBody(std::move(s));
}

// Step names of version 1 whose features land with later scheduler work.
const std::map<std::string, std::string> kFeatureSteps = {
    {"setQueueState", "queue states"},
};

Result<StepBody> parseBody(const std::string& op, const JsonReader& r, const ResourceTypes& types,
                           const std::set<std::string>& labels) {
  if (op == "addNode") return parseAddNode(r, types, labels);
  if (op == "refreshConfig") return parseRefreshConfig(r);
  if (op == "removeNode") {
    if (!r.json().is_string()) return r.error("expected a node name");
    return StepBody(RemoveNodeStep{r.json().get<std::string>()});
  }
  if (op == "updateNode") {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"name", "resource"}));
    UpdateNodeStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.name, r.getString("name"));
    SPINDLE_ASSIGN_OR_RETURN(s.resource, resourceField(r, "resource", types, std::nullopt));
    return StepBody(s);
  }
  if (op == "heartbeat") return parseHeartbeat(r, false);
  if (op == "heartbeatAll") return parseHeartbeat(r, true);
  if (op == "submit") return parseSubmit(r, types);
  if (op == "ask") return parseAsk(r, types);
  if (op == "release") {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "containers"}));
    ReleaseStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
    SPINDLE_ASSIGN_OR_RETURN(s.containers, r.getStrings("containers"));
    return StepBody(s);
  }
  if (op == "blacklist") {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "add", "remove"}));
    BlacklistStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
    SPINDLE_ASSIGN_OR_RETURN(s.add, r.getStrings("add"));
    SPINDLE_ASSIGN_OR_RETURN(s.remove, r.getStrings("remove"));
    return StepBody(s);
  }
  if (op == "place") return parsePlace(r, types);
  if (op == "schedulingRequest") return parseSchedulingRequest(r, types);
  if (op == "complete") {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"container", "exitStatus"}));
    CompleteStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.container, r.getString("container"));
    SPINDLE_ASSIGN_OR_RETURN(s.exitStatus, int32Field(r, "exitStatus", 0));
    return StepBody(s);
  }
  if (op == "finishApp") return parseFinishApp(r);
  if (op == "moveApp") {
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"app", "queue"}));
    MoveAppStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.app, r.getString("app"));
    SPINDLE_ASSIGN_OR_RETURN(s.queue, r.getString("queue"));
    return StepBody(s);
  }
  if (op == "advance") {
    if (!r.json().is_object()) {
      SPINDLE_ASSIGN_OR_RETURN(int64_t ms, parseDurationMs(r.json(), r.path()));
      return StepBody(AdvanceStep{ms});
    }
    // {"by": DURATION, "monitorTicks": true}
    SPINDLE_RETURN_IF_ERROR(r.onlyKeys({"by", "monitorTicks"}));
    if (!r.has("by")) return r.error("missing required field 'by'");
    SPINDLE_ASSIGN_OR_RETURN(JsonReader by, r.child("by"));
    AdvanceStep s;
    SPINDLE_ASSIGN_OR_RETURN(s.ms, parseDurationMs(by.json(), by.path()));
    SPINDLE_ASSIGN_OR_RETURN(s.monitorTicks, r.getBool("monitorTicks", false));
    return StepBody(s);
  }
  if (op == "monitor") return StepBody(MonitorStep{});
  if (op == "snapshot") {
    if (!r.json().is_string() || r.json().get<std::string>().empty() ||
        r.json().get<std::string>().find('/') != std::string::npos) {
      return r.error("expected a snapshot name without '/'");
    }
    return StepBody(SnapshotStep{r.json().get<std::string>()});
  }
  if (op == "expect") return parseExpect(r);
  if (op == "submitReservation" || op == "updateReservation" || op == "deleteReservation") {
    return parseReservationStep(op, r);
  }
  auto f = kFeatureSteps.find(op);
  if (f != kFeatureSteps.end()) {
    SPINDLE_RETURN_IF_ERROR(r.expectObject());
    return StepBody(FeatureStep{f->second});
  }
  return r.error("unknown step '{}'", op);
}

}  // namespace

Result<Step> parseStep(const JsonReader& r, int index, const ResourceTypes& types,
                       const std::set<std::string>& labels) {
  SPINDLE_RETURN_IF_ERROR(r.expectObject());
  Step step;
  step.index = index;
  for (const auto& [k, v] : r.json().items()) {
    if (k == "comment") continue;
    if (k == "at") {
      SPINDLE_ASSIGN_OR_RETURN(int64_t at, parseDurationMs(v, r.pathOf("at")));
      step.at = at;
      continue;
    }
    if (k == "expectError") {
      SPINDLE_ASSIGN_OR_RETURN(step.expectError, r.getString("expectError"));
      continue;
    }
    if (!step.op.empty()) {
      return r.error("a step has exactly one operation, found '{}' and '{}'", step.op, k);
    }
    step.op = k;
  }
  if (step.op.empty()) return r.error("a step needs an operation");
  SPINDLE_ASSIGN_OR_RETURN(JsonReader body, r.child(step.op));
  SPINDLE_ASSIGN_OR_RETURN(step.body, parseBody(step.op, body, types, labels));
  if (step.expectError && std::holds_alternative<ExpectStep>(step.body)) {
    return r.error("an expect step cannot have expectError");
  }
  return step;
}

}  // namespace spindle
