// maxAMShare enforcement of a leaf queue (FSLeafQueue.computeMaxAMResource and canRunAppAM,
// Hadoop 3.x; vector FS-8).
//
//   Resource limit = computeMaxAmResource(fairShare, maxShare, rootAvailable, 0.5f, 2);
//   bool ok = canRunAppAm(policy, amUsage, amResource, limit, 0.5f);
//
// computeMaxAmResource:
//  1. Start from the queue's instantaneous fair share.
//  2. If its memory is 0, use min(root available memory, max share memory); vcores likewise.
//     (A zero-weight queue thus gets an AM limit from the free cluster.)
//  3. Multiply every type by maxAMShare and round up (Resources.multiplyAndRoundUp:
//     ceil(value x (double) maxAMShare)), so one vcore on the cluster still admits an AM.
// canRunAppAm: maxAMShare == -1 (within 0.0001) disables the check; otherwise the AM may start
// when amUsage + amResource is not over the limit under the queue policy (memory only for
// fair/FIFO, every type for DRF).
#pragma once

#include "resource/resource.h"
#include "scheduler/fair/policy/scheduling_policy.h"

namespace spindle::fair {

Resource computeMaxAmResource(const Resource& fairShare, const ResourceLimit& maxShare,
                              const Resource& rootAvailable, float maxAMShare, int typeCount);

bool canRunAppAm(const SchedulingPolicy& policy, const Resource& amUsage,
                 const Resource& amResource, const Resource& maxAmResource, float maxAMShare);

}  // namespace spindle::fair
