#include "reservation/in_memory_plan.h"

#include <algorithm>
#include <limits>

namespace spindle::reservation {

namespace {

using Rle = RleSparseResourceAllocation;

const Resource kOneActive = Resource::of(1, 1);

using PeriodicRle = PeriodicRleSparseResourceAllocation;

// [first breakpoint, last breakpoint) of a non-periodic reservation's skyline (empty when it
// holds nothing); [start, forever) for a periodic one, which is good until cancelled.
std::optional<ReservationInterval> activeSpan(const ReservationAllocation& a) {
  if (a.isPeriodic()) {
    return ReservationInterval{a.startTime(), std::numeric_limits<int64_t>::max()};
  }
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
  if (const PeriodicRleSparseResourceAllocation* folded = a.periodicResources()) {
    for (PeriodicLoads* loads : {&periodicCommitted_, &userPeriodicLoad_[a.user()]}) {
      auto it =
          loads->try_emplace(a.periodicity(), PeriodicLoad{PeriodicRle(a.periodicity()), 0}).first;
      it->second.skyline.add(*folded);
      ++it->second.reservations;
    }
    ++periodicCount_;
  } else {
    byEnd_.emplace(a.endTime(), a.id());
    addSkyline(committed_, a.resourcesOverTime(), true);
    addSkyline(userLoad_[a.user()], a.resourcesOverTime(), true);
  }
  if (auto span = activeSpan(a)) userActive_[a.user()].addInterval(*span, kOneActive);
  table_.emplace(a.id(), std::move(alloc));
}

std::unique_ptr<ReservationAllocation> InMemoryPlan::unindex(const ReservationId& id) {
  auto node = table_.extract(id);
  std::unique_ptr<ReservationAllocation> alloc = std::move(node.mapped());
  const ReservationAllocation& a = *alloc;
  byInterval_.erase({a.startTime(), a.endTime(), a.id()});
  if (const PeriodicRleSparseResourceAllocation* folded = a.periodicResources()) {
    auto user = userPeriodicLoad_.find(a.user());
    for (PeriodicLoads* loads : {&periodicCommitted_, &user->second}) {
      auto it = loads->find(a.periodicity());
      it->second.skyline.subtract(*folded);
      if (--it->second.reservations == 0) loads->erase(it);
    }
    if (user->second.empty()) userPeriodicLoad_.erase(user);
    --periodicCount_;
  } else {
    byEnd_.erase({a.endTime(), a.id()});
    addSkyline(committed_, a.resourcesOverTime(), false);
    auto load = userLoad_.find(a.user());
    addSkyline(load->second, a.resourcesOverTime(), false);
    if (load->second.isEmpty()) userLoad_.erase(load);
  }
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
    if (end <= range.start && periodicCount_ == 0) continue;
    const ReservationAllocation* a = table_.at(rid).get();
    if (!a->overlaps(range)) continue;  // a periodic one: between two of its instances
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

PlanStatus InMemoryPlan::loadInto(const Rle& nonPeriodic, const PeriodicLoads& periodic,
                                  int64_t start, int64_t end, Rle::Points& out) const {
  const Rle range = nonPeriodic.rangeOverlapping(start, end);
  out.assign(range.cumulative().begin(), range.cumulative().end());
  Rle::Points unrolled, sum;
  for (const auto& [period, load] : periodic) {
    // YARN's RLEOperator.add merge of the two skylines over [start, end].
    load.skyline.unrollInto(start, end, unrolled);
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc_, settings_.totalCapacity, out, unrolled,
                                                RleOperator::kAdd, start, end, sum));
    out.swap(sum);
  }
  return PlanStatus::ok();
}

Resource InMemoryPlan::totalCommittedResources(int64_t t) const {
  Resource r = committed_.capacityAtTime(t);
  for (const auto& [period, load] : periodicCommitted_) r += load.skyline.capacityAtTime(t);
  return r;
}

PlanResult<Rle> InMemoryPlan::cumulativeLoadOverTime(int64_t start, int64_t end) const {
  if (periodicCommitted_.empty()) return committed_.rangeOverlapping(start, end);
  Rle::Points out;
  SPINDLE_PLAN_RETURN_IF_ERROR(loadInto(committed_, periodicCommitted_, start, end, out));
  return Rle::fromPoints(out);
}

PlanResult<Rle> InMemoryPlan::consumptionForUserOverTime(const std::string& user, int64_t start,
                                                         int64_t end) const {
  auto periodic = userPeriodicLoad_.find(user);
  if (periodic == userPeriodicLoad_.end()) {
    auto it = userLoad_.find(user);
    if (it == userLoad_.end()) return Rle();
    return it->second.rangeOverlapping(start, end);
  }
  Rle::Points out;
  SPINDLE_PLAN_RETURN_IF_ERROR(loadInto(userLoad(user), periodic->second, start, end, out));
  return Rle::fromPoints(out);
}

Resource InMemoryPlan::userResourcesAtTime(const std::string& user, int64_t t) const {
  Resource r = userLoad(user).capacityAtTime(t);
  if (auto it = userPeriodicLoad_.find(user); it != userPeriodicLoad_.end()) {
    for (const auto& [period, load] : it->second) r += load.skyline.capacityAtTime(t);
  }
  return r;
}

int64_t InMemoryPlan::activeReservationCount(const std::string& user, int64_t t) const {
  auto it = userActive_.find(user);
  return it == userActive_.end() ? 0 : it->second.capacityAtTime(t).memoryMb();
}

PlanResult<Rle> InMemoryPlan::availableResourceOverTime(const std::string& user,
                                                        std::optional<ReservationId> oldId,
                                                        int64_t start, int64_t end,
                                                        int64_t period) const {
  Rle::Points out;
  SPINDLE_PLAN_RETURN_IF_ERROR(availableResourceOverTimeInto(user, oldId, start, end, period, out));
  return Rle::fromPoints(out);
}

PlanStatus InMemoryPlan::availableResourceOverTimeInto(const std::string& user,
                                                       std::optional<ReservationId> oldId,
                                                       int64_t start, int64_t end, int64_t period,
                                                       Rle::Points& out) const {
  if (period > 0) return periodicAvailableInto(user, oldId, start, end, period, out);
  const Resource& cap = settings_.totalCapacity;
  Rle::Points capacity{{start, cap}};
  SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(
      calc_, cap, capacity, committed_, RleOperator::kSubtractTestNonNegative, start, end, out));
  Rle::Points scratch;
  if (!periodicCommitted_.empty()) {
    // YARN's second subtractTestNonNegative merge: the periodic load.
    Rle::Points periodic;
    SPINDLE_PLAN_RETURN_IF_ERROR(loadInto(Rle(), periodicCommitted_, start, end, periodic));
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(
        calc_, cap, out, periodic, RleOperator::kSubtractTestNonNegative, start, end, scratch));
    out.swap(scratch);
  }
  const ReservationAllocation* old = oldId ? reservationById(*oldId) : nullptr;
  if (old != nullptr) {
    if (old->isPeriodic()) {
      Rle::Points oldPoints;
      old->resourcesOverTimeInto(start, end, oldPoints);
      SPINDLE_PLAN_RETURN_IF_ERROR(
          Rle::mergeInto(calc_, cap, out, oldPoints, RleOperator::kAdd, start, end, scratch));
    } else {
      SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc_, cap, out, old->resourcesOverTime(),
                                                  RleOperator::kAdd, start, end, scratch));
    }
    out.swap(scratch);
  }
  return policy_->availableResources(out, *this, user, oldId, start, end);
}

PlanStatus InMemoryPlan::periodicAvailableInto(const std::string& user,
                                               std::optional<ReservationId> oldId, int64_t start,
                                               int64_t end, int64_t period,
                                               Rle::Points& out) const {
  const int64_t maxPeriod = settings_.maxPeriodicity;
  if (maxPeriod <= 0 || maxPeriod % period != 0) {
    return planError(PlanErrorKind::kPlanning,
                     "The reservation periodicity ({}) must be an exact divider of the system "
                     "maxPeriod ({})",
                     period, maxPeriod);
  }
  if (period < end - start) {
    return planError(PlanErrorKind::kPlanning,
                     "Invalid input: (end - start) = ({} - {}) = {} > period = {}", end, start,
                     end - start, period);
  }
  // YARN takes the max-periodicity / period instances that meet every phase of the periodic
  // load; a non-periodic reservation further ahead would go unseen, so the instances go on
  // until the last one that meets the non-periodic load.
  int64_t instances = maxPeriod / period;
  const int64_t lastEnd = committed_.latestNonNullTime();
  if (lastEnd > start) instances = std::max(instances, (lastEnd - start + period - 1) / period);
  SPINDLE_PLAN_RETURN_IF_ERROR(availableResourceOverTimeInto(user, oldId, start, end, 0, out));
  Rle::Points snapshot, lowest;
  for (int64_t i = 1; i < instances; ++i) {
    const int64_t shift = i * period;
    SPINDLE_PLAN_RETURN_IF_ERROR(
        availableResourceOverTimeInto(user, oldId, start + shift, end + shift, 0, snapshot));
    for (auto& point : snapshot) point.first -= shift;
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc_, settings_.totalCapacity, out, snapshot,
                                                RleOperator::kMin, start, end, lowest));
    out.swap(lowest);
  }
  return PlanStatus::ok();
}

const Rle& InMemoryPlan::userLoad(const std::string& user) const {
  static const Rle kEmpty;
  auto it = userLoad_.find(user);
  return it == userLoad_.end() ? kEmpty : it->second;
}

Status InMemoryPlan::checkInvariants() const {
  Rle committed;
  std::map<std::string, Rle> users, active;
  std::map<int64_t, PeriodicLoad> periodic;
  std::map<std::string, std::map<int64_t, PeriodicLoad>> userPeriodic;
  size_t periodicCount = 0;
  for (const auto& [id, a] : table_) {
    const bool inByEnd = byEnd_.contains({a->endTime(), id});
    if (!byInterval_.contains({a->startTime(), a->endTime(), id}) || inByEnd == a->isPeriodic()) {
      return internalError("plan {}: {} is not indexed by time as a {} reservation", queueName(),
                           id.toString(), a->isPeriodic() ? "periodic" : "non-periodic");
    }
    if (const PeriodicRle* folded = a->periodicResources()) {
      ++periodicCount;
      for (auto* loads : {&periodic, &userPeriodic[a->user()]}) {
        auto it =
            loads->try_emplace(a->periodicity(), PeriodicLoad{PeriodicRle(a->periodicity()), 0})
                .first;
        it->second.skyline.add(*folded);
        ++it->second.reservations;
      }
    } else {
      addSkyline(committed, a->resourcesOverTime(), true);
      addSkyline(users[a->user()], a->resourcesOverTime(), true);
    }
    if (auto span = activeSpan(*a)) active[a->user()].addInterval(*span, kOneActive);
  }
  if (byInterval_.size() != table_.size() || byEnd_.size() != table_.size() - periodicCount ||
      periodicCount != periodicCount_) {
    return internalError(
        "plan {}: {} reservations ({} periodic, {} counted) but {} / {} time index entries",
        queueName(), table_.size(), periodicCount, periodicCount_, byInterval_.size(),
        byEnd_.size());
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
  auto samePeriodic = [](const PeriodicLoads& want, const PeriodicLoads& have) {
    if (want.size() != have.size()) return false;
    for (const auto& [period, load] : want) {
      auto it = have.find(period);
      if (it == have.end() || it->second.reservations != load.reservations ||
          !sameValues(load.skyline.base(), it->second.skyline.base())) {
        return false;
      }
    }
    return true;
  };
  if (!samePeriodic(periodic, periodicCommitted_)) {
    return internalError(
        "plan {}: the periodic load differs from the sum of the periodic "
        "reservations",
        queueName());
  }
  if (userPeriodic.size() != userPeriodicLoad_.size()) {
    return internalError("plan {}: {} users hold periodic reservations but {} have periodic load",
                         queueName(), userPeriodic.size(), userPeriodicLoad_.size());
  }
  for (const auto& [user, loads] : userPeriodic) {
    auto it = userPeriodicLoad_.find(user);
    if (it == userPeriodicLoad_.end() || !samePeriodic(loads, it->second)) {
      return internalError(
          "plan {}: user {} periodic load differs from the sum of its periodic "
          "reservations",
          queueName(), user);
    }
  }
  for (const auto& [user, count] : active) {
    auto it = userActive_.find(user);
    if (it == userActive_.end() || !sameValues(count, it->second)) {
      return internalError("plan {}: user {} active reservation count differs", queueName(), user);
    }
  }
  for (const auto& [user, count] : userActive_) {
    if (!active.contains(user) && !count.isEmpty()) {
      return internalError("plan {}: user {} counts active reservations but holds none",
                           queueName(), user);
    }
  }
  return Status::ok();
}

}  // namespace spindle::reservation
