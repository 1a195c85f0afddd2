#include "dao/fair_view.h"

#include <algorithm>

#include "dao/rest_views.h"

namespace spindle {

using nlohmann::json;

namespace {

Resource cappedAtCluster(const ResourceLimit& limit, const Resource& cluster, int typeCount) {
  Resource r;
  for (int i = 0; i < typeCount; ++i) r.set(i, std::min(limit.get(i), cluster.get(i)));
  return r;
}

double fraction(int64_t num, int64_t den) {
  return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

json queueInfo(const FairScheduler& s, const fair::FsQueue& q,
               const std::unordered_map<const fair::FsQueue*, Resource>& steady) {
  const ResourceTypes& types = s.cluster().types();
  const Resource cluster = s.cluster().total();
  const Resource maxResources = cappedAtCluster(q.maxShare, cluster, types.count());
  const Resource& steadyFairShare = steady.at(&q);
  Resource reserved;
  std::vector<const fair::FsQueue*> stack = {&q};
  while (!stack.empty()) {
    const fair::FsQueue* x = stack.back();
    stack.pop_back();
    for (const auto* list : {&x->runnableApps, &x->nonRunnableApps}) {
      for (AppId id : *list) reserved += s.findApp(id)->reserved();
    }
    for (const auto& c : x->children()) stack.push_back(c.get());
  }
  json j = {
      {"queueName", q.path()},
      {"schedulingPolicy", fair::policyName(q.policy())},
      {"maxApps", q.maxRunningApps()},
      {"weight", q.weight()},
      {"preemptable", q.config().allowPreemptionFrom},
      {"minResources", resourceInfo(types, q.minShare)},
      {"maxResources", resourceInfo(types, maxResources)},
      {"usedResources", resourceInfo(types, q.usage)},
      {"demandResources", resourceInfo(types, q.demand)},
      {"steadyFairResources", resourceInfo(types, steadyFairShare)},
      {"fairResources", resourceInfo(types, q.fairShare)},
      {"clusterResources", resourceInfo(types, cluster)},
      {"reservedResources", resourceInfo(types, reserved)},
      {"fractionMemUsed", fraction(q.usage.memoryMb(), cluster.memoryMb())},
      {"fractionMemSteadyFairShare", fraction(steadyFairShare.memoryMb(), cluster.memoryMb())},
      {"fractionMemFairShare", fraction(q.fairShare.memoryMb(), cluster.memoryMb())},
      {"fractionMemMinShare", fraction(q.minShare.memoryMb(), cluster.memoryMb())},
      {"fractionMemMaxShare", fraction(maxResources.memoryMb(), cluster.memoryMb())}};
  if (q.isLeaf()) {
    int64_t active = 0, pending = static_cast<int64_t>(q.nonRunnableApps.size());
    for (AppId id : q.runnableApps) {
      if (s.findApp(id)->state() == AppState::RUNNING) {
        ++active;
      } else {
        ++pending;
      }
    }
    j["type"] = "fairSchedulerLeafQueueInfo";
    j["numActiveApps"] = active;
    j["numPendingApps"] = pending;
    j["amUsedResources"] = resourceInfo(types, q.amUsage);
    j["amMaxResources"] = resourceInfo(types, s.maxAmResource(q));
    return j;
  }
  json children = json::array();
  for (const auto& c : q.children()) children.push_back(queueInfo(s, *c, steady));
  j["childQueues"] = {{"queue", children}};
  return j;
}

}  // namespace

json fairSchedulerInfo(const FairScheduler& s) {
  return {{"type", s.typeName()},
          {"rootQueue", queueInfo(s, s.queues().root(), s.steadyFairShares())}};
}

}  // namespace spindle
