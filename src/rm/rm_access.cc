// RmCore: the access checks of the RM's write calls, with yarn.acl.enable (YARN's
// RMAppManager submission check, ClientRMService.checkAccess for MODIFY_APP, AdminService's
// yarn.admin.acl). The queue ACLs are the scheduler's own (acl_submit_applications and
// acl_administer_queue of capacity-scheduler.xml, aclSubmitApps and aclAdministerApps of
// fair-scheduler.xml), read from the configuration the scheduler runs with.
#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"
#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/fair/fair_scheduler.h"

namespace spindle::rm {

namespace {

// The Fair Scheduler's queue for a name: "default" is "root.default", as its placement reads it.
std::string fairPath(const std::string& queue) {
  return queue == "root" || queue.starts_with("root.") ? queue : "root." + queue;
}

// The queue a submission context names, as the schedulers default it.
std::string submittedQueue(const protocol::SubmissionContext& ctx) {
  return ctx.queue.empty() ? "default" : ctx.queue;
}

}  // namespace

bool RmCore::queueKnown(const std::string& queue) const {
  if (const auto* cs = dynamic_cast<const CapacityScheduler*>(&sched())) {
    return cs->config().find(queue) != nullptr;
  }
  if (const auto* fs = dynamic_cast<const FairScheduler*>(&sched())) {
    return fs->queues().find(fairPath(queue)) != nullptr;
  }
  return true;
}

bool RmCore::queueAllows(const std::string& queue, QueueAcl acl, const std::string& user) const {
  const std::vector<std::string> groups = groups_.groupsOf(user);
  if (const auto* cs = dynamic_cast<const CapacityScheduler*>(&sched())) {
    const QueueConfig* q = cs->config().find(queue);
    if (q == nullptr) return false;
    // RMAppManager: submission is allowed by either ACL.
    return cs->config().hasAccess(q->path, acl, user, groups) ||
           (acl == QueueAcl::kSubmitApplications &&
            cs->config().hasAccess(q->path, QueueAcl::kAdministerQueue, user, groups));
  }
  if (const auto* fs = dynamic_cast<const FairScheduler*>(&sched())) {
    // A dynamic queue (created by a placement rule) has the ACLs of its nearest configured
    // ancestor, as FSQueue.hasAccess reads them.
    const fair::AllocationConfig& alloc = fs->queues().config();
    for (const fair::FsQueue* q = fs->queues().find(fairPath(queue)); q != nullptr;
         q = q->parent()) {
      if (alloc.find(q->path()) != nullptr) return alloc.hasAccess(q->path(), acl, user, groups);
    }
    return false;
  }
  return true;  // FifoScheduler: its default queue's ACLs allow everyone.
}

bool RmCore::isAdmin(const std::string& user) const {
  return settings_.adminAcl.allows(user, groups_.groupsOf(user));
}

std::optional<std::string> RmCore::denySubmit(const std::string& user,
                                              const protocol::SubmissionContext& ctx) const {
  if (!settings_.aclEnabled) return std::nullopt;
  const std::string queue = submittedQueue(ctx);
  // A queue that does not exist is the scheduler's to refuse (400, with its reason).
  if (!queueKnown(queue)) return std::nullopt;
  if (queueAllows(queue, QueueAcl::kSubmitApplications, user)) return std::nullopt;
  return "User " + user + " does not have permission to submit " + ctx.applicationId +
         " to queue " + queue;
}

std::optional<std::string> RmCore::denyModify(std::string_view appId,
                                              const std::string& user) const {
  if (!settings_.aclEnabled) return std::nullopt;
  auto parsed = protocol::parseApplicationId(appId);
  if (!parsed || parsed->clusterTimestamp != sched().settings().clusterTimestamp) {
    return std::nullopt;
  }
  const RmApp* app = findApp(AppId(parsed->seq));
  const Application* a = sched().findApp(AppId(parsed->seq));
  if (app == nullptr || a == nullptr) return std::nullopt;
  // ApplicationACLsManager.checkAccess: the owner and the administrators; then
  // QueueACLsManager: the queue's administer ACL.
  if (user == app->user || isAdmin(user)) return std::nullopt;
  if (queueAllows(a->queue(), QueueAcl::kAdministerQueue, user)) return std::nullopt;
  return "User " + user + " cannot perform operation MODIFY_APP on " + std::string(appId);
}

std::optional<std::string> RmCore::denyMove(std::string_view appId, const std::string& user,
                                            const std::string& target) const {
  if (auto denied = denyModify(appId, user)) return denied;
  if (!settings_.aclEnabled || !queueKnown(target)) return std::nullopt;
  if (queueAllows(target, QueueAcl::kSubmitApplications, user)) return std::nullopt;
  return "User " + user + " does not have permission to submit " + std::string(appId) +
         " to queue " + target;
}

}  // namespace spindle::rm
