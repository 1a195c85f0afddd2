#include "reservation/rle_sparse_resource_allocation.h"

#include <gtest/gtest.h>

#include "base/rng.h"
#include "reservation/reservation_test_util.h"

namespace spindle::reservation {
namespace {

using testing::containers;
using Rle = RleSparseResourceAllocation;

class RleTest : public ::testing::Test {
 protected:
  std::unique_ptr<ResourceCalculator> calc = makeDefaultResourceCalculator(ResourceTypes());
  Resource cluster = containers(100);
};

TEST_F(RleTest, BreakpointsAreExactlyWhereTheValueChanges) {
  Rle rle;
  rle.addInterval({0, 10}, containers(5));
  rle.addInterval({10, 20}, containers(5));  // same value: 10 is no breakpoint
  EXPECT_EQ(rle.cumulative().size(), 2u) << rle.toString();
  EXPECT_EQ(rle.latestNonNullTime(), 20);
  rle.addInterval({5, 15}, containers(1));
  EXPECT_EQ(rle.capacityAtTime(4), containers(5));
  EXPECT_EQ(rle.capacityAtTime(5), containers(6));
  EXPECT_EQ(rle.capacityAtTime(15), containers(5));
  rle.removeInterval({5, 15}, containers(1));
  EXPECT_EQ(rle.cumulative().size(), 2u) << rle.toString();
}

TEST_F(RleTest, AddingBeforeALeadingZeroFoldsIt) {
  Rle rle;
  rle.addInterval({100, 106}, containers(10));
  rle.removeInterval({100, 106}, containers(10));
  EXPECT_TRUE(rle.isEmpty());
  EXPECT_EQ(rle.earliestStartTime(), 100);  // YARN keeps the leading zero
  rle.addInterval({50, 200}, containers(2));
  EXPECT_EQ(rle.capacityAtTime(120), containers(2));
  EXPECT_EQ(rle.cumulative().size(), 2u) << rle.toString();
}

TEST_F(RleTest, RandomEditsMatchAStepByStepArray) {
  Rng rng(7);
  Rle rle;
  std::vector<int64_t> truth(200, 0);
  for (int i = 0; i < 500; ++i) {
    int64_t a = rng.uniformInt(0, 198), b = rng.uniformInt(a + 1, 199);
    int64_t n = rng.uniformInt(1, 5);
    bool add = rng.uniformInt(0, 2) > 0;
    if (add) {
      rle.addInterval({a, b}, containers(n));
    } else {
      rle.removeInterval({a, b}, containers(n));
    }
    for (int64_t t = a; t < b; ++t) truth[t] += add ? n : -n;
  }
  for (int64_t t = 0; t < 200; ++t) ASSERT_EQ(rle.capacityAtTime(t), containers(truth[t]));
  const Rle::Value* prev = nullptr;
  for (const auto& [t, v] : rle.cumulative()) {
    if (prev != nullptr) {
      EXPECT_NE(**prev, *v) << "duplicate breakpoint at " << t;
    }
    prev = &v;
  }
}

TEST_F(RleTest, RangeOverlappingCarriesInTheValueInForce) {
  Rle rle;
  rle.addInterval({0, 10}, containers(1));
  rle.addInterval({20, 30}, containers(2));
  Rle part = rle.rangeOverlapping(5, 20);
  EXPECT_EQ(part.earliestStartTime(), 0);
  EXPECT_EQ(part.capacityAtTime(5), containers(1));
  EXPECT_EQ(part.capacityAtTime(20), containers(2));
  EXPECT_FALSE(part.cumulative().contains(30));
}

TEST_F(RleTest, ToIntervalMapKeepsInteriorZeros) {
  Rle rle;
  rle.addInterval({0, 10}, containers(1));
  rle.addInterval({20, 30}, containers(2));
  IntervalAllocations m = rle.toIntervalMap();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[1].first, (ReservationInterval{10, 20}));
  EXPECT_TRUE(m[1].second.isZero());
}

TEST_F(RleTest, MergeEndsWithUndefinedAndClampsToTheRange) {
  Rle a, b;
  a.addInterval({0, 100}, containers(10));
  b.addInterval({50, 60}, containers(4));
  auto r = Rle::merge(*calc, cluster, a, b, RleOperator::kSubtract, 40, 80);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->earliestStartTime(), 40);
  EXPECT_EQ(r->capacityAtTime(40), containers(10));
  EXPECT_EQ(r->capacityAtTime(55), containers(6));
  EXPECT_FALSE(r->cumulative().at(80).has_value());
  EXPECT_EQ(r->latestNonNullTime(), 60);
}

TEST_F(RleTest, SubtractTestNonNegativeIsComponentwise) {
  Rle a(Rle::Map{{0, Resource::of(10240, 5)}});
  Rle b(Rle::Map{{0, Resource::of(1024, 6)}});
  auto r = Rle::merge(*calc, cluster, a, b, RleOperator::kSubtractTestNonNegative, 0, 10);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.status().kind(), PlanErrorKind::kPlanning);
  EXPECT_TRUE(r.status().message().find("would be negative") != std::string::npos);
}

TEST_F(RleTest, MinPicksAWholeOperandByMemory) {
  Rle a(Rle::Map{{0, Resource::of(2048, 10)}});
  Rle b(Rle::Map{{0, Resource::of(4096, 1)}});
  auto r = Rle::merge(*calc, cluster, a, b, RleOperator::kMin, 0, 10);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->capacityAtTime(0), Resource::of(2048, 10));  // not <2048, 1>
}

TEST_F(RleTest, MaxOverRange) {
  Rle rle;
  rle.addInterval({0, 10}, containers(3));
  rle.addInterval({5, 8}, containers(4));
  EXPECT_EQ(rle.maxOverRange(*calc, cluster, 0, 5), containers(3));
  EXPECT_EQ(rle.maxOverRange(*calc, cluster, 0, 6), containers(7));
  EXPECT_EQ(rle.maxOverRange(*calc, cluster, 8, 20), containers(3));
  EXPECT_TRUE(rle.maxOverRange(*calc, cluster, 10, 20).isZero());
}

}  // namespace
}  // namespace spindle::reservation
