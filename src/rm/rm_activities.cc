// The activities endpoints (YARN's ActivitiesManager and RMWebServices.getActivities /
// getAppActivities): "why is my app pending" from the core's decision records.
#include "rm/rm_activities.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <set>

#include <fmt/format.h>

#include "base/strings.h"
#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using nlohmann::json;

namespace {

// Every field an entry keeps, over whatever the slot held.
void fill(ActivityEntry& e, const DecisionRecord& d) {
  e.kind = d.kind;
  e.time = d.time;
  e.app = d.app;
  e.container = d.container;
  e.node = d.node;
  e.queue.assign(d.queue);
  e.key = d.key;
  e.resource = d.resource;
  e.am = d.am;
  e.skip = d.skip;
  e.rejection = d.rejection;
  // An allocation's diagnostic is built from its fields; the others keep the core's reason.
  if (d.kind == DecisionKind::kAllocate) {
    e.reason.clear();
  } else {
    d.reason.textInto(e.reason);
  }
}

}  // namespace

void ActivitiesRecorder::record(const DecisionRecord& d) {
  switch (d.kind) {
    case DecisionKind::kAppFinished:
    case DecisionKind::kAppRejected: byApp_.erase(d.app); return;
    case DecisionKind::kAllocate:
    case DecisionKind::kReserve:
    case DecisionKind::kSkip:
    case DecisionKind::kRequestRejected: break;
    default: return;
  }
  Ring<ActivityEntry>& mine = byApp_.try_emplace(d.app, kPerApp).first->second;
  fill(mine.push(), d);
  if (d.node.valid()) fill(recent_.push(), d);
}

const Ring<ActivityEntry>& ActivitiesRecorder::forApp(AppId app) const {
  static const Ring<ActivityEntry> kNone(1);
  auto it = byApp_.find(app);
  return it == byApp_.end() ? kNone : it->second;
}

namespace {

// YARN's AllocationState / ActivityState names.
const char* stateOf(const ActivityEntry& e) {
  switch (e.kind) {
    case DecisionKind::kAllocate: return "ALLOCATED";
    case DecisionKind::kReserve: return "RESERVED";
    case DecisionKind::kRequestRejected: return "REJECTED";
    default: return "SKIPPED";
  }
}

// ActivitiesUtils' dateTime: the record time as yyyy-MM-dd HH:mm:ss.SSS (UTC here).
std::string dateTime(TimeMs ms) {
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
  return fmt::format("{}.{:03d}", buf, ms % 1000);
}

Result<int64_t> positive(const std::map<std::string, std::string>& q, const char* key) {
  auto it = q.find(key);
  if (it == q.end()) return int64_t{0};
  int64_t v = 0;
  const std::string& s = it->second;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v <= 0) {
    return invalidArgument("{} must be a positive integer, got '{}'", key, s);
  }
  return v;
}

}  // namespace

// The diagnostic of one entry: the skip code and the core's reason, or what was allocated.
static std::string diagnosticOf(const ActivityEntry& e, const Scheduler& s) {
  switch (e.kind) {
    case DecisionKind::kAllocate:
      return fmt::format("allocated {}{} {} at priority {} on {}", e.am ? "AM container " : "",
                         s.containerIdString(e.container), e.resource.toString(), e.key.priority,
                         s.cluster().nodeName(e.node));
    case DecisionKind::kSkip: return fmt::format("{}: {}", toString(e.skip), e.reason);
    case DecisionKind::kRequestRejected:
      return fmt::format("{}: {}", toString(e.rejection), e.reason);
    default: return e.reason;
  }
}

// GET scheduler/activities[?nodeId=]: the most recent scheduling cycle with decisions on the
// node (or on any node), one NodeAllocationInfo per decision with its root > queue > app >
// request tree, as ActivitiesInfo shows a recorded node heartbeat.
Result<json> RmCore::activities(const std::map<std::string, std::string>& q) {
  std::optional<NodeId> only;
  if (auto it = q.find("nodeId"); it != q.end() && !it->second.empty()) {
    auto n = nodes_.find(it->second);
    if (n == nodes_.end()) return invalidArgument("Cannot find node or host: {}", it->second);
    only = n->second->sched;
  }
  const Scheduler& s = sched();
  const Ring<ActivityEntry>& recent = activities_->recent();
  const ActivityEntry* last = nullptr;
  for (auto it = recent.rbegin(); it != recent.rend() && last == nullptr; ++it) {
    if (!only || it->node == *only) last = &*it;
  }
  const TimeMs now = clock_.nowMs();
  if (last == nullptr) {
    return json{{"activities",
                 {{"nodeId", only ? s.cluster().nodeName(*only) : ""},
                  {"timestamp", now},
                  {"dateTime", dateTime(now)},
                  {"diagnostic", "waiting for the next allocation: no decisions recorded yet"},
                  {"allocations", json::array()}}}};
  }
  const NodeId node = last->node;
  const TimeMs at = last->time;
  json allocations = json::array();
  for (const ActivityEntry& e : recent) {
    if (e.node != node || e.time != at) continue;
    const std::string diag = diagnosticOf(e, s);
    const char* state = stateOf(e);
    json request = {{"name", "request_" + std::to_string(e.key.priority) + "_" +
                                 std::to_string(e.key.allocationRequestId)},
                    {"allocationState", state},
                    {"diagnostic", diag},
                    {"nodeId", s.cluster().nodeName(e.node)},
                    {"requestPriority", e.key.priority},
                    {"allocationRequestId", e.key.allocationRequestId}};
    json app = {{"name", s.appIdString(e.app)},
                {"allocationState", state},
                {"appPriority", s.findApp(e.app) ? s.findApp(e.app)->priority() : 0},
                {"children", json::array({request})}};
    json queue = {{"name", e.queue}, {"allocationState", state}, {"children", json::array({app})}};
    allocations.push_back(
        {{"partition",
          s.cluster().contains(node) ? s.cluster().node(node).partition() : std::string()},
         {"updatedContainerId",
          e.kind == DecisionKind::kAllocate ? s.containerIdString(e.container) : ""},
         {"finalAllocationState", state},
         {"root",
          {{"name", "root"}, {"allocationState", state}, {"children", json::array({queue})}}}});
  }
  return json{{"activities",
               {{"nodeId", s.cluster().nodeName(node)},
                {"timestamp", at},
                {"dateTime", dateTime(at)},
                {"allocations", allocations}}}};
}

// GET scheduler/app-activities/{appId}: the app's latest decisions (newest first), each an
// AppAllocationInfo with its request and node; `diagnostic` says why the app waits when it
// does. Filters: requestPriorities (comma list), allocationRequestIds, limit.
Result<json> RmCore::appActivities(std::string_view appId,
                                   const std::map<std::string, std::string>& q) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * rm, appFor(appId));
  SPINDLE_ASSIGN_OR_RETURN(int64_t limit, positive(q, "limit"));
  std::set<int64_t> priorities, requestIds;
  for (const char* key : {"requestPriorities", "allocationRequestIds"}) {
    auto it = q.find(key);
    if (it == q.end()) continue;
    for (const std::string& v : splitTrimmed(it->second, ",", " ")) {
      int64_t n = 0;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size()) {
        return invalidArgument("{}: '{}' is not an integer", key, v);
      }
      (std::string_view(key) == "requestPriorities" ? priorities : requestIds).insert(n);
    }
  }
  driver_->settle();
  const Scheduler& s = sched();
  const Application& a = *s.findApp(rm->id);
  json allocations = json::array();
  const Ring<ActivityEntry>& entries = activities_->forApp(rm->id);
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    const ActivityEntry& e = *it;
    if (!priorities.empty() && !priorities.contains(e.key.priority)) continue;
    if (!requestIds.empty() && !requestIds.contains(e.key.allocationRequestId)) continue;
    const std::string diag = diagnosticOf(e, s);
    const char* state = stateOf(e);
    const std::string node = e.node.valid() ? s.cluster().nodeName(e.node) : "";
    json leaf = {{"name", "Container"},
                 {"allocationState", state},
                 {"diagnostic", diag},
                 {"nodeId", node},
                 {"requestPriority", e.key.priority},
                 {"allocationRequestId", e.key.allocationRequestId}};
    json request = {{"requestPriority", e.key.priority},
                    {"allocationRequestId", e.key.allocationRequestId},
                    {"allocationState", state},
                    {"diagnostic", diag},
                    {"children", json::array({leaf})}};
    allocations.push_back({{"nodeId", node},
                           {"timestamp", e.time},
                           {"dateTime", dateTime(e.time)},
                           {"queueName", e.queue},
                           {"appPriority", a.priority()},
                           {"allocationState", state},
                           {"diagnostic", diag},
                           {"children", json::array({request})}});
    if (limit > 0 && static_cast<int64_t>(allocations.size()) >= limit) break;
  }
  // Why the app waits now: the scheduler's AM diagnostics, else the last skip.
  std::string why;
  if (!isFinal(a.state())) {
    why = s.amDiagnostics(a);
    if (why.empty() && a.asks().hasPending()) {
      if (const Decision* skip = s.lastSkip(rm->id)) {
        why = fmt::format("{}: {}", toString(skip->skip), skip->reason);
      }
    }
  }
  const TimeMs now = clock_.nowMs();
  return json{{"appActivities",
               {{"applicationId", std::string(appId)},
                {"timestamp", now},
                {"dateTime", dateTime(now)},
                {"diagnostic", why},
                {"allocations", allocations}}}};
}

}  // namespace spindle::rm
