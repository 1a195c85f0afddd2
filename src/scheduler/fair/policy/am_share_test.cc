// Vector FS-8 (TestFairScheduler.testComputeMaxAMResource) and the maxAMShare admission check.
#include "scheduler/fair/policy/am_share.h"

#include <gtest/gtest.h>

namespace spindle::fair {
namespace {

ResourceLimit limitOf(int64_t mem, int64_t vcores) {
  return ResourceLimit::of(Resource::of(mem, vcores), 2);
}

TEST(AmShareTest, FS8_ZeroFairShareFallsBackToMaxShareOrRootAvailable) {
  const Resource cluster = Resource::of(20480, 20);
  // queueFSZeroWithMax: weight 0, max 4096 MB / 4 vcores, the whole cluster free.
  EXPECT_EQ(computeMaxAmResource(Resource(), limitOf(4096, 4), cluster, 0.5f, 2),
            Resource::of(2048, 2));
  // queueFSZeroWithAVL: weight 0, unbounded, one 1024 MB / 1 vcore AM already running.
  EXPECT_EQ(computeMaxAmResource(Resource(), ResourceLimit::unbounded(),
                                 Resource::of(20480 - 1024, 19), 0.5f, 2),
            Resource::of(9728, 10));
  // queueFSNonZero: roundUp(fairShare x 0.5).
  EXPECT_EQ(computeMaxAmResource(Resource::of(18432, 17), ResourceLimit::unbounded(),
                                 Resource::of(18432, 18), 0.5f, 2),
            Resource::of(9216, 9));
}

TEST(AmShareTest, OneVcoreClusterStillAdmitsAnAm) {
  EXPECT_EQ(
      computeMaxAmResource(Resource::of(1024, 1), ResourceLimit::unbounded(), Resource(), 0.5f, 2),
      Resource::of(512, 1));
}

TEST(AmShareTest, AdmissionFollowsThePolicyCalculator) {
  const Resource limit = Resource::of(2048, 1);
  SchedulingPolicy fairP(PolicyKind::kFair, Resource::of(8192, 8), 2);
  SchedulingPolicy drfP(PolicyKind::kDrf, Resource::of(8192, 8), 2);
  const Resource am = Resource::of(1024, 1);
  EXPECT_TRUE(canRunAppAm(fairP, Resource::of(1024, 1), am, limit, 0.5f));  // 2048 MB fits
  EXPECT_FALSE(canRunAppAm(drfP, Resource::of(1024, 1), am, limit, 0.5f));  // 2 vcores > 1
  EXPECT_FALSE(canRunAppAm(fairP, Resource::of(2048, 0), am, limit, 0.5f));
  EXPECT_TRUE(canRunAppAm(fairP, Resource::of(2048, 0), am, limit, -1.0f));  // disabled
}

}  // namespace
}  // namespace spindle::fair
