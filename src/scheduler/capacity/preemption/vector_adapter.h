// Test-only adapters that turn the recorded Hadoop test inputs (testdata/vectors.json) into
// PreemptionSnapshots, the way the Hadoop test harnesses build their mocks:
//
//   TableVector  -- TestProportionalCapacityPreemptionPolicy's int[][] tables
//   DslVector    -- ProportionalCapacityPreemptionPolicyMockFramework's strings
//
//   SPINDLE_ASSIGN_OR_RETURN(BuiltVector v, buildTableVector(json));
//   planPreemptionRound(v.snapshot, *v.calculator, v.settings);  // then compare with "expected"
//
// Header-only so that the test glob of this folder does not compile it into the library.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "base/strings.h"
#include "resource/resource_calculator.h"
#include "scheduler/capacity/preemption/preemption_settings.h"
#include "scheduler/capacity/preemption/preemption_snapshot.h"

namespace spindle::preemption::testing {

struct BuiltVector {
  PreemptionSnapshot snapshot;
  // The vector's "calculator" ("default" / "dominant") over snapshot.resourceTypeCount types.
  std::unique_ptr<ResourceCalculator> calculator;
  PreemptionSettings settings;
  std::map<std::string, AttemptId> appByName;  // "appA" / "app1" -> attempt
  std::map<std::string, NodeId> nodeByName;
  std::map<std::string, QueueId> queueByName;  // short name and full path
};

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(ch);
    }
  }
  out.push_back(cur);
  return out;
}

inline std::string trim(const std::string& s) { return std::string(trimView(s, " \t")); }

// "m", "m:v" or "m:v:r1". A single number stands for both memory and vcores, as the int[][]
// harness builds Resource.newInstance(v, v); the DSL harness does the same for bare numbers.
inline Result<Resource> parseResource(const std::string& text) {
  Resource r;
  std::vector<std::string> parts = split(trim(text), ':');
  if (parts.empty() || parts.size() > 3) return invalidArgument("bad resource '{}'", text);
  std::vector<int64_t> v;
  for (const std::string& p : parts) {
    try {
      size_t used = 0;
      int64_t x = std::stoll(p, &used);
      if (used != p.size()) return invalidArgument("bad resource '{}'", text);
      v.push_back(x);
    } catch (...) {
      return invalidArgument("bad resource '{}'", text);
    }
  }
  if (v.size() == 1) return Resource::of(v[0], v[0]);
  r = Resource::of(v[0], v[1]);
  if (v.size() == 3) r.set(2, v[2]);
  return r;
}

inline int64_t ceilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

// The resource library's calculator named by the vector, counting `typeCount` types (memory,
// vcores and placeholder extras, as the Hadoop harnesses register them).
inline Result<std::unique_ptr<ResourceCalculator>> vectorCalculator(const nlohmann::json& vec,
                                                                    int typeCount) {
  std::vector<ResourceTypeInfo> extras;
  for (int i = 2; i < typeCount; ++i) extras.push_back({fmt::format("res-{}", i), ""});
  SPINDLE_ASSIGN_OR_RETURN(ResourceTypes types, ResourceTypes::withExtras(extras));
  if (vec["calculator"] == "dominant") return makeDominantResourceCalculator(types);
  return makeDefaultResourceCalculator(types);
}

// Knobs shared by both harnesses (table_file_defaults / mock_framework_defaults + overrides).
inline Status applyConfig(const nlohmann::json& c, BuiltVector& v) {
  PreemptionSettings& s = v.settings;
  s.totalPreemptionPerRound = c.value("total_preemption_per_round", 1.0);
  s.naturalTerminationFactor = c.value("natural_termination_factor", 1.0);
  s.maxWaitBeforeKillMs = c.value("max_wait_before_kill_ms", 10000);
  s.monitoringIntervalMs = c.value("monitoring_interval_ms", 3000);
  s.maxIgnoredOverCapacity = c.value("max_ignored_over_capacity", 0.1);
  s.observeOnly = c.value("observe_only", false);
  s.selectBasedOnReservedContainers = c.value("select_based_on_reserved_containers", false);
  s.preemptToBalanceEnabled = c.value("preemption_to_balance_queues_beyond_guaranteed", false);
  s.preemptToBalanceMaxWaitBeforeKillMs =
      c.value("max_wait_before_kill_for_queue_balance_preemption_ms", 300000);
  s.intraQueueEnabled = c.value("intra_queue_preemption_enabled", false);
  s.intraQueueMaxAllowableLimit = c.value("intra_queue_preemption_max_allowable_limit", 0.2);
  if (c.value("intra_queue_preemption_order_policy", "") == "priority_first") {
    s.intraQueueOrderPolicy = IntraQueueOrderPolicy::kPriorityFirst;
  }
  for (const auto& [k, val] : c.items()) {
    if (k.rfind("am_preemption_enabled", 0) == 0) s.amPreemptionEnabled = val.get<bool>();
  }
  if (c.contains("per_queue_disable_preemption")) {
    for (const auto& [path, val] : c["per_queue_disable_preemption"].items()) {
      auto it = v.queueByName.find(path);
      if (it == v.queueByName.end()) return invalidArgument("unknown queue '{}'", path);
      v.snapshot.queues[it->second.value()].disablePreemption = val.get<bool>();
    }
  }
  return Status::ok();
}

// --- TestProportionalCapacityPreemptionPolicy's int[][] tables -----------------------------------

inline Result<BuiltVector> buildTableVector(const nlohmann::json& vec) {
  BuiltVector v;
  PreemptionSnapshot& s = v.snapshot;
  const nlohmann::json& t = vec["table"];
  SPINDLE_ASSIGN_OR_RETURN(v.calculator, vectorCalculator(vec, s.resourceTypeCount));
  const size_t n = t["abs"].size();
  auto cell = [&](const char* row, size_t i) {
    return parseResource(t[row][i].get<std::string>());
  };
  // Queue tree: a parent with k children is pushed k times; each next column pops its parent.
  std::vector<QueueId> stack;
  std::vector<QueueId> ids;
  for (size_t i = 0; i < n; ++i) {
    QueueId parent;
    if (i > 0) {
      if (stack.empty()) return invalidArgument("table column {} has no parent", i);
      parent = stack.back();
      stack.pop_back();
    }
    std::string name = i == 0 ? "root" : fmt::format("queue{}", static_cast<char>('A' + i - 1));
    std::string path = i == 0 ? name : s.queue(parent).path + "." + name;
    QueueId id = s.addQueue(path, parent);
    ids.push_back(id);
    v.queueByName[name] = id;
    v.queueByName[path] = id;
    int subqueues = t["subqueues"][i].get<int>();
    for (int k = 0; k < subqueues; ++k) stack.push_back(id);
  }
  // Children were pushed in order, so popping visits them in reverse: fix the child lists
  // to configuration order (column order).
  for (QueueSnapshot& q : s.queues) std::sort(q.children.begin(), q.children.end());
  s.nodes.push_back(NodeSnapshot{.id = NodeId(0),
                                 .name = "n0",
                                 .partition = "",
                                 .unallocated = Resource(),
                                 .killable = Resource(),
                                 .reservedContainer = std::nullopt});
  v.nodeByName["n0"] = NodeId(0);
  Resource cluster;
  bool amFirst = vec["config"].value("first_live_container_of_each_app_is_AM", false);
  uint32_t appSeq = 0;
  for (size_t i = 0; i < n; ++i) {
    QueueSnapshot& q = s.queues[ids[i].value()];
    QueuePartitionAmounts a;
    SPINDLE_ASSIGN_OR_RETURN(a.guaranteed, cell("abs", i));
    SPINDLE_ASSIGN_OR_RETURN(a.max, cell("maxCap", i));
    SPINDLE_ASSIGN_OR_RETURN(a.used, cell("used", i));
    SPINDLE_ASSIGN_OR_RETURN(a.pending, cell("pending", i));
    SPINDLE_ASSIGN_OR_RETURN(a.reserved, cell("reserved", i));
    a.pendingDeductReserved = (a.pending - a.reserved).clampedAtZero();
    q.partitions[""] = a;
    if (!q.isLeaf()) continue;
    cluster += a.guaranteed;
    int apps = t["apps"][i].get<int>();
    if (apps <= 0) continue;
    SPINDLE_ASSIGN_OR_RETURN(Resource gran, cell("granularity", i));
    const int64_t appUsed = ceilDiv(a.used.memoryMb(), apps);
    const int64_t appReserved = ceilDiv(a.reserved.memoryMb(), apps);
    std::vector<AttemptId> attempts;
    for (int k = 0; k < apps; ++k) {
      AppSnapshot app;
      app.attempt = AttemptId{AppId(appSeq), 1};
      app.name = fmt::format("app{}", static_cast<char>('A' + appSeq));
      app.queue = ids[i];
      ++appSeq;
      uint64_t seq = 0;
      for (int64_t r = 0; r < ceilDiv(appReserved, gran.memoryMb()); ++r) {
        app.containers.push_back(ContainerSnapshot{.id = {app.attempt, seq++},
                                                   .node = NodeId(0),
                                                   .size = gran,
                                                   .requestPriority = 1,
                                                   .isAm = false,
                                                   .isReservation = true});
      }
      int64_t live = ceilDiv(appUsed, gran.memoryMb());
      for (int64_t l = 0; l < live; ++l) {
        bool am = amFirst && l == 0;
        app.containers.push_back(ContainerSnapshot{.id = {app.attempt, seq++},
                                                   .node = NodeId(0),
                                                   .size = gran,
                                                   .requestPriority = am ? 0 : 1,
                                                   .isAm = am,
                                                   .isReservation = false});
      }
      v.appByName[app.name] = app.attempt;
      attempts.push_back(app.attempt);
      s.apps.push_back(std::move(app));
    }
    // The preemption iterator visits a leaf's apps by descending attempt id.
    std::reverse(attempts.begin(), attempts.end());
    q.appsInPreemptionOrder = attempts;
  }
  // The test's appE and appF constants share id 4 (a copy-paste slip in the Hadoop test).
  if (v.appByName.contains("appE")) v.appByName["appF"] = v.appByName["appE"];
  s.clusterTotal = cluster;
  s.partitions = {PartitionInfo{.name = "", .total = cluster, .exclusive = true}};
  SPINDLE_RETURN_IF_ERROR(applyConfig(vec["config"], v));
  return v;
}

// --- ProportionalCapacityPreemptionPolicyMockFramework's string DSL ------------------------------

// Parsing state shared by the DSL steps below.
struct DslState {
  BuiltVector v;
  int types = 2;
  std::map<std::string, std::optional<Resource>> nodeRes;             // host -> res= if given
  std::map<QueueId, std::vector<std::pair<int, AttemptId>>> perLeaf;  // (app priority, id)
  void noteTypes(const std::string& text) {
    types = std::max(types, static_cast<int>(split(trim(text), ':').size()));
  }
};

inline Status parseDslLabels(const nlohmann::json& d, DslState& st) {
  BuiltVector& v = st.v;
  PreemptionSnapshot& s = v.snapshot;
  auto noteTypes = [&](const std::string& text) { st.noteTypes(text); };
  (void)noteTypes;
  // labels: partition=total,exclusive
  for (const std::string& entry : split(d["labels"].get<std::string>(), ';')) {
    if (trim(entry).empty()) continue;
    auto eq = entry.find('=');
    auto comma = entry.find(',');
    if (eq == std::string::npos || comma == std::string::npos) {
      return invalidArgument("bad label entry '{}'", entry);
    }
    PartitionInfo p;
    p.name = trim(entry.substr(0, eq));
    std::string total = entry.substr(eq + 1, comma - eq - 1);
    noteTypes(total);
    SPINDLE_ASSIGN_OR_RETURN(p.total, parseResource(total));
    p.exclusive = trim(entry.substr(comma + 1)) == "true";
    s.clusterTotal += p.total;
    s.partitions.push_back(p);
  }
  return Status::ok();
}

inline Status parseDslNodes(const nlohmann::json& d, DslState& st) {
  BuiltVector& v = st.v;
  PreemptionSnapshot& s = v.snapshot;
  auto noteTypes = [&](const std::string& text) { st.noteTypes(text); };
  (void)noteTypes;
  auto& nodeRes = st.nodeRes;
  // nodes: host=partition[ res=resource]
  for (const std::string& entry : split(d["nodes"].get<std::string>(), ';')) {
    if (trim(entry).empty()) continue;
    auto eq = entry.find('=');
    std::string host = trim(entry.substr(0, eq));
    std::string rest = entry.substr(eq + 1);
    std::string partition = trim(rest.substr(0, rest.find(' ')));
    NodeSnapshot node{.id = NodeId(static_cast<uint32_t>(s.nodes.size())),
                      .name = host,
                      .partition = partition,
                      .unallocated = Resource(),
                      .killable = Resource(),
                      .reservedContainer = std::nullopt};
    auto res = rest.find("res=");
    if (res != std::string::npos) {
      SPINDLE_ASSIGN_OR_RETURN(Resource total, parseResource(rest.substr(res + 4)));
      nodeRes[host] = total;
    } else {
      nodeRes[host] = std::nullopt;
    }
    v.nodeByName[host] = node.id;
    s.nodes.push_back(node);
  }
  return Status::ok();
}

inline Status parseDslQueues(const nlohmann::json& d, DslState& st) {
  BuiltVector& v = st.v;
  PreemptionSnapshot& s = v.snapshot;
  auto noteTypes = [&](const std::string& text) { st.noteTypes(text); };
  (void)noteTypes;
  // queues: dashes + name + (partition=[G M U P (R)],...) + {priority=N,disable_preemption=b}
  std::vector<QueueId> depthStack;
  for (const std::string& raw : split(d["queues"].get<std::string>(), ';')) {
    std::string entry = trim(raw);
    if (entry.empty()) continue;
    size_t depth = 0;
    while (depth < entry.size() && entry[depth] == '-') ++depth;
    auto open = entry.find('(');
    auto close = entry.rfind(')');
    std::string name = entry.substr(depth, open - depth);
    while (depthStack.size() > depth) depthStack.pop_back();
    QueueId parent = depth == 0 ? QueueId() : depthStack.back();
    std::string path = depth == 0 ? name : s.queue(parent).path + "." + name;
    QueueId id = s.addQueue(path, parent);
    depthStack.push_back(id);
    v.queueByName[name] = id;
    v.queueByName[path] = id;
    QueueSnapshot& q = s.queues[id.value()];
    std::string body = entry.substr(open + 1, close - open - 1);
    size_t pos = 0;
    while (pos < body.size()) {
      auto eq = body.find('=', pos);
      auto lb = body.find('[', eq);
      auto rb = body.find(']', lb);
      std::string partition = trim(body.substr(pos, eq - pos));
      if (!partition.empty() && partition[0] == ',') partition = trim(partition.substr(1));
      std::istringstream values(body.substr(lb + 1, rb - lb - 1));
      std::vector<Resource> r;
      std::string tok;
      while (values >> tok) {
        noteTypes(tok);
        SPINDLE_ASSIGN_OR_RETURN(Resource x, parseResource(tok));
        r.push_back(x);
      }
      if (r.size() < 4) return invalidArgument("queue '{}': fewer than 4 values", path);
      QueuePartitionAmounts a;
      a.guaranteed = r[0];
      a.max = r[1];
      a.used = r[2];
      a.pending = r[3];
      if (r.size() > 4) a.reserved = r[4];
      a.pendingDeductReserved = a.pending - a.reserved;  // not clamped in this harness
      q.partitions[partition] = a;
      pos = rb + 1;
      while (pos < body.size() && (body[pos] == ',' || body[pos] == ' ')) ++pos;
    }
    auto brace = entry.find('{', close);
    if (brace != std::string::npos) {
      std::string opts = entry.substr(brace + 1, entry.find('}', brace) - brace - 1);
      for (const std::string& kv : split(opts, ',')) {
        auto eq = kv.find('=');
        std::string k = trim(kv.substr(0, eq)), val = trim(kv.substr(eq + 1));
        if (k == "priority") q.relativePriority = std::stoi(val);
        if (k == "disable_preemption") q.disablePreemption = val == "true";
      }
    }
  }
  // A queue without an entry for a non-exclusive partition may still borrow all of it
  // (absoluteMaxCapacity forced to 1.0 there).
  for (QueueSnapshot& q : s.queues) {
    for (const PartitionInfo& p : s.partitions) {
      if (p.exclusive || q.partitions.contains(p.name)) continue;
      QueuePartitionAmounts a;
      a.max = p.total;
      q.partitions[p.name] = a;
    }
  }
  return Status::ok();
}

inline Status parseDslApps(const nlohmann::json& d, DslState& st) {
  BuiltVector& v = st.v;
  PreemptionSnapshot& s = v.snapshot;
  auto noteTypes = [&](const std::string& text) { st.noteTypes(text); };
  (void)noteTypes;
  auto& perLeaf = st.perLeaf;
  // apps: queue \t (priority,resource,host,label,repeat,reserved[,pending[,user]])...
  uint32_t appSeq = 1;
  for (const std::string& raw : split(d["apps"].get<std::string>(), ';')) {
    if (trim(raw).empty()) continue;
    auto tab = raw.find('\t');
    std::string queueName = trim(raw.substr(0, tab));
    auto qit = v.queueByName.find(queueName);
    if (qit == v.queueByName.end()) return invalidArgument("app on unknown queue '{}'", queueName);
    AppSnapshot app;
    app.attempt = AttemptId{AppId(appSeq), 1};
    app.name = fmt::format("app{}", appSeq);
    app.queue = qit->second;
    ++appSeq;
    uint64_t seq = 1;
    int appPriority = 0;
    std::string groups = raw.substr(tab + 1);
    size_t pos = 0;
    while ((pos = groups.find('(', pos)) != std::string::npos) {
      auto end = groups.find(')', pos);
      std::vector<std::string> f = split(groups.substr(pos + 1, end - pos - 1), ',');
      pos = end + 1;
      if (f.size() < 6) return invalidArgument("app {}: bad container group", app.name);
      int priority = std::stoi(f[0]);
      noteTypes(f[1]);
      SPINDLE_ASSIGN_OR_RETURN(Resource size, parseResource(f[1]));
      auto nit = v.nodeByName.find(trim(f[2]));
      if (nit == v.nodeByName.end()) return invalidArgument("unknown host '{}'", f[2]);
      std::string label = trim(f[3]);
      int repeat = std::stoi(f[4]);
      bool reserved = trim(f[5]) == "true";
      const NodeSnapshot& node = s.nodes[nit->second.value()];
      for (int k = 0; k < repeat; ++k) {
        ContainerSnapshot c{.id = {app.attempt, seq},
                            .node = node.id,
                            .size = size,
                            .requestPriority = priority,
                            .isAm = seq == 1 && !reserved,
                            .isReservation = reserved,
                            .killable = false,
                            .ignoresExclusivity = label.empty() && !node.partition.empty()};
        ++seq;
        if (reserved) s.nodes[node.id.value()].reservedContainer = c.id;
        app.containers.push_back(c);
      }
      appPriority = priority;
      if (f.size() > 6) {
        SPINDLE_ASSIGN_OR_RETURN(Resource pending, parseResource(f[6]));
        app.pending[""] += pending;
      }
      app.user = f.size() > 7 ? trim(f[7]) : "user";
    }
    app.priority = appPriority;
    perLeaf[app.queue].emplace_back(appPriority, app.attempt);
    v.appByName[app.name] = app.attempt;
    s.apps.push_back(std::move(app));
  }
  return Status::ok();
}

inline Status finishDslSnapshot(const nlohmann::json& d, DslState& st) {
  BuiltVector& v = st.v;
  PreemptionSnapshot& s = v.snapshot;
  auto noteTypes = [&](const std::string& text) { st.noteTypes(text); };
  (void)noteTypes;
  auto& nodeRes = st.nodeRes;
  auto& perLeaf = st.perLeaf;
  (void)d;
  // User limit of every user of a leaf: ceil(queue capacity / number of users), on the default
  // partition only (as the Hadoop mock does).
  for (const auto& [leaf, list] : perLeaf) {
    std::set<std::string> users;
    for (const AppSnapshot& app : s.apps) {
      if (app.queue == leaf) users.insert(app.user);
    }
    QueuePartitionAmounts& a = s.queues[leaf.value()].partitions[""];
    Resource limit;
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      limit.set(i, ceilDiv(a.guaranteed.get(i), static_cast<int64_t>(users.size())));
    }
    for (const std::string& u : users) a.userLimits[u] = limit;
  }
  // FIFO preemption iterator: lowest app priority first, then the newest app first.
  for (auto& [leaf, list] : perLeaf) {
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      return a.second > b.second;
    });
    for (const auto& [prio, id] : list) s.queues[leaf.value()].appsInPreemptionOrder.push_back(id);
  }
  // Node sizes: given, or the partition total split evenly; unallocated = size - live use.
  std::map<std::string, int> nodesPerPartition;
  for (const NodeSnapshot& node : s.nodes) ++nodesPerPartition[node.partition];
  for (NodeSnapshot& node : s.nodes) {
    Resource total;
    if (nodeRes[node.name]) {
      total = *nodeRes[node.name];
    } else {
      const PartitionInfo* p = s.partition(node.partition);
      for (int i = 0; i < kMaxResourceTypes; ++i) {
        total.set(i, p->total.get(i) / nodesPerPartition[node.partition]);
      }
    }
    Resource used;
    for (const AppSnapshot& app : s.apps) {
      for (const ContainerSnapshot& c : app.containers) {
        if (c.node == node.id && !c.isReservation) used += c.size;
      }
    }
    node.unallocated = (total - used).clampedAtZero();
  }
  return Status::ok();
}

inline Result<BuiltVector> buildDslVector(const nlohmann::json& vec) {
  DslState st;
  const nlohmann::json& d = vec["dsl"];
  SPINDLE_RETURN_IF_ERROR(parseDslLabels(d, st));
  SPINDLE_RETURN_IF_ERROR(parseDslNodes(d, st));
  SPINDLE_RETURN_IF_ERROR(parseDslQueues(d, st));
  SPINDLE_RETURN_IF_ERROR(parseDslApps(d, st));
  SPINDLE_RETURN_IF_ERROR(finishDslSnapshot(d, st));
  st.v.snapshot.resourceTypeCount = st.types;
  SPINDLE_ASSIGN_OR_RETURN(st.v.calculator, vectorCalculator(vec, st.types));
  SPINDLE_RETURN_IF_ERROR(applyConfig(vec["config"], st.v));
  return std::move(st.v);
}

}  // namespace spindle::preemption::testing
