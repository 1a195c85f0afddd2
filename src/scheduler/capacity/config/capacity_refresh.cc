// checkCapacityRefresh: what `rmadmin -refreshQueues` may not change, as far as the two
// configurations alone decide it (YARN's CapacityScheduler.reinitialize; the
// maximum-allocation-mb/-vcores queue keys).
//  1. A queue present before and after may not lower its maximum allocation in any resource
//     type (LeafQueue.validate / AbstractCSQueue: "Trying to reinitialize <queue> the maximum
//     allocation size can not be decreased! ..."). The allocation is the resolved one, so a
//     lower cluster maximum that the queue inherits is caught too, as in YARN.
// Queue removal (allowed only for STOPPED queues without apps) and leaf/parent conversions
// depend on running applications; the scheduler checks them.

#include <string>
#include <vector>

#include <fmt/format.h>

#include "scheduler/capacity/config/capacity_config.h"
#include "scheduler/capacity/config/config_problems.h"

namespace spindle {
namespace {

// The bounded types of a limit as a Resource, for messages.
Resource bounded(const ResourceLimit& limit) {
  Resource r;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (limit.isBounded(i)) r.set(i, limit.get(i));
  }
  return r;
}

bool decreased(const ResourceLimit& before, const ResourceLimit& after) {
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (after.get(i) < before.get(i)) return true;
  }
  return false;
}

}  // namespace

Status checkCapacityRefresh(const CapacityConfig& before, const CapacityConfig& after) {
  std::vector<std::string> errors;
  for (const std::string& path : before.preorder) {
    auto next = after.queues.find(path);
    if (next == after.queues.end()) continue;
    const ResourceLimit& oldMax = before.queue(path).maximumAllocation;
    const ResourceLimit& newMax = next->second.maximumAllocation;
    if (!decreased(oldMax, newMax)) continue;
    errors.push_back(fmt::format(
        "Trying to reinitialize {} the maximum allocation size can not be decreased! Current "
        "setting: {}, trying to set it to: {} (property {}{}.maximum-allocation-mb / "
        "-vcores / maximum-allocation)",
        path, bounded(oldMax).toString(), bounded(newMax).toString(), kCapacityPrefix, path));
  }
  return capacity_config::joinErrors(errors);
}

}  // namespace spindle
