#include "app/container_table.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "base/container_id_set.h"
#include "base/rng.h"

namespace spindle {
namespace {

ContainerId cid(uint32_t app, uint32_t attempt, uint64_t seq) {
  return ContainerId{{AppId(app), attempt}, seq};
}

uint32_t addOn(ContainerTable& t, ContainerId id, uint32_t node) {
  const uint32_t slot = t.acquire();
  Container& c = t.at(slot);
  c.id = id;
  c.node = NodeId(node);
  c.resource = Resource::of(1024, 1);
  return slot;
}

TEST(ContainerTableTest, UnlinkedRecordStaysReadableUntilRecycled) {
  ContainerTable t;
  const uint32_t first = addOn(t, cid(1, 1, 1), 3);
  const Container* record = &t.at(first);
  t.unlink(first);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.begin(), t.end());
  // An allocation made before the slot is recycled gets another slot.
  const uint32_t second = addOn(t, cid(1, 1, 2), 4);
  EXPECT_NE(second, first);
  EXPECT_EQ(record->node, NodeId(3));
  t.recycle(first);
  // The next record reuses the recycled slot, in place.
  const uint32_t third = addOn(t, cid(1, 1, 3), 5);
  EXPECT_EQ(third, first);
  EXPECT_EQ(&t.at(third), record);
  EXPECT_EQ(record->id, cid(1, 1, 3));
  EXPECT_EQ(t.size(), 2u);
}

TEST(ContainerTableTest, RecordsDoNotMoveWhenTheTableGrows) {
  ContainerTable t;
  const uint32_t first = addOn(t, cid(1, 1, 1), 1);
  const Container* record = &t.at(first);
  for (uint64_t s = 2; s <= 5000; ++s) addOn(t, cid(1, 1, s), 1);
  EXPECT_EQ(&t.at(first), record);
  EXPECT_EQ(record->id, cid(1, 1, 1));
}

TEST(ContainerTableTest, IteratesLiveRecordsInSlotOrder) {
  ContainerTable t;
  std::vector<uint32_t> slots;
  for (uint64_t s = 1; s <= 4; ++s) slots.push_back(addOn(t, cid(5, 1, s), 1));
  t.unlink(slots[1]);
  t.recycle(slots[1]);
  std::vector<ContainerId> got;
  for (const auto& [id, c] : t) {
    EXPECT_EQ(id, c.id);
    got.push_back(id);
  }
  EXPECT_EQ(got, (std::vector<ContainerId>{cid(5, 1, 1), cid(5, 1, 3), cid(5, 1, 4)}));
  addOn(t, cid(6, 1, 1), 9);  // takes the freed second slot
  got.clear();
  for (const auto& [id, c] : t) got.push_back(id);
  EXPECT_EQ(got,
            (std::vector<ContainerId>{cid(5, 1, 1), cid(6, 1, 1), cid(5, 1, 3), cid(5, 1, 4)}));
}

// The scheduler's use: a ContainerIdMap from id to slot as the index, under random churn
// against std::map.
TEST(ContainerTableTest, WithAnIdMapAsIndexMatchesAMapUnderRandomChurn) {
  Rng rng(7);
  ContainerTable t;
  ContainerIdMap<uint32_t> index;
  std::map<ContainerId, uint32_t> ref;  // id -> node
  std::vector<ContainerId> live;
  uint64_t nextSeq = 1;
  for (int step = 0; step < 40000; ++step) {
    const bool add = live.empty() || rng.uniformInt(0, 99) < 55;
    if (add) {
      const ContainerId id = cid(1, static_cast<uint32_t>(rng.uniformInt(1, 2)), nextSeq++);
      const uint32_t node = static_cast<uint32_t>(rng.uniformInt(0, 1000));
      ASSERT_TRUE(index.insert(id, addOn(t, id, node)));
      ref[id] = node;
      live.push_back(id);
    } else {
      const size_t k =
          static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(live.size()) - 1));
      const ContainerId id = live[k];
      live[k] = live.back();
      live.pop_back();
      const uint32_t* slot = index.value(id);
      ASSERT_NE(slot, nullptr);
      const uint32_t s = *slot;
      EXPECT_EQ(t.at(s).node, NodeId(ref[id]));
      t.unlink(s);
      EXPECT_EQ(index.erase(id), 1u);
      t.recycle(s);
      ref.erase(id);
    }
    if (step % 1000 == 0) {
      ASSERT_EQ(t.size(), ref.size());
      ASSERT_EQ(index.size(), ref.size());
      for (const auto& [id, node] : ref) {
        const uint32_t* slot = index.value(id);
        ASSERT_NE(slot, nullptr);
        EXPECT_EQ(t.at(*slot).id, id);
        EXPECT_EQ(t.at(*slot).node, NodeId(node));
      }
      std::set<ContainerId> iterated;
      for (const auto& [id, c] : t) iterated.insert(id);
      EXPECT_EQ(iterated.size(), ref.size());
    }
  }
}

}  // namespace
}  // namespace spindle
