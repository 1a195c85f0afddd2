// The FIFO scheduler: one queue, apps served strictly in submission order.
//
//   auto fifo = FifoScheduler::create(conf, clock, rng);   // reads yarn-site keys
//   fifo.value()->handle(NodeHeartbeat{"h1", {}});
//
// Mirrors YARN's FifoScheduler (FifoScheduler.assignContainers). On a node heartbeat:
//  1. Skip the node when its unallocated memory is below the minimum allocation.
//  2. For each app with pending asks, in ApplicationId order (= submission order):
//     a. skip it if it blacklisted the node or its rack;
//     b. for each scheduler key with an ANY count > 0, ascending: assign node-local, then
//        rack-local, then off-switch containers, all in the same heartbeat and with no delay
//        scheduling; each level places min(assignable, floor(free memory / ask memory))
//        containers (memory only, vcores ignored, as the DefaultResourceCalculator);
//     c. if a key got no container (or the node filter's constraint hook refused the node),
//        do not try the app's lower-priority keys ("do not assign out of order w.r.t.
//        priorities");
//     d. stop once the node's unallocated memory is below the minimum allocation.
// Every app's headroom is cluster total minus cluster used. No queues, limits, reservations
// or preemption. Spindle also honours relaxLocality here (rack-local needs the rack request's
// relaxLocality, off-switch the ANY request's), as the Capacity Scheduler does; see
// docs/compatibility.md. The blacklist, relaxLocality and constraint checks are the node
// filter's (node_filter.h). Apps without pending asks are kept out of the loop (an ordered
// index), so a heartbeat costs O(apps with pending asks), not O(all apps).
#pragma once

#include <memory>
#include <set>

#include "scheduler/scheduler.h"

namespace spindle {

class FifoScheduler final : public Scheduler {
 public:
  // Validates yarn-site keys (allocation bounds, resource types); FIFO always uses the
  // memory-only DefaultResourceCalculator.
  static Result<std::unique_ptr<FifoScheduler>> create(const Configuration& conf,
                                                       const Clock& clock, Rng& rng);
  FifoScheduler(SchedulerSettings settings, const Clock& clock, Rng& rng);

  const char* typeName() const override { return "fifoScheduler"; }
  std::optional<std::vector<AppId>> appsInQueue(std::string_view queue) const override;
  // Cluster total minus cluster used (FifoScheduler's headroom for every app).
  Resource headroom() const;
  std::optional<Resource> headroom(AppId id) const override;

  // O(1): an app has pending asks. A node below the minimum allocation allocates nothing and
  // records nothing (schedule() returns at once), so its empty heartbeat is a no-op too.
  bool hasPendingDemand() const override { return !pendingApps_.empty(); }
  bool emptyHeartbeatIsNoop(NodeId node) const override;

  static constexpr std::string_view kQueueName = "default";

 protected:
  Status admitApp(Application& app) override;
  void onAppRemoved(Application& app) override;
  void schedule(NodeId node) override;
  void onContainerAllocated(Application& app, const Container& c) override;
  void onContainerFinished(Application& app, const Container& c) override;
  void onAsksChanged(Application& app) override;
  Status checkSchedulerInvariants() const override;

 private:
  void scheduleApp(Application& app, NodeId node);
  int assignOnNode(Application& app, const SchedulerKey& key, NodeId node);
  int assignNodeLocal(Application& app, const SchedulerKey& key, NodeId node);
  int assignRackLocal(Application& app, const SchedulerKey& key, NodeId node);
  int assignOffSwitch(Application& app, const SchedulerKey& key, NodeId node);
  int assignContainers(Application& app, const SchedulerKey& key, NodeId node, int assignable,
                       Locality locality);
  int maxAllocatable(const Application& app, const SchedulerKey& key, NodeId node,
                     Locality locality) const;
  void explainNoAssignment(const Application& app, const SchedulerKey& key, NodeId node);
  bool belowMinimum(const Resource& free) const;
  void refreshPendingIndex(const Application& app);

  std::set<AppId> pendingApps_;  // apps with an ANY ask > 0, in id order
};

}  // namespace spindle
