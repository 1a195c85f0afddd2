// The Capacity Scheduler's formulas against the reference's worked examples.
#include "scheduler/capacity/cs_math.h"

#include <gtest/gtest.h>

#include "resource/resource_calculator.h"
#include "scheduler/capacity/queue_ordering.h"

namespace spindle {
namespace {

constexpr int64_t GB = 1024;

std::shared_ptr<const ResourceCalculator> defaultRc() {
  return makeResourceCalculator("DefaultResourceCalculator", ResourceTypes()).value();
}

// CS-UL-2 (TestLeafQueue.testUserLimits): queue a 8.5 % of 16 GB, MULP 50, ULF 2.
UserLimitInputs testUserLimitsQueue() {
  UserLimitInputs in;
  in.partitionResource = Resource::of(16 * GB, 32);
  in.queueGuaranteed = Resource::of(1392, 1);  // (long)(16384 x 0.085f)
  in.queueMaxDown = Resource::of(16 * GB, 32);
  in.minAlloc = Resource::of(GB, 1);
  in.minimumUserLimitPercent = 50;
  in.userLimitFactor = 2;
  return in;
}

TEST(UserLimit, AllUsersVariantSharesTheCurrentCapacityAmongAllUsers) {
  // getResourceLimitForAllUsers (intra-queue preemption): U = CC, W = all users' weights.
  auto rc = defaultRc();
  UserLimitInputs in;
  in.partitionResource = Resource::of(100 * GB, 100);
  in.queueGuaranteed = Resource::of(50 * GB, 50);
  in.queueMaxDown = Resource::of(100 * GB, 100);
  in.minAlloc = Resource::of(GB, 1);
  in.minimumUserLimitPercent = 25;
  in.userLimitFactor = 2;
  in.consumedRatio = 0.6;  // 60 GB used: CC = 60 GB + 1 GB
  in.activeUsersUsed = Resource::of(30 * GB, 30);
  in.activeUsersWeight = 1;
  // Active users: max(ceil(31 GB / 1), 61 GB x 25 %) = 31 GB.
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 31 * GB);
  in.allUsers = true;
  in.activeUsersWeight = 3;
  // All users: max(ceil(61 GB / 3) = 20822 MB, 15616 MB), rounded up to 21 GB.
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 21 * GB);
}

TEST(UserLimit, TwoUsersGrowWithConsumptionAsInTestUserLimits) {
  auto rc = defaultRc();
  UserLimitInputs in = testUserLimitsQueue();
  // Step 1: nothing used, one active user: max(1 GB / 1, 696 MB) -> 1 GB.
  in.activeUsersWeight = 1;
  in.activeUsersUsed = Resource();
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 1 * GB);
  // Step 2: user_0 3 GB, two active users: CC = U = 4 GB -> 2 GB.
  in.activeUsersWeight = 2;
  in.consumedRatio = 3.0 / 16;
  in.activeUsersUsed = Resource::of(3 * GB, 1);
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 2 * GB);
  // Step 3: 3 GB + 1 GB used: 2.5 GB, capped by Q x 2 = 2784 MB, rounded up to 3 GB.
  in.consumedRatio = 4.0 / 16;
  in.activeUsersUsed = Resource::of(4 * GB, 2);
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 3 * GB);
}

TEST(UserLimit, FactorMinusOneCapsAtQueueMaximum) {
  auto rc = defaultRc();
  UserLimitInputs in = testUserLimitsQueue();
  in.minimumUserLimitPercent = 100;
  in.userLimitFactor = -1;
  in.queueMaxDown = Resource::of(8 * GB, 8);
  in.activeUsersWeight = 1;
  in.consumedRatio = 6.0 / 16;
  in.activeUsersUsed = Resource::of(6 * GB, 6);
  // ULF 1 would cap at the 1392 MB guarantee; -1 lets the user reach the queue max.
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 7 * GB);
}

TEST(UserLimit, ActiveUsersShareTheQueueAsInTheCacheTest) {
  // CS-UL-10: 10 GB used by active users; 3 active users -> 4 GB, 4 active users -> 3 GB.
  auto rc = defaultRc();
  UserLimitInputs in;
  in.partitionResource = Resource::of(100 * GB, 100);
  in.queueGuaranteed = Resource::of(100 * GB, 100);
  in.queueMaxDown = in.partitionResource;
  in.minAlloc = Resource::of(GB, 1);
  in.minimumUserLimitPercent = 0;
  in.consumedRatio = 10.0 / 100;
  in.activeUsersUsed = Resource::of(10 * GB, 10);
  in.activeUsersWeight = 3;
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 4 * GB);
  in.activeUsersWeight = 4;
  EXPECT_EQ(computeUserLimit(*rc, in).memoryMb(), 3 * GB);
}

TEST(UserLimit, WeightScalesAndRoundsDown) {
  auto rc = defaultRc();
  EXPECT_EQ(userLimitForWeight(*rc, Resource::of(4 * GB, 4), 1.5, Resource::of(GB, 1)).memoryMb(),
            6 * GB);
  EXPECT_EQ(userLimitForWeight(*rc, Resource::of(3 * GB, 3), 0.5, Resource::of(GB, 1)).memoryMb(),
            1 * GB);
}

TEST(AmLimit, QueueLimitsMatchTestInitializeQueue) {
  auto rc = defaultRc();
  const Resource min = Resource::of(GB, 1);
  // 50 GB cluster; a: 8.5 %, max 20 % -> 10 GB current limit -> 1 GB.
  EXPECT_EQ(queueAmLimit(*rc, Resource::of(4352, 4), Resource::of(10 * GB, 10), true, 0.1, min)
                .memoryMb(),
            1 * GB);
  // b: 80 %, max 99 % -> 49.5 GB rounded down to 49 GB -> 4.9 GB rounded up to 5 GB.
  EXPECT_EQ(queueAmLimit(*rc, Resource::of(40 * GB, 40), Resource::of(49 * GB, 49), true, 0.1, min)
                .memoryMb(),
            5 * GB);
  // 1600 GB, B: 80 %, max 99 %: 0.1 x 1584 GB normalised up = 162816 MB.
  EXPECT_EQ(queueAmLimit(*rc, Resource::of(1280 * GB, 1280), Resource::of(1584 * GB, 1584), true,
                         0.1, min)
                .memoryMb(),
            162816);
  // A labelled partition uses the guarantee only.
  EXPECT_EQ(queueAmLimit(*rc, Resource::of(10 * GB, 10), Resource::of(50 * GB, 50), false, 0.5, min)
                .memoryMb(),
            5 * GB);
}

TEST(AmLimit, UserLimitUsesMulpAndFactorAsTestActiveApplicationLimits) {
  // CS-AM-5: a = 10 % of 160 GB, MULP 50, ULF 5, AM percent 10 %: queue 16 GB, user 8 GB.
  auto rc = defaultRc();
  const Resource cluster = Resource::of(160 * GB, 160);
  const Resource g = Resource::of(16 * GB, 16);
  const Resource queue = Resource::of(16 * GB, 16);
  EXPECT_EQ(userAmLimit(*rc, cluster, g, 0.1, 50, 5, 1, 1.0, queue, Resource::of(GB, 1)).memoryMb(),
            8 * GB);
  // ULF -1: guarantee x AM percent, capped by the queue limit.
  EXPECT_EQ(
      userAmLimit(*rc, cluster, g, 0.1, 50, -1, 1, 1.0, queue, Resource::of(GB, 1)).memoryMb(),
      2 * GB);
}

TEST(DelayScheduling, OffSwitchThresholdsOfTheWorkedExamples) {
  // 2 hosts + 2 racks + ANY, N = 3, 3 containers: threshold 3, off-switch at the 4th attempt.
  OffSwitchInputs in{5, 3, 3, 3, 40, -1};
  EXPECT_FLOAT_EQ(offSwitchThreshold(in), 3.0f);
  EXPECT_FALSE(offSwitchAllowed(in));
  in.missed = 4;
  EXPECT_TRUE(offSwitchAllowed(in));
  // Same shape, 2 containers: off-switch at the 3rd.
  in = OffSwitchInputs{5, 3, 2, 3, 40, -1};
  EXPECT_TRUE(offSwitchAllowed(in));
  // 1 host + 1 rack + ANY, 100 containers: capped at N = 3.
  in = OffSwitchInputs{3, 3, 100, 3, 40, -1};
  EXPECT_FLOAT_EQ(offSwitchThreshold(in), 3.0f);
  EXPECT_FALSE(offSwitchAllowed(in));
  // 1 host + 1 rack + ANY, 1 container: 2/3 < 1, off-switch at once.
  in = OffSwitchInputs{3, 3, 1, 1, 40, -1};
  EXPECT_NEAR(offSwitchThreshold(in), 0.6667, 1e-3);
  EXPECT_TRUE(offSwitchAllowed(in));
  // Only ANY asked: never delayed; no nodes: never allowed.
  EXPECT_TRUE(offSwitchAllowed(OffSwitchInputs{1, 3, 10, 0, 40, -1}));
  EXPECT_FALSE(offSwitchAllowed(OffSwitchInputs{1, 0, 10, 5, 40, -1}));
  // rack-locality-additional-delay: min(N, 40 + 20).
  EXPECT_FLOAT_EQ(offSwitchThreshold(OffSwitchInputs{5, 100, 3, 0, 40, 20}), 60.0f);
  EXPECT_EQ(rackLocalThreshold(3, 40), 3);
}

TEST(Reservations, StarvationRuleNeedsReReservationsToAskElsewhere) {
  auto rc = defaultRc();
  const Resource min = Resource::of(GB, 1), max = Resource::of(16 * GB, 16);
  // One outstanding ask, already reserved once, no re-reservations: no new container.
  EXPECT_FALSE(shouldAllocOrReserveNewContainer(*rc, 1, 1, 0, Resource::of(4 * GB, 1), max, min));
  // Two re-reservations of a 4 GB ask: starvation (int)(2 x 0.75) = 1 -> allowed.
  EXPECT_TRUE(shouldAllocOrReserveNewContainer(*rc, 1, 1, 2, Resource::of(4 * GB, 1), max, min));
  // Nothing reserved: allowed while something is outstanding.
  EXPECT_TRUE(shouldAllocOrReserveNewContainer(*rc, 1, 0, 0, Resource::of(4 * GB, 1), max, min));
}

TEST(Headroom, MinOfUserAndQueueRoomRoundedDownAndCappedByFreeResource) {
  auto rc = defaultRc();
  const Resource min = Resource::of(GB, 1);
  // user room 3.5 GB, queue room 6 GB -> 3 GB; partition free 10 GB.
  EXPECT_EQ(capacityHeadroom(*rc, Resource::of(4 * GB, 4), Resource::of(512, 1),
                             Resource::of(8 * GB, 8), Resource::of(2 * GB, 2),
                             Resource::of(20 * GB, 20), Resource::of(10 * GB, 10), min)
                .memoryMb(),
            3 * GB);
  // The partition has only 1 GB free.
  EXPECT_EQ(capacityHeadroom(*rc, Resource::of(4 * GB, 4), Resource(), Resource::of(8 * GB, 8),
                             Resource(), Resource::of(20 * GB, 20), Resource::of(19 * GB, 19), min)
                .memoryMb(),
            1 * GB);
  // Over the limit: floored at zero.
  EXPECT_EQ(
      capacityHeadroom(*rc, Resource::of(GB, 1), Resource::of(2 * GB, 2), Resource::of(8 * GB, 8),
                       Resource(), Resource::of(20 * GB, 20), Resource(), min)
          .memoryMb(),
      0);
}

QueueSortEntry entry(float absCap, float used, int priority = 0, float absUsed = 0) {
  QueueSortEntry e;
  e.absCapacity = absCap;
  e.usedCapacity = used;
  e.absUsedCapacity = absUsed;
  e.priority = priority;
  return e;
}

TEST(QueueOrdering, IdleQueuesGoByLargerCapacityAsInTestNotAssignMultiple) {
  // a 10.5 %, b 89.5 %, both idle: b first.
  EXPECT_GT(compareQueues(entry(0.105f, 0), entry(0.895f, 0), "", false), 0);
  // Less relatively used first.
  EXPECT_LT(compareQueues(entry(0.1f, 0.5f), entry(0.9f, 0.6f), "", false), 0);
  // Zero-capacity queues after positive ones, and among themselves by absolute used.
  EXPECT_GT(compareQueues(entry(0, 0), entry(0.1f, 5.0f), "", false), 0);
  EXPECT_LT(compareQueues(entry(0, 9, 0, 0.1f), entry(0, 0, 0, 0.2f), "", false), 0);
}

TEST(QueueOrdering, PriorityUtilizationPrefersPriorityOnTheSameSideOfTheGuarantee) {
  // Both under their guarantee: the higher priority first even if more used.
  EXPECT_LT(compareQueues(entry(0.5f, 0.8f, 2), entry(0.5f, 0.1f, 1), "", true), 0);
  // One under, one over: the one under first regardless of priority.
  EXPECT_GT(compareQueues(entry(0.5f, 1.2f, 2), entry(0.5f, 0.9f, 1), "", true), 0);
  // utilization ignores priorities.
  EXPECT_GT(compareQueues(entry(0.5f, 0.8f, 2), entry(0.5f, 0.1f, 1), "", false), 0);
  // A labelled partition: queues with access first.
  QueueSortEntry noAccess = entry(0.5f, 0);
  noAccess.accessible = false;
  EXPECT_GT(compareQueues(noAccess, entry(0.1f, 0.9f), "x", false), 0);
}

}  // namespace
}  // namespace spindle
