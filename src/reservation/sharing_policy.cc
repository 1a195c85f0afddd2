#include "reservation/sharing_policy.h"

#include <limits>

#include "reservation/in_memory_plan.h"

namespace spindle::reservation {

namespace {

using Rle = RleSparseResourceAllocation;

// Math.round(i / w) for w > 0, in exact integer arithmetic.
int64_t roundDiv(__int128 i, int64_t w) {
  __int128 twice = 2 * i + w;
  __int128 den = 2 * static_cast<__int128>(w);
  __int128 q = twice / den;
  if (twice % den != 0 && twice < 0) --q;  // floor for negatives
  return static_cast<int64_t>(q);
}

}  // namespace

Resource multiplyTruncating(const Resource& r, double by) {
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    out.set(i, static_cast<int64_t>(static_cast<double>(r.get(i)) * by));
  }
  return out;
}

PlanStatus NoOverCommitPolicy::validate(const InMemoryPlan& plan,
                                        const ReservationAllocation& candidate) const {
  const ReservationAllocation* old = plan.reservationById(candidate.id());
  if (old != nullptr && old->user() != candidate.user()) {
    return planError(PlanErrorKind::kMismatchedUser,
                     "Updating an existing reservation with mismatched user:{} != {}", old->user(),
                     candidate.user());
  }
  Rle::Points available, scratch;
  SPINDLE_PLAN_RETURN_IF_ERROR(
      plan.availableResourceOverTimeInto(candidate.user(), candidate.id(), candidate.startTime(),
                                         candidate.endTime(), candidate.periodicity(), available));
  PlanStatus fit;
  if (candidate.isPeriodic()) {
    Rle::Points ask;
    candidate.resourcesOverTimeInto(candidate.startTime(), candidate.endTime(), ask);
    fit = Rle::mergeInto(plan.calculator(), plan.totalCapacity(), available, ask,
                         RleOperator::kSubtractTestNonNegative, candidate.startTime(),
                         candidate.endTime(), scratch);
  } else {
    fit = Rle::mergeInto(plan.calculator(), plan.totalCapacity(), available,
                         candidate.resourcesOverTime(), RleOperator::kSubtractTestNonNegative,
                         candidate.startTime(), candidate.endTime(), scratch);
  }
  if (!fit) {
    return planError(PlanErrorKind::kResourceOverCommit,
                     "Resources at time {} would be overcommitted by accepting reservation: {}",
                     fit.message(), candidate.id().toString());
  }
  return PlanStatus::ok();
}

PlanStatus NoOverCommitPolicy::availableResources(Rle::Points&, const InMemoryPlan&,
                                                  const std::string&, std::optional<ReservationId>,
                                                  int64_t, int64_t) const {
  return PlanStatus::ok();
}

CapacityOverTimePolicy::CapacityOverTimePolicy(Settings settings)
    : settings_(settings),
      maxInst_(settings.instantaneousMaxPercent / 100.0f),
      maxAvg_(settings.averagePercent / 100.0f) {}

PlanStatus CapacityOverTimePolicy::availableResources(Rle::Points& available,
                                                      const InMemoryPlan& plan,
                                                      const std::string& user,
                                                      std::optional<ReservationId> oldId,
                                                      int64_t start, int64_t end) const {
  const ResourceCalculator& calc = plan.calculator();
  const Resource& cap = plan.totalCapacity();
  // quota = maxInst * capacity - (the user's load - the replaced version)
  Rle::Points quota{{start, multiplyTruncating(cap, maxInst_)}};
  Rle::Points used, scratch;
  const Rle& load = plan.userLoad(user);
  const ReservationAllocation* old = oldId ? plan.reservationById(*oldId) : nullptr;
  if (plan.hasPeriodicLoad(user) || (old != nullptr && old->isPeriodic())) {
    // The user's periodic reservations count in every period (their load unrolled here).
    SPINDLE_PLAN_ASSIGN_OR_RETURN(Rle consumption,
                                  plan.consumptionForUserOverTime(user, start, end));
    Rle::Points oldPoints;
    if (old != nullptr) old->resourcesOverTimeInto(start, end, oldPoints);
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc, cap, consumption, oldPoints,
                                                RleOperator::kSubtract, start, end, used));
    SPINDLE_PLAN_RETURN_IF_ERROR(
        Rle::mergeInto(calc, cap, quota, used, RleOperator::kSubtract, start, end, scratch));
  } else if (old != nullptr) {
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc, cap, load, old->resourcesOverTime(),
                                                RleOperator::kSubtract, start, end, used));
    SPINDLE_PLAN_RETURN_IF_ERROR(
        Rle::mergeInto(calc, cap, quota, used, RleOperator::kSubtract, start, end, scratch));
  } else {
    SPINDLE_PLAN_RETURN_IF_ERROR(
        Rle::mergeInto(calc, cap, quota, load, RleOperator::kSubtract, start, end, scratch));
  }
  SPINDLE_PLAN_RETURN_IF_ERROR(
      Rle::mergeInto(calc, cap, available, scratch, RleOperator::kMin, start, end, used));
  available.swap(used);
  return PlanStatus::ok();
}

PlanStatus CapacityOverTimePolicy::validate(const InMemoryPlan& plan,
                                            const ReservationAllocation& candidate) const {
  PlanStatus physical = NoOverCommitPolicy().validate(plan, candidate);
  if (!physical) {
    if (!physical.isPlanningException()) return physical;
    return PlanStatus(PlanErrorKind::kPlanningQuota, physical.toString());
  }
  return checkIntegral(plan, candidate);
}

PlanStatus CapacityOverTimePolicy::checkIntegral(const InMemoryPlan& plan,
                                                 const ReservationAllocation& candidate) const {
  const ResourceCalculator& calc = plan.calculator();
  const Resource& cap = plan.totalCapacity();
  const int64_t w = settings_.validWindowMs;
  if (w <= 0) return PlanStatus::ok();
  const int64_t checkStart = candidate.startTime() - w;
  int64_t checkEnd = candidate.endTime() + w;
  if (candidate.isPeriodic()) {
    // YARN checks a periodic reservation over its first instance only. It repeats until
    // cancelled: every window over one max-periodicity (all phases of the user's periodic
    // load) and over the user's non-periodic load ahead is checked.
    const int64_t horizon = std::max(candidate.startTime() + plan.maxPeriodicity(),
                                     plan.userLoad(candidate.user()).latestNonNullTime());
    checkEnd = std::max(checkEnd, horizon + w);
  }

  SPINDLE_PLAN_ASSIGN_OR_RETURN(
      Rle consumption, plan.consumptionForUserOverTime(candidate.user(), checkStart, checkEnd));
  if (const ReservationAllocation* old = plan.reservationById(candidate.id())) {
    // YARN 3.x adds the old version here although its comment says it is discounted.
    SPINDLE_PLAN_ASSIGN_OR_RETURN(
        consumption,
        Rle::merge(calc, cap, consumption, old->resourcesOverTime(checkStart, checkEnd),
                   RleOperator::kAdd, checkStart, checkEnd));
  }
  SPINDLE_PLAN_ASSIGN_OR_RETURN(
      Rle toCheck,
      Rle::merge(calc, cap, consumption, candidate.resourcesOverTime(checkStart, checkEnd),
                 RleOperator::kAdd, std::numeric_limits<int64_t>::min(),
                 std::numeric_limits<int64_t>::max()));

  // Running integral with a point every W inside long runs; points past checkEnd cannot change
  // the window averages inside [checkStart, checkEnd].
  Rle::Map up, down;
  __int128 integral[kMaxResourceTypes] = {};
  auto record = [&](int64_t p) {
    Resource avg;
    for (int i = 0; i < kMaxResourceTypes; ++i) avg.set(i, roundDiv(integral[i], w));
    up.emplace_hint(up.end(), p, avg);
    down.emplace_hint(down.end(), p + w, avg);
  };
  auto accumulate = [&](const Resource& v, int64_t span) {
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      integral[i] += static_cast<__int128>(v.get(i)) * span;
    }
  };
  bool first = true;
  int64_t last = 0;
  Resource value;
  for (const auto& [t, v] : toCheck.cumulative()) {
    if (!first) {
      for (int64_t p = last + w; p < t && p <= checkEnd; p += w) {
        accumulate(value, p - last);
        record(p);
        last = p;
      }
      if (t > checkEnd) break;  // the run's samples inside the range are taken
      accumulate(value, t - last);
    } else if (t > checkEnd) {
      break;
    }
    record(t);
    first = false;
    last = t;
    value = v.value_or(Resource());
  }
  if (first) return PlanStatus::ok();

  SPINDLE_PLAN_ASSIGN_OR_RETURN(Rle windowAvg,
                                Rle::merge(calc, cap, Rle(std::move(up)), Rle(std::move(down)),
                                           RleOperator::kSubtract, checkStart, checkEnd));
  Resource limit = multiplyTruncating(cap, maxAvg_);
  for (const auto& [t, v] : windowAvg.cumulative()) {
    if (v && !v->fitsIn(limit)) {
      return planError(PlanErrorKind::kPlanningQuota,
                       "Integral (avg over time) quota capacity {} over a window of {} seconds, "
                       "would be exceeded by accepting reservation: {}",
                       maxAvg_, w / 1000, candidate.id().toString());
    }
  }
  return PlanStatus::ok();
}

}  // namespace spindle::reservation
