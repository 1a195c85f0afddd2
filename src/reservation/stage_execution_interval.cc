#include "reservation/stage_execution_interval.h"

#include "reservation/stage_allocator.h"

namespace spindle::reservation {

namespace {

bool ordered(Interpreter i) { return i == Interpreter::kOrder || i == Interpreter::kOrderNoGap; }

}  // namespace

ReservationInterval StageExecutionIntervalUnconstrained::computeExecutionInterval(
    const InMemoryPlan&, const ReservationDefinition& def, size_t, bool allocateLeft,
    const RleSparseResourceAllocation& placed) const {
  ReservationInterval w{def.arrival, def.deadline};
  if (!ordered(def.interpreter) || placed.isEmpty()) return w;
  if (allocateLeft) {
    w.start = placed.latestNonNullTime();
  } else {
    w.end = placed.earliestStartTime();
  }
  return w;
}

ReservationInterval StageExecutionIntervalByDemand::computeExecutionInterval(
    const InMemoryPlan& plan, const ReservationDefinition& def, size_t stage, bool allocateLeft,
    const RleSparseResourceAllocation& placed) const {
  ReservationInterval w = StageExecutionIntervalUnconstrained().computeExecutionInterval(
      plan, def, stage, allocateLeft, placed);
  if (!ordered(def.interpreter)) return w;
  const int64_t step = plan.stepMs();
  // Stages not yet placed: this one and those after it (left) or before it (right).
  size_t from = allocateLeft ? stage : 0;
  size_t to = allocateLeft ? def.stages.size() : stage + 1;
  int64_t totalDuration = 0;
  double totalWeight = 0;
  auto weight = [](const ReservationRequest& r) {
    return static_cast<double>(r.durationMs) * static_cast<double>(r.capability.memoryMb()) *
           static_cast<double>(r.numContainers);
  };
  for (size_t i = from; i < to; ++i) {
    totalDuration += stepRoundUp(def.stages[i].durationMs, step);
    totalWeight += weight(def.stages[i]);
  }
  const ReservationRequest& cur = def.stages[stage];
  const int64_t dur = stepRoundUp(cur.durationMs, step);
  const double rem = static_cast<double>((w.end - w.start) - totalDuration);
  const double ratio = totalWeight > 0 ? weight(cur) / totalWeight : 0;
  const double share = rem * ratio;
  if (allocateLeft) {
    w.end = stepRoundDown(static_cast<int64_t>(static_cast<double>(w.start + dur) + share), step);
  } else {
    w.start = stepRoundUp(static_cast<int64_t>(static_cast<double>(w.end - dur) - share), step);
  }
  return w;
}

}  // namespace spindle::reservation
