#include "cluster/cluster.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

TEST(Cluster, TotalsFollowNodesAndRacks) {
  Cluster c;
  NodeId a = c.addNode("h1", "/r1", Resource::of(4096, 4)).value();
  NodeId b = c.addNode("h2", "/r1", Resource::of(2048, 2)).value();
  EXPECT_EQ(c.total(), Resource::of(6144, 6));
  EXPECT_EQ(c.nodesOnRack("/r1").size(), 2u);
  c.allocate(a, ContainerId{{AppId(1), 1}, 1}, Resource::of(1024, 1));
  EXPECT_EQ(c.unallocated(), Resource::of(5120, 5));
  ASSERT_TRUE(c.updateNodeTotal(b, Resource::of(1024, 1)).isOk());
  EXPECT_EQ(c.total(), Resource::of(5120, 5));
  ASSERT_TRUE(c.removeNode(a).isOk());
  EXPECT_EQ(c.total(), Resource::of(1024, 1));
  EXPECT_EQ(c.allocated(), Resource());
  EXPECT_FALSE(c.findNode("h1").has_value());
  EXPECT_EQ(c.removedNodes(), 1);
  EXPECT_TRUE(c.checkInvariants().isOk());
}

TEST(Cluster, RejectsDuplicateAndNegativeNodes) {
  Cluster c;
  ASSERT_TRUE(c.addNode("h1", "/r1", Resource::of(1, 1)).isOk());
  EXPECT_EQ(c.addNode("h1", "/r1", Resource::of(1, 1)).status().code(), StatusCode::kAlreadyExists);
  EXPECT_FALSE(c.addNode("h2", "/r1", Resource::of(-1, 1)).isOk());
  EXPECT_EQ(c.numNodes(), 1);
  EXPECT_TRUE(c.findNode("h1:8041").has_value()) << "host:port finds the host";
}

}  // namespace
}  // namespace spindle
