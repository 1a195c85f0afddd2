#include "base/ring.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace spindle {
namespace {

std::vector<std::string> forward(const Ring<std::string>& r) { return {r.begin(), r.end()}; }
std::vector<std::string> backward(const Ring<std::string>& r) { return {r.rbegin(), r.rend()}; }
// (A string moved in: GCC 12's -Wrestrict misfires on assigning a literal at -O3.)
void put(Ring<std::string>& r, std::string s) { r.push() = std::move(s); }

TEST(Ring, KeepsTheNewestOldestFirst) {
  Ring<std::string> r(3);
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.begin(), r.end());
  put(r, "a");
  put(r, "b");
  EXPECT_EQ(forward(r), (std::vector<std::string>{"a", "b"}));
  put(r, "c");
  put(r, "d");  // overwrites a
  EXPECT_EQ(r.size(), 3u);
  EXPECT_EQ(forward(r), (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_EQ(backward(r), (std::vector<std::string>{"d", "c", "b"}));
  EXPECT_EQ(r[0], "b");
  EXPECT_EQ(r.back(), "d");
  for (int i = 0; i < 7; ++i) put(r, std::to_string(i));
  EXPECT_EQ(forward(r), (std::vector<std::string>{"4", "5", "6"}));
  EXPECT_EQ(r.end() - r.begin(), 3);
  EXPECT_EQ(*(r.begin() + 2), "6");
  EXPECT_EQ(r.begin()[1], "5");
}

// A full ring hands back the oldest element as it was, so its buffer is reused.
TEST(Ring, PushReturnsTheOldestSlotOnceFull) {
  Ring<std::string> r(2);
  put(r, std::string(100, 'x'));
  put(r, "y");
  std::string& slot = r.push();
  EXPECT_EQ(slot, std::string(100, 'x'));
  const size_t room = slot.capacity();
  slot.assign(std::string("z"));
  EXPECT_EQ(slot.capacity(), room);
  EXPECT_EQ(forward(r), (std::vector<std::string>{"y", "z"}));
}

TEST(Ring, CapacityZeroKeepsOne) {
  Ring<int> r(0);
  r.push() = 1;
  r.push() = 2;
  EXPECT_EQ(r.size(), 1u);
  EXPECT_EQ(r.back(), 2);
  EXPECT_EQ(std::count(r.begin(), r.end(), 2), 1);
}

}  // namespace
}  // namespace spindle
