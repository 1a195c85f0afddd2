// Vectors CFS-* (TestComputeFairShares) and the share numbers of FS-*/FSS-* vectors, fed the
// same schedulables the scheduler would build. See ComputeFairShares.
#include "scheduler/fair/policy/compute_fair_shares.h"

#include <gtest/gtest.h>

#include <climits>

namespace spindle::fair {
namespace {

constexpr int64_t kIntMax = INT_MAX;

// A FakeSchedulable(min, max, weight) for one type (memory), as TestComputeFairShares builds.
Schedulable fake(int64_t min, int64_t max, float weight) {
  Schedulable s = Schedulable::queue("q");
  s.weight = weight;
  s.minShare = Resource::of(min, 0);
  ResourceLimit limit = ResourceLimit::unbounded();
  limit.set(kMemoryIndex, max);
  s.maxShare = limit;
  return s;
}

std::vector<int64_t> memoryShares(const std::vector<Schedulable>& s, int64_t total,
                                  ShareMode mode = ShareMode::kInstantaneous) {
  std::vector<Resource> shares(s.size());
  computeShares(s, Resource::of(total, 0), kMemoryIndex, mode, shares);
  std::vector<int64_t> out;
  for (const Resource& r : shares) out.push_back(r.memoryMb());
  return out;
}

TEST(ComputeFairSharesTest, CFS1_EqualSharing) {
  std::vector<Schedulable> s(4, fake(0, kIntMax, 1));
  EXPECT_EQ(memoryShares(s, 40), (std::vector<int64_t>{10, 10, 10, 10}));
}

TEST(ComputeFairSharesTest, CFS2_LowMaxShares) {
  std::vector<Schedulable> s{fake(0, 100, 1), fake(0, 50, 1), fake(0, 11, 1), fake(0, 3, 1)};
  EXPECT_EQ(memoryShares(s, 40), (std::vector<int64_t>{13, 13, 11, 3}));
}

TEST(ComputeFairSharesTest, CFS5_WeightedSharingWithMaxShares) {
  std::vector<Schedulable> s{fake(0, 10, 2.0f), fake(0, 11, 1.0f), fake(0, 30, 1.0f),
                             fake(0, 20, 0.5f)};
  EXPECT_EQ(memoryShares(s, 45), (std::vector<int64_t>{10, 11, 16, 8}));
}

TEST(ComputeFairSharesTest, CFS7_LargeShares) {
  std::vector<Schedulable> s(4, fake(0, kIntMax, 1));
  EXPECT_EQ(memoryShares(s, 40000000),
            (std::vector<int64_t>{10000000, 10000000, 10000000, 10000000}));
}

TEST(ComputeFairSharesTest, CFS8_EmptyList) { EXPECT_TRUE(memoryShares({}, 40).empty()); }

TEST(ComputeFairSharesTest, MinSharesAboveTotalAreNotScaledDown) {
  std::vector<Schedulable> s{fake(30, kIntMax, 1), fake(30, kIntMax, 1)};
  EXPECT_EQ(memoryShares(s, 40), (std::vector<int64_t>{30, 30}));
}

TEST(ComputeFairSharesTest, TotalMaxBelowTotalGivesEveryoneItsMax) {
  std::vector<Schedulable> s{fake(0, 5, 1), fake(0, 7, 3)};
  EXPECT_EQ(memoryShares(s, 100), (std::vector<int64_t>{5, 7}));
}

TEST(ComputeFairSharesTest, UpperBoundOverAllocatesWhenNoExactSplit) {
  // 1 split three ways: every R < 1 gives 0 in total, so right stays 1.0 and each gets 1.
  std::vector<Schedulable> s(3, fake(0, kIntMax, 1));
  EXPECT_EQ(memoryShares(s, 1), (std::vector<int64_t>{1, 1, 1}));
}

TEST(ComputeFairSharesTest, FS5_ZeroWeightQueuesGetZero) {
  std::vector<Schedulable> s{fake(0, kResourceMax, 0.0f), fake(0, kResourceMax, 0.0f)};
  EXPECT_EQ(memoryShares(s, 8192), (std::vector<int64_t>{0, 0}));
}

TEST(ComputeFairSharesTest, FS6_ZeroWeightWithMinResGetsMin) {
  std::vector<Schedulable> s{fake(1, kResourceMax, 0.0f), fake(1, kResourceMax, 0.0f)};
  EXPECT_EQ(memoryShares(s, 8192), (std::vector<int64_t>{1, 1}));
}

TEST(ComputeFairSharesTest, FS7_HalfWeightsWithMinResSplitEvenly) {
  std::vector<Schedulable> s{fake(1024, kResourceMax, 0.5f), fake(1024, kResourceMax, 0.5f)};
  EXPECT_EQ(memoryShares(s, 8192), (std::vector<int64_t>{4096, 4096}));
}

TEST(ComputeFairSharesTest, FS12_MinAllocDominates) {
  std::vector<Schedulable> s{fake(1024, kResourceMax, 1), fake(2048, kResourceMax, 1)};
  EXPECT_EQ(memoryShares(s, 3072), (std::vector<int64_t>{1024, 2048}));
}

TEST(ComputeFairSharesTest, FS3_LowMaxResourcesCapShares) {
  std::vector<Schedulable> s{fake(0, 1024, 0.75f), fake(0, 3072, 0.25f)};
  EXPECT_EQ(memoryShares(s, 8192), (std::vector<int64_t>{1024, 3072}));
}

TEST(ComputeFairSharesTest, MaxShareZeroIsFixedAtZero) {
  std::vector<Schedulable> s{fake(10, 0, 1), fake(0, kResourceMax, 1)};
  EXPECT_EQ(memoryShares(s, 100), (std::vector<int64_t>{0, 100}));
}

TEST(ComputeFairSharesTest, InactiveQueuesGetZeroOnlyInInstantaneousMode) {
  std::vector<Schedulable> s{fake(0, kResourceMax, 1), fake(0, kResourceMax, 1)};
  s[1].isActive = false;
  EXPECT_EQ(memoryShares(s, 100), (std::vector<int64_t>{100, 0}));
  EXPECT_EQ(memoryShares(s, 100, ShareMode::kSteady), (std::vector<int64_t>{50, 50}));
}

TEST(ComputeFairSharesTest, AppsAreNeverInactive) {
  std::vector<Schedulable> s{Schedulable::app("a1", 1), Schedulable::app("a2", 2)};
  s[1].isActive = false;
  EXPECT_EQ(memoryShares(s, 100), (std::vector<int64_t>{50, 50}));
}

TEST(ComputeFairSharesTest, OnlyTheGivenTypeIsWritten) {
  std::vector<Schedulable> s(2, fake(0, kResourceMax, 1));
  std::vector<Resource> shares(2, Resource::of(7, 7));
  computeShares(s, Resource::of(100, 10), kVcoresIndex, ShareMode::kSteady, shares);
  EXPECT_EQ(shares[0], Resource::of(7, 5));
  EXPECT_EQ(shares[1], Resource::of(7, 5));
}

// FSS-1 steady shares: root 16384 MB over parentA (w8), parentB (w1), default (w1); parentA
// splits 4 ways, parentB 2 ways.
TEST(ComputeFairSharesTest, FSS1_SteadySharesOfHierarchy) {
  std::vector<Schedulable> top{fake(0, kResourceMax, 8), fake(0, kResourceMax, 1),
                               fake(0, kResourceMax, 1)};
  for (auto& q : top) q.isActive = false;
  std::vector<int64_t> rootSplit = memoryShares(top, 16384, ShareMode::kSteady);
  std::vector<Schedulable> a(4, fake(0, kResourceMax, 1));
  std::vector<Schedulable> b(2, fake(0, kResourceMax, 1));
  const int64_t childA = memoryShares(a, rootSplit[0], ShareMode::kSteady)[0];
  const int64_t childB = memoryShares(b, rootSplit[1], ShareMode::kSteady)[0];
  EXPECT_NEAR(static_cast<double>(childA) / 16384, 0.2, 0.001);
  EXPECT_NEAR(static_cast<double>(childB) / 16384, 0.05, 0.001);
  // Instantaneous: nothing is active, so every queue gets 0.
  EXPECT_EQ(memoryShares(top, 16384), (std::vector<int64_t>{0, 0, 0}));
}

// FSS-6 rounding: 10 vcores over weights 8/1/1 gives parentB 1 vcore; split between its two
// equal children each gets 1 (the bisection's upper bound), not 0.
TEST(ComputeFairSharesTest, FSS6_DrfSteadyVcoreRounding) {
  std::vector<Schedulable> top{fake(0, kResourceMax, 8), fake(0, kResourceMax, 1),
                               fake(0, kResourceMax, 1)};
  std::vector<Resource> shares(3);
  for (auto& q : top) q.maxShare = ResourceLimit::unbounded();
  computeShares(top, Resource::of(16384, 10), kVcoresIndex, ShareMode::kSteady, shares);
  EXPECT_EQ(shares[0].vcores(), 8);
  EXPECT_EQ(shares[1].vcores(), 1);
  std::vector<Schedulable> b(2, Schedulable::queue("b"));
  std::vector<Resource> bShares(2);
  computeShares(b, shares[1], kVcoresIndex, ShareMode::kSteady, bShares);
  EXPECT_EQ(bShares[0].vcores(), 1);
  EXPECT_EQ(bShares[1].vcores(), 1);
}

// FS-10: 240 MB, root splits parent/default 1:1, parent splits 1:1.
TEST(ComputeFairSharesTest, FS10_SimpleHierarchy) {
  std::vector<Schedulable> top(2, fake(0, kResourceMax, 1));
  std::vector<int64_t> root = memoryShares(top, 240);
  EXPECT_EQ(root, (std::vector<int64_t>{120, 120}));
  EXPECT_EQ(memoryShares(std::vector<Schedulable>(2, fake(0, kResourceMax, 1)), root[0]),
            (std::vector<int64_t>{60, 60}));
}

}  // namespace
}  // namespace spindle::fair

#include "scheduler/fair/policy/app_weight.h"

namespace spindle::fair {
namespace {

TEST(AppWeightTest, SizeBasedWeightIsLog2OfOnePlusDemand) {
  EXPECT_FLOAT_EQ(appWeight(4095, false), 1.0f);
  EXPECT_FLOAT_EQ(appWeight(4095, true), 12.0f);
  EXPECT_FLOAT_EQ(appWeight(0, true), 0.0f);
  EXPECT_FLOAT_EQ(appWeight(1, true, 2), 2.0f);
}

}  // namespace
}  // namespace spindle::fair
