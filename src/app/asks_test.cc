#include "app/asks.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

ResourceRequest rr(int prio, std::string name, int count, bool relax = true) {
  return ResourceRequest{{prio, 0}, std::move(name), Resource::of(1024, 1), count, relax, ""};
}

TEST(AskTable, NodeLocalAllocationDecrementsHostRackAndAny) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(1, "h1", 1), rr(1, "/r1", 2), rr(1, "*", 3)}).isOk());
  EXPECT_EQ(t.pending(), Resource::of(3072, 3));
  ASSERT_TRUE(t.allocate({1, 0}, Locality::kNodeLocal, "h1", "/r1").isOk());
  EXPECT_EQ(t.count({1, 0}, "h1"), 0);
  EXPECT_EQ(t.count({1, 0}, "/r1"), 1);
  EXPECT_EQ(t.count({1, 0}, "*"), 2);
  ASSERT_TRUE(t.allocate({1, 0}, Locality::kOffSwitch, "h9", "/r9").isOk());
  EXPECT_EQ(t.count({1, 0}, "/r1"), 1) << "off-switch touches only ANY";
  EXPECT_EQ(t.count({1, 0}, "*"), 1);
  ASSERT_TRUE(t.allocate({1, 0}, Locality::kRackLocal, "h2", "/r1").isOk());
  EXPECT_EQ(t.count({1, 0}, "/r1"), 0);
  EXPECT_FALSE(t.hasPending());
  EXPECT_FALSE(t.allocate({1, 0}, Locality::kOffSwitch, "h1", "/r1").isOk());
  EXPECT_TRUE(t.checkInvariants().isOk());
}

TEST(AskTable, NewRequestReplacesOldOneAndKeysOrderByPriority) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(20, "*", 5), rr(10, "*", 1)}).isOk());
  ASSERT_TRUE(t.update({rr(20, "*", 2)}).isOk());
  EXPECT_EQ(t.count({20, 0}, "*"), 2);
  EXPECT_EQ(t.pending(), Resource::of(3072, 3));
  auto keys = t.activeKeys();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].priority, 10);
  ASSERT_TRUE(t.update({rr(10, "*", 0)}).isOk());
  EXPECT_EQ(t.activeKeys().size(), 1u);
}

TEST(AskTable, RelaxLocalityAndUniqueLocations) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(1, "h1", 1), rr(1, "/r1", 1, false), rr(1, "*", 1)}).isOk());
  EXPECT_FALSE(t.canDelayTo({1, 0}, "/r1"));
  EXPECT_TRUE(t.canDelayTo({1, 0}, "*"));
  EXPECT_TRUE(t.canDelayTo({1, 0}, "/r2")) << "no request there";
  EXPECT_EQ(t.uniqueLocations({1, 0}), 3);
}

TEST(AskTable, UniqueLocationsFollowEveryCountChange) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(1, "h1", 1), rr(1, "h2", 1), rr(1, "/r1", 2), rr(1, "*", 2)}).isOk());
  EXPECT_EQ(t.uniqueLocations({1, 0}), 4);
  ASSERT_TRUE(t.allocate({1, 0}, Locality::kNodeLocal, "h1", "/r1").isOk());
  EXPECT_EQ(t.uniqueLocations({1, 0}), 3) << "h1 went to 0";
  ASSERT_TRUE(t.allocate({1, 0}, Locality::kNodeLocal, "h2", "/r1").isOk());
  EXPECT_EQ(t.uniqueLocations({1, 0}), 0) << "h2, /r1 and * went to 0";
  ResourceRequest any = rr(1, "*", 1);
  t.restore(any, "h2", "/r1");
  EXPECT_EQ(t.uniqueLocations({1, 0}), 3) << "*, /r1 and h2 back to 1";
  ASSERT_TRUE(t.update({rr(1, "h2", 0), rr(1, "h3", 4)}).isOk());
  EXPECT_EQ(t.uniqueLocations({1, 0}), 3) << "h2 replaced by 0, h3 added";
  EXPECT_EQ(t.uniqueLocations({7, 0}), 0) << "no such key";
  EXPECT_TRUE(t.checkInvariants().isOk());
}

TEST(AskTable, BadRequestsChangeNothing) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(1, "*", 1)}).isOk());
  EXPECT_FALSE(t.update({rr(1, "*", 4), rr(1, "h1", -1)}).isOk());
  EXPECT_EQ(t.count({1, 0}, "*"), 1);
}

TEST(AskTable, RestorePutsAContainerBack) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(1, "h1", 1), rr(1, "/r1", 1), rr(1, "*", 1)}).isOk());
  ASSERT_TRUE(t.allocate({1, 0}, Locality::kNodeLocal, "h1", "/r1").isOk());
  t.restore(rr(1, "*", 1), "h1", "/r1");
  EXPECT_EQ(t.count({1, 0}, "*"), 1);
  EXPECT_EQ(t.count({1, 0}, "h1"), 1);
  EXPECT_TRUE(t.checkInvariants().isOk());
}

// The ANY lookup cache never outlives what it points to: updates, clear, copies and moves.
TEST(AskTable, AnyLookupsStayCorrectAcrossChangesCopiesAndMoves) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(1, "*", 3), rr(2, "*", 1)}).isOk());
  EXPECT_EQ(t.count({1, 0}, "*"), 3);
  ASSERT_TRUE(t.allocate({1, 0}, Locality::kOffSwitch, "h1", "/r1").isOk());
  EXPECT_EQ(t.count({1, 0}, "*"), 2);
  EXPECT_EQ(t.count({2, 0}, "*"), 1);
  ASSERT_TRUE(t.update({rr(1, "*", 5)}).isOk());
  EXPECT_EQ(t.count({1, 0}, "*"), 5);
  AskTable copy = t;
  ASSERT_TRUE(copy.allocate({1, 0}, Locality::kOffSwitch, "h1", "/r1").isOk());
  EXPECT_EQ(copy.count({1, 0}, "*"), 4);
  EXPECT_EQ(t.count({1, 0}, "*"), 5);
  AskTable moved = std::move(copy);
  EXPECT_EQ(moved.count({1, 0}, "*"), 4);
  t.clear();
  EXPECT_EQ(t.count({1, 0}, "*"), 0);
  EXPECT_FALSE(t.allocate({1, 0}, Locality::kOffSwitch, "h1", "/r1").isOk());
  ASSERT_TRUE(t.update({rr(1, "*", 1)}).isOk());
  EXPECT_EQ(t.count({1, 0}, "*"), 1);
  EXPECT_TRUE(t.checkInvariants().isOk());
  EXPECT_TRUE(moved.checkInvariants().isOk());
}

// activeKeys() is kept, not recomputed: every change of an ANY count must show in it.
TEST(AskTable, ActiveKeysFollowEveryChangeOfAnAnyCount) {
  using Keys = std::vector<SchedulerKey>;
  AskTable t;
  EXPECT_EQ(t.activeKeys(), Keys{});
  ASSERT_TRUE(t.update({rr(3, "*", 1), rr(1, "*", 2), rr(2, "*", 0)}).isOk());
  EXPECT_EQ(t.activeKeys(), (Keys{{1, 0}, {3, 0}}));
  ASSERT_TRUE(t.allocate({3, 0}, Locality::kOffSwitch, "h1", "/r1").isOk());
  EXPECT_EQ(t.activeKeys(), (Keys{{1, 0}}));  // its last container went
  ASSERT_TRUE(t.update({rr(2, "*", 4)}).isOk());
  EXPECT_EQ(t.activeKeys(), (Keys{{1, 0}, {2, 0}}));
  ASSERT_TRUE(t.update({rr(1, "*", 0)}).isOk());  // the AM takes its ask back
  EXPECT_EQ(t.activeKeys(), (Keys{{2, 0}}));
  t.restore(rr(3, "*", 1), "h1", "/r1");  // a lost container is asked for again
  EXPECT_EQ(t.activeKeys(), (Keys{{2, 0}, {3, 0}}));
  t.restore(rr(3, "*", 1), "h1", "/r1");
  EXPECT_EQ(t.activeKeys(), (Keys{{2, 0}, {3, 0}}));
  ASSERT_TRUE(t.allocate({2, 0}, Locality::kNodeLocal, "h1", "/r1").isOk());
  EXPECT_EQ(t.activeKeys(), (Keys{{2, 0}, {3, 0}}));
  EXPECT_TRUE(t.checkInvariants().isOk());
  AskTable copy = t;
  ASSERT_TRUE(copy.allocate({3, 0}, Locality::kOffSwitch, "h1", "/r1").isOk());
  ASSERT_TRUE(copy.allocate({3, 0}, Locality::kOffSwitch, "h1", "/r1").isOk());
  EXPECT_EQ(copy.activeKeys(), (Keys{{2, 0}}));
  EXPECT_EQ(t.activeKeys(), (Keys{{2, 0}, {3, 0}}));
  t.clear();
  EXPECT_EQ(t.activeKeys(), Keys{});
  EXPECT_TRUE(copy.checkInvariants().isOk());
}

// An off-switch key holds only "*": host and rack lookups are answered from the cached key
// without a string comparison, and must see hosts and racks added later.
TEST(AskTable, HostAndRackLookupsSeeRequestsAddedToACachedKey) {
  AskTable t;
  ASSERT_TRUE(t.update({rr(1, "*", 2)}).isOk());
  EXPECT_EQ(t.count({1, 0}, "*"), 2);  // caches key 1
  EXPECT_EQ(t.count({1, 0}, "h1"), 0);
  EXPECT_EQ(t.find({1, 0}, "/r1"), nullptr);
  EXPECT_TRUE(t.canDelayTo({1, 0}, "/r1"));
  ASSERT_TRUE(t.update({rr(1, "h1", 1), rr(1, "/r1", 1, /*relax=*/false)}).isOk());
  EXPECT_EQ(t.count({1, 0}, "*"), 2);
  EXPECT_EQ(t.count({1, 0}, "h1"), 1);
  EXPECT_EQ(t.count({1, 0}, "/r1"), 1);
  EXPECT_FALSE(t.canDelayTo({1, 0}, "/r1"));
  EXPECT_EQ(t.count({1, 0}, "h2"), 0);
  EXPECT_EQ(t.count({2, 0}, "h1"), 0);  // another key, not cached
}

}  // namespace
}  // namespace spindle
