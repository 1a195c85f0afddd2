#include "scheduler/fair/policy/am_share.h"

#include <algorithm>
#include <cmath>

#include "scheduler/fair/policy/java_math.h"

namespace spindle::fair {

Resource computeMaxAmResource(const Resource& fairShare, const ResourceLimit& maxShare,
                              const Resource& rootAvailable, float maxAMShare, int typeCount) {
  Resource base = fairShare;
  for (int t : {kMemoryIndex, kVcoresIndex}) {
    if (base.get(t) == 0) base.set(t, std::min(rootAvailable.get(t), maxShare.get(t)));
  }
  Resource limit;
  for (int t = 0; t < typeCount; ++t) {
    limit.set(t, javaLongCast(std::ceil(static_cast<double>(base.get(t)) *
                                        static_cast<double>(maxAMShare))));
  }
  return limit;
}

bool canRunAppAm(const SchedulingPolicy& policy, const Resource& amUsage,
                 const Resource& amResource, const Resource& maxAmResource, float maxAMShare) {
  if (std::fabs(maxAMShare - -1.0f) < 0.0001f) return true;
  return !policy.isAmUsageOverLimit(amUsage + amResource, maxAmResource);
}

}  // namespace spindle::fair
