// Bulk admission (Scheduler::beginBulkAdmission, an RM recovering its stored apps): the
// Capacity Scheduler activates once at the end instead of after every submission, and ends in
// the same state as submitting the apps one by one in their order.
#include <gtest/gtest.h>

#include <vector>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/capacity_test_fixture.h"

namespace spindle {
namespace {

using testing::CsConf;

CsConf amLimited() {
  CsConf c;
  c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50");
  c.set("root.a.maximum-am-resource-percent", "0.3");
  c.set("root.a.minimum-user-limit-percent", "50");
  return c;
}

struct Submitted {
  std::vector<AppId> ids;
};

// 12 apps in a (two users, 1 GB and 2 GB AMs) and 3 in b; the first of a is removed.
Submitted submitAll(Cs& cs) {
  Submitted s;
  for (int i = 0; i < 12; ++i) {
    s.ids.push_back(cs.submit("a", i % 2 ? "u1" : "u2", (i % 3 == 0 ? 2 : 1) * GB));
  }
  for (int i = 0; i < 3; ++i) s.ids.push_back(cs.submit("b", "u3", GB));
  EXPECT_TRUE(cs.sched().handle(AppRemoved{s.ids[0], AppState::FINISHED}).isOk());
  return s;
}

void expectSameState(Cs& one, Cs& bulk, const Submitted& a, const Submitted& b) {
  ASSERT_EQ(a.ids.size(), b.ids.size());
  for (size_t i = 1; i < a.ids.size(); ++i) {
    EXPECT_EQ(a.ids[i], b.ids[i]);
    EXPECT_EQ(one.phase(a.ids[i]), bulk.phase(b.ids[i])) << "app " << i;
  }
  for (const char* q : {"root.a", "root.b"}) {
    EXPECT_EQ(one.queue(q).usage("").amUsed, bulk.queue(q).usage("").amUsed) << q;
    EXPECT_EQ(one.queue(q).activeApps.size(), bulk.queue(q).activeApps.size()) << q;
    EXPECT_EQ(one.queue(q).pendingApps.size(), bulk.queue(q).pendingApps.size()) << q;
  }
  EXPECT_TRUE(bulk.sched().checkInvariants().isOk()) << bulk.sched().checkInvariants().message();
}

TEST(CapacityBulkAdmission, EndsAsSubmittingOneByOneWithNodes) {
  Cs one(amLimited());
  Cs bulk(amLimited());
  one.node("h1", "/r1", 20 * GB);
  bulk.node("h1", "/r1", 20 * GB);
  Submitted a = submitAll(one);
  bulk.sched().beginBulkAdmission();
  Submitted b = submitAll(bulk);
  for (size_t i = 1; i < b.ids.size(); ++i) {
    EXPECT_EQ(bulk.phase(b.ids[i]), CsAppPhase::kPending) << "nothing activates before the end";
  }
  bulk.sched().endBulkAdmission();
  EXPECT_FALSE(bulk.sched().inBulkAdmission());
  expectSameState(one, bulk, a, b);
  int active = 0;
  for (size_t i = 1; i < 12; ++i) active += one.phase(a.ids[i]) == CsAppPhase::kActive;
  EXPECT_GT(active, 0);
  EXPECT_LT(active, 11) << "the AM limit (0.3 x 10 GB) holds some back";
}

TEST(CapacityBulkAdmission, EndsAsSubmittingOneByOneOnAnEmptyCluster) {
  // A restart: the apps come back before any NodeManager has registered.
  Cs one(amLimited());
  Cs bulk(amLimited());
  Submitted a = submitAll(one);
  bulk.sched().beginBulkAdmission();
  Submitted b = submitAll(bulk);
  bulk.sched().endBulkAdmission();
  expectSameState(one, bulk, a, b);
  // Then the nodes come and the same apps activate.
  one.node("h1", "/r1", 20 * GB);
  bulk.node("h1", "/r1", 20 * GB);
  expectSameState(one, bulk, a, b);
}

TEST(CapacityBulkAdmission, EndingWithoutBeginningChangesNothing) {
  Cs cs(amLimited());
  cs.node("h1", "/r1", 20 * GB);
  AppId app = cs.submit("a", "u1", GB);
  EXPECT_EQ(cs.phase(app), CsAppPhase::kActive);
  cs.sched().endBulkAdmission();
  EXPECT_EQ(cs.phase(app), CsAppPhase::kActive);
  EXPECT_TRUE(cs.sched().checkInvariants().isOk());
}

}  // namespace
}  // namespace spindle
