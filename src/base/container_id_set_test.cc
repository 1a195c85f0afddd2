#include "base/container_id_set.h"

#include <gtest/gtest.h>

#include <set>

#include "base/rng.h"

namespace spindle {
namespace {

ContainerId cid(uint32_t app, uint32_t attempt, uint64_t seq) {
  return ContainerId{{AppId(app), attempt}, seq};
}

TEST(ContainerIdSetTest, IteratesAscendingLikeStdSet) {
  ContainerIdSet s;
  EXPECT_TRUE(s.insert(cid(1, 1, 1)));
  EXPECT_TRUE(s.insert(cid(1, 1, 2)));
  EXPECT_TRUE(s.insert(cid(1, 2, 1)));
  EXPECT_FALSE(s.insert(cid(1, 1, 2)));
  EXPECT_TRUE(s.insert(cid(1, 1, 0)));  // out of order: inserted in place
  std::vector<ContainerId> got(s.begin(), s.end());
  EXPECT_EQ(got,
            (std::vector<ContainerId>{cid(1, 1, 0), cid(1, 1, 1), cid(1, 1, 2), cid(1, 2, 1)}));
  EXPECT_EQ(s.size(), 4u);
  EXPECT_EQ(*s.begin(), cid(1, 1, 0));
}

TEST(ContainerIdSetTest, EraseLeavesNoTraceAndReinsertWorks) {
  ContainerIdSet s;
  for (uint64_t i = 1; i <= 5; ++i) s.insert(cid(1, 1, i));
  EXPECT_EQ(s.erase(cid(1, 1, 3)), 1u);
  EXPECT_EQ(s.erase(cid(1, 1, 3)), 0u);
  EXPECT_EQ(s.erase(cid(1, 1, 9)), 0u);
  EXPECT_EQ(s.count(cid(1, 1, 3)), 0u);
  EXPECT_EQ(s.find(cid(1, 1, 3)), s.end());
  EXPECT_EQ(s.size(), 4u);
  std::vector<ContainerId> got(s.begin(), s.end());
  EXPECT_EQ(got,
            (std::vector<ContainerId>{cid(1, 1, 1), cid(1, 1, 2), cid(1, 1, 4), cid(1, 1, 5)}));
  EXPECT_TRUE(s.insert(cid(1, 1, 3)));  // revives the tombstone
  EXPECT_EQ(s.size(), 5u);
  EXPECT_TRUE(s.contains(cid(1, 1, 3)));
  s.clear();
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.begin(), s.end());
}

// Random inserts (mostly ascending, as the scheduler does) and erases agree with std::set.
TEST(ContainerIdSetTest, AgreesWithStdSetUnderRandomChurn) {
  Rng rng(7);
  ContainerIdSet s;
  std::set<ContainerId> ref;
  uint64_t next = 1;
  for (int step = 0; step < 20000; ++step) {
    const uint64_t r = rng.next() % 10;
    if (r < 5) {
      const ContainerId c = cid(2, 1, next++);
      EXPECT_EQ(s.insert(c), ref.insert(c).second);
    } else if (r < 6) {
      const ContainerId c = cid(2, 1, 1 + rng.next() % next);
      EXPECT_EQ(s.insert(c), ref.insert(c).second);
    } else if (!ref.empty()) {
      const ContainerId c = cid(2, 1, 1 + rng.next() % next);
      EXPECT_EQ(s.erase(c), ref.erase(c));
    }
    ASSERT_EQ(s.size(), ref.size());
  }
  EXPECT_TRUE(std::equal(s.begin(), s.end(), ref.begin(), ref.end()));
  for (const ContainerId& c : ref) EXPECT_EQ(s.count(c), 1u);
}

TEST(ContainerIdMapTest, KeepsAValuePerIdAcrossTombstonesAndCompaction) {
  ContainerIdMap<uint32_t> m;
  for (uint64_t i = 1; i <= 40; ++i) m.insert(cid(2, 1, i), static_cast<uint32_t>(100 + i));
  EXPECT_FALSE(m.insert(cid(2, 1, 5), 7));  // present: the value stays
  ASSERT_NE(m.value(cid(2, 1, 5)), nullptr);
  EXPECT_EQ(*m.value(cid(2, 1, 5)), 105u);
  for (uint64_t i = 1; i <= 30; ++i) EXPECT_EQ(m.erase(cid(2, 1, i)), 1u);  // compacts
  EXPECT_EQ(m.value(cid(2, 1, 5)), nullptr);
  EXPECT_EQ(*m.value(cid(2, 1, 31)), 131u);
  EXPECT_TRUE(m.insert(cid(2, 1, 5), 9));  // back in, in order, with its new value
  EXPECT_EQ(*m.value(cid(2, 1, 5)), 9u);
  EXPECT_EQ(*m.value(cid(2, 1, 40)), 140u);
  EXPECT_EQ(m.size(), 11u);
  EXPECT_EQ(*m.begin(), cid(2, 1, 5));
}

}  // namespace
}  // namespace spindle
