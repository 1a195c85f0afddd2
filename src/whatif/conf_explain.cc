#include "whatif/conf_explain.h"

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "base/clock.h"
#include "base/rng.h"
#include "dao/rest_views.h"
#include "scheduler/driver.h"

namespace spindle::whatif {

namespace {

using nlohmann::json;

std::string text(const json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("memory") && v.contains("vCores")) {
    return fmt::format("<memory:{}, vCores:{}>", v["memory"].dump(), v["vCores"].dump());
  }
  if (v.is_number_float()) return fmt::format("{:.1f}", v.get<double>());
  return v.dump();
}

std::string where(const PropertySource& s) {
  return s.line > 0
             ? fmt::format("{}:{}", std::filesystem::path(s.file).filename().string(), s.line)
             : s.file;
}

// The source of a queue's value: its own key, else a scheduler-wide key, else the default.
std::string sourceOf(const Configuration& conf, const std::string& queueKey,
                     const std::string& globalKey = {}) {
  if (auto s = conf.source(queueKey)) return where(*s);
  if (!globalKey.empty()) {
    if (auto s = conf.source(globalKey))
      return "inherited from " + globalKey + " (" + where(*s) + ")";
  }
  return "default";
}

struct Field {
  const char* name;    // shown
  const char* rest;    // REST field of the queue
  const char* key;     // yarn.scheduler.capacity.<path>.<key>; "" for derived figures
  const char* global;  // scheduler-wide key that applies when the queue's is absent
  bool leafOnly;
};

// The Capacity Scheduler's queue fields, in display order.
constexpr Field kCapacityFields[] = {
    {"capacity %", "capacity", "capacity", "", false},
    {"absolute capacity %", "absoluteCapacity", "", "", false},
    {"maximum capacity %", "maxCapacity", "maximum-capacity", "", false},
    {"absolute maximum capacity %", "absoluteMaxCapacity", "", "", false},
    {"weight", "weight", "", "", false},
    {"guaranteed resources", "minEffectiveCapacity", "", "", false},
    {"maximum resources", "maxEffectiveCapacity", "", "", false},
    {"state", "state", "state", "", false},
    {"priority", "priority", "priority", "", false},
    {"maximum allocation", "maximumAllocation", "maximum-allocation-mb", "", false},
    {"ordering policy", "orderingPolicyDisplayName", "ordering-policy", "", true},
    {"user limit %", "userLimit", "minimum-user-limit-percent", "", true},
    {"user limit factor", "userLimitFactor", "user-limit-factor", "", true},
    // Without the queue's key: the scheduler-wide maximum (default 10000) x absolute capacity.
    {"maximum applications", "maxApplications", "maximum-applications", "", true},
    {"maximum applications per user", "maxApplicationsPerUser", "", "", true},
    {"maximum parallel apps", "maxParallelApps", "max-parallel-apps",
     "yarn.scheduler.capacity.max-parallel-apps", false},
    {"AM resource share", "configuredMaxAMResourceLimit", "maximum-am-resource-percent",
     "yarn.scheduler.capacity.maximum-am-resource-percent", true},
    {"AM resource limit", "AMResourceLimit", "", "", true},
    {"preemption disabled", "preemptionDisabled", "disable_preemption",
     "yarn.scheduler.capacity.root.disable_preemption", true},
    {"intra-queue preemption disabled", "intraQueuePreemptionDisabled",
     "intra-queue-preemption.disable_preemption", "", true},
};

// The Fair Scheduler's queue fields (FairSchedulerQueueInfo), from the allocation file.
constexpr Field kFairFields[] = {
    {"weight", "weight", "", "", false},
    {"scheduling policy", "schedulingPolicy", "", "", false},
    {"min resources", "minResources", "", "", false},
    {"max resources", "maxResources", "", "", false},
    {"steady fair share", "steadyFairResources", "", "", false},
    {"max running apps", "maxApps", "", "", false},
    {"max AM share of fair share", "amMaxResources", "", "", true},
    {"preemptable", "preemptable", "", "", false},
};

void walkCapacity(const Configuration& conf, const json& q, Explanation& e) {
  ExplainedQueue out;
  out.path = q.value("queuePath", q.value("queueName", std::string("?")));
  const bool leaf = !q.contains("queues");
  for (const Field& f : kCapacityFields) {
    if (f.leafOnly && !leaf) continue;
    if (!q.contains(f.rest)) continue;
    if (std::string_view(f.rest) == "weight" && q[f.rest] == -1.0) continue;  // percentage mode
    std::string source = "derived";
    if (*f.key) {
      source = sourceOf(conf, "yarn.scheduler.capacity." + out.path + "." + f.key, f.global);
    }
    if (std::string_view(f.rest) == "maxApplications" && source == "default") source = "derived";
    out.values.push_back({f.name, text(q[f.rest]), source});
  }
  // Per partition other than the default one: its capacities and their keys.
  if (q.contains("capacities")) {
    for (const json& p : q["capacities"].value("queueCapacitiesByPartition", json::array())) {
      const std::string label = p.value("partitionName", std::string());
      if (label.empty()) continue;
      const std::string prefix =
          "yarn.scheduler.capacity." + out.path + ".accessible-node-labels." + label + ".";
      out.values.push_back(
          {"[" + label + "] capacity %", text(p["capacity"]), sourceOf(conf, prefix + "capacity")});
      out.values.push_back({"[" + label + "] maximum capacity %", text(p["maxCapacity"]),
                            sourceOf(conf, prefix + "maximum-capacity")});
      out.values.push_back(
          {"[" + label + "] absolute capacity %", text(p["absoluteCapacity"]), "derived"});
    }
  }
  e.queues.push_back(std::move(out));
  if (leaf) return;
  for (const json& child : q["queues"].value("queue", json::array())) walkCapacity(conf, child, e);
}

void walkFair(const json& q, const std::string& file, Explanation& e) {
  ExplainedQueue out;
  out.path = q.value("queueName", std::string("?"));
  const bool leaf = !q.contains("childQueues");
  for (const Field& f : kFairFields) {
    if (f.leafOnly && !leaf) continue;
    if (!q.contains(f.rest)) continue;
    const std::string_view rest(f.rest);
    const bool derived = rest == "steadyFairResources" || rest == "amMaxResources";
    out.values.push_back({f.name, text(q[f.rest]), derived ? std::string("derived") : file});
  }
  e.queues.push_back(std::move(out));
  if (leaf) return;
  const json& children = q["childQueues"];
  const json& list = children.is_object() ? children.value("queue", json::array()) : children;
  for (const json& child : list) walkFair(child, file, e);
}

}  // namespace

Result<Explanation> explainConfiguration(const Configuration& conf, const Resource& cluster) {
  SimulatedClock clock{0};
  Rng rng{1};
  SPINDLE_ASSIGN_OR_RETURN(std::unique_ptr<Driver> driver, Driver::create(conf, clock, rng));
  if (cluster.memoryMb() > 0) {
    SPINDLE_RETURN_IF_ERROR(
        driver->handle(NodeAdded{"explain-node", "/default-rack", cluster, {}, {}}).status());
  }
  driver->settle();
  Explanation e;
  e.cluster = cluster;
  const json info = schedulerView(driver->scheduler())["scheduler"]["schedulerInfo"];
  const std::string type = info.value("type", std::string());
  e.scheduler = type == "capacityScheduler" ? "capacity"
                : type == "fairScheduler"   ? "fair"
                                            : "fifo";
  const std::string cls = "yarn.resourcemanager.scheduler.class";
  e.settings.push_back(
      {"scheduler", e.scheduler, conf.source(cls) ? where(*conf.source(cls)) : "default"});
  for (const std::string& prefix : {std::string("yarn.resourcemanager.scheduler.monitor."),
                                    std::string("yarn.resourcemanager.monitor.capacity.")}) {
    for (const std::string& name : conf.namesWithPrefix(prefix)) {
      e.settings.push_back({name, conf.get(name, ""), where(*conf.source(name))});
    }
  }
  if (e.scheduler == "capacity" && info.contains("queues")) {
    ExplainedQueue root;
    root.path = "root";
    if (info.contains("capacity"))
      root.values.push_back({"capacity %", text(info["capacity"]), "derived"});
    if (info.contains("maxCapacity")) {
      root.values.push_back({"maximum capacity %", text(info["maxCapacity"]), "derived"});
    }
    e.queues.push_back(std::move(root));
    for (const json& q : info["queues"].value("queue", json::array())) walkCapacity(conf, q, e);
  } else if (e.scheduler == "fair" && info.contains("rootQueue")) {
    const std::string file = conf.get("yarn.scheduler.fair.allocation.file", "allocation file");
    walkFair(info["rootQueue"], std::filesystem::path(file).filename().string(), e);
  }
  return e;
}

std::string explanationText(const Explanation& e) {
  std::string out = fmt::format("scheduler: {}, cluster <memory:{}, vCores:{}>\n", e.scheduler,
                                e.cluster.memoryMb(), e.cluster.vcores());
  for (const ExplainedValue& v : e.settings) {
    if (v.name == "scheduler") continue;
    out += fmt::format("  {} = {}  [{}]\n", v.name, v.value, v.source);
  }
  for (const ExplainedQueue& q : e.queues) {
    out += q.path + "\n";
    for (const ExplainedValue& v : q.values) {
      out += fmt::format("  {:<32} {:<28} [{}]\n", v.name, v.value, v.source);
    }
  }
  return out;
}

json explanationJson(const Explanation& e) {
  auto values = [](const std::vector<ExplainedValue>& vs) {
    json a = json::array();
    for (const ExplainedValue& v : vs) {
      a.push_back({{"name", v.name}, {"value", v.value}, {"source", v.source}});
    }
    return a;
  };
  json j = {{"scheduler", e.scheduler},
            {"cluster", {{"memory", e.cluster.memoryMb()}, {"vCores", e.cluster.vcores()}}},
            {"settings", values(e.settings)},
            {"queues", json::array()}};
  for (const ExplainedQueue& q : e.queues) {
    j["queues"].push_back({{"path", q.path}, {"values", values(q.values)}});
  }
  return j;
}

std::vector<std::string> compareExplanations(const Explanation& a, const Explanation& b) {
  using Table = std::map<std::string, std::map<std::string, const ExplainedValue*>>;
  auto table = [](const Explanation& e) {
    Table t;
    for (const ExplainedValue& v : e.settings) t["(settings)"][v.name] = &v;
    for (const ExplainedQueue& q : e.queues) {
      for (const ExplainedValue& v : q.values) t[q.path][v.name] = &v;
    }
    return t;
  };
  const Table ta = table(a), tb = table(b);
  std::vector<std::string> out;
  auto show = [](const ExplainedValue* v) { return fmt::format("{} ({})", v->value, v->source); };
  for (const auto& [queue, values] : ta) {
    auto other = tb.find(queue);
    if (other == tb.end()) {
      out.push_back(fmt::format("{}: only in the first configuration", queue));
      continue;
    }
    for (const auto& [name, v] : values) {
      auto w = other->second.find(name);
      if (w == other->second.end()) {
        out.push_back(fmt::format("{} {}: {} -> (none)", queue, name, show(v)));
      } else if (w->second->value != v->value) {
        out.push_back(fmt::format("{} {}: {} -> {}", queue, name, show(v), show(w->second)));
      }
    }
    for (const auto& [name, w] : other->second) {
      if (!values.contains(name)) {
        out.push_back(fmt::format("{} {}: (none) -> {}", queue, name, show(w)));
      }
    }
  }
  for (const auto& [queue, values] : tb) {
    if (!ta.contains(queue))
      out.push_back(fmt::format("{}: only in the second configuration", queue));
  }
  return out;
}

}  // namespace spindle::whatif
