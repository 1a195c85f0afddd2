// PeriodicRleSparseResourceAllocation: values at t and t + period, across period boundaries,
// folding, add / remove, the unrolled range and maxima (the cases of YARN's
// TestPeriodicRLESparseResourceAllocation plus folding and unrolling).
#include "reservation/periodic_rle_sparse_resource_allocation.h"

#include <gtest/gtest.h>

#include "reservation/reservation_test_util.h"

namespace spindle::reservation {
namespace {

using Rle = RleSparseResourceAllocation;
using PeriodicRle = PeriodicRleSparseResourceAllocation;

Resource r(int64_t n) { return Resource::of(n, n); }

// values[i] on [steps[i], steps[i + 1]), the last one up to `period`.
PeriodicRle stepped(const std::vector<int64_t>& values, const std::vector<int64_t>& steps,
                    int64_t period) {
  IntervalAllocations a;
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t end = i + 1 < steps.size() ? steps[i + 1] : period;
    a.push_back({{steps[i], end}, r(values[i])});
  }
  return PeriodicRle::fold(a, period);
}

class PeriodicRleTest : public ::testing::Test {
 protected:
  std::unique_ptr<ResourceCalculator> calc = makeDefaultResourceCalculator(ResourceTypes());
  Resource cluster = Resource::of(100 * 1024, 100);
};

TEST_F(PeriodicRleTest, ValueAtTimeRepeatsEveryPeriod) {
  // testPeriodicCapacity: {10, 7, 5, 2, 0} at {0, 5, 10, 15, 19}, period 20.
  PeriodicRle p = stepped({10, 7, 5, 2, 0}, {0, 5, 10, 15, 19}, 20);
  EXPECT_EQ(p.capacityAtTime(10), r(5));
  EXPECT_EQ(p.capacityAtTime(20), r(10));
  EXPECT_EQ(p.capacityAtTime(27), r(7));
  EXPECT_EQ(p.capacityAtTime(50), r(5));
  for (int64_t t = 0; t < 20; ++t) {
    EXPECT_EQ(p.capacityAtTime(t + 20), p.capacityAtTime(t)) << t;
    EXPECT_EQ(p.capacityAtTime(t + 20 * 1000), p.capacityAtTime(t)) << t;
    EXPECT_EQ(p.capacityAtTime(t - 20), p.capacityAtTime(t)) << t;  // floor modulo
  }
  // Across the boundary: 2 up to 19, 0 on [19, 20), 10 again from 20.
  EXPECT_EQ(p.capacityAtTime(18), r(2));
  EXPECT_EQ(p.capacityAtTime(19), r(0));
  EXPECT_EQ(p.capacityAtTime(39), r(0));
  EXPECT_EQ(p.capacityAtTime(40), r(10));
}

TEST_F(PeriodicRleTest, FoldWrapsAroundThePeriodAndAddsUpLongerAllocations) {
  // [15, 25) in a period of 10 splits into [5, 10) and [0, 5); [0, 25) adds twice plus a half.
  PeriodicRle wrapped = PeriodicRle::fold({{{15, 25}, r(3)}}, 10);
  for (int64_t t = 0; t < 10; ++t) EXPECT_EQ(wrapped.capacityAtTime(t), r(3)) << t;
  PeriodicRle crossing = PeriodicRle::fold({{{108, 113}, r(4)}}, 10);
  EXPECT_EQ(crossing.capacityAtTime(7), r(0));
  EXPECT_EQ(crossing.capacityAtTime(8), r(4));
  EXPECT_EQ(crossing.capacityAtTime(9), r(4));
  EXPECT_EQ(crossing.capacityAtTime(10), r(4));  // next period, offset 0
  EXPECT_EQ(crossing.capacityAtTime(12), r(4));
  EXPECT_EQ(crossing.capacityAtTime(13), r(0));
  PeriodicRle longer = PeriodicRle::fold({{{0, 25}, r(1)}}, 10);
  EXPECT_EQ(longer.capacityAtTime(3), r(3));
  EXPECT_EQ(longer.capacityAtTime(5), r(2));
  // Zero resources and empty intervals fold to nothing.
  EXPECT_TRUE(PeriodicRle::fold({{{0, 5}, Resource()}, {{7, 7}, r(1)}}, 10).isEmpty());
}

TEST_F(PeriodicRleTest, MaximumPeriodicCapacity) {
  // testMaxPeriodicCapacity: {2, 5, 7, 10, 3, 4, 6, 8} at 0..7, period 8.
  PeriodicRle p = stepped({2, 5, 7, 10, 3, 4, 6, 8}, {0, 1, 2, 3, 4, 5, 6, 7}, 8);
  EXPECT_EQ(p.maximumPeriodicCapacity(*calc, cluster, 0, 1), r(10));
  EXPECT_EQ(p.maximumPeriodicCapacity(*calc, cluster, 8, 2), r(7));
  EXPECT_EQ(p.maximumPeriodicCapacity(*calc, cluster, 16, 3), r(10));
  EXPECT_EQ(p.maximumPeriodicCapacity(*calc, cluster, 17, 4), r(5));
  EXPECT_EQ(p.maximumPeriodicCapacity(*calc, cluster, 32, 5), r(4));
  EXPECT_EQ(p.maximumPeriodicCapacity(*calc, cluster, 35, 8), r(10));  // p >= period: at tick
}

TEST_F(PeriodicRleTest, MaxOverAWindowWrapsAround) {
  PeriodicRle p = stepped({2, 5, 7, 10, 3, 4, 6, 8}, {0, 1, 2, 3, 4, 5, 6, 7}, 8);
  EXPECT_EQ(p.maxOverRange(*calc, cluster, 4, 6), r(4));
  EXPECT_EQ(p.maxOverRange(*calc, cluster, 12, 14), r(4));  // the same window, a period later
  EXPECT_EQ(p.maxOverRange(*calc, cluster, 7, 10), r(8));   // [7, 8) then [0, 2) next period
  EXPECT_EQ(p.maxOverRange(*calc, cluster, 15, 17), r(8));
  EXPECT_EQ(p.maxOverRange(*calc, cluster, 4, 20), r(10));  // longer than a period
  EXPECT_EQ(p.maxOverRange(*calc, cluster, 5, 5), Resource());
}

TEST_F(PeriodicRleTest, UnrolledRangeMergesWithNonPeriodic) {
  // testMixPeriodicAndNonPeriodic: {2, 5, 0} at {1, 2, 3} every 10, plus {10, 10, 0} at
  // {12, 13, 14} once, added over [2, 25].
  PeriodicRle periodic = stepped({0, 2, 5, 0}, {0, 1, 2, 3}, 10);
  Rle nonPeriodic(Rle::Map{{12, r(10)}, {13, r(10)}, {14, r(0)}});
  Rle::Points unrolled, merged;
  periodic.unrollInto(2, 25, unrolled);
  ASSERT_TRUE(
      Rle::mergeInto(*calc, cluster, unrolled, nonPeriodic, RleOperator::kAdd, 2, 25, merged));
  Rle m = Rle::fromPoints(merged);
  EXPECT_EQ(m.capacityAtTime(2), r(5));
  EXPECT_EQ(m.capacityAtTime(3), r(0));
  EXPECT_EQ(m.capacityAtTime(11), r(2));
  EXPECT_EQ(m.capacityAtTime(12), r(15));
  EXPECT_EQ(m.capacityAtTime(13), r(10));
  EXPECT_EQ(m.capacityAtTime(14), r(0));
  EXPECT_EQ(m.capacityAtTime(21), r(2));
  EXPECT_EQ(m.capacityAtTime(22), r(5));
  EXPECT_EQ(m.capacityAtTime(23), r(0));
}

TEST_F(PeriodicRleTest, UnrollCarriesTheValueAtStartAndEndsAtEnd) {
  PeriodicRle p = stepped({4, 0}, {0, 3}, 10);  // 4 on [0, 3) of every 10
  Rle range = p.rangeOverlapping(12, 31);
  EXPECT_EQ(range.toString(),
            "{12: <memory:4, vCores:4>, 13: <memory:0, vCores:0>, 20: <memory:4, vCores:4>, "
            "23: <memory:0, vCores:0>, 30: <memory:4, vCores:4>, 31: null}");
  for (int64_t t = 12; t < 31; ++t) EXPECT_EQ(range.capacityAtTime(t), p.capacityAtTime(t)) << t;
  EXPECT_EQ(p.rangeOverlapping(5, 5).toString(), "{5: <memory:0, vCores:0>}");
}

TEST_F(PeriodicRleTest, AddInterval) {
  // testSetCapacityInInterval: {2, 5, 0} at {1, 2, 3}, period 10, plus 8 on [5, 10).
  PeriodicRle p = stepped({0, 2, 5, 0}, {0, 1, 2, 3}, 10);
  ASSERT_TRUE(p.addInterval({5, 10}, r(8)));
  EXPECT_EQ(p.capacityAtTime(5), r(8));
  EXPECT_EQ(p.capacityAtTime(9), r(8));
  EXPECT_EQ(p.capacityAtTime(10), r(0));
  EXPECT_EQ(p.capacityAtTime(0), r(0));
  EXPECT_EQ(p.capacityAtTime(15), r(8));
  PlanStatus outside = p.addInterval({7, 12}, r(8));
  EXPECT_EQ(outside.kind(), PlanErrorKind::kIllegalArgument);
  EXPECT_NE(outside.message().find("not inside the period"), std::string::npos)
      << outside.message();
  EXPECT_FALSE(p.addInterval({-1, 3}, r(1)));
  EXPECT_FALSE(p.addInterval({4, 4}, r(1)));
}

TEST_F(PeriodicRleTest, RemoveInterval) {
  // testRemoveInterval: {2, 5, 3, 4, 0} at {1, 3, 5, 7, 9}, period 10; remove 3 on [3, 7).
  PeriodicRle p = stepped({0, 2, 5, 3, 4, 0}, {0, 1, 3, 5, 7, 9}, 10);
  ASSERT_TRUE(p.removeInterval({3, 7}, r(3)));
  EXPECT_EQ(p.capacityAtTime(1), r(2));
  EXPECT_EQ(p.capacityAtTime(2), r(2));
  EXPECT_EQ(p.capacityAtTime(3), r(2));
  EXPECT_EQ(p.capacityAtTime(4), r(2));
  EXPECT_EQ(p.capacityAtTime(5), r(0));
  EXPECT_EQ(p.capacityAtTime(6), r(0));
  EXPECT_EQ(p.capacityAtTime(7), r(4));
  PeriodicRle before = p;
  EXPECT_FALSE(p.removeInterval({7, 12}, r(1)));  // beyond the period
  EXPECT_FALSE(p.removeInterval({2, 4}, r(8)));   // more than is there
  EXPECT_EQ(p, before);
}

TEST_F(PeriodicRleTest, AddAndSubtractWholeSkylines) {
  PeriodicRle sum(10);
  PeriodicRle a = PeriodicRle::fold({{{18, 23}, r(2)}}, 10);
  PeriodicRle b = PeriodicRle::fold({{{4, 9}, r(5)}}, 10);
  sum.add(a);
  sum.add(b);
  EXPECT_EQ(sum.capacityAtTime(1), r(2));
  EXPECT_EQ(sum.capacityAtTime(5), r(5));
  EXPECT_EQ(sum.capacityAtTime(8), r(7));
  sum.subtract(a);
  EXPECT_EQ(sum.capacityAtTime(1), r(0));
  EXPECT_EQ(sum.capacityAtTime(8), r(5));
  sum.subtract(b);
  EXPECT_TRUE(sum.isEmpty()) << sum.toString();
}

}  // namespace
}  // namespace spindle::reservation
