#include "reservation/stage_allocator.h"

#include <climits>
#include <cmath>
#include <set>

namespace spindle::reservation {

namespace {

using Rle = RleSparseResourceAllocation;

// net = plan availability over [sa, sd] minus the tentative allocations.
PlanResult<Rle> netAvailable(StageContext& ctx, int64_t sa, int64_t sd) {
  const InMemoryPlan& plan = ctx.plan;
  SPINDLE_PLAN_ASSIGN_OR_RETURN(Rle avail,
                                plan.availableResourceOverTime(ctx.user, ctx.oldId, sa, sd));
  return Rle::merge(plan.calculator(), plan.totalCapacity(), avail, ctx.planModifications,
                    RleOperator::kSubtract, sa, sd);
}

void rollBack(Rle& planModifications, const IntervalAllocations& placed) {
  for (const auto& [interval, r] : placed) planModifications.removeInterval(interval, r);
}

// The fewest gangs that fit at any breakpoint of `net` in [from, to), and the constraining
// breakpoint (the last reached scanning in the given direction).
struct Constraint {
  int64_t gangs;
  int64_t point;
};

Constraint scanLeft(const ResourceCalculator& calc, const Resource& cap, const Rle& net,
                    int64_t from, int64_t to, const Resource& gang, int64_t k) {
  Constraint c{k, from};
  const auto& m = net.cumulative();
  auto it = m.upper_bound(from);
  if (it != m.begin()) --it;
  for (; it != m.end() && it->first < to; ++it) {
    if (!it->second) continue;
    int64_t g = gangsThatFit(calc, cap, *it->second, gang);
    if (g <= c.gangs) c = {g, it->first};
  }
  return c;
}

Constraint scanRight(const ResourceCalculator& calc, const Resource& cap, const Rle& net,
                     int64_t from, int64_t to, const Resource& gang, int64_t k) {
  Constraint c{k, to};
  const auto& m = net.cumulative();
  auto it = m.lower_bound(to);  // first key >= to: excluded
  while (it != m.begin()) {
    --it;
    if (it->second) {
      int64_t g = gangsThatFit(calc, cap, *it->second, gang);
      if (g <= c.gangs) c = {g, it->first};
    }
    if (it->first <= from) break;  // the entry in force at `from` was the last to look at
  }
  return c;
}

}  // namespace

int64_t stepRoundUp(int64_t t, int64_t step) {
  int64_t r = t % step;
  if (r == 0) return t;
  return r > 0 ? t + (step - r) : t - r;
}

int64_t stepRoundDown(int64_t t, int64_t step) {
  int64_t r = t % step;
  if (r == 0) return t;
  return r > 0 ? t - r : t - (step + r);
}

int64_t gangsThatFit(const ResourceCalculator& calc, const Resource& capacity,
                     const Resource& available, const Resource& gang) {
  double d = std::floor(calc.divide(capacity, available, gang));
  if (std::isnan(d)) return 0;
  if (d >= static_cast<double>(INT_MAX)) return INT_MAX;
  if (d <= static_cast<double>(INT_MIN)) return INT_MIN;
  return static_cast<int64_t>(d);
}

PlanResult<StageAllocation> StageAllocatorGreedy::computeStageAllocation(
    StageContext& ctx, const ReservationRequest& stage, int64_t stageArrival,
    int64_t stageDeadline) const {
  const InMemoryPlan& plan = ctx.plan;
  const int64_t step = plan.stepMs();
  const int64_t dur = stepRoundUp(stage.durationMs, step);
  const Resource gang = stage.gang();
  int64_t k = stage.numContainers / stage.concurrency;
  SPINDLE_PLAN_ASSIGN_OR_RETURN(Rle net, netAvailable(ctx, stageArrival, stageDeadline));
  IntervalAllocations placed;
  int64_t sd = stageDeadline;
  while (k > 0 && sd - dur >= stageArrival) {
    int64_t maxGang = k;
    int64_t minPoint = sd;
    for (int64_t t = sd - step; t >= sd - dur && maxGang > 0; t -= step) {
      int64_t g = std::min(
          k, gangsThatFit(plan.calculator(), plan.totalCapacity(), net.capacityAtTime(t), gang));
      if (g <= maxGang) {
        maxGang = g;
        minPoint = t;
      }
    }
    if (maxGang > 0) {
      ReservationInterval w{sd - dur, sd};
      Resource r = gang.times(maxGang);
      ctx.planModifications.addInterval(w, r);
      net.removeInterval(w, r);
      placed.emplace_back(w, r);
      k -= maxGang;
    }
    sd = std::min(minPoint, sd - step);
  }
  if (k > 0) {
    rollBack(ctx.planModifications, placed);
    return StageAllocation();
  }
  return StageAllocation(std::move(placed));
}

PlanResult<StageAllocation> StageAllocatorGreedyRle::computeStageAllocation(
    StageContext& ctx, const ReservationRequest& stage, int64_t stageArrival,
    int64_t stageDeadline) const {
  // YARN compares the raw duration here, before rounding to the step.
  if (stageArrival + stage.durationMs > stageDeadline) return StageAllocation();
  const InMemoryPlan& plan = ctx.plan;
  const ResourceCalculator& calc = plan.calculator();
  const Resource& cap = plan.totalCapacity();
  const int64_t dur = stepRoundUp(stage.durationMs, plan.stepMs());
  const Resource gang = stage.gang();
  int64_t k = stage.numContainers / stage.concurrency;
  SPINDLE_PLAN_ASSIGN_OR_RETURN(Rle net, netAvailable(ctx, stageArrival, stageDeadline));
  IntervalAllocations placed;
  auto place = [&](ReservationInterval w, int64_t gangs) {
    Resource r = gang.times(gangs);
    ctx.planModifications.addInterval(w, r);
    net.removeInterval(w, r);
    placed.emplace_back(w, r);
    k -= gangs;
  };
  if (allocateLeft_) {
    int64_t sa = stageArrival;
    while (k > 0 && sa + dur <= stageDeadline) {
      Constraint c = scanLeft(calc, cap, net, sa, sa + dur, gang, k);
      if (c.gangs > 0) place({sa, sa + dur}, c.gangs);
      auto next = net.cumulative().upper_bound(c.point);
      int64_t after = next == net.cumulative().end() ? sa + dur : next->first;
      sa = std::min(after, sa + dur);
    }
  } else {
    int64_t sd = stageDeadline;
    while (k > 0 && sd - dur >= stageArrival) {
      Constraint c = scanRight(calc, cap, net, sd - dur, sd, gang, k);
      if (c.gangs > 0) place({sd - dur, sd}, c.gangs);
      sd = std::max(c.point, sd - dur);
    }
  }
  if (k > 0) {
    rollBack(ctx.planModifications, placed);
    return StageAllocation();
  }
  return StageAllocation(std::move(placed));
}

namespace {

struct DurationInterval {
  int64_t start;
  int64_t end;
  double cost;
  int64_t fit;
};

// Sum over the steps of [start, end) of calc.ratio(load, capacity), one RLE run at a time.
PlanResult<double> blockCost(const InMemoryPlan& plan, const Rle& planLoads,
                             const Rle& planModifications, int64_t start, int64_t end) {
  const ResourceCalculator& calc = plan.calculator();
  const Resource& cap = plan.totalCapacity();
  const int64_t step = plan.stepMs();
  SPINDLE_PLAN_ASSIGN_OR_RETURN(
      Rle load, Rle::merge(calc, cap, planLoads, planModifications, RleOperator::kAdd, start, end));
  double cost = 0;
  int64_t t = start;
  const auto& m = load.cumulative();
  while (t < end) {
    auto next = m.upper_bound(t);
    int64_t runEnd = next == m.end() ? end : std::min(next->first, end);
    // steps t, t + step, ... that fall inside [t, runEnd)
    int64_t count = (runEnd - t + step - 1) / step;
    double ratio = calc.ratio(load.capacityAtTime(t), cap);
    cost += static_cast<double>(count) * ratio;
    t += count * step;
  }
  return cost;
}

PlanResult<int64_t> blockFit(const InMemoryPlan& plan, const Rle& net, const Rle& planModifications,
                             const Resource& gang, int64_t start, int64_t end) {
  const ResourceCalculator& calc = plan.calculator();
  const Resource& cap = plan.totalCapacity();
  SPINDLE_PLAN_ASSIGN_OR_RETURN(
      Rle free, Rle::merge(calc, cap, net, planModifications, RleOperator::kSubtractTestNonNegative,
                           start, end));
  int64_t fit = INT_MAX;
  for (const auto& [t, v] : free.cumulative()) {
    if (t >= end) break;
    if (v) fit = std::min(fit, gangsThatFit(calc, cap, *v, gang));
  }
  return fit;
}

}  // namespace

PlanResult<StageAllocation> StageAllocatorLowCostAligned::computeStageAllocation(
    StageContext& ctx, const ReservationRequest& stage, int64_t stageArrival,
    int64_t stageDeadline) const {
  const InMemoryPlan& plan = ctx.plan;
  const int64_t dur = stepRoundUp(stage.durationMs, plan.stepMs());
  if (dur <= 0) return StageAllocation();
  const int64_t blocks = (stageDeadline - stageArrival) / dur;
  if (blocks <= 0) return StageAllocation();
  const Resource gang = stage.gang();
  const int64_t totalGangs = stage.numContainers / stage.concurrency;
  const int64_t maxGangsPerUnit =
      std::max<int64_t>(std::max<int64_t>(totalGangs / blocks, 1) / smoothness_, 1);
  SPINDLE_PLAN_ASSIGN_OR_RETURN(
      Rle net, plan.availableResourceOverTime(ctx.user, ctx.oldId, stageArrival, stageDeadline));

  const bool left = allocateLeft_;
  auto cheaper = [left](const DurationInterval& a, const DurationInterval& b) {
    if (a.cost != b.cost) return a.cost < b.cost;
    return left ? a.start < b.start : a.end > b.end;
  };
  std::set<DurationInterval, decltype(cheaper)> byCost(cheaper);
  auto evaluate = [&](int64_t start) -> PlanResult<DurationInterval> {
    SPINDLE_PLAN_ASSIGN_OR_RETURN(
        double cost, blockCost(plan, ctx.planLoads, ctx.planModifications, start, start + dur));
    SPINDLE_PLAN_ASSIGN_OR_RETURN(
        int64_t fit, blockFit(plan, net, ctx.planModifications, gang, start, start + dur));
    return DurationInterval{start, start + dur, cost, fit};
  };
  for (int64_t i = 0; i < blocks; ++i) {
    int64_t start = left ? stageArrival + i * dur : stageDeadline - (i + 1) * dur;
    SPINDLE_PLAN_ASSIGN_OR_RETURN(DurationInterval d, evaluate(start));
    if (d.fit > 0) byCost.insert(d);
  }

  Rle stageAlloc;
  IntervalAllocations placed;
  int64_t remaining = totalGangs;
  while (remaining > 0 && !byCost.empty()) {
    DurationInterval best = *byCost.begin();
    byCost.erase(byCost.begin());
    int64_t gangs = std::min({maxGangsPerUnit, remaining, best.fit});
    remaining -= gangs;
    ReservationInterval w{best.start, best.end};
    Resource r = gang.times(gangs);
    ctx.planModifications.addInterval(w, r);
    stageAlloc.addInterval(w, r);
    placed.emplace_back(w, r);
    PlanResult<DurationInterval> again = evaluate(best.start);
    if (!again) {
      rollBack(ctx.planModifications, placed);
      return again.status();
    }
    if (again->fit > 0) byCost.insert(*again);
  }
  if (remaining > 0) {
    rollBack(ctx.planModifications, placed);
    return StageAllocation();
  }
  IntervalAllocations out;
  for (auto& [interval, r] : stageAlloc.toIntervalMap()) {
    if (!r.isZero()) out.emplace_back(interval, r);
  }
  return StageAllocation(std::move(out));
}

}  // namespace spindle::reservation
