#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scheduler/capacity/config/test_builder.h"

namespace spindle {
namespace {

using testing::CsConf;
using ::testing::HasSubstr;
using testing::parseOk;

CsConf withLeafMax(const char* mb) {
  CsConf c;
  c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50");
  if (*mb) c.set("root.a.maximum-allocation-mb", mb);
  return c;
}

TEST(CapacityRefresh, RaisingOrKeepingTheMaximumAllocationIsAllowed) {
  CapacityConfig before = parseOk(withLeafMax("2048"));
  EXPECT_TRUE(checkCapacityRefresh(before, parseOk(withLeafMax("4096"))).isOk());
  EXPECT_TRUE(checkCapacityRefresh(before, parseOk(withLeafMax("2048"))).isOk());
  EXPECT_TRUE(checkCapacityRefresh(before, parseOk(withLeafMax(""))).isOk())
      << "unset means the cluster maximum, 8192";
}

TEST(CapacityRefresh, LoweringTheMaximumAllocationIsRejected) {
  Status s = checkCapacityRefresh(parseOk(withLeafMax("4096")), parseOk(withLeafMax("2048")));
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("Trying to reinitialize root.a the maximum allocation size "
                                     "can not be decreased! Current setting: <memory:4096, "
                                     "vCores:4>, trying to set it to: <memory:2048, vCores:4>"));
}

TEST(CapacityRefresh, LoweringTheClusterMaximumShrinksEveryQueue) {
  CapacityConfig before = parseOk(withLeafMax(""));
  CapacityConfig after =
      parseOk(withLeafMax("").raw("yarn.scheduler.maximum-allocation-vcores", "2"));
  Status s = checkCapacityRefresh(before, after);
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("Trying to reinitialize root the maximum"));
  EXPECT_THAT(s.message(), HasSubstr("Trying to reinitialize root.b the maximum"));
}

TEST(CapacityRefresh, AddedAndRemovedQueuesAreNotThisChecksBusiness) {
  CapacityConfig before = parseOk(withLeafMax(""));
  CapacityConfig after =
      parseOk(CsConf().queues("root", "a,c").cap("root.a", "50").cap("root.c", "50"));
  EXPECT_TRUE(checkCapacityRefresh(before, after).isOk());
}

}  // namespace
}  // namespace spindle
