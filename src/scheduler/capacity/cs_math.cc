#include "scheduler/capacity/cs_math.h"

#include <algorithm>
#include <cmath>

namespace spindle {

Resource computeUserLimit(const ResourceCalculator& rc, const UserLimitInputs& in) {
  const Resource& R = in.partitionResource;
  const Resource& required = in.minAlloc;
  const Resource Q = rc.max(R, in.queueGuaranteed, in.minAlloc);
  const Resource consumed = rc.multiplyAndNormalizeUp(R, in.consumedRatio, in.minAlloc);
  const Resource currentCapacity = rc.lessThan(R, consumed, Q) ? Q : consumed + required;
  const Resource resourceUsed = in.allUsers ? currentCapacity : in.activeUsersUsed + required;
  // Java passes the summed weights as a float.
  const float weight = static_cast<float>(in.activeUsersWeight);
  Resource byUsers =
      weight > 0 ? rc.divideAndCeil(resourceUsed, static_cast<double>(weight)) : Resource();
  Resource byPercent = rc.divideAndCeil(
      multiplyAndRoundDown(currentCapacity, static_cast<float>(in.minimumUserLimitPercent)),
      int64_t{100});
  Resource ul = rc.max(R, byUsers, byPercent);
  Resource maxUl;
  if (in.mode == SchedulingMode::kRespectExclusivity) {
    if (in.userLimitFactor == -1 || in.queueGuaranteed.isZero()) {
      maxUl = in.queueMaxDown;
    } else {
      maxUl = multiplyAndRoundDown(Q, static_cast<float>(in.userLimitFactor));
    }
  } else {
    maxUl = R;
  }
  return rc.roundUp(rc.min(R, ul, maxUl), in.minAlloc);
}

Resource userLimitForWeight(const ResourceCalculator& rc, const Resource& userLimit, double weight,
                            const Resource& minAlloc) {
  if (weight == 1.0) return userLimit;
  return rc.multiplyAndNormalizeDown(userLimit, static_cast<float>(weight), minAlloc);
}

Resource queueAmLimit(const ResourceCalculator& rc, const Resource& guaranteed,
                      const Resource& queueCurrentLimit, bool defaultPartition, double maxAmPercent,
                      const Resource& minAlloc) {
  const Resource usable =
      defaultPartition && rc.fitsIn(guaranteed, queueCurrentLimit) ? queueCurrentLimit : guaranteed;
  return rc.multiplyAndNormalizeUp(usable, static_cast<float>(maxAmPercent), minAlloc);
}

Resource userAmLimit(const ResourceCalculator& rc, const Resource& cluster,
                     const Resource& guaranteed, double maxAmPercent, double mulp, double ulf,
                     int activeUsers, double userWeight, const Resource& queueLimit,
                     const Resource& minAlloc) {
  float effective = std::max(static_cast<float>(mulp) / 100.0f,
                             1.0f / static_cast<float>(std::max(activeUsers, 1)));
  effective = std::min(effective * static_cast<float>(userWeight), 1.0f);
  Resource limit;
  if (ulf == -1) {
    limit = rc.multiplyAndNormalizeUp(guaranteed, static_cast<float>(maxAmPercent), minAlloc);
  } else {
    const float by = static_cast<float>(maxAmPercent) * effective * static_cast<float>(ulf);
    limit = rc.multiplyAndNormalizeUp(guaranteed, by, minAlloc);
  }
  return rc.min(cluster, limit, queueLimit);
}

double offSwitchThreshold(const OffSwitchInputs& in) {
  if (in.rackLocalityAdditionalDelay > -1) {
    return std::min<int64_t>(in.clusterNodes,
                             int64_t{in.nodeLocalityDelay} + in.rackLocalityAdditionalDelay);
  }
  // getLocalityWaitFactor: float(max(uniq - 1, 0)) / N, at most 1.
  const float factor = std::min(
      static_cast<float>(std::max(in.uniqueLocations - 1, 0)) / static_cast<float>(in.clusterNodes),
      1.0f);
  const float wait = static_cast<float>(in.outstanding) * factor;
  return std::min(static_cast<float>(in.clusterNodes), wait);
}

bool offSwitchAllowed(const OffSwitchInputs& in) {
  if (in.clusterNodes == 0) return false;
  if (in.uniqueLocations == 1) return true;
  return offSwitchThreshold(in) < static_cast<double>(in.missed);
}

int64_t rackLocalThreshold(int clusterNodes, int nodeLocalityDelay) {
  return std::min(clusterNodes, nodeLocalityDelay);
}

bool shouldAllocOrReserveNewContainer(const ResourceCalculator& rc, int64_t outstanding,
                                      int reserved, int64_t reReservations,
                                      const Resource& required, const Resource& maxAlloc,
                                      const Resource& minAlloc) {
  int64_t starvation = 0;
  if (reserved > 0) {
    const float nodeFactor = static_cast<float>(rc.ratio(required, maxAlloc));
    const float minAllocFactor = static_cast<float>(rc.ratio(maxAlloc - minAlloc, maxAlloc));
    starvation =
        static_cast<int64_t>((static_cast<float>(reReservations) / static_cast<float>(reserved)) *
                             (1.0f - std::min(nodeFactor, minAllocFactor)));
  }
  return starvation + outstanding - reserved > 0;
}

Resource capacityHeadroom(const ResourceCalculator& rc, const Resource& userLimit,
                          const Resource& userUsed, const Resource& queueLimit,
                          const Resource& queueUsed, const Resource& partitionResource,
                          const Resource& partitionUsed, const Resource& minAlloc) {
  Resource h = Resource::componentwiseMin(userLimit - userUsed, queueLimit - queueUsed);
  h = rc.roundDown(h.clampedAtZero(), minAlloc);
  const Resource free = (partitionResource - partitionUsed).clampedAtZero();
  return rc.min(partitionResource, free, h);
}

}  // namespace spindle
