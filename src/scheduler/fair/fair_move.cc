// FairScheduler.moveApplication (`yarn application -movetoqueue`): validation
// (preValidateMoveApplication / verifyMoveDoesNotViolateConstraints) and the move itself
// (executeMove). Texts are YARN's.
#include <fmt/format.h>

#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

namespace {

// QueueManager.getLeafQueue(name, create=false) takes names with or without "root.".
std::string movePath(std::string_view queue) {
  std::string name(queue);
  while (!name.empty() && isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
  while (!name.empty() && isspace(static_cast<unsigned char>(name.front()))) name.erase(0, 1);
  if (name == "root" || name.rfind("root.", 0) == 0) return name;
  std::string out = "root.";
  out.append(name);
  return out;
}

// FairScheduler.findLowestCommonAncestorQueue.
const FsQueue* lowestCommonAncestor(const FsQueue* a, const FsQueue* b) {
  for (const FsQueue* x = a; x != nullptr; x = x->parent()) {
    for (const FsQueue* y = b; y != nullptr; y = y->parent()) {
      if (x == y) return x;
    }
  }
  return nullptr;
}

}  // namespace

// Only the queues below the lowest common ancestor gain an app and its usage; those above keep
// their counts.
Status FairScheduler::verifyMoveConstraints(const Application& app, const FsQueue& from,
                                            const FsQueue& to) const {
  const FsQueue* lca = lowestCommonAncestor(&from, &to);
  const std::string attempt = attemptIdString(app.attemptId());
  for (const FsQueue* cur = &to; cur != lca; cur = cur->parent()) {
    if (cur->numRunnable >= cur->maxRunningApps()) {
      return failedPrecondition(
          "Moving app attempt {} to queue {} would violate queue maxRunningApps constraints on "
          "queue {} ({} running apps, maxRunningApps {})",
          attempt, to.path(), cur->path(), cur->numRunnable, cur->maxRunningApps());
    }
    if (!cur->maxShare.allows(cur->usage + app.used())) {
      return failedPrecondition(
          "Moving app attempt {} to queue {} would violate queue maxShare constraints on queue "
          "{} (its usage {} plus the app's {} exceeds its max share)",
          attempt, to.path(), cur->path(), cur->usage.toString(), app.used().toString());
    }
  }
  return Status::ok();
}

Status FairScheduler::moveApp(AppId id, std::string_view queue) {
  EventScope scope(*this);
  const Application* a = findApp(id);
  auto it = fsApps_.find(id);
  if (a == nullptr) return notFound("App to be moved {} not found.", appIdString(id));
  if (it == fsApps_.end() || isFinal(a->state())) {
    // ClientRMService.moveApplicationAcrossQueues refuses apps in a final state.
    return failedPrecondition("App in {} state cannot be moved.", toString(a->state()));
  }
  FsApp& fa = it->second;
  const std::string path = movePath(queue);
  FsQueue* target = tree_.find(path);
  if (target == nullptr || !target->isLeaf()) {
    return notFound("Target queue {} not found or is not a leaf queue.", queue);
  }
  const FsQueue* configured = tree_.nearestConfigured(target);
  if (configured == nullptr ||
      !config_.allocation.hasAccess(configured->path(), QueueAcl::kSubmitApplications, a->user(),
                                    groups_->groups(a->user()))) {
    return failedPrecondition(
        "User {} cannot submit applications to target queue or the target queue doesn't "
        "exist: {} while moving {}",
        a->user(), path, appIdString(id));
  }
  FsQueue& from = *fa.leaf;
  if (target == &from) return Status::ok();
  if (fa.runnable) SPINDLE_RETURN_IF_ERROR(verifyMoveConstraints(*a, from, *target));

  // executeMove: runnability first (it refiles the app), then the usage it carries.
  maxRunning_.moveApp(tree_, fsApps_, fa, *target);
  if (fa.hasPendingAsks) {
    --from.appsWithPendingAsks;
    ++target->appsWithPendingAsks;
  }
  from.addUsage(a->used(), -1);
  from.amUsage -= a->amUsed();
  target->addUsage(a->used(), +1);
  target->amUsage += a->amUsed();
  app(id).setQueue(target->path());
  return Status::ok();
}

}  // namespace spindle
