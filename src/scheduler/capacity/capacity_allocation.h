// One allocation pass on one node: YARN's CapacityScheduler.allocateContainersToNode with
// ParentQueue / LeafQueue.assignContainers and RegularContainerAllocator (with delay
// scheduling). Internal to the Capacity Scheduler; see capacity_scheduler.h for the algorithm.
//
//   CapacityAllocator pass(cs, node);
//   int assigned = pass.run();   // containers and reservations made on the node
//
// Lives for one call; holds no state between heartbeats (that lives in the scheduler).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {

class CapacityAllocator {
 public:
  CapacityAllocator(CapacityScheduler& cs, NodeId node);
  // The heartbeat's multi-assignment loop; returns the number of assignments.
  int run();
  // The placement processor's commit of one container of the app's ask at `key` (count 1) on
  // this node, outside the queue walk (CapacityScheduler.attemptAllocationOnNode → tryCommit):
  // the node must have room, the app's user must not be over its limit (LeafQueue.accept) and
  // no queue on the path may pass its maximum (AbstractCSQueue.accept). True when allocated.
  bool commitPlacement(CsApp& s, const SchedulerKey& key);

 private:
  // YARN's AllocationState plus the leaf's skip kinds.
  enum class State {
    kNone,
    kAllocated,
    kReserved,
    kAppSkipped,
    kQueueSkipped,
    kPrioritySkipped,
    kLocalitySkipped
  };
  struct Outcome {
    State state = State::kNone;
    Locality locality = Locality::kOffSwitch;
    Resource blockedHeadroom;  // kQueueSkipped: the headroom the parent may not use
    static Outcome of(State s, Locality l = Locality::kOffSwitch) {
      Outcome o;
      o.state = s;
      o.locality = l;
      return o;
    }
    bool assigned() const { return state == State::kAllocated || state == State::kReserved; }
  };
  // YARN's ResourceLimits.
  struct Limits {
    Resource limit;
    Resource headroom;
    Resource amountNeededUnreserve;
    Resource blockedHeadroom;
  };

  bool serveReservation();
  Outcome assignRoot(SchedulingMode mode);
  Outcome assignParent(CsQueue& q, Limits& limits, SchedulingMode mode);
  Outcome assignLeaf(CsQueue& q, Limits& limits, SchedulingMode mode);
  // Starts loading what assignLeaf reads first: the leaf's hot group and its first schedulable
  // app (record, user, asks).
  void prefetchLeaf(const CsQueue& leaf) const;
  const std::set<std::string>* enforcedPartitions(const CsQueue& q) const;
  bool enforcedPartitionAdmits(const std::set<std::string>& enforced, const CsApp& s) const;
  Outcome assignApp(CsApp& s, Limits& limits, SchedulingMode mode);
  Outcome allocateKey(CsApp& s, const SchedulerKey& key, Limits& limits, SchedulingMode mode);
  Outcome assignOnNode(CsApp& s, const SchedulerKey& key, Limits& limits, SchedulingMode mode,
                       bool reservedHere);
  Outcome assignContainer(CsApp& s, const SchedulerKey& key, Locality locality, Limits& limits,
                          SchedulingMode mode, bool reservedHere);
  Outcome commitAllocation(CsApp& s, const SchedulerKey& key, Locality locality,
                           SchedulingMode mode, bool reservedHere, std::optional<NodeId> swap);
  Outcome commitReservation(CsApp& s, const SchedulerKey& key, Locality locality,
                            SchedulingMode mode, bool reservedHere);

  bool hasPendingFor(const CsQueue& q, SchedulingMode mode) const;
  bool appHasPendingFor(const CsApp& s, SchedulingMode mode) const;
  bool canAssignToThisQueue(const CsQueue& q, Limits& limits, const Resource& couldUnreserve,
                            SchedulingMode mode) const;
  bool canAssignToUser(const CsQueue& leaf, const CsApp& s, const Resource& limit,
                       Limits& limits) const;
  Resource userLimitFor(const CsQueue& leaf, const CsUser& user, SchedulingMode mode);
  bool acceptable(CsApp& s, const SchedulerKey& key, const Resource& net, SchedulingMode mode);
  std::optional<NodeId> findNodeToUnreserve(const CsApp& s, const SchedulerKey& key,
                                            const Resource& amount) const;
  bool shouldAllocOrReserve(const CsApp& s, const SchedulerKey& key, const Resource& cap) const;
  std::string keyPartition(const CsApp& s, const SchedulerKey& key) const;
  void skip(const CsApp& s, const SchedulerKey& key, SkipReason why, std::string text,
            std::vector<std::pair<std::string, double>> numbers = {});

  CapacityScheduler& cs_;
  const ResourceCalculator& rc_;
  const CapacityConfig& cfg_;
  NodeId nodeId_;
  const Node& node_;
  const NodeFilter& filter_;  // the scheduler's: blacklist, partition, relaxLocality, constraints
  const std::string& partition_;  // the node's (nodes outlive a pass)
  Resource R_;                    // the node's partition resource
  Resource cluster_;              // the cluster total (the calculators' "clusterResource")
  Resource minAlloc_;
  int numNodes_;
  bool continueLooking_;  // reservations-continue-look-all-nodes, default partition only
  // Per leaf call: user -> limit (YARN's local userLimits map).
  std::vector<std::pair<const CsUser*, Resource>> userLimits_;
};

}  // namespace spindle
