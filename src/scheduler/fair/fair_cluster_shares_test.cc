// Fair Scheduler: what follows a node change. Min/max shares given as percentages of the cluster
// are re-resolved on every NodeAdded / NodeRemoved (absolute ones never change), and steady fair
// shares, computed when read (steadyFairShares()), are the values an eager recomputation after
// every change gives.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

const char* kShares = R"(
  <queue name="pct"><weight>2</weight><minResources>25%</minResources><maxResources>50%</maxResources></queue>
  <queue name="abs"><maxResources>4096 mb, 4 vcores</maxResources></queue>
  <queue name="adhoc" type="parent"><maxChildResources>25%</maxChildResources></queue>)";

TEST(FairClusterShares, PercentagesFollowEveryNodeChangeAbsolutesStay) {
  Fs fs(allocationXml(kShares));
  fs.node("h1", "/r1", 8192, 8);
  fs.app("root.adhoc.u1");  // a dynamic leaf: max share 25 % of the cluster
  EXPECT_EQ(fs.queue("root.pct").minShare.memoryMb(), 2048);
  EXPECT_EQ(fs.queue("root.pct").maxShare.get(0), 4096);
  EXPECT_EQ(fs.queue("root.abs").maxShare.get(0), 4096);
  EXPECT_EQ(fs.queue("root.adhoc.u1").maxShare.get(0), 2048);
  fs.node("h2", "/r1", 8192, 8);
  EXPECT_EQ(fs.queue("root.pct").minShare.memoryMb(), 4096);
  EXPECT_EQ(fs.queue("root.pct").maxShare.get(0), 8192);
  EXPECT_EQ(fs.queue("root.abs").maxShare.get(0), 4096);
  EXPECT_EQ(fs.queue("root.adhoc.u1").maxShare.get(0), 4096);
  ASSERT_TRUE(fs.sched().handle(NodeResourceUpdate{"h2", Resource::of(24576, 8)}).isOk());
  EXPECT_EQ(fs.queue("root.pct").maxShare.get(0), 16384);
  EXPECT_EQ(fs.queue("root.adhoc.u1").maxShare.get(0), 8192);
  ASSERT_TRUE(fs.sched().handle(NodeRemoved{"h1"}).isOk());
  EXPECT_EQ(fs.queue("root.pct").minShare.memoryMb(), 6144);
  EXPECT_EQ(fs.queue("root.pct").maxShare.get(0), 12288);
  EXPECT_EQ(fs.queue("root.abs").maxShare.get(0), 4096);
}

// One scheduler reads the steady shares after every change (as if they were recomputed
// eagerly), the other only at the end: the values agree at every queue.
TEST(FairClusterShares, LazySteadySharesEqualEagerOnes) {
  Fs eager(allocationXml(kShares));
  Fs lazy(allocationXml(kShares));
  auto steady = [](Fs& fs) {
    std::vector<int64_t> mb;
    const auto shares = fs.sched().steadyFairShares();
    for (const fair::FsQueue* q : fs.sched().queues().preorder())
      mb.push_back(shares.at(q).memoryMb());
    return mb;
  };
  for (int i = 0; i < 5; ++i) {
    const std::string host = fmt::format("h{}", i);
    eager.node(host, "/r1", 4096 * (i + 1), 8);
    lazy.node(host, "/r1", 4096 * (i + 1), 8);
    steady(eager);
    if (i == 2) {
      eager.app("root.adhoc.u" + std::to_string(i));
      lazy.app("root.adhoc.u" + std::to_string(i));
      steady(eager);
    }
  }
  ASSERT_TRUE(eager.sched().handle(NodeRemoved{"h3"}).isOk());
  ASSERT_TRUE(lazy.sched().handle(NodeRemoved{"h3"}).isOk());
  const std::vector<int64_t> expected = steady(eager);
  EXPECT_EQ(steady(lazy), expected);
  // 45056 MB among pct (weight 2, min 11264, max 22528), abs (capped at 4096), adhoc and
  // default (weight 1): 2r + 4096 + r + r = 45056 gives r = 10240; u2 is adhoc's only child.
  EXPECT_EQ(lazy.steadyMb("root.pct"), 20480);
  EXPECT_EQ(lazy.steadyMb("root.abs"), 4096);
  EXPECT_EQ(lazy.steadyMb("root.adhoc.u2"), 10240);
}

}  // namespace
}  // namespace spindle
