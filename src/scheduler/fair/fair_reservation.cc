// Plan queues of the Fair Scheduler (YARN's FairReservationSystem and FairSchedulerPlanFollower's
// side of the scheduler): a queue with <reservation> in the allocation file runs as a parent of
// its reservation queues `<plan>.<reservation id>` and `<plan>.<plan>-default`, each weighted by
// its entitlement; the plan's resources are its steady fair share. Apps submitted to a plan
// queue go to their reservation's queue, or to the default one without a reservation
// (FairScheduler.resolveReservationQueueName).
#include <algorithm>
#include <set>

#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

using fair::FsQueue;

namespace {

// ReservationConstants.DEFAULT_QUEUE_SUFFIX.
constexpr const char* kDefaultSuffix = "-default";

}  // namespace

FsQueue* FairScheduler::planQueue(std::string_view name) const {
  std::string path(name);
  if (path != "root" && path.rfind("root.", 0) != 0) path = "root." + path;
  FsQueue* q = tree_.find(path);
  return q != nullptr && q->config().reservation ? q : nullptr;
}

std::vector<std::string> FairScheduler::planQueues() const {
  std::vector<std::string> out;
  for (const FsQueue* q : tree_.preorder()) {
    if (q->config().reservation) out.push_back(q->path());
  }
  return out;
}

namespace {

// A steady fair share computed by a memory-only policy (`fair`, `fifo`) has 0 vcores
// (ComputeFairShares sets only the memory of the share). YARN hands that to the plan as its
// capacity, so every reservation asking for a vcore is refused as an over-commit and the
// follower gives every reservation queue weight 0 (it skips plans with 0 vcores). Spindle gives
// such a share the cluster's vcores in proportion to its memory (docs/compatibility.md).
Resource withProportionalVcores(Resource share, const Resource& cluster) {
  if (share.vcores() == 0 && share.memoryMb() > 0 && cluster.memoryMb() > 0) {
    share.setVcores(static_cast<int64_t>(static_cast<double>(cluster.vcores()) *
                                         static_cast<double>(share.memoryMb()) /
                                         static_cast<double>(cluster.memoryMb())));
  }
  return share;
}

}  // namespace

// FairSchedulerPlanFollower.getPlanResources / getReservationQueueResourceIfExists: steady fair
// shares.
std::optional<PlanQueueState> FairScheduler::planQueueState(std::string_view name) const {
  const FsQueue* plan = planQueue(name);
  if (plan == nullptr) return std::nullopt;
  const auto shares = steadyFairShares();
  const Resource& total = Scheduler::cluster().total();
  PlanQueueState st;
  st.path = plan->path();
  st.defaultQueue = plan->name() + kDefaultSuffix;
  st.planResources = withProportionalVcores(shares.at(plan), total);
  for (const auto& c : plan->children()) {
    if (c->name() == st.defaultQueue) continue;
    st.reservationQueues[c->name()] = withProportionalVcores(shares.at(c.get()), total);
  }
  return st;
}

Status FairScheduler::setPlanQueues(std::string_view name,
                                    const std::vector<QueueEntitlement>& queues,
                                    bool moveOnExpiry) {
  EventScope scope(*this);
  FsQueue* plan = planQueue(name);
  if (plan == nullptr) return invalidArgument("{} is not a reservable queue", name);
  const std::string path = plan->path();
  const std::string defaultName = plan->name() + kDefaultSuffix;
  // CSQueueUtils.EPSILON, the follower's tolerance of a capacity sum.
  constexpr double kEpsilon = 0.0001;
  std::set<std::string> names;
  double sum = 0;
  for (const QueueEntitlement& e : queues) {
    if (e.queue.empty() || e.queue.find('.') != std::string::npos) {
      return invalidArgument("plan queue {}: invalid reservation queue name '{}'", path, e.queue);
    }
    if (!names.insert(e.queue).second) {
      return invalidArgument("plan queue {}: reservation queue {} given twice", path, e.queue);
    }
    if (!(e.capacity >= 0 && e.capacity <= 1 + kEpsilon)) {
      return invalidArgument("plan queue {}: reservation queue {} capacity {} is outside [0, 1]",
                             path, e.queue, e.capacity);
    }
    sum += e.capacity;
  }
  if (sum > 1 + kEpsilon) {
    return invalidArgument("plan queue {}: sum of child queues would exceed 100% ({})", path, sum);
  }
  if (names.count(defaultName) == 0) {
    return invalidArgument("plan queue {}: the default reservation queue {} must stay", path,
                           defaultName);
  }
  FsQueue* defaultQueue = tree_.find(path + "." + defaultName);
  // AbstractSchedulerPlanFollower.cleanupExpiredQueues: the apps of an expired queue move to the
  // default queue (FairScheduler.moveApplication), or are killed when they may not.
  std::vector<FsQueue*> expired;
  for (const auto& c : plan->children()) {
    if (names.count(c->name()) == 0) expired.push_back(c.get());
  }
  for (FsQueue* q : expired) {
    std::vector<AppId> apps = q->runnableApps;
    apps.insert(apps.end(), q->nonRunnableApps.begin(), q->nonRunnableApps.end());
    std::sort(apps.begin(), apps.end());
    for (AppId id : apps) {
      if (moveOnExpiry && defaultQueue != nullptr && moveApp(id, defaultQueue->path()).isOk()) {
        recordAppMoved(id, defaultQueue->path());
      } else {
        SPINDLE_RETURN_IF_ERROR(handle(AppRemoved{id, AppState::KILLED}));
      }
    }
    tree_.removeReservationQueue(*q);
  }
  // setQueueEntitlement: each queue's weight is its share of the plan.
  for (const QueueEntitlement& e : queues) {
    FsQueue* q = tree_.find(path + "." + e.queue);
    if (q == nullptr) q = &tree_.addReservationQueue(*plan, e.queue);
    if (q->weight() != e.capacity) q->setWeight(e.capacity);
  }
  plan->ordersChanged();
  planChildren_[path] = queues;
  return Status::ok();
}

void FairScheduler::restorePlanQueues(fair::FsQueueTree& next) const {
  for (const auto& [path, queues] : planChildren_) {
    FsQueue* plan = next.find(path);
    if (plan == nullptr || !plan->config().reservation) continue;
    for (const QueueEntitlement& e : queues) {
      FsQueue* q = next.find(path + "." + e.queue);
      if (q == nullptr) q = &next.addReservationQueue(*plan, e.queue);
      q->setWeight(e.capacity);
    }
  }
}

// FairScheduler.resolveReservationQueueName.
Result<std::string> FairScheduler::reservationQueueFor(const Application& app,
                                                       const FsQueue& plan) const {
  const std::string& reservation = app.submission().reservationId;
  if (reservation.empty()) return plan.path() + "." + plan.name() + kDefaultSuffix;
  const std::string queue = plan.path() + "." + reservation;
  if (tree_.find(queue) == nullptr) {
    return invalidArgument(
        "Application {} submitted to a reservation which is not yet currently active: {}",
        appIdString(app.id()), queue);
  }
  return queue;
}

}  // namespace spindle
