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

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/hot_path.h"
#include "base/ids.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"
#include "scheduler/capacity/config/capacity_config.h"
#include "scheduler/capacity/queue_ordering.h"

namespace spindle {

// A map from partition name to T for the handful of partitions a cluster has, searched
// linearly (the default partition is nearly always first), which the hot path reads far faster
// than a std::map. The first entry lives inline in the map object, so a queue's, user's or
// app's default-partition figures sit in the owning object's memory, not in a separate heap
// block (one cache miss less per lookup on the allocation path); later entries go to a vector.
// Iteration is in insertion order. References to the first entry stay valid as entries are
// added; references to later ones are invalidated, as a vector's.
template <typename T>
class PartitionMap {
 public:
  using Entry = std::pair<std::string, T>;

  template <bool Const>
  class Iter {
   public:
    using Map = std::conditional_t<Const, const PartitionMap, PartitionMap>;
    using value_type = Entry;
    using reference = std::conditional_t<Const, const Entry&, Entry&>;
    using pointer = std::conditional_t<Const, const Entry*, Entry*>;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;
    Iter() = default;
    Iter(Map* m, size_t i) : m_(m), i_(i) {}
    operator Iter<true>() const { return Iter<true>(m_, i_); }  // NOLINT: iterator -> const
    reference operator*() const { return m_->at(i_); }
    pointer operator->() const { return &m_->at(i_); }
    Iter& operator++() {
      ++i_;
      return *this;
    }
    Iter operator++(int) {
      Iter old = *this;
      ++i_;
      return old;
    }
    bool operator==(const Iter& o) const { return i_ == o.i_; }

   private:
    Map* m_ = nullptr;
    size_t i_ = 0;
  };
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  // The first entry is checked inline (the hot path's default partition); the rest out of line.
  T& operator[](const std::string& p) {
    if (size_ > 0 && first_.first == p) return first_.second;
    return subscriptSlow(p);
  }
  iterator find(const std::string& p) { return iterator(this, indexOf(p)); }
  const_iterator find(const std::string& p) const { return const_iterator(this, indexOf(p)); }
  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, size_); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size_); }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  void clear() {
    first_ = Entry();
    rest_.clear();
    size_ = 0;
  }
  bool operator==(const PartitionMap& o) const {
    if (size_ != o.size_) return false;
    for (size_t i = 0; i < size_; ++i) {
      if (!(at(i) == o.at(i))) return false;
    }
    return true;
  }

 private:
  Entry& at(size_t i) { return i == 0 ? first_ : rest_[i - 1]; }
  const Entry& at(size_t i) const { return i == 0 ? first_ : rest_[i - 1]; }
  size_t indexOf(const std::string& p) const {
    if (size_ > 0 && first_.first == p) return 0;
    return indexOfSlow(p);
  }
  [[gnu::noinline]] size_t indexOfSlow(const std::string& p) const {
    for (size_t i = 1; i < size_; ++i) {
      if (at(i).first == p) return i;
    }
    return size_;
  }
  [[gnu::noinline]] T& subscriptSlow(const std::string& p) {
    for (size_t i = 1; i < size_; ++i) {
      if (at(i).first == p) return at(i).second;
    }
    if (size_ == 0) {
      first_ = Entry(p, T{});
    } else {
      rest_.emplace_back(p, T{});
    }
    ++size_;
    return at(size_ - 1).second;
  }

  Entry first_{};
  std::vector<Entry> rest_;
  size_t size_ = 0;
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
  Resource effectiveMin;  // absCapacity x partition resource (configured in absolute mode)
  Resource effectiveMax;  // absMaxCapacity x partition resource
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
  PartitionMap<Resource> used;     // by partition, with reservations
  PartitionMap<Resource> amUsed;   // by AM partition
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

struct CsApp;

class CsQueue {
 public:
  CsQueue(const QueueConfig& cfg, CsQueue* parent) : parent_(parent), cfg_(cfg) {
    fairPolicy = cfg_.orderingPolicy == "fair";
    priorityUtilization = cfg_.orderingPolicy == "priority-utilization";
    fifoWithPartitions = cfg_.orderingPolicy == "fifo-with-partitions";
    hasDefaultNodeLabel = !cfg_.defaultNodeLabelExpression.empty();
    userLimitFactor = cfg_.userLimitFactor;
    minimumUserLimitPercent = cfg_.minimumUserLimitPercent;
    depth_ = parent_ ? parent_->depth_ + 1 : 0;
  }

  const std::string& path() const { return cfg_.path; }
  const std::string& name() const { return cfg_.name; }
  const QueueConfig& config() const { return cfg_; }
  bool isLeaf() const { return children_.empty(); }
  CsQueue* parent() const { return parent_; }
  const std::vector<CsQueue*>& children() const { return children_; }
  void addChild(CsQueue* c) {
    c->indexInParent = static_cast<int>(children_.size());
    children_.push_back(c);
    childKeys.emplace_back();
    childKeys.back().queue = c;
  }
  // Drops child `c` with its ordering key (the tree's removeLeaf).
  void removeChild(CsQueue* c);
  // Puts the children in `order`, a permutation of children(), their keys with them.
  void reorderChildren(const std::vector<CsQueue*>& order);
  // A reservation queue's new entitlement: its default partition's configuration
  // (ReservationQueue.setEntitlement); the only configuration change a queue sees in place.
  void setEntitlement(const PartitionConfig& pc) { cfg_.partitions[kDefaultPartition] = pc; }
  int depth() const { return depth_; }

  // The default partition's ordering data of each child (parallel to children()), kept in step
  // with usage by the scheduler, so that choosing a child reads one small array instead of ten
  // queues (the hot path of every allocation); ranked as is by compareQueues.
  struct ChildKey : QueueSortEntry {
    bool pending = false;  // the child has pending demand on the default partition
    bool leaf = false;     // the child is a leaf (known without touching the child)
  };

  // Inline: the allocation path reads them for every queue it passes.
  const ResolvedCapacity& cap(const std::string& p) const {
    auto it = caps.find(p);
    return it == caps.end() ? noCapacity() : it->second;
  }
  QueueUsage& usage(const std::string& p) { return usages[p]; }
  const QueueUsage& usage(const std::string& p) const {
    auto it = usages.find(p);
    return it == usages.end() ? noUsage() : it->second;
  }
  static const ResolvedCapacity& noCapacity();  // of a partition the queue has no entry for
  static const QueueUsage& noUsage();
  CsUser& user(const std::string& name);
  double userWeight(const std::string& user) const;
  Resource activeUsersUsed(const std::string& p) const {
    auto it = activeUsed.find(p);
    return it == activeUsed.end() ? Resource() : it->second;
  }
  float usageRatio(const std::string& p) const {
    auto it = usageRatioSum.find(p);
    return it == usageRatioSum.end() ? 0.0f : it->second;
  }

  // The members are in two groups. The hot group, first, holds what an allocation or a release
  // on the default partition reads or writes (the leaf's are cold between two visits, so they
  // share as few cache lines as possible and are prefetched together: prefetchHot()); the cold
  // group, last, what only admission, activation, refresh and the views use.
 private:
  CsQueue* parent_;
  std::vector<CsQueue*> children_;
  int depth_ = 0;

 public:
  int indexInParent = -1;
  // The ordering policy, decoded once (hot path).
  bool fairPolicy = false;           // leaf: `fair`
  bool priorityUtilization = false;  // parent: `priority-utilization`
  bool fifoWithPartitions = false;   // leaf: `fifo-with-partitions`
  // Leaf settings the allocation path reads, copied from config() (which never changes).
  bool hasDefaultNodeLabel = false;  // default-node-label-expression set
  double userLimitFactor = 1.0;
  double minimumUserLimitPercent = 100;
  QueueRunState state = QueueRunState::kRunning;
  std::vector<ChildKey> childKeys;
  // compareQueues on childKeys is a plain (usedCapacity, -absCapacity) order: the policy
  // ignores priorities and every child has a capacity > 0 and no absolute minimum. Set on every
  // cluster change (the keys' other inputs change only then).
  bool simpleChildOrder = false;
  // The default partition's effectiveMin cannot divide (invalid divisor or zero): the used
  // capacity in the parent's key is then 0. Set on every cluster change, as the capacities.
  bool noMinDivisor = true;
  // Per partition ("" always present after resolve()).
  PartitionMap<ResolvedCapacity> caps;
  PartitionMap<QueueUsage> usages;
  // --- Leaf state ---
  std::set<AppOrderKey> schedulable;  // active apps with outstanding asks, in policy order
  // The first app of `schedulable` (nullptr when empty), kept in step by the scheduler at every
  // change of the set: the allocation path prefetches it with the leaf.
  const CsApp* head = nullptr;
  int activeUsers = 0;
  double activeUsersWeight = 0;
  // Kept in step incrementally, as YARN's UsersManager does (invariants checked by the
  // scheduler): Σ users' usageRatio, and Σ active users' used, per partition.
  PartitionMap<float> usageRatioSum;
  PartitionMap<Resource> activeUsed;
  // The default partition's current limit (YARN's queueResourceLimitsInfo.queueCurrentLimit),
  // set on every cluster change to the queue's max, capped by its parent's, rounded down.
  Resource currentLimit;
  // The leaf's maximum allocation (maximum-allocation-mb/-vcores or the cluster's).
  Resource maximumAllocation;

  // Starts loading the hot group (base/hot_path.h's prefetchRange). The allocation path calls
  // it on the leaf it is about to use: leaves are cold between two visits (1,000 leaves).
  void prefetchHot() const {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    // maximumAllocation is the hot group's last member: the range below covers the group.
    static_assert(offsetof(CsQueue, maximumAllocation) + sizeof(Resource) ==
                  offsetof(CsQueue, numApplications));
#pragma GCC diagnostic pop
    prefetchRange(this, reinterpret_cast<const char*>(&maximumAllocation + 1) -
                            reinterpret_cast<const char*>(this));
  }

  // --- Cold group ---
  // Apps in the subtree: active + pending + non-runnable.
  int numApplications = 0;
  int numRunnable = 0;  // active + pending in the subtree (max-parallel-apps)
  std::map<std::string, CsUser> users;
  std::set<AppOrderKey> pendingApps;  // runnable, waiting for the AM limit (FIFO by priority)
  std::set<AppId> activeApps;
  std::set<AppId> nonRunnableApps;
  // maximum-applications and its per-user derivation in force: the configured or derived values,
  // re-derived from the resolved capacity for absolute-mode queues (updateMaximumApplications).
  int32_t maxApplications = 0;
  int32_t maxApplicationsPerUser = 0;
  // AM limits per partition as of the last activation pass (REST view).
  PartitionMap<Resource> amLimits;

 private:
  QueueConfig cfg_;
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
  // The same for one queue whose parent is resolved (a reservation queue created or resized).
  static void resolveQueue(CsQueue& q, const ResourceCalculator& rc,
                           const std::map<std::string, Resource>& partitions,
                           const Resource& minAlloc, const Resource& clusterMaxAlloc);

  // In-place edits of a parent whose children are all leaves (a plan queue's reservation
  // queues; PlanQueue.addChildQueue / removeChildQueue), keeping preorder() and leaves() in
  // step. The caller resolves a new leaf and keeps the scheduler's caches.
  //  addLeaf: a new last child of `parent` (which has at least one child), with a copy of
  //    `cfg`;
  //  removeLeaf: deletes `leaf` (empty: no apps, no usage);
  //  reorderLeafChildren: `order` must be a permutation of parent->children().
  CsQueue* addLeaf(const QueueConfig& cfg, CsQueue* parent);
  void removeLeaf(CsQueue* leaf);
  void reorderLeafChildren(CsQueue* parent, const std::vector<CsQueue*>& order);
  // The child of `parent` named `name`, or nullptr.
  CsQueue* child(const CsQueue& parent, const std::string& name) const;

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
