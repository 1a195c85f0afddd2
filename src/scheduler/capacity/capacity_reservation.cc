// Plan queues at run time (YARN's PlanQueue / ReservationQueue, CapacitySchedulerPlanFollower's
// side of the scheduler): the plan's state the follower reads, replacing its reservation queues
// (created, resized, removed through the refresh path, with the expiry move or kill), and
// routing apps submitted to a plan queue (CapacityScheduler.resolveReservationQueueName).
#include <algorithm>
#include <cmath>
#include <set>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/plan_queues.h"

namespace spindle {

std::vector<std::string> CapacityScheduler::planQueues() const {
  std::vector<std::string> out;
  for (const std::string& path : config_.preorder) {
    if (config_.queues.at(path).reservable) out.push_back(path);
  }
  return out;
}

std::optional<PlanQueueState> CapacityScheduler::planQueueState(std::string_view plan) const {
  const CsQueue* q = tree_->find(std::string(plan));
  if (q == nullptr || !q->config().reservable) return std::nullopt;
  PlanQueueState st;
  st.path = q->path();
  st.defaultQueue = q->name() + kDefaultReservationQueueSuffix;
  // Resources.multiply(cluster, absoluteCapacity): each value rounded down.
  st.planResources = q->cap(kDefaultPartition).effectiveMin;
  for (const CsQueue* c : q->children()) {
    if (c->name() == st.defaultQueue) continue;
    st.reservationQueues[c->name()] = c->cap(kDefaultPartition).effectiveMin;
  }
  return st;
}

Result<CsQueue*> CapacityScheduler::reservationQueueFor(const Application& app,
                                                        CsQueue& plan) const {
  const std::string& reservation = app.submission().reservationId;
  const std::string wanted =
      reservation.empty() ? plan.name() + kDefaultReservationQueueSuffix : reservation;
  CsQueue* q = tree_->find(plan.path() + "." + wanted);
  if (q != nullptr) return q;
  if (reservation.empty()) {
    return internalError("plan queue {} has no default reservation queue", plan.path());
  }
  if (CsQueue* elsewhere = tree_->find(reservation);
      elsewhere != nullptr && elsewhere->config().reservationQueue) {
    return invalidArgument(
        "Application: {} submitted to a reservation {} which does not belong to the specified "
        "queue: {}",
        appIdString(app.id()), reservation, plan.path());
  }
  return invalidArgument(
      "Application {} submitted to a reservation which is not currently active: {}",
      appIdString(app.id()), reservation);
}

Status CapacityScheduler::checkPlanQueues(const CsQueue& plan,
                                          const std::vector<QueueEntitlement>& queues) const {
  // CSQueueUtils.EPSILON, the tolerance of PlanQueue's children's capacity sum.
  constexpr double kEpsilon = 0.0001;
  std::set<std::string> names;
  double sum = 0;
  for (const QueueEntitlement& e : queues) {
    if (e.queue.empty() || e.queue.find('.') != std::string::npos) {
      return invalidArgument("plan queue {}: invalid reservation queue name '{}'", plan.path(),
                             e.queue);
    }
    if (!names.insert(e.queue).second) {
      return invalidArgument("plan queue {}: reservation queue {} given twice", plan.path(),
                             e.queue);
    }
    if (const CsQueue* other = tree_->find(e.queue); other != nullptr && other->parent() != &plan) {
      return invalidArgument("plan queue {}: reservation queue name {} is taken by {}", plan.path(),
                             e.queue, other->path());
    }
    if (!(e.capacity >= 0 && e.capacity <= 1 + kEpsilon && e.maxCapacity >= e.capacity - kEpsilon &&
          e.maxCapacity <= 1 + kEpsilon)) {
      return invalidArgument(
          "plan queue {}: reservation queue {} entitlement capacity {} max {} is outside "
          "0 <= capacity <= max <= 1",
          plan.path(), e.queue, e.capacity, e.maxCapacity);
    }
    sum += e.capacity;
  }
  if (sum > 1 + kEpsilon) {
    return invalidArgument("plan queue {}: sum of child queues would exceed 100% ({})", plan.path(),
                           sum);
  }
  return Status::ok();
}

Status CapacityScheduler::setPlanQueues(std::string_view planName,
                                        const std::vector<QueueEntitlement>& queues,
                                        bool moveOnExpiry) {
  EventScope scope(*this);
  sync();
  CsQueue* plan = tree_->find(std::string(planName));
  if (plan == nullptr || !plan->config().reservable) {
    return invalidArgument("{} is not a reservable queue", planName);
  }
  SPINDLE_RETURN_IF_ERROR(checkPlanQueues(*plan, queues));
  const std::string path = plan->path();
  const std::string defaultName = plan->name() + kDefaultReservationQueueSuffix;
  const bool keepsDefault =
      std::any_of(queues.begin(), queues.end(),
                  [&](const QueueEntitlement& e) { return e.queue == defaultName; });
  if (!keepsDefault) {
    return invalidArgument("plan queue {}: the default reservation queue {} must stay", path,
                           defaultName);
  }
  // Expired queues: move their apps to the default queue, or kill them.
  std::set<std::string> kept;
  for (const QueueEntitlement& e : queues) kept.insert(e.queue);
  std::vector<AppId> moving;
  for (const auto& [id, s] : csApps_) {
    if (s.leaf->parent() == plan && kept.count(s.leaf->name()) == 0) moving.push_back(id);
  }
  std::sort(moving.begin(), moving.end());
  CsQueue* defaultQueue = tree_->find(path + "." + defaultName);
  for (AppId id : moving) {
    CsApp* s = csAppOrNull(id);
    if (s == nullptr) continue;
    if (moveOnExpiry && defaultQueue != nullptr &&
        defaultQueue->numApplications < defaultQueue->maxApplications) {
      moveWithinPlan(*s, *defaultQueue);
      recordAppMoved(id, defaultQueue->path());
    } else {
      SPINDLE_RETURN_IF_ERROR(handle(AppRemoved{id, AppState::KILLED}));
    }
  }
  // Nothing to rebuild when the entitlements are those in force (most follower steps).
  if (auto it = planChildren_.find(path); it != planChildren_.end() && it->second == queues) {
    return Status::ok();
  }
  auto previous = planChildren_.find(path) == planChildren_.end()
                      ? std::optional<std::vector<QueueEntitlement>>()
                      : std::optional(planChildren_[path]);
  planChildren_[path] = queues;
  CapacityConfig next = config_;
  Status s = refreshWithConfig(std::move(next));
  if (!s.isOk()) {
    if (previous) {
      planChildren_[path] = *previous;
    } else {
      planChildren_.erase(path);
    }
  }
  return s;
}

void CapacityScheduler::moveWithinPlan(CsApp& s, CsQueue& to) {
  CsQueue* from = s.leaf;
  // Usage out of the source leaf (containers, then node reservations) and its pending.
  PartitionMap<Resource> reservedIn;
  for (const auto& [node, r] : s.reservations) reservedIn[r.partition] += r.resource;
  std::vector<std::pair<std::string, Resource>> live;
  for (const auto& [p, used] : s.used) {
    auto rit = reservedIn.find(p);
    live.emplace_back(p, rit == reservedIn.end() ? used : used - rit->second);
  }
  removeFromLeaf(s);
  for (const auto& [p, r] : live) addUsage(s, p, r, false, -1);
  for (const auto& [p, r] : reservedIn) addUsage(s, p, r, true, -1);
  for (auto& [p, r] : s.pending) {
    for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) q->usage(p).pending -= r;
  }
  s.pending.clear();
  for (CsQueue* q = s.leaf; q != nullptr; q = q->parent()) updateChildKey(*q);
  // Into the target leaf, as a submission (LeafQueue.submitApplicationAttempt on a move).
  s.leaf = &to;
  s.user = &to.user(s.app->user());
  s.app->setQueue(to.path());
  for (const auto& [p, r] : live) addUsage(s, p, r, false, +1);
  for (const auto& [p, r] : reservedIn) addUsage(s, p, r, true, +1);
  for (CsQueue* q = &to; q != nullptr; q = q->parent()) ++q->numApplications;
  if (canBeRunnable(to, s.app->user())) {
    makeRunnable(s);
  } else {
    s.phase = CsAppPhase::kNonRunnable;
    to.nonRunnableApps.insert(s.app->id());
    ++to.user(s.app->user()).nonRunnableApps;
    nonRunnable_.insert(s.app->id());
  }
  refreshPending(s);
  activateApplications(*from);
  promoteNonRunnable();
}

}  // namespace spindle
