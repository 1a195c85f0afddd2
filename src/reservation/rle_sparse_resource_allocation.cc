#include "reservation/rle_sparse_resource_allocation.h"

#include <algorithm>
#include <limits>

namespace spindle::reservation {

namespace {

using Map = RleSparseResourceAllocation::Map;
using Value = RleSparseResourceAllocation::Value;

Resource negated(const Resource& r) { return Resource() - r; }

// The half-open iterator range of `m` that rangeOverlapping(start, end) keeps.
std::pair<Map::const_iterator, Map::const_iterator> overlapping(const Map& m, int64_t start,
                                                                int64_t end) {
  if (m.empty()) return {m.end(), m.end()};
  auto first = m.begin();
  if (start > m.begin()->first) first = std::prev(m.upper_bound(start));
  auto last = m.upper_bound(end);
  if (last != m.end() && first != m.end() && last->first < first->first) last = first;
  return {first, last};
}

// combineValue: an undefined operand yields the other (negated for kSubtract only).
PlanResult<Value> combine(RleOperator op, const ResourceCalculator& calc, const Resource& cluster,
                          const Value& a, const Value& b) {
  if (!a && !b) return Value();
  if (!a) return Value(op == RleOperator::kSubtract ? negated(*b) : *b);
  if (!b) return Value(*a);
  switch (op) {
    case RleOperator::kAdd: return Value(*a + *b);
    case RleOperator::kSubtract: return Value(*a - *b);
    case RleOperator::kSubtractTestNonNegative:
      if (!b->fitsIn(*a)) {
        return planError(PlanErrorKind::kPlanning,
                         "RLESparseResourceAllocation: merge failed as the resulting "
                         "RLESparseResourceAllocation would be negative, when testing: ({}) > ({})",
                         b->toString(), a->toString());
      }
      return Value(*a - *b);
    case RleOperator::kMin: return Value(calc.min(cluster, *a, *b));
    case RleOperator::kMax: return Value(calc.max(cluster, *a, *b));
  }
  return Value();
}

// addIfNeeded: appends unless equal to the last value; a repeated time overwrites.
void appendIfNeeded(RleSparseResourceAllocation::Points& out, int64_t time, const Value& v) {
  if (!out.empty()) {
    auto& last = out.back();
    if (v && last.second && *last.second == *v) return;
    if (last.first == time) {
      last.second = v;
      return;
    }
  }
  out.emplace_back(time, v);
}

}  // namespace

RleSparseResourceAllocation RleSparseResourceAllocation::fromIntervals(
    const IntervalAllocations& allocations) {
  RleSparseResourceAllocation rle;
  for (const auto& [interval, r] : allocations) rle.addInterval(interval, r);
  return rle;
}

void RleSparseResourceAllocation::addInterval(const ReservationInterval& interval,
                                              const Resource& r) {
  shiftInterval(interval, r, true);
}

void RleSparseResourceAllocation::removeInterval(const ReservationInterval& interval,
                                                 const Resource& r) {
  shiftInterval(interval, r, false);
}

// Equivalent to YARN's merge of the whole map with {start: r, end: 0}, restricted to the keys
// the interval touches: the values in [start, end) move by r, breakpoints appear at start and
// end, and equal neighbours around the edited range are folded.
void RleSparseResourceAllocation::shiftInterval(const ReservationInterval& interval,
                                                const Resource& r, bool add) {
  if (r.isZero() || interval.end <= interval.start) return;
  auto valueBefore = [&](int64_t t) -> Resource {
    auto it = points_.upper_bound(t);
    if (it == points_.begin()) return Resource();
    --it;
    return it->second.value_or(Resource());
  };
  if (!points_.contains(interval.end)) points_.emplace(interval.end, valueBefore(interval.end));
  auto first = points_.find(interval.start);
  if (first == points_.end())
    first = points_.emplace(interval.start, valueBefore(interval.start)).first;
  auto endIt = points_.find(interval.end);
  for (auto it = first; it != endIt; ++it) {
    Resource v = it->second.value_or(Resource());
    it->second = add ? v + r : v - r;
  }
  // Fold equal neighbours from the key before `start` through the key after `end`.
  auto afterEnd = std::next(endIt);
  int64_t lastKey = afterEnd == points_.end() ? endIt->first : afterEnd->first;
  auto it = first == points_.begin() ? first : std::prev(first);
  while (true) {
    auto next = std::next(it);
    if (next == points_.end() || next->first > lastKey) break;
    if (it->second && next->second && *it->second == *next->second) {
      points_.erase(next);
      continue;
    }
    it = next;
  }
}

Resource RleSparseResourceAllocation::capacityAtTime(int64_t t) const {
  auto it = points_.upper_bound(t);
  if (it == points_.begin()) return Resource();
  return std::prev(it)->second.value_or(Resource());
}

bool RleSparseResourceAllocation::isEmpty() const {
  if (points_.empty()) return true;
  auto first = points_.begin();
  if (!first->second || !first->second->isZero()) return false;
  if (points_.size() == 1) return true;
  return points_.size() == 2 && !std::next(first)->second;
}

int64_t RleSparseResourceAllocation::earliestStartTime() const {
  return points_.empty() ? -1 : points_.begin()->first;
}

int64_t RleSparseResourceAllocation::latestNonNullTime() const {
  if (points_.empty()) return -1;
  auto last = std::prev(points_.end());
  if (last->second) return last->first;
  if (last == points_.begin()) return -1;
  return std::prev(last)->first;
}

RleSparseResourceAllocation RleSparseResourceAllocation::rangeOverlapping(int64_t start,
                                                                          int64_t end) const {
  auto [first, last] = overlapping(points_, start, end);
  return RleSparseResourceAllocation(Map(first, last));
}

IntervalAllocations RleSparseResourceAllocation::toIntervalMap() const {
  IntervalAllocations out;
  if (isEmpty()) return out;
  auto prev = points_.end();
  for (auto it = points_.begin(); it != points_.end(); ++it) {
    if (prev != points_.end() && it->second && prev->second) {
      out.emplace_back(ReservationInterval{prev->first, it->first}, *prev->second);
    }
    prev = it;
  }
  return out;
}

Resource RleSparseResourceAllocation::maxOverRange(const ResourceCalculator& calc,
                                                   const Resource& cluster, int64_t start,
                                                   int64_t end) const {
  Resource best;
  if (end <= start) return best;
  auto [first, last] = overlapping(points_, start, end - 1);
  for (auto it = first; it != last; ++it) {
    if (it->second) best = calc.max(cluster, best, *it->second);
  }
  return best;
}

std::string RleSparseResourceAllocation::toString() const {
  std::string s = "{";
  for (const auto& [t, v] : points_) {
    if (s.size() > 1) s += ", ";
    s += fmt::format("{}: {}", t, v ? v->toString() : "null");
  }
  return s + "}";
}

PlanResult<RleSparseResourceAllocation> RleSparseResourceAllocation::merge(
    const ResourceCalculator& calc, const Resource& cluster, const RleSparseResourceAllocation& a,
    const RleSparseResourceAllocation& b, RleOperator op, int64_t start, int64_t end) {
  Points out;
  SPINDLE_PLAN_RETURN_IF_ERROR(mergeInto(calc, cluster, a, b, op, start, end, out));
  return RleSparseResourceAllocation(Map(out.begin(), out.end()));
}

namespace {

std::pair<RleSparseResourceAllocation::Points::const_iterator,
          RleSparseResourceAllocation::Points::const_iterator>
overlapping(const RleSparseResourceAllocation::Points& m, int64_t start, int64_t end) {
  auto byTime = [](int64_t t, const auto& e) { return t < e.first; };
  if (m.empty()) return {m.end(), m.end()};
  auto first = m.begin();
  if (start > m.front().first)
    first = std::prev(std::upper_bound(m.begin(), m.end(), start, byTime));
  auto last = std::upper_bound(first, m.end(), end, byTime);
  return {first, last};
}

std::pair<Map::const_iterator, Map::const_iterator> rangeOf(const RleSparseResourceAllocation& r,
                                                            int64_t start, int64_t end) {
  return overlapping(r.cumulative(), start, end);
}
std::pair<RleSparseResourceAllocation::Points::const_iterator,
          RleSparseResourceAllocation::Points::const_iterator>
rangeOf(const RleSparseResourceAllocation::Points& p, int64_t start, int64_t end) {
  return overlapping(p, start, end);
}

// The merge sweep of RLESparseResourceAllocation.merge over two restricted ranges.
template <typename A, typename B>
PlanStatus sweep(const ResourceCalculator& calc, const Resource& cluster, const A& a, const B& b,
                 RleOperator op, int64_t start, int64_t end,
                 RleSparseResourceAllocation::Points& out) {
  out.clear();
  auto [aIt, aEnd] = rangeOf(a, start, end);
  auto [bIt, bEnd] = rangeOf(b, start, end);
  bool subtracting = op == RleOperator::kSubtract || op == RleOperator::kSubtractTestNonNegative;
  if (aIt == aEnd) {
    if (!subtracting) {
      out.assign(bIt, bEnd);
      return PlanStatus::ok();
    }
    for (auto it = bIt; it != bEnd; ++it) {
      Value v;
      if (it->second) {
        Resource n = negated(*it->second);
        if (op == RleOperator::kSubtractTestNonNegative && n.fitsIn(Resource()) && !n.isZero()) {
          return planError(PlanErrorKind::kPlanning,
                           "RLESparseResourceAllocation: merge failed as the resulting "
                           "RLESparseResourceAllocation would be negative");
        }
        v = n;
      }
      out.emplace_back(it->first, v);
    }
    return PlanStatus::ok();
  }
  if (bIt == bEnd) {
    out.assign(aIt, aEnd);
    return PlanStatus::ok();
  }

  Value lastA, lastB;
  while (aIt != aEnd || bIt != bEnd) {
    int64_t time;
    if (bIt == bEnd || (aIt != aEnd && aIt->first < bIt->first)) {
      time = aIt->first;
      lastA = aIt->second;
      ++aIt;
    } else if (aIt == aEnd || bIt->first < aIt->first) {
      time = bIt->first;
      lastB = bIt->second;
      ++bIt;
    } else {
      time = aIt->first;
      lastA = aIt->second;
      lastB = bIt->second;
      ++aIt;
      ++bIt;
    }
    auto v = combine(op, calc, cluster, lastA, lastB);
    if (!v) return v.status();
    appendIfNeeded(out, time < start ? start : time, *v);
  }
  appendIfNeeded(out, end, Value());
  return PlanStatus::ok();
}

}  // namespace

PlanStatus RleSparseResourceAllocation::mergeInto(
    const ResourceCalculator& calc, const Resource& cluster, const RleSparseResourceAllocation& a,
    const RleSparseResourceAllocation& b, RleOperator op, int64_t start, int64_t end, Points& out) {
  return sweep(calc, cluster, a, b, op, start, end, out);
}
PlanStatus RleSparseResourceAllocation::mergeInto(const ResourceCalculator& calc,
                                                  const Resource& cluster, const Points& a,
                                                  const RleSparseResourceAllocation& b,
                                                  RleOperator op, int64_t start, int64_t end,
                                                  Points& out) {
  return sweep(calc, cluster, a, b, op, start, end, out);
}
PlanStatus RleSparseResourceAllocation::mergeInto(const ResourceCalculator& calc,
                                                  const Resource& cluster,
                                                  const RleSparseResourceAllocation& a,
                                                  const Points& b, RleOperator op, int64_t start,
                                                  int64_t end, Points& out) {
  return sweep(calc, cluster, a, b, op, start, end, out);
}
PlanStatus RleSparseResourceAllocation::mergeInto(const ResourceCalculator& calc,
                                                  const Resource& cluster, const Points& a,
                                                  const Points& b, RleOperator op, int64_t start,
                                                  int64_t end, Points& out) {
  return sweep(calc, cluster, a, b, op, start, end, out);
}

}  // namespace spindle::reservation
