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
  Rle::Points avail, net;
  SPINDLE_PLAN_RETURN_IF_ERROR(
      plan.availableResourceOverTimeInto(ctx.user, ctx.oldId, sa, sd, ctx.period, avail));
  SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(plan.calculator(), plan.totalCapacity(), avail,
                                              ctx.planModifications, RleOperator::kSubtract, sa, sd,
                                              net));
  return Rle::fromPoints(net);
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

using Points = Rle::Points;

// The entry in force at t (the last with key <= t), or end.
Points::const_iterator floorEntry(const Points& m, int64_t t) {
  auto it =
      std::upper_bound(m.begin(), m.end(), t, [](int64_t x, const auto& e) { return x < e.first; });
  return it == m.begin() ? m.end() : std::prev(it);
}

// Sum over the steps of [start, end) of calc.ratio(load, capacity), one RLE run at a time.
double runCost(const InMemoryPlan& plan, const Points& load, int64_t start, int64_t end) {
  const ResourceCalculator& calc = plan.calculator();
  const Resource& cap = plan.totalCapacity();
  const int64_t step = plan.stepMs();
  double cost = 0;
  int64_t t = start;
  auto it = floorEntry(load, t);
  while (t < end) {
    auto next = it == load.end() ? load.begin() : std::next(it);
    while (next != load.end() && next->first <= t) it = next++;
    int64_t runEnd = next == load.end() ? end : std::min(next->first, end);
    // steps t, t + step, ... that fall inside [t, runEnd)
    int64_t count = (runEnd - t + step - 1) / step;
    Resource value = it == load.end() ? Resource() : it->second.value_or(Resource());
    cost += static_cast<double>(count) * calc.ratio(value, cap);
    t += count * step;
  }
  return cost;
}

// The fewest gangs that fit in `free` anywhere in [start, end).
int64_t fitOver(const InMemoryPlan& plan, const Points& free, const Resource& gang, int64_t start,
                int64_t end) {
  auto it = floorEntry(free, start);
  if (it == free.end()) it = free.begin();
  int64_t fit = INT_MAX;
  for (; it != free.end() && it->first < end; ++it) {
    if (it->second) {
      fit = std::min(fit, gangsThatFit(plan.calculator(), plan.totalCapacity(), *it->second, gang));
    }
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
  Points net;
  SPINDLE_PLAN_RETURN_IF_ERROR(plan.availableResourceOverTimeInto(ctx.user, ctx.oldId, stageArrival,
                                                                  stageDeadline, ctx.period, net));

  const bool left = allocateLeft_;
  auto cheaper = [left](const DurationInterval& a, const DurationInterval& b) {
    if (a.cost != b.cost) return a.cost < b.cost;
    return left ? a.start < b.start : a.end > b.end;
  };
  std::set<DurationInterval, decltype(cheaper)> byCost(cheaper);
  const ResourceCalculator& calc = plan.calculator();
  const Resource& cap = plan.totalCapacity();
  Points load, free;  // reused: a block is re-evaluated after every placement on it
  auto evaluate = [&](int64_t start, int64_t end) -> PlanResult<DurationInterval> {
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc, cap, ctx.planLoads, ctx.planModifications,
                                                RleOperator::kAdd, start, end, load));
    SPINDLE_PLAN_RETURN_IF_ERROR(Rle::mergeInto(calc, cap, net, ctx.planModifications,
                                                RleOperator::kSubtractTestNonNegative, start, end,
                                                free));
    return DurationInterval{start, start + dur, runCost(plan, load, start, start + dur),
                            fitOver(plan, free, gang, start, start + dur)};
  };
  // Every block at once: one merge each for the load and the free room over the blocks' span,
  // then one pass per block over its share (the values evaluate() gives block by block).
  const int64_t lo = left ? stageArrival : stageDeadline - blocks * dur;
  SPINDLE_PLAN_RETURN_IF_ERROR(evaluate(lo, lo + blocks * dur).status());
  for (int64_t i = 0; i < blocks; ++i) {
    int64_t start = left ? lo + i * dur : lo + (blocks - 1 - i) * dur;
    DurationInterval d{start, start + dur, runCost(plan, load, start, start + dur),
                       fitOver(plan, free, gang, start, start + dur)};
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
    PlanResult<DurationInterval> again = evaluate(best.start, best.end);
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
