// The Capacity Scheduler's runtime queue tree: YARN's ParentQueue / LeafQueue state without the
// allocation logic (capacity_allocation.cc holds that). Each queue keeps, per partition, its
// resolved capacities and its usage aggregates; a leaf also keeps its users and its apps.
//
//   QueueTree tree = QueueTree::build(config);          // from a validated CapacityConfig
//   tree.resolve(rc, partitionResources, minAlloc);      // on every cluster change
//   CsQueue* a1 = tree.find("root.a.a1");                // by path or unique leaf name
//   a1->usage("").used;                                  // allocated + reserved, as YARN
//
// Invariants (QueueTree::check, run from CapacityScheduler::checkSchedulerInvariants):
//  1. for a parent and partition p: used, reserved, pending and amUsed equal the sums over its
//     children;
//  2. for a leaf and partition p: used equals the sum over its users' used, and equals the sum
//     of its apps' containers on p-nodes plus their reservations on p-nodes;
//  3. reserved <= used componentwise; nothing is negative;
//  4. numApplications = active + pending + non-runnable apps (a parent: sum of its children).
// Not thread-safe; owned by the CapacityScheduler.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/ids.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"
#include "scheduler/capacity/config/capacity_config.h"

namespace spindle {

// A map from partition name to T for the handful of partitions a cluster has: a vector
// searched linearly (the default partition is nearly always first), which the hot path reads
// far faster than a std::map. Iteration is in insertion order.
template <typename T>
class PartitionMap {
 public:
  using Entry = std::pair<std::string, T>;
  using iterator = typename std::vector<Entry>::iterator;
  using const_iterator = typename std::vector<Entry>::const_iterator;
  T& operator[](const std::string& p) {
    for (Entry& e : v_) {
      if (e.first == p) return e.second;
    }
    v_.emplace_back(p, T{});
    return v_.back().second;
  }
  iterator find(const std::string& p) {
    for (auto it = v_.begin(); it != v_.end(); ++it) {
      if (it->first == p) return it;
    }
    return v_.end();
  }
  const_iterator find(const std::string& p) const {
    for (auto it = v_.begin(); it != v_.end(); ++it) {
      if (it->first == p) return it;
    }
    return v_.end();
  }
  iterator begin() { return v_.begin(); }
  iterator end() { return v_.end(); }
  const_iterator begin() const { return v_.begin(); }
  const_iterator end() const { return v_.end(); }
  bool empty() const { return v_.empty(); }
  void clear() { v_.clear(); }
  bool operator==(const PartitionMap&) const = default;

 private:
  std::vector<Entry> v_;
};

// One partition's capacities of a queue, resolved (QueueCapacities in YARN). Fractions, as the
// CSQueue getters; the REST view prints them in percent.
struct ResolvedCapacity {
  double capacity = 0;        // of the parent
  double maxCapacity = 1;     // of the parent
  double absCapacity = 0;     // of the partition
  double absMaxCapacity = 1;  // of the partition
  double maxAmPercent = 0.1;
  double weight = -1;
  Resource effectiveMin;      // absCapacity x partition resource (configured in absolute mode)
  Resource effectiveMax;      // absMaxCapacity x partition resource
};

// One partition's usage of a queue (YARN's ResourceUsage).
struct QueueUsage {
  Resource used;      // containers + reservations on nodes of the partition
  Resource reserved;  // reservations only (also counted in used)
  Resource pending;   // outstanding asks for the partition
  Resource amUsed;    // AM resources of active apps whose AM partition this is
};

// A user of a leaf queue (UsersManager.User).
struct CsUser {
  std::string name;
  double weight = 1;
  PartitionMap<Resource> used;    // by partition, with reservations
  PartitionMap<Resource> amUsed;  // by AM partition
  PartitionMap<float> usageRatio;  // used / partition resource (UsersManager)
  int activeApps = 0;
  int pendingApps = 0;      // runnable, waiting for the AM limit
  int nonRunnableApps = 0;  // over max-parallel-apps
  int appsWithPending = 0;  // active apps with outstanding asks: the user is "active" when > 0
  int totalApps() const { return activeApps + pendingApps + nonRunnableApps; }
  Resource usedIn(const std::string& p) const {
    auto it = used.find(p);
    return it == used.end() ? Resource() : it->second;
  }
  Resource amUsedIn(const std::string& p) const {
    auto it = amUsed.find(p);
    return it == amUsed.end() ? Resource() : it->second;
  }
};

// The position of an app in a leaf's ordering policy: (primary, secondary, id) ascending.
// fifo: (-priority, 0); fair: (used memory or size-weighted magnitude, 0).
struct AppOrderKey {
  double primary = 0;
  int64_t secondary = 0;
  AppId app;
  auto operator<=>(const AppOrderKey&) const = default;
};

enum class QueueRunState { kRunning, kStopped, kDraining };
const char* toString(QueueRunState s);  // "RUNNING", "STOPPED", "DRAINING"

class CsQueue {
 public:
  CsQueue(const QueueConfig& cfg, CsQueue* parent) : cfg_(cfg), parent_(parent) {
    fairPolicy = cfg_.orderingPolicy == "fair";
    priorityUtilization = cfg_.orderingPolicy == "priority-utilization";
  }

  const std::string& path() const { return cfg_.path; }
  const std::string& name() const { return cfg_.name; }
  const QueueConfig& config() const { return cfg_; }
  // The ordering policy, decoded once (hot path).
  bool fairPolicy = false;           // leaf: `fair`
  bool priorityUtilization = false;  // parent: `priority-utilization`
  bool isLeaf() const { return children_.empty(); }
  CsQueue* parent() const { return parent_; }
  const std::vector<CsQueue*>& children() const { return children_; }
  void addChild(CsQueue* c) {
    c->indexInParent = static_cast<int>(children_.size());
    children_.push_back(c);
    childKeys.emplace_back();
  }

  // The default partition's ordering data of each child (parallel to children()), kept in step
  // with usage by the scheduler, so that choosing a child reads one small array instead of ten
  // queues (the hot path of every allocation).
  struct ChildKey {
    float absCapacity = 0;
    float usedCapacity = 0;
    float absUsedCapacity = 0;
    int priority = 0;
    bool pending = false;
    bool hasConfiguredMin = false;
  };
  std::vector<ChildKey> childKeys;
  int indexInParent = -1;
  int depth() const { return parent_ ? parent_->depth() + 1 : 0; }

  QueueRunState state = QueueRunState::kRunning;

  // Per partition ("" always present after resolve()).
  PartitionMap<ResolvedCapacity> caps;
  PartitionMap<QueueUsage> usages;
  const ResolvedCapacity& cap(const std::string& p) const;
  QueueUsage& usage(const std::string& p) { return usages[p]; }
  const QueueUsage& usage(const std::string& p) const;

  // Apps in the subtree: active + pending + non-runnable.
  int numApplications = 0;
  int numRunnable = 0;  // active + pending in the subtree (max-parallel-apps)

  // --- Leaf state ---
  std::map<std::string, CsUser> users;
  CsUser& user(const std::string& name);
  std::set<AppOrderKey> schedulable;  // active apps with outstanding asks, in policy order
  std::set<AppOrderKey> pendingApps;  // runnable, waiting for the AM limit (FIFO by priority)
  std::set<AppId> activeApps;
  std::set<AppId> nonRunnableApps;
  int activeUsers = 0;
  double activeUsersWeight = 0;
  // Kept in step incrementally, as YARN's UsersManager does (invariants checked by the
  // scheduler): Σ users' usageRatio, and Σ active users' used, per partition.
  PartitionMap<float> usageRatioSum;
  PartitionMap<Resource> activeUsed;
  Resource activeUsersUsed(const std::string& p) const {
    auto it = activeUsed.find(p);
    return it == activeUsed.end() ? Resource() : it->second;
  }
  float usageRatio(const std::string& p) const {
    auto it = usageRatioSum.find(p);
    return it == usageRatioSum.end() ? 0.0f : it->second;
  }
  double userWeight(const std::string& user) const;
  // The default partition's current limit (YARN's queueResourceLimitsInfo.queueCurrentLimit),
  // set on every cluster change to the queue's max, capped by its parent's, rounded down.
  Resource currentLimit;
  // maximum-applications and its per-user derivation in force: the configured or derived values,
  // re-derived from the resolved capacity for absolute-mode queues (updateMaximumApplications).
  int32_t maxApplications = 0;
  int32_t maxApplicationsPerUser = 0;
  // The leaf's maximum allocation (maximum-allocation-mb/-vcores or the cluster's).
  Resource maximumAllocation;
  // AM limits per partition as of the last activation pass (REST view).
  PartitionMap<Resource> amLimits;

 private:
  QueueConfig cfg_;
  CsQueue* parent_;
  std::vector<CsQueue*> children_;
};

class QueueTree {
 public:
  static std::unique_ptr<QueueTree> build(const CapacityConfig& cfg);

  CsQueue* root() const { return root_; }
  // By full path, or by short name when that names exactly one queue.
  CsQueue* find(const std::string& nameOrPath) const;
  const std::vector<CsQueue*>& preorder() const { return preorder_; }
  const std::vector<CsQueue*>& leaves() const { return leaves_; }

  // Resolves every queue's capacities for every partition in `partitions` (name -> resource),
  // top down (percent, weight and absolute modes), and each leaf's current limit and maximum
  // allocation.
  void resolve(const ResourceCalculator& rc, const std::map<std::string, Resource>& partitions,
               const Resource& minAlloc, const Resource& clusterMaxAlloc);

  // Invariants 1, 3 and 4 (the app-level parts of 2 are checked by the scheduler).
  Status check() const;

 private:
  std::vector<std::unique_ptr<CsQueue>> owned_;
  std::map<std::string, CsQueue*> byPath_;
  std::map<std::string, std::vector<CsQueue*>> byName_;
  std::vector<CsQueue*> preorder_;
  std::vector<CsQueue*> leaves_;
  CsQueue* root_ = nullptr;
};

}  // namespace spindle
