// CapacityScheduler: changing a running app's priority (`yarn application -updatePriority`) and
// which queue uses a node label (`rmadmin -removeFromClusterNodeLabels`).
#include <algorithm>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/config/priority_acl.h"

namespace spindle {

// CapacityScheduler.updateApplicationPriority: checkAndGetApplicationPriority with the asked
// priority (capped at yarn.cluster.max-application-priority; with ACLs on the leaf's
// acl_application_max_priority must allow it), then the app takes its new place in the leaf's
// ordering policy (LeafQueue.updateApplicationPriority: remove, change, add back).
Status CapacityScheduler::updateAppPriority(AppId id, int32_t priority) {
  EventScope scope(*this);
  SPINDLE_RETURN_IF_ERROR(Scheduler::updateAppPriority(id, priority));
  CsApp* s = csAppOrNull(id);
  if (s == nullptr || s->leaf == nullptr) return notFound("unknown app {}", appIdString(id));
  Application& a = app(id);
  const int32_t capped = std::min(priority, clusterMaxPriority_);
  const std::vector<PriorityAcl>& acls = s->leaf->config().priorityAcls;
  if (aclEnabled_ && !acls.empty() &&
      !priorityAclAllows(acls, a.user(), groups_.groupsOf(a.user()), capped)) {
    return failedPrecondition(
        "User {} does not have permission to submit/update {} for {{Priority: {}}}", a.user(),
        appIdString(id), capped);
  }
  if (capped == s->priority) return Status::ok();
  CsQueue& leaf = *s->leaf;
  switch (s->phase) {
    case CsAppPhase::kNonRunnable: break;
    case CsAppPhase::kPending:
      // pendingApps is FIFO by priority: the key holds it.
      leaf.pendingApps.erase(s->orderKey);
      s->orderKey = AppOrderKey{-static_cast<double>(capped), 0, id};
      leaf.pendingApps.insert(s->orderKey);
      break;
    case CsAppPhase::kActive: {
      const bool was = s->schedulable;
      setSchedulable(*s, false);
      s->priority = capped;
      if (was) setSchedulable(*s, true);
      break;
    }
  }
  s->priority = capped;
  a.setPriority(capped);
  if (s->phase == CsAppPhase::kPending) activateApplications(leaf);
  return Status::ok();
}

std::string CapacityScheduler::labelInUse(const std::string& label) const {
  for (const std::string& path : config_.preorder) {
    const QueueConfig& q = config_.queue(path);
    if (q.accessibleLabels.contains(label)) return path;
  }
  return "";
}

}  // namespace spindle
