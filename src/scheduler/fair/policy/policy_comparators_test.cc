// Vectors DRF-* (TestDominantResourceFairnessPolicy), FP-* (TestSchedulingPolicy,
// TestFairSharePolicyPendingApps, the FairSharePolicy doc example) and FIFO ordering.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "scheduler/fair/policy/drf_policy.h"
#include "scheduler/fair/policy/fair_share_policy.h"
#include "scheduler/fair/policy/fifo_policy.h"
#include "scheduler/fair/policy/scheduling_policy.h"

namespace spindle::fair {
namespace {

Schedulable used(int64_t mem, int64_t vcores, float weight = 1.0f, const char* name = "s") {
  Schedulable s = Schedulable::app(name, 0);
  s.usage = Resource::of(mem, vcores);
  s.weight = weight;
  return s;
}

int drf(const Resource& cluster, const Schedulable& a, const Schedulable& b) {
  return DrfComparator(cluster, 2).compare(a, b);
}

TEST(DrfPolicyTest, DRF1_SameDominantResource) {
  EXPECT_LT(drf(Resource::of(8000, 4), used(1000, 1), used(2000, 1)), 0);
  EXPECT_GT(drf(Resource::of(8000, 4), used(2000, 1), used(1000, 1)), 0);
}

TEST(DrfPolicyTest, DRF2_DifferentDominantResource) {
  EXPECT_LT(drf(Resource::of(8000, 8), used(4000, 3), used(2000, 5)), 0);
}

TEST(DrfPolicyTest, DRF3_OneIsNeedy) {
  Schedulable s1 = used(2000, 5).withMinShare(Resource::of(0, 6));
  Schedulable s2 = used(4000, 3);
  EXPECT_LT(drf(Resource::of(8000, 8), s1, s2), 0);
  EXPECT_GT(drf(Resource::of(8000, 8), s2, s1), 0);
}

TEST(DrfPolicyTest, DRF4_BothAreNeedy) {
  const Resource cluster = Resource::of(8000, 100);
  EXPECT_LT(drf(cluster, used(2000, 5), used(4000, 3)), 0);
  Schedulable s1 = used(2000, 5).withMinShare(Resource::of(3000, 6));
  Schedulable s2 = used(4000, 3).withMinShare(Resource::of(5000, 4));
  EXPECT_LT(drf(cluster, s1, s2), 0);
}

TEST(DrfPolicyTest, DRF6_EvenWeightsDifferentDominantResource) {
  const Resource cluster = Resource::of(8000, 8);
  EXPECT_LT(drf(cluster, used(1000, 3, 2.0f), used(2000, 1, 1.0f)), 0);
  EXPECT_LT(drf(cluster, used(3000, 1, 2.0f), used(1000, 2, 1.0f)), 0);
}

TEST(DrfPolicyTest, DRF7_SortShares) {
  std::vector<DrfRatioRow> r1{{0.3, 2.0, 0}, {0.2, 1.0, 0}, {0.4, 0.1, 0}};
  std::vector<DrfRatioRow> r2{{0.2, 9.0, 0}, {0.3, 2.0, 0}, {0.25, 0.1, 0}};
  sortRatios(r1, r2);
  EXPECT_EQ(r1, (std::vector<DrfRatioRow>{{0.4, 0.1, 0}, {0.3, 2.0, 0}, {0.2, 1.0, 0}}));
  EXPECT_EQ(r2, (std::vector<DrfRatioRow>{{0.3, 2.0, 0}, {0.25, 0.1, 0}, {0.2, 9.0, 0}}));
}

TEST(DrfPolicyTest, DRF8_CalculateClusterAndFairRatios) {
  Resource usedRes = Resource::of(10, 5);
  usedRes.set(2, 2);
  Resource cluster = Resource::of(100, 10);
  cluster.set(2, 5);
  std::vector<DrfRatioRow> rows;
  EXPECT_EQ(calculateClusterAndFairRatios(usedRes, 1.0f, cluster, 3, rows), kVcoresIndex);
  EXPECT_DOUBLE_EQ(rows[0][kDrfUsage], 0.1);
  EXPECT_DOUBLE_EQ(rows[1][kDrfUsage], 0.5);
  EXPECT_DOUBLE_EQ(rows[2][kDrfUsage], 0.4);
  EXPECT_DOUBLE_EQ(rows[1][kDrfFair], 0.5);
  // The 2-resource form: same memory and vcores ratios, dominant vcores.
  EXPECT_EQ(calculateClusterAndFairRatios(usedRes, 1.0f, cluster, 2, rows), kVcoresIndex);
}

TEST(DrfPolicyTest, ZeroWeightLoses) {
  EXPECT_GT(drf(Resource::of(8000, 8), used(1000, 1, 0.0f), used(4000, 4)), 0);
}

TEST(DrfPolicyTest, ClusterResourceChangeChangesOrder) {
  // Dominant share follows the cluster: with 8 vcores s1 (cpu 4/8) is behind s2 (mem 2000/8000);
  // with 100 vcores s1's dominant share drops to memory 1000/8000 and it goes first.
  Schedulable s1 = used(1000, 4);
  Schedulable s2 = used(2000, 1);
  EXPECT_GT(drf(Resource::of(8000, 8), s1, s2), 0);
  EXPECT_LT(drf(Resource::of(8000, 100), s1, s2), 0);
}

TEST(DrfPolicyTest, TiesBreakOnStartTimeThenName) {
  Schedulable a = used(1000, 1, 1.0f, "a");
  Schedulable b = used(1000, 1, 1.0f, "b");
  a.startTime = 2;
  b.startTime = 1;
  EXPECT_GT(drf(Resource::of(8000, 8), a, b), 0);
  b.startTime = 2;
  EXPECT_LT(drf(Resource::of(8000, 8), a, b), 0);
}

TEST(SchedulingPolicyTest, FP2_ParseSchedulingPolicy) {
  EXPECT_STREQ(policyName(parseSchedulingPolicy(kFairSharePolicyClass).value()), "fair");
  EXPECT_STREQ(policyName(parseSchedulingPolicy("drf").value()), "DRF");
  EXPECT_STREQ(policyName(parseSchedulingPolicy("fair").value()), "fair");
  EXPECT_STREQ(policyName(parseSchedulingPolicy("fifo").value()), "FIFO");
  EXPECT_STREQ(policyName(parseSchedulingPolicy("DrF").value()), "DRF");
  EXPECT_STREQ(policyName(parseSchedulingPolicy(kFifoPolicyClass).value()), "FIFO");
  auto bad = parseSchedulingPolicy("com.example.MyPolicy");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(), "com.example.MyPolicy SchedulingPolicy class not found!");
}

TEST(SchedulingPolicyTest, FP3_FairParentForbidsDrfChild) {
  EXPECT_FALSE(isChildPolicyAllowed(PolicyKind::kFair, PolicyKind::kDrf));
  EXPECT_TRUE(isChildPolicyAllowed(PolicyKind::kFair, PolicyKind::kFair));
  EXPECT_TRUE(isChildPolicyAllowed(PolicyKind::kDrf, PolicyKind::kFair));
  EXPECT_TRUE(isChildPolicyAllowed(PolicyKind::kFair, PolicyKind::kFifo));
}

TEST(SchedulingPolicyTest, FP4_FifoOnlyOnLeaves) {
  EXPECT_FALSE(isAllowedOnParent(PolicyKind::kFifo));
  EXPECT_TRUE(isAllowedOnParent(PolicyKind::kFair));
  EXPECT_TRUE(isAllowedOnParent(PolicyKind::kDrf));
}

Schedulable pendingQueue(int64_t demandMb, int64_t minMb, int32_t runnable, int64_t start) {
  Schedulable q = Schedulable::queue("q");
  q.demand = Resource::of(demandMb, demandMb > 0 ? 10 : 0);
  q.usage = q.demand;
  q.minShare = Resource::of(minMb, 1);
  q.numRunnableApps = runnable;
  q.startTime = start;
  return q;
}

TEST(FairSharePolicyTest, FP5_QueuesWithPendingAppsAreNotEmpty) {
  Schedulable q1 = pendingQueue(0, 262144, 6, 1000);
  EXPECT_NE(fairShareCompare(q1, pendingQueue(10240, 131072, 5, 2000)), 1);
  EXPECT_LT(fairShareCompare(q1, pendingQueue(0, 131072, 0, 2000)), 0);
  EXPECT_LT(fairShareCompare(q1, pendingQueue(204800, 131072, 5, 2000)), 0);
  EXPECT_LT(fairShareCompare(q1, pendingQueue(0, 131072, 3, 2000)), 0);
}

TEST(FairSharePolicyTest, FP6_LowerMinShareRatioFirst) {
  Schedulable a = Schedulable::app("A", 0);
  a.usage = Resource::of(8, 0);
  a.minShare = Resource::of(10, 0);
  a.demand = Resource::of(10, 0);
  Schedulable b = Schedulable::app("B", 0);
  b.usage = Resource::of(50, 0);
  b.minShare = Resource::of(100, 0);
  b.demand = Resource::of(100, 0);
  EXPECT_GT(fairShareCompare(a, b), 0);
  EXPECT_LT(fairShareCompare(b, a), 0);
}

TEST(FairSharePolicyTest, NoDemandRanksLast) {
  Schedulable idle = Schedulable::app("a", 0);
  Schedulable busy =
      Schedulable::app("b", 0).withDemand(Resource::of(1024, 1)).withUsage(Resource::of(8192, 8));
  EXPECT_GT(fairShareCompare(idle, busy), 0);
}

TEST(FairSharePolicyTest, NeedyFirstThenUsageOverWeight) {
  Schedulable needy = Schedulable::app("a", 0)
                          .withDemand(Resource::of(4096, 4))
                          .withMinShare(Resource::of(2048, 0))
                          .withUsage(Resource::of(1024, 1));
  Schedulable rich =
      Schedulable::app("b", 0).withDemand(Resource::of(4096, 4)).withUsage(Resource::of(0, 0));
  EXPECT_LT(fairShareCompare(needy, rich), 0);
  Schedulable heavy = Schedulable::app("c", 0)
                          .withDemand(Resource::of(4096, 4))
                          .withUsage(Resource::of(3000, 1))
                          .withWeight(3.0f);
  Schedulable light =
      Schedulable::app("d", 0).withDemand(Resource::of(4096, 4)).withUsage(Resource::of(1500, 1));
  EXPECT_LT(fairShareCompare(heavy, light), 0);  // 1000 per weight vs 1500
}

TEST(FairSharePolicyTest, ZeroWeightRanksAfterNonZero) {
  Schedulable zero = Schedulable::app("a", 0).withDemand(Resource::of(1, 0)).withWeight(0.0f);
  Schedulable one =
      Schedulable::app("b", 0).withDemand(Resource::of(1, 0)).withUsage(Resource::of(1000000, 0));
  EXPECT_GT(fairShareCompare(zero, one), 0);
  Schedulable zero2 = Schedulable::app("c", 0)
                          .withDemand(Resource::of(1, 0))
                          .withWeight(0.0f)
                          .withUsage(Resource::of(5, 0));
  EXPECT_LT(fairShareCompare(zero, zero2), 0);  // both 0: raw usage
}

TEST(FairSharePolicyTest, ComparatorIsTransitive) {
  // TestSchedulingPolicy.testFairShareComparatorTransitivity's space.
  std::vector<Schedulable> all;
  const Resource demands[] = {Resource::of(0, 0), Resource::of(4, 1)};
  const Resource usages[] = {Resource::of(0, 1), Resource::of(2, 1), Resource::of(4, 1)};
  const float weights[] = {0.0f, 1.0f, 2.0f};
  const char* names[] = {"A", "B", "C"};
  for (const Resource& d : demands)
    for (const Resource& u : usages)
      for (float w : weights)
        for (int n = 0; n < 3; ++n) {
          Schedulable s = Schedulable::app(names[n], n + 1);
          s.minShare = Resource::of(0, 1);
          s.demand = d;
          s.usage = u;
          s.weight = w;
          all.push_back(s);
        }
  for (const auto& a : all)
    for (const auto& b : all)
      for (const auto& c : all) {
        if (fairShareCompare(a, b) < 0 && fairShareCompare(b, c) < 0) {
          ASSERT_LT(fairShareCompare(a, c), 0);
        }
      }
}

TEST(FifoPolicyTest, OrdersByPriorityThenStartTimeThenName) {
  Schedulable early = Schedulable::app("application_1_0002", 1);
  Schedulable late = Schedulable::app("application_1_0001", 2);
  EXPECT_LT(fifoCompare(early, late), 0);
  late.startTime = 1;
  EXPECT_GT(fifoCompare(early, late), 0);
  late.priority = 2;
  early.startTime = 0;
  EXPECT_GT(fifoCompare(early, late), 0);  // higher priority number first
}

TEST(FifoPolicyTest, EarliestAppGetsWholeShareOthersKeepTheirs) {
  SchedulingPolicy fifo(PolicyKind::kFifo, Resource::of(100, 10), 2);
  std::vector<Schedulable> apps{Schedulable::app("a", 5), Schedulable::app("b", 3)};
  std::vector<Resource> shares{Resource::of(7, 7), Resource::of(0, 0)};
  fifo.computeShares(apps, Resource::of(100, 10), ShareMode::kInstantaneous, shares);
  EXPECT_EQ(shares[0], Resource::of(7, 7));
  EXPECT_EQ(shares[1], Resource::of(100, 10));
  std::vector<Resource> steady(2);
  fifo.computeShares(apps, Resource::of(100, 10), ShareMode::kSteady, steady);
  EXPECT_EQ(steady[1], Resource());
  EXPECT_FALSE(fifo.isUsageOverFairShare(Resource(), Resource()).isOk());
}

TEST(SchedulingPolicyTest, FairSplitsMemoryOnlyDrfSplitsEveryType) {
  std::vector<Schedulable> qs(2, Schedulable::queue("q"));
  std::vector<Resource> fairShares(2);
  SchedulingPolicy(PolicyKind::kFair, Resource::of(100, 10), 2)
      .computeShares(qs, Resource::of(100, 10), ShareMode::kSteady, fairShares);
  EXPECT_EQ(fairShares[0], Resource::of(50, 0));
  std::vector<Resource> drfShares(2);
  SchedulingPolicy(PolicyKind::kDrf, Resource::of(100, 10), 2)
      .computeShares(qs, Resource::of(100, 10), ShareMode::kSteady, drfShares);
  EXPECT_EQ(drfShares[0], Resource::of(50, 5));
}

TEST(SchedulingPolicyTest, HeadroomAndOverShareChecks) {
  SchedulingPolicy fairP(PolicyKind::kFair, Resource::of(100, 10), 2);
  SchedulingPolicy drfP(PolicyKind::kDrf, Resource::of(100, 10), 2);
  const Resource share = Resource::of(4096, 4);
  const Resource usage = Resource::of(1024, 6);
  const Resource avail = Resource::of(8192, 8);
  EXPECT_EQ(fairP.headroom(share, usage, avail), Resource::of(3072, 8));
  EXPECT_EQ(drfP.headroom(share, usage, avail), Resource::of(3072, 0));
  EXPECT_FALSE(fairP.isUsageOverFairShare(usage, share).value());
  EXPECT_TRUE(drfP.isUsageOverFairShare(usage, share).value());
  EXPECT_FALSE(fairP.isAmUsageOverLimit(usage, share));
  EXPECT_TRUE(drfP.isAmUsageOverLimit(usage, share));
}

// FairShareKey orders exactly as fairShareCompare, over every stage and the weight edge cases
// (zero of either sign, negative, NaN, infinite), with names ranked.
TEST(FairShareKey, OrdersAsTheComparator) {
  const float weights[] = {1.0f,
                           2.0f,
                           0.5f,
                           3.0f,
                           0.0f,
                           -0.0f,
                           -1.0f,
                           std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity()};
  const int64_t amounts[] = {0, 1, 2, 1024, 2048, 3072};
  std::vector<Schedulable> all;
  uint64_t x = 12345;
  auto next = [&](size_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>((x >> 33) % n);
  };
  for (int i = 0; i < 400; ++i) {
    Schedulable s =
        Schedulable::app("app" + std::to_string(1000 + i), static_cast<int64_t>(next(2)));
    s.weight = weights[next(std::size(weights))];
    s.usage = Resource::of(amounts[next(std::size(amounts))], 1);
    s.demand = Resource::of(amounts[next(std::size(amounts))], 1);
    s.minShare = Resource::of(amounts[next(std::size(amounts))], 1);
    s.numRunnableApps = static_cast<int32_t>(next(2));
    s.nameRank = i;  // names increase with i
    all.push_back(s);
  }
  for (const Schedulable& a : all) {
    for (const Schedulable& b : all) {
      ASSERT_EQ(compareFairShareKeys(fairShareKey(a), fairShareKey(b)), fairShareCompare(a, b))
          << a.name << " w=" << a.weight << " vs " << b.name << " w=" << b.weight;
    }
  }
  // Re-keying with a new usage (setUsage) gives the key of the view with that usage, stage for
  // stage.
  for (const Schedulable& a : all) {
    for (int64_t use : amounts) {
      Schedulable b = a;
      b.usage.setMemoryMb(use);
      FairShareKey rekeyed = fairShareKey(a);
      setUsage(rekeyed, use);
      for (const Schedulable& c : all) {
        ASSERT_EQ(compareFairShareKeys(rekeyed, fairShareKey(c)), fairShareCompare(b, c))
            << a.name << " at usage " << use << " vs " << c.name;
      }
    }
  }
  // Without ranks the comparator reads the names; with ranks it trusts them.
  Schedulable p = all[0], q = all[0];
  p.name = "b";
  q.name = "a";
  p.nameRank = q.nameRank = -1;
  EXPECT_EQ(fairShareCompare(p, q), 1);
  p.nameRank = 0;
  q.nameRank = 1;
  EXPECT_EQ(fairShareCompare(p, q), -1);
}

}  // namespace
}  // namespace spindle::fair
