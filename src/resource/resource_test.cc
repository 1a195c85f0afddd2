#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "config/configuration.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"
#include "resource/resource_config.h"

namespace spindle {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

ResourceTypes withGpu() { return ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value(); }

// <memory, vcores, gpu>
Resource res3(int64_t mem, int64_t vcores, int64_t gpu) {
  Resource r = Resource::of(mem, vcores);
  r.set(2, gpu);
  return r;
}

std::unique_ptr<ResourceCalculator> dominant2() {
  return makeDominantResourceCalculator(ResourceTypes());
}
std::unique_ptr<ResourceCalculator> dominant3() {
  return makeDominantResourceCalculator(withGpu());
}
std::unique_ptr<ResourceCalculator> defaultRc() {
  return makeDefaultResourceCalculator(ResourceTypes());
}

// --- Arithmetic -----------------------------------------------------------------------------

TEST(ResourceArithmetic, SaturatesInsteadOfWrapping) {
  EXPECT_EQ(saturatingAdd(kMax, 1), kMax);
  EXPECT_EQ(saturatingAdd(kMin, -1), kMin);
  EXPECT_EQ(saturatingSub(kMin, 1), kMin);
  EXPECT_EQ(saturatingSub(kMax, -1), kMax);
  EXPECT_EQ(saturatingMul(kMax / 2 + 1, 2), kMax);
  EXPECT_EQ(saturatingMul(kMax, -2), kMin);
  EXPECT_EQ(saturatingAdd(40, 2), 42);

  Resource big = Resource::of(kMax, 1);
  EXPECT_EQ((big + Resource::of(1, 1)).memoryMb(), kMax);
  EXPECT_EQ((big + Resource::of(1, 1)).vcores(), 2);
  EXPECT_EQ((Resource::of(kMin, 0) - Resource::of(1, 0)).memoryMb(), kMin);
  EXPECT_EQ(Resource::of(kMax, 3).times(2), Resource::of(kMax, 6));
}

TEST(ResourceText, ExtraTypesAreNamed) {
  auto types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}});
  ASSERT_TRUE(types.isOk()) << types.status().toString();
  Resource r = Resource::of(1024, 2);
  r.set(2, 3);
  EXPECT_EQ(r.toString(), "<memory:1024, vCores:2, yarn.io/gpu: 3>");
  EXPECT_EQ(Resource::of(1024, 2).toString(), "<memory:1024, vCores:2>");
}

TEST(ResourceArithmetic, AddSubtractAndFit) {
  Resource a = res3(4096, 4, 1);
  Resource b = res3(1024, 1, 1);
  EXPECT_EQ(a - b, res3(3072, 3, 0));
  EXPECT_EQ(a + b, res3(5120, 5, 2));
  EXPECT_TRUE(b.fitsIn(a));
  EXPECT_FALSE(res3(1024, 1, 2).fitsIn(a));
}

// --- compare --------------------------------------------------------------------------------

// Hadoop TestResourceCalculator.testCompareWithOnlyMandatory, cluster <4, 4>.
TEST(DefaultCalculatorCompare, MemoryOnly) {
  auto rc = defaultRc();
  Resource cluster = Resource::of(4, 4);
  EXPECT_EQ(rc->compare(cluster, Resource::of(1, 1), Resource::of(1, 1)), 0);
  EXPECT_EQ(rc->compare(cluster, Resource::of(0, 0), Resource::of(0, 0)), 0);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 2), Resource::of(1, 1)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(1, 2), Resource::of(1, 1)), 0);
  EXPECT_EQ(rc->compare(cluster, Resource::of(1, 1), Resource::of(1, 0)), 0);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 1), Resource::of(1, 2)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(1, 4), Resource::of(2, 0)), -1);
  // The cluster is unused: even an empty cluster orders by memory.
  EXPECT_EQ(rc->compare(Resource(), Resource::of(2, 0), Resource::of(1, 9)), 1);
}

TEST(DominantCalculatorCompare, TwoTypesByDominantThenSecondShare) {
  auto rc = dominant2();
  Resource cluster = Resource::of(4, 4);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 2), Resource::of(1, 1)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 2), Resource::of(0, 0)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 1), Resource::of(2, 1)), 0);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 1), Resource::of(1, 2)), 0);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 1), Resource::of(1, 1)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 2), Resource::of(2, 1)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(2, 2), Resource::of(1, 2)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(3, 1), Resource::of(3, 0)), 1);
  // Equal dominant shares (3/4): the second share decides.
  EXPECT_EQ(rc->compare(cluster, Resource::of(1, 3), Resource::of(3, 0)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(1, 1), Resource::of(1, 3)), -1);
  // Shares, not raw amounts: 1024 of 8192 MB is less than 1 of 4 vcores.
  EXPECT_EQ(rc->compare(Resource::of(8192, 4), Resource::of(2048, 1), Resource::of(1024, 2)), -1);
}

// Hadoop TestResourceCalculator.testCompare (three types, cluster <4, 4, 4>).
TEST(DominantCalculatorCompare, ThreeTypesSortedShares) {
  auto rc = dominant3();
  Resource cluster = res3(4, 4, 4);
  struct Case {
    Resource lhs, rhs;
    int expected;
  };
  const Case cases[] = {
      {res3(1, 1, 1), res3(1, 1, 1), 0}, {res3(0, 0, 0), res3(0, 0, 0), 0},
      {res3(2, 2, 2), res3(1, 1, 1), 1}, {res3(2, 2, 2), res3(0, 0, 0), 1},
      {res3(2, 1, 1), res3(1, 2, 1), 0}, {res3(2, 1, 1), res3(1, 1, 2), 0},
      {res3(2, 1, 0), res3(0, 1, 2), 0}, {res3(2, 2, 1), res3(1, 2, 2), 0},
      {res3(2, 2, 0), res3(2, 0, 2), 0}, {res3(3, 2, 1), res3(1, 2, 3), 0},
      {res3(3, 2, 1), res3(2, 3, 1), 0}, {res3(2, 1, 1), res3(1, 1, 1), 1},
      {res3(2, 1, 1), res3(1, 1, 0), 1}, {res3(2, 2, 1), res3(2, 1, 1), 1},
      {res3(2, 2, 1), res3(1, 1, 2), 1}, {res3(2, 2, 1), res3(0, 2, 2), 1},
      {res3(2, 2, 2), res3(2, 2, 1), 1}, {res3(3, 2, 1), res3(2, 2, 2), 1},
      {res3(3, 1, 1), res3(2, 2, 2), 1}, {res3(3, 1, 1), res3(3, 1, 0), 1},
      {res3(3, 1, 1), res3(3, 0, 0), 1},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(rc->compare(cluster, c.lhs, c.rhs), c.expected)
        << c.lhs.toString() << " vs " << c.rhs.toString();
    EXPECT_EQ(rc->compare(cluster, c.rhs, c.lhs), -c.expected)
        << c.rhs.toString() << " vs " << c.lhs.toString();
  }
}

TEST(DominantCalculatorCompare, SingleTypeComparesOnlyTheDominantShare) {
  auto rc = dominant3();
  Resource cluster = res3(4, 4, 4);
  // Same dominant share (3/4); the full compare looks further, singleType does not.
  EXPECT_EQ(rc->compare(cluster, res3(3, 2, 1), res3(3, 1, 1)), 1);
  EXPECT_EQ(rc->compare(cluster, res3(3, 2, 1), res3(3, 1, 1), /*singleType=*/true), 0);
  EXPECT_EQ(rc->compare(cluster, res3(1, 3, 0), res3(2, 2, 2), /*singleType=*/true), 1);
}

// Hadoop TestResourceCalculator.testCompareWithEmptyCluster: with a zero in the cluster the
// Dominant calculator compares componentwise.
TEST(DominantCalculatorCompare, ZeroClusterTypeComparesComponentwise) {
  auto rc = dominant2();
  Resource empty = Resource::of(0, 0);
  EXPECT_EQ(rc->compare(empty, Resource::of(0, 0), Resource::of(0, 0)), 0);
  EXPECT_EQ(rc->compare(empty, Resource::of(1, 1), Resource::of(0, 0)), 1);
  EXPECT_EQ(rc->compare(empty, Resource::of(0, 0), Resource::of(1, 1)), -1);
  EXPECT_EQ(rc->compare(empty, Resource::of(1, 0), Resource::of(0, 1)), 0);
  EXPECT_EQ(rc->compare(empty, Resource::of(0, 1), Resource::of(1, 0)), 0);
  EXPECT_EQ(rc->compare(empty, Resource::of(1, 1), Resource::of(1, 0)), 1);
  EXPECT_EQ(rc->compare(empty, Resource::of(0, 1), Resource::of(1, 1)), -1);

  // A declared GPU type with no GPU in the cluster also triggers the fallback.
  auto rc3 = dominant3();
  Resource noGpu = res3(4, 4, 0);
  EXPECT_EQ(rc3->compare(noGpu, res3(2, 1, 1), res3(1, 1, 2)), 0);
  EXPECT_EQ(rc3->compare(noGpu, res3(2, 2, 2), res3(1, 2, 2)), 1);
}

TEST(DominantCalculatorCompare, ExactForLargeValues) {
  auto rc = dominant2();
  // Shares differing by less than a double's precision still order correctly.
  int64_t c = (int64_t{1} << 62) + 1;
  Resource cluster = Resource::of(c, c);
  EXPECT_EQ(rc->compare(cluster, Resource::of(c - 1, 0), Resource::of(c - 2, 0)), 1);
  EXPECT_EQ(rc->compare(cluster, Resource::of(kMax, kMax), Resource::of(kMax, kMax - 1)), 1);
}

TEST(CalculatorHelpers, MinMaxAndEquals) {
  auto rc = dominant2();
  Resource cluster = Resource::of(100, 10);
  Resource memHeavy = Resource::of(50, 1);  // dominant 0.5
  Resource cpuHeavy = Resource::of(10, 6);  // dominant 0.6
  EXPECT_EQ(rc->max(cluster, memHeavy, cpuHeavy), cpuHeavy);
  EXPECT_EQ(rc->min(cluster, memHeavy, cpuHeavy), memHeavy);
  EXPECT_TRUE(rc->lessThan(cluster, memHeavy, cpuHeavy));
  EXPECT_EQ(defaultRc()->max(cluster, memHeavy, cpuHeavy), memHeavy);
}

// --- fitsIn and major resources ---------------------------------------------------------------

TEST(CalculatorFitsIn, DefaultIgnoresVcoresDominantChecksEveryType) {
  Resource ask = Resource::of(1024, 8);
  Resource free = Resource::of(2048, 2);
  EXPECT_TRUE(defaultRc()->fitsIn(ask, free));
  EXPECT_FALSE(dominant2()->fitsIn(ask, free));
  EXPECT_FALSE(defaultRc()->fitsIn(Resource::of(4096, 1), free));

  auto rc3 = dominant3();
  EXPECT_TRUE(rc3->fitsIn(res3(1024, 1, 1), res3(2048, 2, 1)));
  EXPECT_FALSE(rc3->fitsIn(res3(1024, 1, 2), res3(2048, 2, 1)));
  // Types beyond the registry's count are not counted.
  EXPECT_TRUE(dominant2()->fitsIn(res3(1024, 1, 2), res3(2048, 2, 1)));
}

TEST(CalculatorMajorResources, DefaultLooksAtMemoryOnly) {
  EXPECT_FALSE(defaultRc()->isAnyMajorResourceZeroOrNegative(Resource::of(1, 0)));
  EXPECT_TRUE(dominant2()->isAnyMajorResourceZeroOrNegative(Resource::of(1, 0)));
  EXPECT_TRUE(dominant2()->isAnyMajorResourceZeroOrNegative(Resource::of(-1, 5)));
  EXPECT_FALSE(defaultRc()->isAnyMajorResourceAboveZero(Resource::of(0, 3)));
  EXPECT_TRUE(dominant2()->isAnyMajorResourceAboveZero(Resource::of(0, 3)));
  EXPECT_FALSE(dominant2()->isAnyMajorResourceAboveZero(Resource::of(0, -3)));
}

TEST(CalculatorMajorResources, DominantLooksAtEveryCountedType) {
  // DominantResourceCalculator loops over every known type, extras included: capacity
  // preemption relies on it (a GPU still to obtain keeps a target alive).
  EXPECT_TRUE(dominant3()->isAnyMajorResourceAboveZero(res3(0, 0, 1)));
  EXPECT_TRUE(dominant3()->isAnyMajorResourceZeroOrNegative(res3(1, 1, 0)));
  EXPECT_FALSE(dominant3()->isAnyMajorResourceZeroOrNegative(res3(1, 1, 1)));
  // Types beyond the registry's count are not counted.
  EXPECT_FALSE(dominant2()->isAnyMajorResourceAboveZero(res3(0, 0, 1)));
  EXPECT_FALSE(dominant2()->isAnyMajorResourceZeroOrNegative(res3(1, 1, 0)));
}

// --- computeAvailableContainers, divide, ratio ---------------------------------------------------

TEST(CalculatorAvailableContainers, DefaultByMemoryDominantByScarcestType) {
  Resource avail = Resource::of(10240, 3);
  Resource req = Resource::of(1024, 1);
  EXPECT_EQ(defaultRc()->computeAvailableContainers(avail, req), 10);
  EXPECT_EQ(dominant2()->computeAvailableContainers(avail, req), 3);
  EXPECT_EQ(defaultRc()->computeAvailableContainers(Resource::of(3000, 0), req), 2);
  // Types the ask does not need are skipped; an ask of nothing fits INT_MAX times.
  EXPECT_EQ(dominant2()->computeAvailableContainers(avail, Resource::of(0, 1)), 3);
  EXPECT_EQ(dominant2()->computeAvailableContainers(avail, Resource()), 2147483647);
  EXPECT_EQ(defaultRc()->computeAvailableContainers(avail, Resource::of(0, 1)), 2147483647);
  // Capped at Integer.MAX_VALUE like Hadoop's DominantResourceCalculator.
  EXPECT_EQ(dominant2()->computeAvailableContainers(Resource::of(kMax, kMax), req), 2147483647);
  EXPECT_EQ(dominant3()->computeAvailableContainers(res3(8192, 8, 1), res3(1024, 1, 1)), 1);
}

TEST(CalculatorDivide, SharesAndRatios) {
  Resource cluster = Resource::of(100, 10);
  EXPECT_DOUBLE_EQ(defaultRc()->divide(cluster, Resource::of(30, 9), Resource::of(60, 1)), 0.5);
  // Dominant: 0.9 / 0.6.
  EXPECT_FLOAT_EQ(dominant2()->divide(cluster, Resource::of(30, 9), Resource::of(60, 1)), 1.5f);
  // A type the cluster has none of takes no part: 0.1 / 0.2, not inf / inf.
  EXPECT_FLOAT_EQ(
      dominant2()->divide(Resource::of(100, 0), Resource::of(10, 5), Resource::of(20, 1)), 0.5f);
  EXPECT_TRUE(std::isnan(
      dominant2()->divide(Resource::of(100, 0), Resource::of(0, 5), Resource::of(0, 1))));
  EXPECT_FLOAT_EQ(dominant2()->ratio(Resource::of(30, 9), Resource::of(60, 3)), 3.0f);
  EXPECT_EQ(dominant2()->ratio(Resource::of(0, 0), Resource::of(0, 0)), 0.0);
  EXPECT_TRUE(std::isinf(dominant2()->ratio(Resource::of(1, 0), Resource::of(0, 1))));
  EXPECT_TRUE(dominant2()->isInvalidDivisor(Resource::of(5, 0)));
  EXPECT_FALSE(defaultRc()->isInvalidDivisor(Resource::of(5, 0)));
  // Hadoop returns float: 1/3 comes back with float precision.
  EXPECT_EQ(defaultRc()->ratio(Resource::of(1, 0), Resource::of(3, 0)),
            static_cast<double>(1.0f / 3.0f));
}

TEST(CalculatorDivideAndCeil, RoundsEachTypeUp) {
  EXPECT_EQ(dominant2()->divideAndCeil(Resource::of(1025, 3), 2), Resource::of(513, 2));
  EXPECT_EQ(dominant2()->divideAndCeil(Resource::of(1025, 3), 0.5), Resource::of(2050, 6));
  EXPECT_EQ(dominant2()->divideAndCeil(Resource::of(1025, 3), int64_t{0}), Resource::of(0, 0));
  // Default: memory only, and the result carries Resources.createResource's one vcore.
  EXPECT_EQ(defaultRc()->divideAndCeil(Resource::of(1025, 3), 2), Resource::of(513, 1));
}

// --- normalize and rounding ---------------------------------------------------------------------

TEST(CalculatorNormalize, GrowsToMinimumRoundsToIncrementCapsAtMaximum) {
  auto rc = defaultRc();
  AllocationBounds b{Resource::of(1024, 1), Resource::of(8192, 4), Resource::of(1024, 1)};
  EXPECT_EQ(normalizeRequest(*rc, Resource::of(512, 1), b).memoryMb(), 1024);
  EXPECT_EQ(normalizeRequest(*rc, Resource::of(1025, 1), b).memoryMb(), 2048);
  EXPECT_EQ(normalizeRequest(*rc, Resource::of(10000, 1), b).memoryMb(), 8192);

  // TestFifoScheduler.testNonDefaultMinimumAllocation: min 1536, 768 -> 1536.
  AllocationBounds b1536{Resource::of(1536, 1), Resource::of(15360, 4), Resource::of(1536, 1)};
  EXPECT_EQ(normalizeRequest(*rc, Resource::of(768, 1), b1536).memoryMb(), 1536);
  EXPECT_EQ(normalizeRequest(*rc, Resource::of(1537, 1), b1536).memoryMb(), 3072);
}

TEST(CalculatorNormalize, DefaultGivesOneVcoreDominantNormalizesEveryType) {
  AllocationBounds b{res3(1024, 1, 0), res3(8192, 4, 4), res3(512, 1, 1)};
  // Hadoop's DefaultResourceCalculator returns Resources.createResource(memory): one vcore, no
  // extras, whatever was asked.
  EXPECT_EQ(normalizeRequest(*makeDefaultResourceCalculator(withGpu()), res3(1500, 3, 2), b),
            Resource::of(1536, 1));
  EXPECT_EQ(normalizeRequest(*dominant3(), res3(1500, 3, 2), b), res3(1536, 3, 2));
  EXPECT_EQ(normalizeRequest(*dominant3(), res3(100, 0, 9), b), res3(1024, 1, 4));
  EXPECT_EQ(normalizeRequest(*dominant3(), res3(100, 9, 0), b), res3(1024, 4, 0));
}

TEST(CalculatorNormalize, ZeroStep) {
  // Default replaces a zero memory step with the minimum (Hadoop logs an error and goes on).
  EXPECT_EQ(defaultRc()->normalize(Resource::of(1100, 1), Resource::of(1000, 1),
                                   Resource::of(8000, 4), Resource::of(0, 0)),
            Resource::of(2000, 1));
  // Dominant leaves a type with a zero step unrounded.
  EXPECT_EQ(dominant2()->normalize(Resource::of(1100, 1), Resource::of(1000, 1),
                                   Resource::of(8000, 4), Resource::of(0, 0)),
            Resource::of(1100, 1));
}

TEST(CalculatorNormalize, NoOverflowNearInt64Max) {
  auto rc = dominant3();
  Resource max = res3(kMax, kMax, kMax);
  Resource out = rc->normalize(res3(kMax - 1, 1, kMax), Resource(), max, res3(1024, 1, 3));
  EXPECT_EQ(out.memoryMb(), kMax);
  EXPECT_EQ(out.get(2), kMax);
}

TEST(CalculatorRounding, RoundUpAndDown) {
  Resource step = Resource::of(512, 2);
  EXPECT_EQ(dominant2()->roundUp(Resource::of(1000, 3), step), Resource::of(1024, 4));
  EXPECT_EQ(dominant2()->roundDown(Resource::of(1000, 3), step), Resource::of(512, 2));
  EXPECT_EQ(dominant2()->roundUp(Resource::of(1000, 3), Resource::of(0, 2)), Resource::of(1000, 4));
  EXPECT_EQ(defaultRc()->roundUp(Resource::of(1000, 3), step), Resource::of(1024, 1));
  EXPECT_EQ(defaultRc()->roundDown(Resource::of(1000, 3), step), Resource::of(512, 1));
  // Hadoop quirk: divideAndCeil(a, 0) is 0, so the Default calculator rounds up to 0.
  EXPECT_EQ(defaultRc()->roundUp(Resource::of(1000, 3), Resource()), Resource::of(0, 0));
}

TEST(CalculatorMultiplyAndNormalize, DefaultHalfUpDominantCeil) {
  Resource one = Resource::of(1, 1);
  // Preemption's natural termination: 2 * 0.2 = 0.4 rounds half-up to 0 under Default ...
  EXPECT_EQ(defaultRc()->multiplyAndNormalizeUp(Resource::of(2, 2), 0.2, one).memoryMb(), 0);
  // ... and up to 1 under Dominant.
  EXPECT_EQ(dominant2()->multiplyAndNormalizeUp(Resource::of(2, 2), 0.2, one), Resource::of(1, 1));
  EXPECT_EQ(defaultRc()->multiplyAndNormalizeUp(Resource::of(3, 0), 0.5, one).memoryMb(), 2);
  EXPECT_EQ(defaultRc()->multiplyAndNormalizeUp(Resource::of(1000, 0), 0.3, Resource::of(256, 1)),
            Resource::of(512, 1));
  EXPECT_EQ(dominant2()->multiplyAndNormalizeUp(Resource::of(1000, 3), 0.3, Resource::of(256, 1)),
            Resource::of(512, 1));
  EXPECT_EQ(dominant2()->multiplyAndNormalizeDown(Resource::of(1000, 3), 0.9, Resource::of(256, 1)),
            Resource::of(768, 2));
  EXPECT_EQ(defaultRc()->multiplyAndNormalizeDown(Resource::of(1000, 3), 0.9, Resource::of(256, 1)),
            Resource::of(768, 1));
  std::array<double, kMaxResourceTypes> by{};
  by[0] = 0.5;
  by[1] = 0.25;
  EXPECT_EQ(dominant2()->multiplyAndNormalizeUp(Resource::of(101, 10), by, one),
            Resource::of(51, 3));
  EXPECT_EQ(dominant2()->multiplyAndNormalizeUp(Resource::of(kMax, 1), 4.0, one).memoryMb(), kMax);
}

TEST(CalculatorMultiplyAndNormalize, PerTypeFormKeepsTheProductInDouble) {
  // 100 x 0.1f = 10.0000001490116...: the single-factor form casts the product to float first
  // ((long) ceil((float) (v * by)) = 10); the per-type form (normalizedGuarantee in capacity
  // preemption) takes the ceiling of the double (11), as Hadoop's two overloads do.
  const double w = static_cast<double>(0.1f);
  Resource one = Resource::of(1, 1);
  std::array<double, kMaxResourceTypes> by{};
  by.fill(w);
  EXPECT_EQ(dominant2()->multiplyAndNormalizeUp(Resource::of(100, 100), w, one),
            Resource::of(10, 10));
  EXPECT_EQ(dominant2()->multiplyAndNormalizeUp(Resource::of(100, 100), by, one),
            Resource::of(11, 11));
}

TEST(CalculatorMultiplyAndNormalize, EveryTypeKeepsVcoresUnderDefault) {
  // Default: Hadoop's result is <memory, 1>; the every-type form rounds vcores (and extras)
  // half-up like memory, so that a preemption plan reports them.
  auto rc3 = makeDefaultResourceCalculator(withGpu());
  EXPECT_EQ(rc3->multiplyAndNormalizeUp(res3(3, 5, 7), 0.5, Resource::of(1, 1)),
            Resource::of(2, 1));
  EXPECT_EQ(rc3->multiplyAndNormalizeUpEveryType(res3(3, 5, 7), 0.5), res3(2, 3, 4));
  EXPECT_EQ(defaultRc()->multiplyAndNormalizeUpEveryType(Resource::of(2, 2), 0.2),
            Resource::of(0, 0));
  std::array<double, kMaxResourceTypes> by{};
  by[0] = 0.5;
  by[1] = 0.25;
  EXPECT_EQ(defaultRc()->multiplyAndNormalizeUpEveryType(Resource::of(101, 10), by),
            Resource::of(51, 3));
  // Dominant counts every type: the same as multiplyAndNormalizeUp with a step of one, keeping
  // each overload's rounding (float cast for one factor, double per type).
  const double w = static_cast<double>(0.1f);
  by.fill(w);
  EXPECT_EQ(dominant3()->multiplyAndNormalizeUpEveryType(res3(100, 7, 100), w), res3(10, 1, 10));
  EXPECT_EQ(dominant3()->multiplyAndNormalizeUpEveryType(res3(100, 7, 100), by), res3(11, 1, 11));
  EXPECT_EQ(dominant2()->multiplyAndNormalizeUpEveryType(Resource::of(2, 2), 0.2),
            Resource::of(1, 1));
}

TEST(ResourceArithmetic, MultiplyAndRoundDownTruncatesEveryType) {
  // Resources.multiplyAndRoundDown / Resources.multiply: (long) (v * by), toward zero.
  EXPECT_EQ(multiplyAndRoundDown(res3(10, 3, 7), 0.55), res3(5, 1, 3));
  EXPECT_EQ(multiplyAndRoundDown(Resource::of(-3, 3), 0.5), Resource::of(-1, 1));
  // The preemption budget: 0.1f x 1000 = 100.0000015 truncates to 100.
  EXPECT_EQ(multiplyAndRoundDown(Resource::of(1000, 1000), static_cast<double>(0.1f)),
            Resource::of(100, 100));
}

// --- factory ------------------------------------------------------------------------------------

TEST(MakeResourceCalculator, ByFullOrSimpleName) {
  ResourceTypes types;
  auto full = makeResourceCalculator(
      "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator", types);
  ASSERT_TRUE(full.isOk());
  EXPECT_STREQ((*full)->className(),
               "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
  auto simple = makeResourceCalculator(" DefaultResourceCalculator ", types);
  ASSERT_TRUE(simple.isOk());
  EXPECT_STREQ((*simple)->className(),
               "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator");

  auto bad = makeResourceCalculator("org.example.FancyCalculator", types);
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("org.example.FancyCalculator"), std::string::npos);
}

// --- configuration ------------------------------------------------------------------------------

Configuration props(std::initializer_list<std::pair<const char*, const char*>> kv) {
  Configuration c;
  for (const auto& [k, v] : kv) c.set(k, v);
  return c;
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ResourceConfig, DefaultsForCapacityAndFifo) {
  Configuration conf;
  auto types = resourceTypesFromConfig(conf);
  ASSERT_TRUE(types.isOk()) << types.status().toString();
  EXPECT_EQ(types->count(), 2);
  auto b = allocationBoundsFromConfig(conf, *types, false);
  ASSERT_TRUE(b.isOk()) << b.status().toString();
  EXPECT_EQ(b->minimum, Resource::of(1024, 1));
  EXPECT_EQ(b->maximum, Resource::of(8192, 4));
  EXPECT_EQ(b->increment, Resource::of(1024, 1));
}

TEST(ResourceConfig, ExtraTypesWithUnitsAndBounds) {
  Configuration conf = props({{"yarn.resource-types", " yarn.io/gpu , fpga"},
                              {"yarn.resource-types.fpga.units", "Gi"},
                              {"yarn.resource-types.yarn.io/gpu.maximum-allocation", "8"},
                              {"yarn.scheduler.minimum-allocation-mb", "512"}});
  auto types = resourceTypesFromConfig(conf);
  ASSERT_TRUE(types.isOk()) << types.status().toString();
  ASSERT_EQ(types->count(), 4);
  EXPECT_EQ(types->indexOf("yarn.io/gpu"), 2);
  EXPECT_EQ(types->info(3).units, "Gi");
  auto b = allocationBoundsFromConfig(conf, *types, false);
  ASSERT_TRUE(b.isOk()) << b.status().toString();
  EXPECT_EQ(b->minimum.memoryMb(), 512);
  EXPECT_EQ(b->increment.memoryMb(), 512);
  EXPECT_EQ(b->maximum.get(2), 8);
  EXPECT_EQ(b->minimum.get(2), 0);
  EXPECT_EQ(b->maximum.get(3), kMax);
}

TEST(ResourceConfig, ResourceTypesOverrideSchedulerKeys) {
  Configuration conf = props({{"yarn.scheduler.minimum-allocation-mb", "512"},
                              {"yarn.resource-types.memory-mb.minimum-allocation", "256"}});
  auto b = allocationBoundsFromConfig(conf, ResourceTypes(), false);
  ASSERT_TRUE(b.isOk()) << b.status().toString();
  EXPECT_EQ(b->minimum.memoryMb(), 256);
}

TEST(ResourceConfig, FairIncrements) {
  Configuration conf = props({{"yarn.resource-types", "yarn.io/gpu"},
                              {"yarn.scheduler.minimum-allocation-mb", "0"},
                              {"yarn.scheduler.increment-allocation-mb", "512"},
                              {"yarn.resource-types.vcores.increment-allocation", "2"}});
  auto types = resourceTypesFromConfig(conf);
  ASSERT_TRUE(types.isOk());
  auto b = allocationBoundsFromConfig(conf, *types, true);
  ASSERT_TRUE(b.isOk()) << b.status().toString();
  EXPECT_EQ(b->increment, res3(512, 2, 1));
  EXPECT_EQ(b->minimum.memoryMb(), 0);
  // Fair normalisation: 700 MB rounds to the 512 MB increment, not the minimum.
  EXPECT_EQ(normalizeRequest(*dominant3(), res3(700, 1, 0), *b).memoryMb(), 1024);

  auto defaults = allocationBoundsFromConfig(Configuration(), ResourceTypes(), true);
  ASSERT_TRUE(defaults.isOk());
  EXPECT_EQ(defaults->increment, Resource::of(1024, 1));
}

TEST(ResourceConfig, FairMinimumAboveMaximumFailsWithYarnText) {
  Configuration conf = props({{"yarn.scheduler.minimum-allocation-mb", "2048"},
                              {"yarn.scheduler.maximum-allocation-mb", "1024"}});
  auto b = allocationBoundsFromConfig(conf, ResourceTypes(), true);
  ASSERT_FALSE(b.isOk());
  EXPECT_EQ(b.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(contains(b.status().message(),
                       "Invalid resource scheduler memory allocation configuration: "
                       "yarn.scheduler.minimum-allocation-mb=2048, "
                       "yarn.scheduler.maximum-allocation-mb=1024.  Both values must be greater "
                       "than or equal to 0and the maximum allocation value must be greater than "
                       "or equal to the minimum allocation value."))
      << b.status().message();
}

TEST(ResourceConfig, NegativeMinimumFailsUnderEveryScheduler) {
  Configuration conf = props({{"yarn.scheduler.minimum-allocation-vcores", "-1"}});
  for (bool fair : {false, true}) {
    auto b = allocationBoundsFromConfig(conf, ResourceTypes(), fair);
    ASSERT_FALSE(b.isOk());
    EXPECT_TRUE(contains(b.status().message(),
                         "Invalid resource scheduler vcores allocation configuration"))
        << b.status().message();
    EXPECT_TRUE(contains(b.status().message(), "yarn.scheduler.minimum-allocation-vcores=-1"));
  }
}

TEST(ResourceConfig, ZeroMinimumAllowedByFairRefusedByCapacityAndFifo) {
  Configuration conf = props({{"yarn.scheduler.minimum-allocation-mb", "0"}});
  EXPECT_TRUE(allocationBoundsFromConfig(conf, ResourceTypes(), true).isOk());
  auto b = allocationBoundsFromConfig(conf, ResourceTypes(), false);
  ASSERT_FALSE(b.isOk());
  EXPECT_TRUE(contains(b.status().message(),
                       "Invalid resource scheduler memory allocation configuration, "
                       "yarn.scheduler.minimum-allocation-mb=0, "
                       "yarn.scheduler.maximum-allocation-mb=8192, min and max should be greater "
                       "than 0, max should be no smaller than min."))
      << b.status().message();
}

TEST(ResourceConfig, ErrorsNameFileAndLine) {
  auto conf = Configuration::parseString(R"(<?xml version="1.0"?>
<configuration>
  <property>
    <name>yarn.scheduler.maximum-allocation-mb</name>
    <value>512</value>
  </property>
</configuration>
)",
                                         "yarn-site.xml");
  ASSERT_TRUE(conf.isOk()) << conf.status().toString();
  auto b = allocationBoundsFromConfig(*conf, ResourceTypes(), false);
  ASSERT_FALSE(b.isOk());
  const std::string& msg = b.status().message();
  EXPECT_TRUE(contains(msg, "yarn-site.xml:3")) << msg;
  EXPECT_TRUE(contains(msg, "yarn.scheduler.maximum-allocation-mb")) << msg;
  EXPECT_TRUE(contains(msg, "Invalid resource scheduler memory allocation configuration")) << msg;
}

TEST(ResourceConfig, ExtraTypeBoundsValidated) {
  Configuration conf = props({{"yarn.resource-types", "yarn.io/gpu"},
                              {"yarn.resource-types.yarn.io/gpu.minimum-allocation", "4"},
                              {"yarn.resource-types.yarn.io/gpu.maximum-allocation", "2"}});
  auto b = allocationBoundsFromConfig(conf, withGpu(), false);
  ASSERT_FALSE(b.isOk());
  EXPECT_TRUE(contains(b.status().message(),
                       "Invalid resource scheduler yarn.io/gpu allocation configuration"))
      << b.status().message();
}

TEST(ResourceConfig, MalformedValueIsAnError) {
  Configuration conf = props({{"yarn.scheduler.minimum-allocation-mb", "lots"}});
  auto b = allocationBoundsFromConfig(conf, ResourceTypes(), false);
  ASSERT_FALSE(b.isOk());
  EXPECT_TRUE(contains(b.status().message(), "yarn.scheduler.minimum-allocation-mb"))
      << b.status().message();
}

TEST(ResourceConfig, BadResourceTypes) {
  auto expectError = [](const char* list, std::string_view fragment) {
    Configuration conf = props({{"yarn.resource-types", list}});
    auto t = resourceTypesFromConfig(conf);
    ASSERT_FALSE(t.isOk()) << list;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
    EXPECT_TRUE(contains(t.status().message(), fragment)) << t.status().message();
  };
  expectError("memory-mb", "Attempt to re-define mandatory resource 'memory-mb'");
  expectError("vcores", "Attempt to re-define mandatory resource 'vcores'");
  expectError("yarn.io/gpu,yarn.io/gpu", "specified twice");
  expectError("1gpu", "'1gpu' is not a valid resource name");
  expectError("-bad.ns/gpu", "is not a valid resource name");
  expectError("a,b,c,d,e,f,g", "at most 8 resource types");

  Configuration units = props(
      {{"yarn.resource-types", "yarn.io/gpu"}, {"yarn.resource-types.yarn.io/gpu.units", "bogus"}});
  auto t = resourceTypesFromConfig(units);
  ASSERT_FALSE(t.isOk());
  EXPECT_TRUE(contains(t.status().message(), "Unknown unit 'bogus'")) << t.status().message();
}

}  // namespace
}  // namespace spindle
