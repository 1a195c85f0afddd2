#include "ha/leader_elector.h"

#include <gtest/gtest.h>

#include "ha/etcd_test_env.h"

namespace spindle::ha {
namespace {

ElectorOptions options(const std::string& candidate) {
  return {.leaderKey = testPrefix() + "leader", .candidate = candidate, .ttlSeconds = 30};
}

TEST(LeaderElector, OneWinsTheOtherObservesIt) {
  EtcdClient etcd1(testEtcdEndpoints()), etcd2(testEtcdEndpoints());
  SimulatedClock clock(1'000'000);
  LeaderElector rm1(etcd1, clock, options("rm1")), rm2(etcd2, clock, options("rm2"));
  auto won = rm1.campaign();
  ASSERT_TRUE(won) << won.status().message();
  EXPECT_TRUE(*won);
  EXPECT_TRUE(rm1.isLeader());
  EXPECT_GT(rm1.fencingToken(), 0);
  auto lost = rm2.campaign();
  ASSERT_TRUE(lost);
  EXPECT_FALSE(*lost);
  EXPECT_FALSE(rm2.isLeader());
  auto who = rm2.observe();
  ASSERT_TRUE(who);
  ASSERT_TRUE(who->has_value());
  EXPECT_EQ((*who)->candidate, "rm1");
  EXPECT_EQ((*who)->revision, rm1.fencingToken());
  ASSERT_TRUE(rm1.resign().isOk());
  EXPECT_FALSE(rm1.isLeader());
  auto next = rm2.campaign();
  ASSERT_TRUE(next);
  EXPECT_TRUE(*next);
  EXPECT_GT(rm2.fencingToken(), who->value().revision);  // a new term, a larger token
  ASSERT_TRUE(rm2.resign().isOk());
}

TEST(LeaderElector, RefreshesTheLeaseAtAFractionOfTheTtl) {
  EtcdClient etcd(testEtcdEndpoints());
  SimulatedClock clock(0);
  LeaderElector rm1(etcd, clock, options("rm1"));
  ASSERT_TRUE(rm1.campaign().value());
  EXPECT_EQ(rm1.nextActionMs(), 10'000);  // ttl 30 s / 3
  // Every 10 s for two minutes, four times the TTL: still the leader.
  for (int i = 0; i < 12; ++i) {
    clock.advanceMs(10'000);
    ASSERT_TRUE(rm1.maintain()) << rm1.lossReason();
  }
  ASSERT_TRUE(rm1.resign().isOk());
}

TEST(LeaderElector, ALeaseNotConfirmedWithinItsTtlIsLost) {
  EtcdClient etcd(testEtcdEndpoints());
  SimulatedClock clock(0);
  LeaderElector rm1(etcd, clock, options("rm1"));
  ASSERT_TRUE(rm1.campaign().value());
  // A pause past the TTL (SIGSTOP, a long GC): the elector gives up without asking etcd.
  clock.advanceMs(30'000);
  EXPECT_FALSE(rm1.maintain());
  EXPECT_FALSE(rm1.isLeader());
  EXPECT_NE(rm1.lossReason().find("not confirmed within its TTL"), std::string::npos);
  ASSERT_TRUE(rm1.resign().isOk());
}

TEST(LeaderElector, ARevokedLeaseOrAReplacedKeyLosesLeadership) {
  EtcdClient etcd(testEtcdEndpoints()), admin(testEtcdEndpoints());
  SimulatedClock clock(0);
  LeaderElector rm1(etcd, clock, options("rm1"));
  ASSERT_TRUE(rm1.campaign().value());
  auto key = admin.range(options("x").leaderKey);
  ASSERT_TRUE(key);
  ASSERT_EQ(key->kvs.size(), 1u);
  ASSERT_TRUE(admin.leaseRevoke(key->kvs[0].lease).isOk());
  clock.advanceMs(10'000);
  EXPECT_FALSE(rm1.maintain());
  EXPECT_NE(rm1.lossReason().find("expired in etcd"), std::string::npos) << rm1.lossReason();
  // Back in the race with a new lease; then the key is replaced behind its back.
  ASSERT_TRUE(rm1.campaign().value());
  ASSERT_TRUE(admin.deleteRange(options("x").leaderKey));
  ASSERT_TRUE(admin.put(options("x").leaderKey, "intruder"));
  clock.advanceMs(10'000);
  EXPECT_FALSE(rm1.maintain());
  EXPECT_NE(rm1.lossReason().find("intruder"), std::string::npos) << rm1.lossReason();
  ASSERT_TRUE(rm1.resign().isOk());
}

TEST(LeaderElector, UnreachableEtcdFailsTheCampaignAndExpiresTheLeader) {
  EtcdClient down({{"127.0.0.1", 1}}, 300);
  SimulatedClock clock(0);
  LeaderElector rm1(down, clock, options("rm1"));
  auto r = rm1.campaign();
  ASSERT_FALSE(r);
  EXPECT_NE(r.status().message().find("unreachable"), std::string::npos);
}

}  // namespace
}  // namespace spindle::ha
