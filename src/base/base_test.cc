#include <gtest/gtest.h>

#include <set>
#include <unordered_set>

#include "base/clock.h"
#include "base/ids.h"
#include "base/rng.h"
#include "base/status.h"
#include "base/strings.h"

namespace spindle {
namespace {

Result<int> half(int x) {
  if (x % 2 != 0) return invalidArgument("{} is odd", x);
  return x / 2;
}

Result<int> quarter(int x) {
  SPINDLE_ASSIGN_OR_RETURN(int h, half(x));
  return half(h);
}

TEST(Status, ErrorsCarryCodeAndMessageAndContext) {
  auto r = quarter(6);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().withContext("step 2").toString(), "InvalidArgument: step 2: 3 is odd");
  EXPECT_EQ(*quarter(8), 2);
  EXPECT_TRUE(Status::ok().isOk());
}

TEST(Ids, StrongIdsOrderAndHash) {
  std::unordered_set<NodeId> s{NodeId(1), NodeId(2), NodeId(1)};
  EXPECT_EQ(s.size(), 2u);
  EXPECT_LT(AppId(1), AppId(2));
  EXPECT_FALSE(NodeId().valid());
  ContainerId a{{AppId(1), 1}, 2}, b{{AppId(1), 1}, 3};
  EXPECT_LT(a, b);
}

TEST(Clock, SimulatedClockMovesOnlyForward) {
  SimulatedClock c(100);
  c.advanceMs(50);
  EXPECT_EQ(c.nowMs(), 150);
  c.setMs(120);
  EXPECT_EQ(c.nowMs(), 150);
  c.setMs(200);
  EXPECT_EQ(c.nowMs(), 200);
}

TEST(Rng, SameSeedSameSequenceAndBoundsHold) {
  Rng a(7), b(7), c(8);
  std::vector<int64_t> va, vb, vc;
  for (int i = 0; i < 100; ++i) {
    va.push_back(a.uniformInt(0, 9));
    vb.push_back(b.uniformInt(0, 9));
    vc.push_back(c.uniformInt(0, 9));
  }
  EXPECT_EQ(va, vb);
  EXPECT_NE(va, vc);
  std::set<int64_t> seen(va.begin(), va.end());
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), 9);
  for (int i = 0; i < 1000; ++i) {
    double u = a.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(Strings, SplitTrimmedAndUpper) {
  EXPECT_EQ(splitTrimmed(" running, ,accepted ", ",", " "),
            (std::vector<std::string>{"running", "accepted"}));
  EXPECT_EQ(toUpper("Finished_1"), "FINISHED_1");
}

}  // namespace
}  // namespace spindle
