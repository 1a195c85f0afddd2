#include "scheduler/capacity/plan_queues.h"

#include <algorithm>

namespace spindle {
PartitionConfig reservationEntitlement(const QueueConfig& plan, const QueueEntitlement& e) {
  PartitionConfig pc = plan.partition(kDefaultPartition);
  pc.capacity = CapacityValue{CapacityMode::kPercent, e.capacity, -1, {}};
  pc.maximumCapacity = CapacityValue{CapacityMode::kPercent, e.maxCapacity, -1, {}};
  pc.relativeCapacity = e.capacity;
  // ReservationQueue.setEntitlement: parent's absolute capacity x capacity, in float.
  pc.absoluteCapacity =
      static_cast<float>(plan.partition(kDefaultPartition).absoluteCapacity) * e.capacity;
  pc.absoluteMaximumCapacity =
      static_cast<float>(plan.partition(kDefaultPartition).absoluteMaximumCapacity) * e.maxCapacity;
  return pc;
}

QueueConfig reservationQueueConfig(const QueueConfig& plan, const QueueEntitlement& e) {
  QueueConfig q = plan;
  q.path = plan.path + "." + e.queue;
  q.name = e.queue;
  q.parent = plan.path;
  q.children.clear();
  q.reservable = false;
  q.reservationQueue = true;
  // PlanQueue: maxAppsForReservation, and maxAppsPerUserForReservation derived from it.
  q.configuredMaximumApplications = plan.maximumApplications;
  q.partitions.clear();
  q.partitions[kDefaultPartition] = reservationEntitlement(plan, e);
  return q;
}

void expandPlanQueues(CapacityConfig& cfg,
                      const std::map<std::string, std::vector<QueueEntitlement>>& children) {
  std::vector<std::string> plans;
  for (const std::string& path : cfg.preorder) {
    if (cfg.queues.at(path).reservable) plans.push_back(path);
  }
  for (const std::string& path : plans) {
    // Idempotent: the plan's reservation queues of an earlier expansion go first.
    std::erase_if(cfg.preorder, [&](const std::string& p) {
      auto it = cfg.queues.find(p);
      if (it == cfg.queues.end() || !it->second.reservationQueue || it->second.parent != path) {
        return false;
      }
      if (auto n = cfg.leafByName.find(it->second.name);
          n != cfg.leafByName.end() && n->second == p) {
        cfg.leafByName.erase(n);
      }
      cfg.queues.erase(it);
      return true;
    });
    QueueConfig& plan = cfg.queues.at(path);
    std::vector<QueueEntitlement> queues;
    if (auto it = children.find(path); it != children.end()) {
      queues = it->second;
    } else {
      queues.push_back({plan.name + kDefaultReservationQueueSuffix, 1, 1});
    }
    if (auto leaf = cfg.leafByName.find(plan.name);
        leaf != cfg.leafByName.end() && leaf->second == path) {
      cfg.leafByName.erase(leaf);
    }
    auto at = std::find(cfg.preorder.begin(), cfg.preorder.end(), path) + 1;
    std::vector<std::string> added;
    for (const QueueEntitlement& e : queues) {
      QueueConfig q = reservationQueueConfig(cfg.queues.at(path), e);
      added.push_back(q.path);
      cfg.leafByName[q.name] = q.path;
      cfg.queues[q.path] = std::move(q);
    }
    cfg.queues.at(path).children = added;
    cfg.preorder.insert(at, added.begin(), added.end());
  }
}

}  // namespace spindle
