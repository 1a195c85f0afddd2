#include "dao/capacity_view.h"

#include <charconv>
#include <cstdlib>
#include <string>

#include "dao/rest_views.h"

namespace spindle {

using nlohmann::json;

namespace {

// The leaf's OrderingPolicy.getInfo(), which YARN 3.3+ shows as orderingPolicyDisplayName.
std::string orderingPolicyDisplayName(const QueueConfig& qc) {
  if (qc.orderingPolicy == "fair") {
    return qc.fairSizeBasedWeight ? "FairOrderingPolicy with sizeBasedWeight"
                                  : "FairOrderingPolicy";
  }
  if (qc.orderingPolicy == "fifo-with-partitions") {
    return "FifoOrderingPolicyWithExclusivePartitions";
  }
  if (qc.orderingPolicy == "fifo-for-pending-apps") return "FifoOrderingPolicyForPendingApps";
  return "FifoOrderingPolicy";
}

struct QueueCounts {
  int64_t containers = 0;
  int64_t pendingContainers = 0;
  int64_t reservedContainers = 0;
};

class CapacityViewBuilder {
 public:
  explicit CapacityViewBuilder(const CapacityScheduler& cs) : cs_(cs), rc_(cs.calculator()) {
    for (const auto& [id, a] : cs.apps()) {
      const CsApp* s = cs.csApp(id);
      if (s == nullptr) continue;
      int64_t pending = 0;
      for (const SchedulerKey& k : a->asks().activeKeys()) {
        pending += a->asks().count(k, kAnyResourceName);
      }
      for (const CsQueue* q = s->leaf; q != nullptr; q = q->parent()) {
        QueueCounts& c = counts_[q];
        c.containers += static_cast<int64_t>(a->liveContainers().size());
        c.pendingContainers += pending;
        c.reservedContainers += static_cast<int64_t>(s->reservations.size());
      }
    }
  }

  json root() const {
    const CsQueue& r = *cs_.queues().root();
    json j = queueCommon(r);
    j["type"] = cs_.typeName();
    j.erase("numApplications");
    return j;
  }

 private:
  json res(const Resource& r) const { return resourceInfo(cs_.cluster().types(), r); }

  // YARN's JAXB writes Java floats with Float.toString's shortest digits (0.1, not
  // 0.10000000149); the float is printed that way and read back as a double.
  static double fl(float f) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof(buf), f);
    return std::strtod(std::string(buf, r.ptr).c_str(), nullptr);
  }
  static double pct(double fraction) { return fl(static_cast<float>(fraction * 100.0)); }

  // usedCapacity: used / guaranteed; absoluteUsedCapacity: used / partition (CSQueueUtils).
  double usedCapacity(const CsQueue& q, const std::string& p) const {
    const Resource R = cs_.partitionResource(p);
    const Resource& g = q.cap(p).effectiveMin;
    if (!rc_.greaterThan(R, g, Resource()) || rc_.isInvalidDivisor(g)) return 0;
    return pct(rc_.divide(R, q.usage(p).used, g));
  }
  double absUsedCapacity(const CsQueue& q, const std::string& p) const {
    const Resource R = cs_.partitionResource(p);
    if (rc_.isInvalidDivisor(R)) return 0;
    return pct(rc_.divide(R, q.usage(p).used, R));
  }

  json capacitiesByPartition(const CsQueue& q) const {
    json list = json::array();
    for (const auto& [p, c] : q.caps) {
      const QueueConfig& qc = q.config();
      auto pc = qc.partitions.find(p);
      Resource configuredMin, configuredMax;
      if (pc != qc.partitions.end()) {
        if (pc->second.capacity.mode == CapacityMode::kAbsolute) {
          configuredMin = pc->second.capacity.absolute;
        }
        if (pc->second.maximumCapacity.mode == CapacityMode::kAbsolute) {
          configuredMax = pc->second.maximumCapacity.absolute;
        }
      }
      list.push_back(
          {{"partitionName", p},
           {"capacity", pct(c.capacity)},
           {"usedCapacity", usedCapacity(q, p)},
           {"maxCapacity", pct(c.maxCapacity)},
           {"absoluteCapacity", pct(c.absCapacity)},
           {"absoluteUsedCapacity", absUsedCapacity(q, p)},
           {"absoluteMaxCapacity", pct(c.absMaxCapacity)},
           {"maxAMLimitPercentage", pct(c.maxAmPercent)},
           {"weight", fl(static_cast<float>(c.weight))},
           {"normalizedWeight", c.weight >= 0 ? fl(static_cast<float>(c.capacity)) : 0.0},
           {"configuredMinResource", res(configuredMin)},
           {"configuredMaxResource", res(configuredMax)},
           {"effectiveMinResource", res(c.effectiveMin)},
           {"effectiveMaxResource", res(c.effectiveMax)}});
    }
    return list;
  }

  json usagesByPartition(const CsQueue& q) const {
    json list = json::array();
    for (const auto& [p, u] : q.usages) {
      json e = {{"partitionName", p},
                {"used", res(u.used)},
                {"reserved", res(u.reserved)},
                {"pending", res(u.pending)},
                {"amUsed", res(u.amUsed)}};
      if (q.isLeaf()) {
        auto it = q.amLimits.find(p);
        e["amLimit"] = res(it == q.amLimits.end() ? Resource() : it->second);
      }
      list.push_back(std::move(e));
    }
    return list;
  }

  json queueCommon(const CsQueue& q) const {
    const std::string p = kDefaultPartition;
    const ResolvedCapacity& c = q.cap(p);
    const QueueUsage& u = q.usage(p);
    auto cit = counts_.find(&q);
    const QueueCounts counts = cit == counts_.end() ? QueueCounts{} : cit->second;
    json labels = json::array();
    if (q.config().accessibleToAllLabels || !q.parent()) {
      labels.push_back("*");
    } else {
      for (const std::string& l : q.config().accessibleLabels) labels.push_back(l);
    }
    json j = {{"queueName", q.name()},
              {"queuePath", q.path()},
              {"capacity", pct(c.capacity)},
              {"usedCapacity", usedCapacity(q, p)},
              {"maxCapacity", pct(c.maxCapacity)},
              {"absoluteCapacity", pct(c.absCapacity)},
              {"absoluteMaxCapacity", pct(c.absMaxCapacity)},
              {"absoluteUsedCapacity", absUsedCapacity(q, p)},
              {"weight", fl(static_cast<float>(c.weight))},
              {"normalizedWeight", c.weight >= 0 ? fl(static_cast<float>(c.capacity)) : 0.0},
              {"numApplications", q.numApplications},
              {"maxParallelApps", q.config().maxParallelApps},
              {"usedResources", u.used.toString()},
              {"resourcesUsed", res(u.used)},
              {"state", toString(q.state)},
              {"nodeLabels", labels},
              {"allocatedContainers", counts.containers},
              {"reservedContainers", counts.reservedContainers},
              {"pendingContainers", counts.pendingContainers},
              {"priority", q.config().priority},
              {"orderingPolicyInfo", q.config().orderingPolicy},
              {"minEffectiveCapacity", res(c.effectiveMin)},
              {"maxEffectiveCapacity", res(c.effectiveMax)},
              {"maximumAllocation", res(q.maximumAllocation)},
              {"capacities", {{"queueCapacitiesByPartition", capacitiesByPartition(q)}}},
              {"resources", {{"resourceUsagesByPartition", usagesByPartition(q)}}}};
    if (q.isLeaf()) {
      addLeaf(q, j);
    } else {
      json children = json::array();
      for (const CsQueue* child : q.children()) children.push_back(queueCommon(*child));
      j["queues"] = {{"queue", children}};
    }
    return j;
  }

  void addLeaf(const CsQueue& q, json& j) const {
    const std::string p = kDefaultPartition;
    const QueueConfig& qc = q.config();
    auto amIt = q.amLimits.find(p);
    const Resource amLimit = amIt == q.amLimits.end() ? Resource() : amIt->second;
    const ResolvedCapacity& c = q.cap(p);
    const Resource cluster = cs_.partitionResource(p);
    const Resource userAm =
        userAmLimit(rc_, cluster, c.effectiveMin, c.maxAmPercent, qc.minimumUserLimitPercent,
                    qc.userLimitFactor, q.activeUsers, 1.0, amLimit, cs_.settings().bounds.minimum);
    json users = json::array();
    for (const auto& [name, user] : q.users) {
      if (user.totalApps() == 0 && user.usedIn(p).isZero()) continue;
      users.push_back({{"username", name},
                       {"resourcesUsed", res(user.usedIn(p))},
                       {"numActiveApplications", user.activeApps},
                       {"numPendingApplications", user.pendingApps + user.nonRunnableApps},
                       {"AMResourceUsed", res(user.amUsedIn(p))},
                       {"userResourceLimit", res(cs_.userLimit(q, name, p))},
                       {"userWeight", fl(static_cast<float>(user.weight))},
                       {"isActive", user.appsWithPending > 0}});
    }
    j["type"] = "capacitySchedulerLeafQueueInfo";
    j["numActiveApplications"] = q.activeApps.size();
    j["numPendingApplications"] = q.pendingApps.size() + q.nonRunnableApps.size();
    j["numContainers"] = j["allocatedContainers"];
    j["maxApplications"] = q.maxApplications;
    j["maxApplicationsPerUser"] = q.maxApplicationsPerUser;
    j["userLimit"] = fl(static_cast<float>(qc.minimumUserLimitPercent));
    j["userLimitFactor"] = fl(static_cast<float>(qc.userLimitFactor));
    j["users"] = {{"user", users}};
    j["orderingPolicyDisplayName"] = orderingPolicyDisplayName(qc);
    j["configuredMaxAMResourceLimit"] = fl(static_cast<float>(c.maxAmPercent));
    j["AMResourceLimit"] = res(amLimit);
    j["usedAMResource"] = res(q.usage(p).amUsed);
    j["userAMResourceLimit"] = res(userAm);
    j["preemptionDisabled"] = qc.disablePreemption;
    j["intraQueuePreemptionDisabled"] = qc.intraQueueDisablePreemption;
    j["defaultPriority"] = qc.defaultApplicationPriority;
    j["defaultNodeLabelExpression"] = qc.defaultNodeLabelExpression;
    j["isAutoCreatedLeafQueue"] = false;
    j["maxApplicationLifetime"] = -1;
    j["defaultApplicationLifetime"] = -1;
  }

  const CapacityScheduler& cs_;
  const ResourceCalculator& rc_;
  std::map<const CsQueue*, QueueCounts> counts_;
};

}  // namespace

json capacitySchedulerInfo(const CapacityScheduler& cs) { return CapacityViewBuilder(cs).root(); }

}  // namespace spindle
