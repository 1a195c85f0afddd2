// The Fair Scheduler's queue tree (YARN's FSQueue / FSParentQueue / FSLeafQueue and
// QueueManager) and the per-app scheduler state it holds (the parts of FSAppAttempt that are
// not in spindle::Application: runnable flag, demand, fair share, delay-scheduling state).
//
//   auto cfg = std::make_shared<const AllocationConfig>(parsed.allocation);
//   FsQueueTree tree = FsQueueTree::build(cfg);
//   Result<FsQueue*> leaf = tree.leafForPlacement("root.alice");   // created when missing
//   tree.resolveShares(cluster, types.count());                    // min/max share vs cluster
//
// One FsQueue type serves both roles (isLeaf()); a leaf holds apps, a parent holds children.
// Invariants (checked by FairScheduler::checkSchedulerInvariants):
//  1. a leaf's usage is the sum of its apps' used resource, a parent's the sum of its children;
//  2. a leaf's amUsage is the sum of its apps' AM containers;
//  3. numRunnable of a leaf is runnableApps.size(), of a parent the sum over its children;
//  4. every app is in exactly one of its leaf's runnableApps / nonRunnableApps.
// Not thread-safe; owned by FairScheduler.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/hot_path.h"
#include "base/ids.h"
#include "base/status.h"
#include "resource/resource.h"
#include "scheduler/fair/config/allocation_config.h"
#include "scheduler/fair/locality_delay.h"
#include "scheduler/fair/policy/fair_share_policy.h"
#include "scheduler/fair/policy/schedulable.h"

namespace spindle {
class Application;
}  // namespace spindle

namespace spindle::fair {

class FsQueue;

// One member of a kept policy order (FairScheduler's fair_order.cc): the member and, under the
// fair policy, its comparator key, kept next to it so that a comparison reads one cache line.
// Aligned to a cache line and one line long: one entry is one cache line.
template <typename T>
struct alignas(kCacheLineSize) OrderEntry {
  FairShareKey key;
  T* member = nullptr;
};
static_assert(sizeof(OrderEntry<FsQueue>) == kCacheLineSize);
static_assert(alignof(OrderEntry<FsQueue>) == kCacheLineSize);

// FSAppAttempt's scheduler-side fields.
struct FsApp {
  // First, together, what every container reads (allocation and completion, the leaf's order);
  // the rest is in other cache lines.
  AppId id;
  bool runnable = false;
  bool hasPendingAsks = false;  // counted in FairScheduler's apps-with-pending-asks aggregate
  FsQueue* leaf = nullptr;
  Application* app = nullptr;  // the core's application (stable while the app is live)
  TimeMs startTime = 0;        // submission time (FSAppAttempt.getStartTime)
  uint32_t orderHint = 0;      // where the leaf's order last placed it (fair_order.cc)
  LocalityDelay locality;      // read at every scheduling opportunity
  // The policy view the leaf's app order is sorted by (FairScheduler's fair_order.cc).
  Schedulable view;
  std::string name;  // application_<ts>_<seq>: the comparators' last tie-break
  std::string user;
  Resource demand;                            // used + pending, refreshed by the update pass
  Resource fairShare;                         // instantaneous, from the leaf's policy
  std::set<ContainerId> markedForPreemption;  // this app's containers to be killed
  std::map<NodeId, SchedulerKey> reservedOn;  // nodes this app holds a reservation on
  // 3.x starvation and preemption (fair_preemption.cc).
  TimeMs lastTimeAtFairShare = 0;  // starts at startTime
  Resource fairshareStarvation;
  Resource minshareStarvation;
  TimeMs nextStarvationCheck = 0;
  Resource markedResource;  // the sum of markedForPreemption
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(FsApp, locality) + sizeof(LocalityDelay) <= kCacheLineSize);
#pragma GCC diagnostic pop

class FsQueue {
 public:
  FsQueue(FairQueueConfig cfg, FsQueue* parent, bool dynamic)
      : parent_(parent), policy_(cfg.policy), cfg_(std::move(cfg)), dynamic_(dynamic) {}

  const std::string& path() const { return cfg_.path; }
  const std::string& name() const { return cfg_.name; }
  const FairQueueConfig& config() const { return cfg_; }
  bool isLeaf() const { return cfg_.isLeaf(); }
  bool isDynamic() const { return dynamic_; }
  FsQueue* parent() const { return parent_; }
  const std::vector<std::unique_ptr<FsQueue>>& children() const { return children_; }
  // Both leave this queue's child order stale, with new members.
  FsQueue& addChild(FairQueueConfig cfg, bool dynamic);
  void removeChild(const FsQueue* child);

  // Whether minShare or maxShare is a percentage of the cluster (otherwise they never change
  // once resolved).
  bool sharesFollowCluster() const;

  PolicyKind policy() const { return policy_; }
  float weight() const { return cfg_.weight; }
  // A reservation queue's weight from its entitlement (the plan follower); leaves the orders
  // of this queue and its ancestors stale.
  void setWeight(float w) {
    cfg_.weight = w;
    ordersChanged();
  }
  int32_t maxRunningApps() const { return cfg_.maxRunningApps; }
  float maxAMShare() const { return cfg_.maxAMShare; }

  // The fields every container reads or writes (usage charged up the path, orders checked,
  // the descent's max-share check) come first, together: the queue's other fields are in other
  // cache lines.
 private:
  FsQueue* parent_;
  PolicyKind policy_;  // cfg_.policy

 public:
  // Aggregates (see the invariants above).
  Resource usage;
  bool orderStale = true;
  bool membersChanged = true;  // children or runnable apps changed since the order was built
  uint64_t orderEpoch = 0;     // FairScheduler's epoch the order was built in
  uint32_t orderHint = 0;      // where the parent's order last placed this queue
  // The policy orders the assignment descent walks (kept by FairScheduler, fair_order.cc):
  // a parent's children, a leaf's runnable apps, each sorted by the members' views with the
  // queue's policy. An order is rebuilt before use when stale; the scheduler moves a member
  // whose usage changed by one container in place.
  std::vector<OrderEntry<FsQueue>> childOrder;  // parents
  std::vector<OrderEntry<FsApp>> appOrder;      // leaves
  // Resolved against the cluster by FsQueueTree::resolveShares.
  ResourceLimit maxShare = ResourceLimit::unbounded();
  Resource minShare;
  Resource amUsage;  // leaves only
  // Leaves: its apps (runnable or not) whose asks have something pending (FsApp::
  // hasPendingAsks); the assignment walk stops once it has passed that many.
  int32_t appsWithPendingAsks = 0;
  Resource demand;          // refreshed by the update pass, capped at maxShare
  Resource fairShare;       // instantaneous; steady shares: FairScheduler::steadyFairShares()
  int32_t numRunnable = 0;  // including subqueues
  std::optional<TimeMs> lastTimeAtMinShare;  // leaves: min-share starvation clock
  std::vector<AppId> runnableApps;           // leaves: in the order they became runnable
  std::vector<AppId> nonRunnableApps;        // leaves: in submission order
  Schedulable view;  // this queue's view in its parent's order (see childOrder above)

  int32_t numApps() const {
    return static_cast<int32_t>(runnableApps.size() + nonRunnableApps.size());
  }
  // FSQueue.fitsInMaxShare: usage + additional within the max share here and at every ancestor.
  bool fitsInMaxShare(const Resource& additional) const;
  // Adds `delta` (may be negative) to usage here and at every ancestor, and leaves the orders
  // of this queue and its ancestors stale (FairScheduler's per-container path updates usage and
  // the orders itself).
  void addUsage(const Resource& delta, int sign);
  // As addUsage for numRunnable; the leaf's order also has new members (its runnable apps
  // change with it).
  void addRunnable(int delta);
  // Marks the orders of this queue and of every ancestor stale.
  void ordersChanged();

 private:
  FairQueueConfig cfg_;
  bool dynamic_;
  std::vector<std::unique_ptr<FsQueue>> children_;  // in file (then creation) order
};
// The per-container fields, parent_ .. maxShare, span at most four cache lines.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(FsQueue, maxShare) + sizeof(ResourceLimit) <= 4 * kCacheLineSize);
#pragma GCC diagnostic pop

class FsQueueTree {
 public:
  // Every queue of the configuration, in file order. Queues whose policy the config marked as
  // not allowed (policyAllowed=false) and their subtrees are left out, as YARN does at first
  // load.
  static FsQueueTree build(std::shared_ptr<const AllocationConfig> config);

  FsQueue& root() { return *root_; }
  const FsQueue& root() const { return *root_; }
  const AllocationConfig& config() const { return *config_; }
  std::shared_ptr<const AllocationConfig> configPtr() const { return config_; }
  FsQueue* find(const std::string& path) const;
  // QueueManager.getLeafQueue(name, create=true): the existing leaf, or a new dynamic leaf with
  // any missing parents. Errors for a parent, a path under a leaf, or a malformed name.
  Result<FsQueue*> leafForPlacement(const std::string& path);
  // Existing queues by type, for placement rules and classifyPlacementTarget.
  QueueCatalog existing() const;
  // Root first, children in order.
  std::vector<FsQueue*> preorder() const;
  // Resolves every queue's min and max share (percentages are of the cluster). After the first
  // call only the queues whose shares are percentages are re-resolved (the others do not depend
  // on the cluster): a node added to a large cluster no longer walks every queue.
  void resolveShares(const Resource& cluster, int typeCount);
  // QueueManager.removeEmptyDynamicQueues (YARN-8191): dynamic leaves without apps and dynamic
  // parents without children are removed, bottom-up. Returns whether anything was removed.
  bool removeEmptyDynamicQueues();
  // The nearest queue on the path that the allocation file configures (for ACLs).
  const FsQueue* nearestConfigured(const FsQueue* q) const;

  // Reservation queues (FairSchedulerPlanFollower's QueueManager calls): a plan queue (a leaf
  // with <reservation> in the file) runs as a parent holding `<plan>-default` from the start
  // (build); the follower adds and removes its other children, leaves configured as the file's
  // ad hoc queues under the plan but never removed as empty dynamic queues.
  FsQueue& addReservationQueue(FsQueue& plan, const std::string& name);
  // `q` must hold no app.
  void removeReservationQueue(FsQueue& q);

 private:
  FairQueueConfig dynamicConfig(const FsQueue& parent, const std::string& name, bool leaf) const;
  void resolveOne(FsQueue& q);

  std::shared_ptr<const AllocationConfig> config_;
  std::unique_ptr<FsQueue> root_;
  void noteCreated(FsQueue& q);

  std::map<std::string, FsQueue*> byPath_;
  std::vector<FsQueue*> followCluster_;  // the queues whose sharesFollowCluster()
  Resource cluster_;
  int typeCount_ = 2;
  bool resolved_ = false;  // every queue resolved once against cluster_ and typeCount_
};

}  // namespace spindle::fair
