// The Capacity Scheduler's formulas as pure functions: user limit, AM limits, delay-scheduling
// thresholds, the reservation starvation rule and headroom. After YARN's UsersManager, LeafQueue,
// FiCaSchedulerApp and RegularContainerAllocator (each function names its method).
//
//   UserLimitInputs in{.partitionResource = R, .queueGuaranteed = g, ...};
//   Resource ul = computeUserLimit(rc, in);                   // UsersManager.computeUserLimit
//   Resource mine = userLimitForWeight(rc, ul, 1.5, minAlloc); // per-user weight
//   bool ok = offSwitchAllowed({.uniqueLocations = 5, .clusterNodes = 3, .outstanding = 3,
//                               .missed = 4});                //
//                               RegularContainerAllocator.canAssign
//
// Every function copies YARN's arithmetic, including its float casts (noted where they matter),
// so that the numbers of the reference's worked examples come out exactly. Stateless; thread-safe.
#pragma once

#include <cstdint>

#include "resource/resource.h"
#include "resource/resource_calculator.h"

namespace spindle {

// YARN's SchedulingMode: RESPECT_PARTITION_EXCLUSIVITY first; IGNORE only on non-exclusive nodes.
enum class SchedulingMode { kRespectExclusivity, kIgnoreExclusivity };

struct UserLimitInputs {
  Resource partitionResource;    // R: the partition's total
  Resource queueGuaranteed;      // the queue's effective guaranteed resource on the partition
  Resource queueMaxDown;         // the queue's effective max, rounded down to minAlloc
  Resource minAlloc;             // `required` (always minAlloc, as in YARN)
  double consumedRatio = 0;      // Σ over users of used(P)/R (the calculator's ratio)
  Resource activeUsersUsed;      // used(P) summed over active users
  double activeUsersWeight = 0;  // W: Σ weights of active users
  double minimumUserLimitPercent = 100;
  double userLimitFactor = 1;
  SchedulingMode mode = SchedulingMode::kRespectExclusivity;
  // UsersManager's "all users" variant (getResourceLimitForAllUsers, read by intra-queue
  // preemption): U = CC instead of activeUsersUsed + minAlloc, and activeUsersWeight must hold
  // the weights of all the queue's users.
  bool allUsers = false;
};

// UsersManager.computeUserLimit (new formula), weight 1:
//  1. Q = max(guaranteed, minAlloc); C = multiplyAndNormalizeUp(R, Σratio, minAlloc);
//     CC = C < Q ? Q : C + minAlloc; U = activeUsersUsed + minAlloc;
//     UL = max(divideAndCeil(U, W), divideAndCeil(multiplyAndRoundDown(CC, MULP), 100));
//  2. cap: RESPECT: ULF = -1 or zero guarantee -> queue max (down), else roundDown(Q x ULF);
//     IGNORE: R;
//  3. roundUp(min(UL, cap), minAlloc).
Resource computeUserLimit(const ResourceCalculator& rc, const UserLimitInputs& in);

// computeUserLimit, last step: multiplyAndNormalizeDown(UL, weight, minAlloc); weight 1 returns UL
// unchanged.
Resource userLimitForWeight(const ResourceCalculator& rc, const Resource& userLimit, double weight,
                            const Resource& minAlloc);

// LeafQueue.getAMResourceLimitPerPartition: usable = queueCurrentLimit when the
// guarantee fits in it (default partition only), else the guarantee; the limit is
// multiplyAndNormalizeUp(usable, maxAmPercent, minAlloc).
Resource queueAmLimit(const ResourceCalculator& rc, const Resource& guaranteed,
                      const Resource& queueCurrentLimit, bool defaultPartition, double maxAmPercent,
                      const Resource& minAlloc);

// LeafQueue.getUserAMResourceLimitPerPartition, capped by the queue AM limit. Float
// arithmetic as YARN: effUL = min(max(MULP/100, 1/max(activeUsers, 1)) x weight, 1).
Resource userAmLimit(const ResourceCalculator& rc, const Resource& cluster,
                     const Resource& guaranteed, double maxAmPercent, double mulp, double ulf,
                     int activeUsers, double userWeight, const Resource& queueLimit,
                     const Resource& minAlloc);

// Delay scheduling (node-locality-delay, rack-locality-additional-delay),
// RegularContainerAllocator.canAssign.
struct OffSwitchInputs {
  int uniqueLocations = 1;  // request entries with a positive count (hosts + racks + ANY)
  int clusterNodes = 0;     // N
  int64_t outstanding = 0;  // ANY count
  int64_t missed = 0;       // schedulingOpportunities(key), already incremented
  int nodeLocalityDelay = 40;
  int rackLocalityAdditionalDelay = -1;
};
// The off-switch threshold as a float (min(N, outstanding x waitFactor)), or with the additional
// delay set, min(N, nodeLocalityDelay + additional).
double offSwitchThreshold(const OffSwitchInputs& in);
bool offSwitchAllowed(const OffSwitchInputs& in);
// Rack-local: missed > min(N, node-locality-delay).
int64_t rackLocalThreshold(int clusterNodes, int nodeLocalityDelay);

// FiCaSchedulerApp.shouldAllocOrReserveNewContainer: starvation + outstanding - reserved
// > 0, starvation = (int)((reReservations / reserved) x (1 - min(required/maxAlloc,
// minAllocFactor))).
bool shouldAllocOrReserveNewContainer(const ResourceCalculator& rc, int64_t outstanding,
                                      int reserved, int64_t reReservations,
                                      const Resource& required, const Resource& maxAlloc,
                                      const Resource& minAlloc);

// Headroom (LeafQueue.getHeadroom): componentwise min(userLimit - userUsed, queueLimit -
// queueUsed), floored at 0, rounded down to minAlloc, then min(…, partition free) by the
// calculator.
Resource capacityHeadroom(const ResourceCalculator& rc, const Resource& userLimit,
                          const Resource& userUsed, const Resource& queueLimit,
                          const Resource& queueUsed, const Resource& partitionResource,
                          const Resource& partitionUsed, const Resource& minAlloc);

}  // namespace spindle
