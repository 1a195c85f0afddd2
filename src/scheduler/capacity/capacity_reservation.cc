// Plan queues at run time (YARN's PlanQueue / ReservationQueue, CapacitySchedulerPlanFollower's
// side of the scheduler): the plan's state the follower reads, replacing its reservation queues
// (created, resized and removed in place, with the expiry move or kill), and
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
  // Nothing to change when the entitlements are those in force (most follower steps).
  if (auto it = planChildren_.find(path); it != planChildren_.end() && it->second == queues) {
    return Status::ok();
  }
  SPINDLE_RETURN_IF_ERROR(editPlanQueues(*plan, queues));
  planChildren_[path] = queues;
  return Status::ok();
}

// PlanQueue / ReservationQueue.setEntitlement: the reservation queues are created, resized and
// removed in place, and only what they feed is recomputed: their capacities (resolved against
// the plan queue, which does not change), their ordering keys in the plan queue, its child
// order, the user usage ratios and their apps' activation. The result is the configuration,
// tree and state a refresh with expandPlanQueues(planChildren_) builds, children in the order
// of `queues`.
Status CapacityScheduler::editPlanQueues(CsQueue& plan,
                                         const std::vector<QueueEntitlement>& queues) {
  const std::string& path = plan.path();
  // Expired queues must be empty by now (their apps were moved or killed), as the refresh
  // requires of a removed queue.
  std::vector<CsQueue*> order;
  order.reserve(queues.size());
  for (const QueueEntitlement& e : queues) order.push_back(tree_->child(plan, e.queue));
  std::vector<uint8_t> kept(plan.children().size(), 0);
  for (CsQueue* c : order) {
    if (c != nullptr) kept[static_cast<size_t>(c->indexInParent)] = 1;
  }
  std::vector<CsQueue*> expired;
  for (CsQueue* c : plan.children()) {
    if (kept[static_cast<size_t>(c->indexInParent)]) continue;
    if (c->numApplications > 0) {
      return failedPrecondition("refreshQueues: queue {} is removed but has {} applications",
                                c->path(), c->numApplications);
    }
    expired.push_back(c);
  }
  const size_t before = plan.children().size();
  QueueConfig& planConfig = config_.queues.at(path);
  std::vector<uint8_t> touched;  // parallel to `order`
  touched.reserve(queues.size());
  for (size_t i = 0; i < queues.size(); ++i) {
    const QueueEntitlement& e = queues[i];
    CsQueue*& c = order[i];
    if (c == nullptr) {
      QueueConfig qc = reservationQueueConfig(planConfig, e);
      const std::string queuePath = qc.path;
      config_.leafByName[qc.name] = queuePath;
      c = tree_->addLeaf(config_.queues.insert_or_assign(queuePath, std::move(qc)).first->second,
                         &plan);
      touched.push_back(1);
      continue;
    }
    const PartitionConfig& now = c->config().partition(kDefaultPartition);
    if (now.capacity.fraction == e.capacity && now.maximumCapacity.fraction == e.maxCapacity) {
      touched.push_back(0);
      continue;
    }
    const PartitionConfig pc = reservationEntitlement(planConfig, e);
    c->setEntitlement(pc);
    config_.queues.at(c->path()).partitions[kDefaultPartition] = pc;
    touched.push_back(1);
  }
  for (CsQueue* c : expired) {
    if (auto n = config_.leafByName.find(c->name());
        n != config_.leafByName.end() && n->second == c->path()) {
      config_.leafByName.erase(n);
    }
    config_.queues.erase(c->path());
    tree_->removeLeaf(c);
  }
  tree_->reorderLeafChildren(&plan, order);
  // The configuration's order: the plan's children follow it in preorder (they are leaves).
  auto segment = std::find(config_.preorder.begin(), config_.preorder.end(), path) + 1;
  const auto at = segment - config_.preorder.begin();
  if (order.size() < before) {
    config_.preorder.erase(segment, segment + static_cast<std::ptrdiff_t>(before - order.size()));
  } else if (order.size() > before) {
    config_.preorder.insert(segment, order.size() - before, std::string());
  }
  planConfig.children.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    config_.preorder[static_cast<size_t>(at) + i] = order[i]->path();
    planConfig.children[i] = order[i]->path();
  }
  // What syncNow derives, for the queues that changed (the others' inputs did not).
  for (size_t i = 0; i < order.size(); ++i) {
    if (!touched[i]) continue;
    CsQueue& q = *order[i];
    QueueTree::resolveQueue(q, calculator(), partitions_, settings().bounds.minimum,
                            settings().bounds.maximum);
    const Resource& min = q.cap(kDefaultPartition).effectiveMin;
    q.noMinDivisor = calculator().isInvalidDivisor(min) || min.isZero();
    updateMaximumApplications(q);
    q.simpleChildOrder = !q.priorityUtilization;  // a leaf: no children to order
    CsQueue::ChildKey& k = plan.childKeys[static_cast<size_t>(q.indexInParent)];
    k.leaf = true;
    k.priority = q.config().priority;
    k.configuredMin = nullptr;  // reservation queues are in percent mode
    updateChildKey(q);
  }
  plan.simpleChildOrder = !plan.priorityUtilization;
  for (const CsQueue::ChildKey& k : plan.childKeys) {
    if (!(k.absCapacity > 0) || (k.configuredMin != nullptr && !k.configuredMin->isZero())) {
      plan.simpleChildOrder = false;
    }
  }
  // The refresh recomputes every user ratio from scratch (its float sums are kept identical).
  recomputeUserRatios();
  for (size_t i = 0; i < order.size(); ++i) {
    if (touched[i]) activateApplications(*order[i]);
  }
  promoteNonRunnable();
  return Status::ok();
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
