// Fair Scheduler: the policy orders the descent keeps between heartbeats (fair_order.cc). Every
// event that changes a comparator input (allocation, completion, release, the update pass,
// apps arriving, leaving, waiting on maxRunningApps or moving, node changes, reloads, queues
// created and removed) must leave each order either stale or exactly the sort of fresh views:
// checkInvariants verifies the current orders after every step (and debug builds verify each
// order again whenever the descent uses it).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/rng.h"
#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

// DRF at the root (its comparator reads the cluster), fair and FIFO leaves, a parent for ad hoc
// user queues, maxRunningApps so that apps wait and are promoted.
const char* kTree = R"(
  <queue name="root"><schedulingPolicy>drf</schedulingPolicy>
    <queue name="a"><schedulingPolicy>drf</schedulingPolicy><weight>2</weight>
      <queue name="a1"><schedulingPolicy>fair</schedulingPolicy><maxRunningApps>2</maxRunningApps></queue>
      <queue name="a2"><schedulingPolicy>fifo</schedulingPolicy></queue>
    </queue>
    <queue name="b"><schedulingPolicy>fair</schedulingPolicy>
      <queue name="b1"><minResources>4096 mb, 4 vcores</minResources></queue>
      <queue name="b2"><weight>3</weight><minResources>20%</minResources></queue>
    </queue>
    <queue name="users" type="parent"><schedulingPolicy>fair</schedulingPolicy></queue>
  </queue>
  <queuePlacementPolicy><rule name="specified"/><rule name="reject"/></queuePlacementPolicy>)";

// The order of the leaf's apps follows each allocation at once: with equal weights the app with
// the least usage is offered the next container, whichever app took the last one.
TEST(FairOrder, LeafOrderFollowsEachAllocationAndRelease) {
  Fs fs(allocationXml(R"(<queue name="q"/>)"),
        {{"yarn.scheduler.fair.assignmultiple", "true"},
         {"yarn.scheduler.fair.max.assign", "1"},
         {"yarn.scheduler.fair.dynamic.max.assign", "false"}});
  fs.node("h1", "/r1", 16384, 16);
  AppId x = fs.app("root.q");
  AppId y = fs.app("root.q");
  fs.ask(x, 1, "*", 1024, 1, 10);
  fs.ask(y, 1, "*", 1024, 1, 10);
  for (int i = 0; i < 4; ++i) fs.heartbeat("h1");
  EXPECT_EQ(fs.allocationOrder(), (std::vector<AppId>{x, y, x, y}));
  // Releasing two of x's containers puts x behind by two: it takes the next two, and then the
  // tie on usage goes to the smaller name (application_..._0001), x again.
  std::vector<ContainerId> ofX(fs.sched().findApp(x)->liveContainers().begin(),
                               fs.sched().findApp(x)->liveContainers().end());
  ASSERT_EQ(ofX.size(), 2u);
  fs.release(x, ofX[0]);
  fs.release(x, ofX[1]);
  fs.invariants();
  for (int i = 0; i < 3; ++i) fs.heartbeat("h1");
  EXPECT_EQ(fs.allocationOrder(), (std::vector<AppId>{x, y, x, y, x, x, x}));
}

// A move changes the usage of two queue paths and the membership of two leaves.
TEST(FairOrder, MoveReordersBothPaths) {
  Fs fs(allocationXml(kTree));
  fs.node("h1", "/r1", 8192, 8);
  AppId big = fs.app("root.b.b1");
  AppId small = fs.app("root.b.b2");
  fs.ask(big, 1, "*", 1024, 1, 4);
  for (int i = 0; i < 4; ++i) fs.heartbeat("h1");
  fs.ask(small, 1, "*", 1024, 1, 1);
  ASSERT_TRUE(fs.sched().moveApp(big, "root.a.a2").isOk());
  fs.invariants();
  fs.tick();
  // b (now without usage) is below a: its app gets the next container.
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocationOrder().back(), small);
}

// Random events on the mixed tree; the invariants (the orders among them) hold after each.
TEST(FairOrder, OrdersMatchFreshSortsUnderRandomEvents) {
  Fs fs(allocationXml(kTree), {{"yarn.scheduler.fair.assignmultiple", "true"},
                               {"yarn.scheduler.fair.sizebasedweight", "true"}});
  Rng rng(7);
  const std::vector<std::string> leaves = {"root.a.a1", "root.a.a2",     "root.b.b1",
                                           "root.b.b2", "root.users.u1", "root.users.u2"};
  std::vector<std::string> nodes;
  std::vector<AppId> apps;
  auto pick = [&](auto& v) { return v[static_cast<size_t>(rng.uniformInt(0, v.size() - 1))]; };
  for (int i = 0; i < 3; ++i) {
    nodes.push_back("h" + std::to_string(i));
    fs.node(nodes.back(), "/r" + std::to_string(i % 2), 8192, 8);
  }
  for (int step = 0; step < 600; ++step) {
    fs.clock().advanceMs(100);
    const int64_t what = rng.uniformInt(0, 99);
    if (what < 35 && !nodes.empty()) {
      fs.heartbeat(pick(nodes));
    } else if (what < 45) {
      apps.push_back(fs.app(pick(leaves), "user" + std::to_string(rng.uniformInt(0, 2))));
    } else if (what < 60 && !apps.empty()) {
      fs.ask(pick(apps), static_cast<int>(rng.uniformInt(1, 2)), "*", 1024 * rng.uniformInt(1, 3),
             1, static_cast<int>(rng.uniformInt(0, 6)));
    } else if (what < 70 && !apps.empty()) {
      const AppId a = pick(apps);
      const auto& live = fs.sched().findApp(a)->liveContainers();
      if (!live.empty()) fs.release(a, *live.begin());
    } else if (what < 75 && !apps.empty()) {
      const AppId a = pick(apps);
      apps.erase(std::find(apps.begin(), apps.end(), a));
      fs.remove(a);
    } else if (what < 80 && !apps.empty()) {
      (void)fs.sched().moveApp(pick(apps), pick(leaves));  // refusals are fine
    } else if (what < 88) {
      fs.tick();
    } else if (what < 92) {
      nodes.push_back("h" + std::to_string(step + 10));
      fs.node(nodes.back(), "/r0", 4096 * rng.uniformInt(1, 3), 8);
    } else if (what < 94 && nodes.size() > 1) {
      const std::string n = pick(nodes);
      nodes.erase(std::find(nodes.begin(), nodes.end(), n));
      ASSERT_TRUE(fs.sched().handle(NodeRemoved{n}).isOk());
    } else if (what < 96 && !nodes.empty()) {
      ASSERT_TRUE(
          fs.sched()
              .handle(NodeResourceUpdate{pick(nodes), Resource::of(4096 * rng.uniformInt(1, 4), 8)})
              .isOk());
    } else {
      ASSERT_TRUE(fs.sched().refreshAllocation(fs.conf(), allocationXml(kTree)).isOk());
    }
    fs.invariants();
    if (::testing::Test::HasFailure()) {
      FAIL() << "after step " << step << " (event " << what << ")";
    }
  }
  EXPECT_GT(fs.allocationOrder().size(), 50u);
}

// The checker fails when a kept order is wrong: each corruption below is one a missed update
// would leave, and checkInvariants names the cache and the queue.
class CorruptedOrder : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_.node("h1", "/r1", 16384, 16);
    for (int i = 0; i < 3; ++i) {
      apps_.push_back(fs_.app("root.q"));
      fs_.ask(apps_.back(), 1, "*", 1024, 1, 4);
    }
    fs_.heartbeat("h1");
    fs_.invariants();
    ASSERT_FALSE(::testing::Test::HasFailure());
    leaf_ = fs_.sched().queues().find("root.q");  // the tree hands out its own queues
    ASSERT_EQ(leaf_->appOrder.size(), 3u);
  }
  void expectCaught(const std::string& what) {
    Status s = fs_.sched().checkInvariants();
    EXPECT_FALSE(s.isOk());
    EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
  }

  Fs fs_{allocationXml(R"(<queue name="q"/>)"), {{"yarn.scheduler.fair.assignmultiple", "true"}}};
  std::vector<AppId> apps_;
  fair::FsQueue* leaf_ = nullptr;
};

TEST_F(CorruptedOrder, EntriesOutOfOrder) {
  std::swap(leaf_->appOrder[0], leaf_->appOrder[2]);
  expectCaught("the order of root.q is not sorted");
}

TEST_F(CorruptedOrder, StaleFairShareKey) {
  auto& e = leaf_->appOrder[1];
  fair::setUsage(e.key, e.member->view.usage.memoryMb() + 1024);
  expectCaught("in the order of root.q is out of date");
}

TEST_F(CorruptedOrder, StaleView) {
  leaf_->appOrder[0].member->view.demand += Resource::of(1024, 1);
  expectCaught("the view of app application_");
}

TEST_F(CorruptedOrder, KeyInputTheComparisonDoesNotRead) {
  // The minimum share kept in a key is read only when the member is re-keyed (setUsage).
  leaf_->appOrder[0].key.minShareX += 1024;
  expectCaught("in the order of root.q is out of date");
}

TEST_F(CorruptedOrder, HintOutsideTheOrder) {
  leaf_->appOrder[0].member->orderHint = 7;
  expectCaught("order hint 7");
}

TEST_F(CorruptedOrder, NameRanks) {
  std::swap(leaf_->appOrder[0].member->view.nameRank, leaf_->appOrder[1].member->view.nameRank);
  expectCaught("the name rank of app");
}

TEST_F(CorruptedOrder, MembersOfAStaleOrder) {
  // A stale order not flagged membersChanged is re-sorted, not rebuilt: its members must be
  // the runnable apps even so.
  leaf_->orderStale = true;
  leaf_->appOrder.pop_back();
  expectCaught("the app order of root.q holds 2 apps, not its 3 runnable apps");
}

}  // namespace
}  // namespace spindle
