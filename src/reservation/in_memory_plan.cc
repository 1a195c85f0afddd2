#include "reservation/in_memory_plan.h"

#include <algorithm>

namespace spindle::reservation {

namespace {

using Rle = RleSparseResourceAllocation;

const Resource kOneActive = Resource::of(1, 1);

// [first breakpoint, last breakpoint) of a reservation's skyline; empty when it holds nothing.
std::optional<ReservationInterval> activeSpan(const ReservationAllocation& a) {
  const Rle& s = a.resourcesOverTime();
  if (s.isEmpty()) return std::nullopt;
  return ReservationInterval{s.earliestStartTime(), s.latestNonNullTime()};
}

void addSkyline(Rle& target, const Rle& skyline, bool add) {
  for (const auto& [interval, r] : skyline.toIntervalMap()) {
    if (add) {
      target.addInterval(interval, r);
    } else {
      target.removeInterval(interval, r);
    }
  }
}

// Values at every breakpoint of either skyline agree.
bool sameValues(const Rle& a, const Rle& b) {
  for (const Rle* s : {&a, &b}) {
    for (const auto& [t, v] : s->cumulative()) {
      if (a.capacityAtTime(t) != b.capacityAtTime(t)) return false;
    }
  }
  return true;
}

}  // namespace

InMemoryPlan::InMemoryPlan(PlanSettings settings, const ResourceCalculator& calc,
                           std::unique_ptr<SharingPolicy> policy, const Clock& clock)
    : settings_(std::move(settings)), calc_(calc), policy_(std::move(policy)), clock_(clock) {}

PlanStatus InMemoryPlan::addReservation(ReservationAllocation alloc, bool isRecovering) {
  if (alloc.user().empty()) {
    return planError(PlanErrorKind::kIllegalArgument,
                     "The specified Reservation with ID {} is not mapped to any user",
                     alloc.id().toString());
  }
  if (table_.contains(alloc.id())) {
    return planError(PlanErrorKind::kIllegalArgument,
                     "The specified Reservation with ID {} already exists", alloc.id().toString());
  }
  if (!isRecovering) {
    SPINDLE_PLAN_RETURN_IF_ERROR(policy_->validate(*this, alloc));
    alloc.setAcceptanceTime(clock_.nowMs());
  }
  index(std::make_unique<ReservationAllocation>(std::move(alloc)));
  return PlanStatus::ok();
}

PlanStatus InMemoryPlan::updateReservation(ReservationAllocation alloc) {
  if (!table_.contains(alloc.id())) {
    return planError(PlanErrorKind::kIllegalArgument,
                     "The specified Reservation with ID {} does not exist in the plan",
                     alloc.id().toString());
  }
  SPINDLE_PLAN_RETURN_IF_ERROR(policy_->validate(*this, alloc));
  std::unique_ptr<ReservationAllocation> old = unindex(alloc.id());
  PlanStatus added = addReservation(std::move(alloc));
  if (!added) {
    index(std::move(old));  // roll back: the plan is exactly as before
    return added;
  }
  return PlanStatus::ok();
}

PlanStatus InMemoryPlan::deleteReservation(const ReservationId& id) {
  if (!table_.contains(id)) {
    return planError(PlanErrorKind::kIllegalArgument,
                     "The specified Reservation with ID {} does not exist in the plan",
                     id.toString());
  }
  unindex(id);
  return PlanStatus::ok();
}

std::vector<ReservationId> InMemoryPlan::archiveCompletedReservations(int64_t tick) {
  const int64_t archivalTime = tick - policy_->validWindowMs();
  std::vector<ReservationId> removed;
  while (!byEnd_.empty() && byEnd_.begin()->first <= archivalTime) {
    ReservationId id = byEnd_.begin()->second;
    unindex(id);
    removed.push_back(id);
  }
  return removed;
}

void InMemoryPlan::index(std::unique_ptr<ReservationAllocation> alloc) {
  const ReservationAllocation& a = *alloc;
  byInterval_.emplace(a.startTime(), a.endTime(), a.id());
  byEnd_.emplace(a.endTime(), a.id());
  addSkyline(committed_, a.resourcesOverTime(), true);
  addSkyline(userLoad_[a.user()], a.resourcesOverTime(), true);
  if (auto span = activeSpan(a)) userActive_[a.user()].addInterval(*span, kOneActive);
  table_.emplace(a.id(), std::move(alloc));
}

std::unique_ptr<ReservationAllocation> InMemoryPlan::unindex(const ReservationId& id) {
  auto node = table_.extract(id);
  std::unique_ptr<ReservationAllocation> alloc = std::move(node.mapped());
  const ReservationAllocation& a = *alloc;
  byInterval_.erase({a.startTime(), a.endTime(), a.id()});
  byEnd_.erase({a.endTime(), a.id()});
  addSkyline(committed_, a.resourcesOverTime(), false);
  auto load = userLoad_.find(a.user());
  addSkyline(load->second, a.resourcesOverTime(), false);
  if (load->second.isEmpty()) userLoad_.erase(load);
  if (auto span = activeSpan(a)) {
    auto active = userActive_.find(a.user());
    active->second.removeInterval(*span, kOneActive);
    if (active->second.isEmpty()) userActive_.erase(active);
  }
  return alloc;
}

const ReservationAllocation* InMemoryPlan::reservationById(const ReservationId& id) const {
  auto it = table_.find(id);
  return it == table_.end() ? nullptr : it->second.get();
}

std::vector<const ReservationAllocation*> InMemoryPlan::reservations(
    std::optional<ReservationId> id, std::optional<ReservationInterval> interval,
    const std::string& user) const {
  std::vector<const ReservationAllocation*> out;
  if (id) {
    if (const ReservationAllocation* a = reservationById(*id)) out.push_back(a);
    return out;
  }
  ReservationInterval range =
      interval.value_or(ReservationInterval{0, std::numeric_limits<int64_t>::max()});
  for (const auto& [start, end, rid] : byInterval_) {
    if (start > range.end) break;
    if (end <= range.start) continue;
    const ReservationAllocation* a = table_.at(rid).get();
    if (user.empty() || a->user() == user) out.push_back(a);
  }
  return out;
}

std::vector<const ReservationAllocation*> InMemoryPlan::reservationsAtTime(int64_t t) const {
  return reservations(std::nullopt, ReservationInterval{t, t});
}

std::vector<const ReservationAllocation*> InMemoryPlan::allReservations() const {
  return reservations(std::nullopt, std::nullopt);
}

Rle InMemoryPlan::consumptionForUserOverTime(const std::string& user, int64_t start,
                                             int64_t end) const {
  auto it = userLoad_.find(user);
  if (it == userLoad_.end()) return Rle();
  return it->second.rangeOverlapping(start, end);
}

int64_t InMemoryPlan::activeReservationCount(const std::string& user, int64_t t) const {
  auto it = userActive_.find(user);
  return it == userActive_.end() ? 0 : it->second.capacityAtTime(t).memoryMb();
}

PlanResult<Rle> InMemoryPlan::availableResourceOverTime(const std::string& user,
                                                        std::optional<ReservationId> oldId,
                                                        int64_t start, int64_t end) const {
  Rle::Points out;
  SPINDLE_PLAN_RETURN_IF_ERROR(availableResourceOverTimeInto(user, oldId, start, end, out));
  return Rle::fromPoints(out);
}

PlanStatus InMemoryPlan::availableResourceOverTimeInto(const std::string& user,
                                                       std::optional<ReservationId> oldId,
                                                       int64_t start, int64_t end,
                                                       Rle::Points& out) const {
  const Resource& cap = settings_.totalCapacity;
  Rle::Points capacity{{start, cap}};
  SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(
      calc_, cap, capacity, committed_, RleOperator::kSubtractTestNonNegative, start, end, out));
  const ReservationAllocation* old = oldId ? reservationById(*oldId) : nullptr;
  if (old != nullptr) {
    Rle::Points withOld;
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc_, cap, out, old->resourcesOverTime(),
                                                RleOperator::kAdd, start, end, withOld));
    out.swap(withOld);
  }
  return policy_->availableResources(out, *this, user, oldId, start, end);
}

const Rle& InMemoryPlan::userLoad(const std::string& user) const {
  static const Rle kEmpty;
  auto it = userLoad_.find(user);
  return it == userLoad_.end() ? kEmpty : it->second;
}

Status InMemoryPlan::checkInvariants() const {
  Rle committed;
  std::map<std::string, Rle> users;
  if (byInterval_.size() != table_.size() || byEnd_.size() != table_.size()) {
    return internalError("plan {}: {} reservations but {} / {} index entries", queueName(),
                         table_.size(), byInterval_.size(), byEnd_.size());
  }
  for (const auto& [id, a] : table_) {
    if (!byInterval_.contains({a->startTime(), a->endTime(), id}) ||
        !byEnd_.contains({a->endTime(), id})) {
      return internalError("plan {}: {} missing from the time indexes", queueName(), id.toString());
    }
    addSkyline(committed, a->resourcesOverTime(), true);
    addSkyline(users[a->user()], a->resourcesOverTime(), true);
  }
  if (!sameValues(committed, committed_)) {
    return internalError("plan {}: committed skyline {} differs from the sum {}", queueName(),
                         committed_.toString(), committed.toString());
  }
  for (const auto& [user, load] : users) {
    auto it = userLoad_.find(user);
    if (it == userLoad_.end() || !sameValues(load, it->second)) {
      return internalError("plan {}: user {} load differs from the sum of its reservations",
                           queueName(), user);
    }
  }
  for (const auto& [user, load] : userLoad_) {
    if (!users.contains(user) && !load.isEmpty()) {
      return internalError("plan {}: user {} has load but no reservation", queueName(), user);
    }
  }
  return Status::ok();
}

}  // namespace spindle::reservation
