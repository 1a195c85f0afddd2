// The read-only input of one preemption round: a copy of the Capacity Scheduler's queue tree,
// applications, containers and nodes, taken under the scheduler lock (YARN's
// TempQueuePerPartition is built from the same fields). Plain structs that a scheduler fills.
//
//   PreemptionSnapshot s;
//   s.clusterTotal = Resource::of(100, 100);
//   s.partitions = {{"", Resource::of(100, 100), true}};
//   QueueId root = s.addQueue("root", QueueId());
//   QueueId a = s.addQueue("root.a", root);
//   s.queues[a.value()].partitions[""] = {.guaranteed = ..., .max = ..., .used = ...};
//   // apps, containers, nodes ... then planPreemptionRound(s, scheduler.calculator(), settings)
//
// Contract (checked by validateSnapshot):
//  1. queues[0] is the root; every other queue's parent has a smaller index (pre-order), and
//     `children` lists the child indexes in configuration order.
//  2. A queue missing an entry for a partition has all-zero amounts there.
//  3. Leaf amounts are the scheduler's own; a parent's `pending` and `pendingDeductReserved`
//     are ignored and recomputed as the sum of its children (YARN does the same).
//  4. Every app belongs to a leaf; every container to an app and (unless reserved-only) a node;
//     containers of an app are listed in the app's `containers` in any order.
//  5. apps of a leaf are listed in `QueueSnapshot::appsInPreemptionOrder` in the order the
//     leaf's ordering policy would preempt them (getPreemptionIterator: reverse allocation
//     order; for FIFO the newest app first).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/ids.h"
#include "base/status.h"
#include "resource/resource.h"

namespace spindle::preemption {

struct PartitionInfo {
  std::string name;  // "" is the default partition
  Resource total;    // resources of all nodes in the partition
  bool exclusive = true;
};

// One (queue, partition) entry (the fields of YARN's TempQueuePerPartition).
struct QueuePartitionAmounts {
  Resource guaranteed;             // effective minimum resource, else total x absoluteCapacity
  Resource max;                    // effective maximum resource, else total x absoluteMaxCapacity
  Resource used;                   // includes AM containers
  Resource pending;                // leaf: pending considering user limit, reserved included
  Resource pendingDeductReserved;  // leaf: the same with reservations subtracted
  Resource reserved;
  Resource killable;  // lazy preemption: resources already marked killable
  // absoluteCapacity for the partition (YARN-11073 tiny-queue normalisation); negative means
  // derive it as guaranteed.memory / partition total.memory.
  double absoluteCapacity = -1;
  // Leaf only, for intra-queue preemption: each active user's limit on this partition
  // (LeafQueue.getResourceLimitForAllUsers), keyed by user name.
  std::map<std::string, Resource> userLimits;
};

struct QueueSnapshot {
  std::string path;
  QueueId parent;  // invalid for the root
  std::vector<QueueId> children;
  // The queue's own `disable_preemption` / `intra-queue-preemption.disable_preemption` if set;
  // unset means inherit from the parent (root defaults to false).
  std::optional<bool> disablePreemption;
  std::optional<bool> disableIntraQueuePreemption;
  // The queue's priority when its parent orders children by priority-utilization, else 0.
  int relativePriority = 0;
  std::map<std::string, QueuePartitionAmounts> partitions;
  // Leaf only: AM resource the FIFO selector spares (maxAMCapacityForThisQueue = cluster x
  // absoluteCapacity(default partition) x maximum-am-resource-percent).
  Resource amPreemptionAllowance;
  std::vector<AttemptId> appsInPreemptionOrder;  // leaf only (contract 5)
  bool isLeaf() const { return children.empty(); }
};

struct ContainerSnapshot {
  ContainerId id;
  NodeId node;              // where it runs (or is reserved)
  Resource size;            // allocated resource, or the reserved size of a reservation
  int requestPriority = 0;  // numerically larger = lower priority = preempted first
  bool isAm = false;
  bool isReservation = false;  // a reserved (not yet running) container
  bool killable = false;       // lazy preemption: already marked killable
  // Runs on a non-exclusive labelled node for a request that did not ask for that label.
  bool ignoresExclusivity = false;
  // When the container (or reservation) was created, on the scheduler's clock; the
  // queue-priority selector orders and ages reservations by it.
  int64_t creationTimeMs = 0;
};

struct AppSnapshot {
  AttemptId attempt;
  std::string name;  // for reports only
  QueueId queue;
  std::vector<ContainerSnapshot> containers;  // live and reserved
  // For intra-queue preemption: the app's priority, user and outstanding asks per partition.
  int priority = 0;
  std::string user;
  std::map<std::string, Resource> pending;
};

struct NodeSnapshot {
  NodeId id;
  std::string name;
  std::string partition;
  Resource unallocated;
  Resource killable;  // total of killable containers on the node
  // The node's reserved container (its app and id), if any.
  std::optional<ContainerId> reservedContainer;
};

// The resource calculator is not part of the snapshot: the scheduler passes its own calculator
// to planPreemptionRound, so allocation and preemption order resources the same way.
struct PreemptionSnapshot {
  int resourceTypeCount = 2;  // the registry's types (ResourceTypes::count())
  Resource clusterTotal;      // whole cluster, all partitions
  // yarn.scheduler.minimum-allocation-*; intra-queue userlimit_first spares one of it per app.
  Resource minimumAllocation;
  // The scheduler clock when the snapshot was taken (the core never reads a clock itself).
  int64_t nowMs = 0;
  std::vector<PartitionInfo> partitions;  // must include ""
  std::vector<QueueSnapshot> queues;      // pre-order, root first
  std::vector<AppSnapshot> apps;
  std::vector<NodeSnapshot> nodes;  // indexed by NodeId value
  // Apps (with their containers) and nodes left out: the queues' amounts alone, enough for the
  // ideal assignment. A round planned on such a snapshot selects nothing; when a selector
  // would have to look at containers, the plan says so (PreemptionPlan::needsDetail) and the
  // caller plans again on a full snapshot. YARN's selectors likewise visit containers only of
  // queues with something to obtain.
  bool queuesOnly = false;

  QueueId addQueue(std::string path, QueueId parent);
  const QueueSnapshot& queue(QueueId q) const { return queues[q.value()]; }
  const PartitionInfo* partition(const std::string& name) const;
  const NodeSnapshot* node(NodeId id) const;
};

// Checks the contract above; errors name the queue, app, container or node at fault.
Status validateSnapshot(const PreemptionSnapshot& s);

}  // namespace spindle::preemption
