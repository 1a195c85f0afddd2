#include "app/container_id_set.h"

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

}  // namespace
}  // namespace spindle
