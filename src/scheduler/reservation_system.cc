#include "scheduler/reservation_system.h"

#include <algorithm>

#include "reservation/plan_follower_step.h"
#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

using reservation::InMemoryPlan;
using reservation::PlanErrorKind;
using reservation::PlanStatus;
using reservation::ReservationDefinition;
using reservation::ReservationId;

ReservationSystem::ReservationSystem(reservation::ReservationSystemSettings settings,
                                     const Scheduler& scheduler, const Clock& clock,
                                     int64_t clusterTimestamp)
    : settings_(std::move(settings)),
      scheduler_(scheduler),
      clock_(clock),
      clusterTimestamp_(clusterTimestamp),
      validator_(clock, [this](std::string_view q) -> InMemoryPlan* {
        Plan* p = find(q);
        return p == nullptr ? nullptr : p->rp.plan.get();
      }) {}

Result<std::unique_ptr<ReservationSystem>> ReservationSystem::create(const Configuration& conf,
                                                                     const Scheduler& scheduler,
                                                                     const Clock& clock) {
  auto lookup = [&conf](std::string_view key) { return conf.get(key); };
  SPINDLE_ASSIGN_OR_RETURN(reservation::ReservationSystemSettings sys,
                           reservation::readReservationSystemSettings(lookup));
  if (!sys.enabled) return std::unique_ptr<ReservationSystem>();
  std::unique_ptr<ReservationSystem> rs(
      new ReservationSystem(sys, scheduler, clock, scheduler.settings().clusterTimestamp));
  for (const std::string& path : scheduler.planQueues()) {
    reservation::ReservableQueueSettings q;
    if (const auto* fs = dynamic_cast<const FairScheduler*>(&scheduler)) {
      // FairReservationSystem (AllocationConfiguration): the allocation file's classes for
      // every plan queue, the other reservation values at their defaults.
      const fair::AllocationConfig& a = fs->queues().config();
      q.queuePath = path;
      q.reservable = true;
      q.agentClass = a.reservationAgent;
      q.policyClass = a.reservationPolicy;
      q.plannerClass = a.reservationPlanner;
    } else {
      SPINDLE_ASSIGN_OR_RETURN(q, reservation::readCapacityQueueReservationSettings(lookup, path));
    }
    const std::optional<PlanQueueState> st = scheduler.planQueueState(path);
    SPINDLE_ASSIGN_OR_RETURN(reservation::ReservationPlan rp,
                             reservation::makeReservationPlan(sys, q, scheduler.calculator(), clock,
                                                              st ? st->planResources : Resource(),
                                                              scheduler.settings().bounds.minimum,
                                                              scheduler.settings().bounds.maximum));
    auto p = std::make_unique<Plan>();
    p->path = path;
    p->rp = std::move(rp);
    rs->plans_.push_back(std::move(p));
  }
  return rs;
}

ReservationSystem::Plan* ReservationSystem::find(std::string_view queue) {
  return const_cast<Plan*>(std::as_const(*this).find(queue));
}

const ReservationSystem::Plan* ReservationSystem::find(std::string_view queue) const {
  for (const auto& p : plans_) {
    if (p->path == queue || p->rp.plan->queueName() == queue) return p.get();
  }
  return nullptr;
}

ReservationSystem::Plan* ReservationSystem::holding(const ReservationId& id) {
  for (const auto& p : plans_) {
    if (p->rp.plan->reservationById(id) != nullptr) return p.get();
  }
  return nullptr;
}

void ReservationSystem::synchronizeCapacities() {
  for (const auto& p : plans_) {
    if (auto st = scheduler_.planQueueState(p->path))
      p->rp.plan->setTotalCapacity(st->planResources);
  }
}

ReservationId ReservationSystem::newReservationId() {
  return ReservationId::of(clusterTimestamp_, nextSequence_++);
}

PlanStatus ReservationSystem::submit(std::string_view queue, std::optional<ReservationId> id,
                                     const ReservationDefinition* definition,
                                     const std::string& user) {
  synchronizeCapacities();
  auto plan = validator_.validateSubmission(queue, id, definition);
  if (!plan) return plan.status();
  // ReservationSystemUtil / ClientRMService: the same id with the same definition is an
  // idempotent resubmission.
  if (const auto* known = (*plan)->reservationById(*id);
      known != nullptr && known->definition() == *definition) {
    return PlanStatus::ok();
  }
  Plan* p = find(queue);
  return p->rp.agent->createReservation(*id, user, *p->rp.plan, *definition);
}

PlanStatus ReservationSystem::update(std::optional<ReservationId> id,
                                     const ReservationDefinition* definition,
                                     const std::string& user) {
  synchronizeCapacities();
  Plan* p = id ? holding(*id) : nullptr;
  auto plan = validator_.validateUpdate(id, definition, p ? p->rp.plan.get() : nullptr);
  if (!plan) return plan.status();
  return p->rp.agent->updateReservation(*id, user, *p->rp.plan, *definition);
}

PlanStatus ReservationSystem::remove(std::optional<ReservationId> id, const std::string& user) {
  Plan* p = id ? holding(*id) : nullptr;
  auto plan = validator_.validateDelete(id, p ? p->rp.plan.get() : nullptr);
  if (!plan) return plan.status();
  return p->rp.agent->deleteReservation(*id, user, *p->rp.plan);
}

Status ReservationSystem::recover(std::string_view queue,
                                  reservation::ReservationAllocation alloc) {
  Plan* p = find(queue);
  if (p == nullptr) {
    return invalidArgument("reservation {}: queue '{}' is not a reservable queue",
                           alloc.id().toString(), queue);
  }
  const ReservationId id = alloc.id();
  if (planOf(id) != nullptr) {
    return invalidArgument("reservation {} is already in a plan", id.toString());
  }
  // Recovering keeps the stored acceptance time.
  reservation::PlanStatus s = p->rp.plan->addReservation(std::move(alloc), /*isRecovering=*/true);
  if (!s) return s.toStatus().withContext("reservation " + id.toString());
  if (id.clusterTimestamp == clusterTimestamp_) {
    nextSequence_ = std::max(nextSequence_, id.sequence + 1);
  }
  return Status::ok();
}

const InMemoryPlan* ReservationSystem::plan(std::string_view queue) const {
  const Plan* p = find(queue);
  return p == nullptr ? nullptr : p->rp.plan.get();
}

const InMemoryPlan* ReservationSystem::planOf(const ReservationId& id) const {
  for (const auto& p : plans_) {
    if (p->rp.plan->reservationById(id) != nullptr) return p->rp.plan.get();
  }
  return nullptr;
}

std::vector<std::string> ReservationSystem::planQueues() const {
  std::vector<std::string> out;
  for (const auto& p : plans_) out.push_back(p->path);
  return out;
}

std::string ReservationSystem::planPath(const InMemoryPlan& plan) const {
  for (const auto& p : plans_) {
    if (p->rp.plan.get() == &plan) return p->path;
  }
  return {};
}

Status ReservationSystem::follow(Scheduler& scheduler, Outcome& out) {
  out.planFollowerRan = true;
  for (const auto& p : plans_) SPINDLE_RETURN_IF_ERROR(followPlan(scheduler, *p, out));
  return Status::ok();
}

Status ReservationSystem::followPlan(Scheduler& scheduler, Plan& p, Outcome& out) {
  InMemoryPlan& plan = *p.rp.plan;
  const std::optional<PlanQueueState> st = scheduler.planQueueState(p.path);
  if (!st) return Status::ok();  // the plan queue went away in a refresh: skip, as YARN does
  plan.setTotalCapacity(st->planResources);
  reservation::PlanFollowerInput in{.clockNowMs = clock_.nowMs(),
                                    .clusterResource = scheduler.cluster().total(),
                                    .planResources = st->planResources,
                                    .existingQueues = st->reservationQueues};
  const reservation::PlanFollowerStep step = reservation::planFollowerStep(plan, in);
  if (step.replan && replanning_) {
    auto dropped = p.rp.replanner->plan(plan);
    if (!dropped) return dropped.status().toStatus().withContext("replanning " + p.path);
    for (const ReservationId& id : *dropped) out.reservationsReplanned.push_back(id.toString());
  }
  // The default queue takes what the reservations leave; a float sum a hair above 1 leaves 0.
  std::vector<QueueEntitlement> queues;
  queues.push_back({st->defaultQueue, std::max(0.0f, step.defaultQueueCapacity), 1.0f});
  for (const auto& e : step.entitlements) queues.push_back({e.queue, e.capacity, e.maxCapacity});
  SPINDLE_RETURN_IF_ERROR(scheduler.setPlanQueues(p.path, queues, plan.moveOnExpiry()));
  // What changed, against the entitlements the last run set.
  std::map<std::string, QueueEntitlement> now;
  for (const QueueEntitlement& e : queues) now[e.queue] = e;
  for (const auto& [name, e] : now) {
    auto before = p.entitlements.find(name);
    if (before == p.entitlements.end()) {
      out.queues.push_back({QueueAction::kCreated, p.path, name, e.capacity, e.maxCapacity});
    } else if (!(before->second == e)) {
      out.queues.push_back({QueueAction::kResized, p.path, name, e.capacity, e.maxCapacity});
    }
  }
  for (const auto& [name, e] : p.entitlements) {
    if (!now.contains(name)) out.queues.push_back({QueueAction::kRemoved, p.path, name, 0, 0});
  }
  p.entitlements = std::move(now);
  for (const ReservationId& id : plan.archiveCompletedReservations(step.nowMs)) {
    out.reservationsArchived.push_back(id.toString());
  }
  return Status::ok();
}

Status ReservationSystem::checkInvariants() const {
  for (const auto& p : plans_) {
    SPINDLE_RETURN_IF_ERROR(p->rp.plan->checkInvariants().withContext("plan " + p->path));
  }
  return Status::ok();
}

}  // namespace spindle
