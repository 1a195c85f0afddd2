#include "app/container_table.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "base/rng.h"

namespace spindle {
namespace {

ContainerId cid(uint32_t app, uint32_t attempt, uint64_t seq) {
  return ContainerId{{AppId(app), attempt}, seq};
}

Container& addOn(ContainerTable& t, ContainerId id, uint32_t node) {
  Container& c = t.add(id);
  c.node = NodeId(node);
  c.resource = Resource::of(1024, 1);
  return c;
}

TEST(ContainerTableTest, FindsWhatWasAddedAndNothingElse) {
  ContainerTable t;
  EXPECT_EQ(t.find(cid(1, 1, 1)), nullptr);
  addOn(t, cid(1, 1, 1), 7);
  addOn(t, cid(1, 2, 1), 8);
  addOn(t, cid(2, 1, 1), 9);
  EXPECT_EQ(t.size(), 3u);
  ASSERT_NE(t.find(cid(1, 2, 1)), nullptr);
  EXPECT_EQ(t.find(cid(1, 2, 1))->node, NodeId(8));
  EXPECT_EQ(t.find(cid(1, 2, 1))->id, cid(1, 2, 1));
  // Same app and seq, another attempt: a different container.
  EXPECT_EQ(t.find(cid(1, 3, 1)), nullptr);
  EXPECT_EQ(t.count(cid(2, 1, 1)), 1u);
  EXPECT_FALSE(t.contains(cid(2, 1, 2)));
}

TEST(ContainerTableTest, UnlinkedRecordStaysReadableUntilRecycled) {
  ContainerTable t;
  addOn(t, cid(1, 1, 1), 3);
  ContainerTable::Unlinked u = t.unlink(cid(1, 1, 1));
  ASSERT_TRUE(u);
  EXPECT_EQ(t.find(cid(1, 1, 1)), nullptr);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.begin(), t.end());
  // An allocation made before the slot is recycled gets another slot.
  Container& other = addOn(t, cid(1, 1, 2), 4);
  EXPECT_NE(&other, u.container);
  EXPECT_EQ(u.container->node, NodeId(3));
  t.recycle(u);
  // The next record reuses the recycled slot.
  Container& reused = addOn(t, cid(1, 1, 3), 5);
  EXPECT_EQ(&reused, u.container);
  EXPECT_EQ(reused.id, cid(1, 1, 3));
  EXPECT_FALSE(t.unlink(cid(1, 1, 1)));
}

TEST(ContainerTableTest, RecordsDoNotMoveWhenTheTableGrows) {
  ContainerTable t;
  const Container* first = &addOn(t, cid(1, 1, 1), 1);
  for (uint64_t s = 2; s <= 5000; ++s) addOn(t, cid(1, 1, s), 1);
  EXPECT_EQ(t.find(cid(1, 1, 1)), first);
}

TEST(ContainerTableTest, IteratesLiveRecordsInSlotOrder) {
  ContainerTable t;
  for (uint64_t s = 1; s <= 4; ++s) addOn(t, cid(5, 1, s), static_cast<uint32_t>(s));
  t.recycle(t.unlink(cid(5, 1, 2)));
  std::vector<ContainerId> got;
  for (const auto& [id, c] : t) {
    EXPECT_EQ(id, c.id);
    got.push_back(id);
  }
  EXPECT_EQ(got, (std::vector<ContainerId>{cid(5, 1, 1), cid(5, 1, 3), cid(5, 1, 4)}));
  addOn(t, cid(6, 1, 1), 9);  // takes the freed second slot
  got.clear();
  for (const auto& [id, c] : t) got.push_back(id);
  EXPECT_EQ(got, (std::vector<ContainerId>{cid(5, 1, 1), cid(6, 1, 1), cid(5, 1, 3),
                                           cid(5, 1, 4)}));
}

// Random adds and removes against std::map: the backward-shift deletion keeps every id
// reachable, across growth and long probe runs.
TEST(ContainerTableTest, MatchesAMapUnderRandomChurn) {
  Rng rng(7);
  ContainerTable t;
  std::map<ContainerId, uint32_t> ref;
  std::vector<ContainerId> live;
  uint64_t nextSeq = 1;
  for (int step = 0; step < 40000; ++step) {
    const bool add = live.empty() || rng.uniformInt(0, 99) < 55;
    if (add) {
      const ContainerId id = cid(static_cast<uint32_t>(rng.uniformInt(1, 30)),
                                 static_cast<uint32_t>(rng.uniformInt(1, 2)), nextSeq++);
      const uint32_t node = static_cast<uint32_t>(rng.uniformInt(0, 1000));
      addOn(t, id, node);
      ref[id] = node;
      live.push_back(id);
    } else {
      const size_t k = static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(live.size()) - 1));
      const ContainerId id = live[k];
      live[k] = live.back();
      live.pop_back();
      ContainerTable::Unlinked u = t.unlink(id);
      ASSERT_TRUE(u);
      EXPECT_EQ(u.container->node, NodeId(ref[id]));
      t.recycle(u);
      ref.erase(id);
    }
    if (step % 1000 == 0) {
      ASSERT_EQ(t.size(), ref.size());
      for (const auto& [id, node] : ref) {
        const Container* c = t.find(id);
        ASSERT_NE(c, nullptr);
        EXPECT_EQ(c->node, NodeId(node));
      }
      std::set<ContainerId> iterated;
      for (const auto& [id, c] : t) iterated.insert(id);
      EXPECT_EQ(iterated.size(), ref.size());
    }
  }
  for (uint64_t s = nextSeq; s < nextSeq + 100; ++s) EXPECT_EQ(t.find(cid(1, 1, s)), nullptr);
}

}  // namespace
}  // namespace spindle
