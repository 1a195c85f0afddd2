// SchedulingRequests through the Driver: the handlers, the tag store's updates and the node
// filter's constraint check in the three schedulers.
#include <gtest/gtest.h>

#include <set>

#include <fmt/format.h>

#include "placement/spec_parser.h"
#include "scheduler/driver.h"
#include "scheduler/scheduler_placement.h"

namespace spindle {
namespace {

constexpr int64_t GB = 1024;

struct Cluster {
  Cluster(std::string scheduler, std::string handler, int nodes, int64_t nodeMb,
          std::map<std::string, std::string> extra = {}) {
    Configuration conf;
    conf.set("yarn.resourcemanager.scheduler.class", scheduler);
    conf.set("yarn.scheduler.minimum-allocation-mb", "1024");
    if (!handler.empty()) conf.set("yarn.resourcemanager.placement-constraints.handler", handler);
    for (const auto& [k, v] : extra) conf.set(k, v);
    auto d = Driver::create(conf, clock, rng, {.checkInvariantsEvery = 1});
    EXPECT_TRUE(d.isOk()) << d.status().message();
    driver = std::move(d).value();
    for (int i = 1; i <= nodes; ++i) {
      EXPECT_TRUE(
          driver
              ->handle(NodeAdded{
                  fmt::format("h{}", i), i <= 2 ? "/r1" : "/r2", Resource::of(nodeMb, 100), {}, {}})
              .isOk());
    }
    AppSubmission sub;
    sub.name = "app";
    sub.amResource = Resource::of(GB, 1);
    app = driver->submit(sub)->admission()->app;
    heartbeatAll();  // the AM
  }
  void heartbeatAll() {
    for (NodeId n : driver->scheduler().cluster().nodeIds()) {
      EXPECT_TRUE(driver->heartbeat(n, {}).isOk());
    }
  }
  Result<const Outcome&> ask(std::vector<SchedulingRequest> rs) {
    AppAllocate a;
    a.app = app;
    a.schedulingRequests = std::move(rs);
    return driver->handle(a);
  }
  // Non-AM containers of the app per node name.
  std::map<std::string, int> perNode() const {
    std::map<std::string, int> out;
    for (const auto& [id, c] : driver->scheduler().containers()) {
      if (!c.isAm) ++out[driver->scheduler().cluster().nodeName(c.node)];
    }
    return out;
  }
  SimulatedClock clock{0};
  Rng rng{1};
  std::unique_ptr<Driver> driver;
  AppId app;
};

SchedulingRequest request(int64_t id, std::vector<std::string> tags, int32_t n,
                          std::string_view spec = "", int64_t mb = GB) {
  SchedulingRequest r;
  r.allocationRequestId = id;
  r.priority = 1;
  r.allocationTags = std::move(tags);
  r.sizing = ResourceSizing{n, Resource::of(mb, 1)};
  if (!spec.empty()) r.constraint = placement::parseExpression(spec).value();
  return r;
}

TEST(PlacementHandlers, DisabledRejectsTheAllocateCall) {
  Cluster c("capacity", "", 4, 10 * GB);
  auto out = c.ask({request(1, {"foo"}, 2, "notin,node,foo")});
  ASSERT_FALSE(out.isOk());
  EXPECT_NE(out.status().message().find("Found non empty SchedulingRequest in AllocateRequest"),
            std::string::npos);
  EXPECT_EQ(c.driver->scheduler().placement(), nullptr);  // nothing applied
}

TEST(PlacementHandlers, SchedulerHandlerSpreadsAntiAffinityInTheCapacityScheduler) {
  Cluster c("capacity", "scheduler", 4, 10 * GB);
  ASSERT_TRUE(c.ask({request(1, {"foo"}, 6, "notin,node,foo")}).isOk());
  for (int i = 0; i < 3; ++i) c.heartbeatAll();
  const auto spread = c.perNode();
  EXPECT_EQ(spread.size(), 4u);
  for (const auto& [node, n] : spread) EXPECT_EQ(n, 1) << node;
  // Two stay pending: no node is free of foo.
  const Application& a = *c.driver->scheduler().findApp(c.app);
  EXPECT_EQ(a.asks().count({1, 1}, "*"), 2);
  // A completed foo frees its node for one more.
  ContainerId done;
  NodeId where;
  for (const auto& [id, ct] : c.driver->scheduler().containers()) {
    if (!ct.isAm) {
      done = id;
      where = ct.node;
      break;
    }
  }
  ASSERT_TRUE(c.driver->heartbeat(where, {{done, 0}}).isOk());
  EXPECT_EQ(c.perNode().size(), 4u);
  EXPECT_EQ(a.asks().count({1, 1}, "*"), 1);
}

TEST(PlacementHandlers, CardinalityAllowsMaxPlusOnePerNode) {
  Cluster c("capacity", "scheduler", 2, 20 * GB);
  ASSERT_TRUE(c.ask({request(1, {"foo"}, 10, "cardinality,node,foo,0,2")}).isOk());
  for (int i = 0; i < 10; ++i) c.heartbeatAll();
  for (const auto& [node, n] : c.perNode()) EXPECT_EQ(n, 3) << node;
}

TEST(PlacementHandlers, TagsLeaveTheStoreOnNodeLoss) {
  Cluster c("capacity", "scheduler", 2, 10 * GB);
  ASSERT_TRUE(c.ask({request(1, {"foo"}, 2, "notin,node,foo")}).isOk());
  c.heartbeatAll();
  const SchedulerPlacement& p = *c.driver->scheduler().placement();
  const NodeId h1 = *c.driver->scheduler().cluster().findNode("h1");
  EXPECT_EQ(p.tags().nodeCardinality(h1, c.app, "foo"), 1);
  ASSERT_TRUE(c.driver->handle(NodeRemoved{"h1"}).isOk());
  EXPECT_EQ(p.tags().nodeCardinality(h1, c.app, "foo"), 0);
  EXPECT_EQ(p.tags().nodesWithTags(), 1u);
}

TEST(PlacementHandlers, UpdateMayOnlyChangeNumAllocations) {
  Cluster c("capacity", "scheduler", 2, 10 * GB);
  ASSERT_TRUE(c.ask({request(1, {"mapper"}, 1, "notin,node,mapper")}).isOk());
  ASSERT_TRUE(c.ask({request(1, {"mapper"}, 10, "notin,node,mapper")}).isOk());
  auto bad = c.ask({request(1, {"mapper"}, 1, "cardinality,node,mapper,0,1")});
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("we only allows changing numAllocations"),
            std::string::npos);
}

TEST(PlacementHandlers, FairSchedulerRefusesTheSchedulerHandler) {
  Cluster c("fair", "scheduler", 2, 10 * GB);
  auto out = c.ask({request(1, {"foo"}, 1, "notin,node,foo")});
  ASSERT_FALSE(out.isOk());
  EXPECT_NE(out.status().message().find("fair.FairScheduler cannot handle placement constraints"),
            std::string::npos);
}

TEST(PlacementHandlers, FairSchedulerCannotCommitProcessorPlacements) {
  Cluster c("fair", "placement-processor", 2, 10 * GB);
  auto out = c.ask({request(1, {"foo"}, 1, "notin,node,foo")});
  ASSERT_TRUE(out.isOk()) << out.status().message();
  ASSERT_EQ(out->rejectedSchedulingRequests.size(), 1u);
  EXPECT_EQ(out->rejectedSchedulingRequests[0].reason, RejectionReason::kCouldNotScheduleOnNode);
}

TEST(PlacementHandlers, ProcessorPlacesAntiAffinityOnDistinctNodes) {
  Cluster c("capacity", "placement-processor", 4, 4 * GB,
            {{"yarn.resourcemanager.placement-constraints.retry-attempts", "1"}});
  auto out = c.ask(
      {request(1, {"foo"}, 1, "notin,node,foo", 512), request(2, {"foo"}, 1, "notin,node,foo", 512),
       request(3, {"foo"}, 1, "notin,node,foo", 512), request(5, {"foo"}, 1, "notin,node,foo", 512),
       request(6, {"foo"}, 1, "notin,node,foo", 512)});
  ASSERT_TRUE(out.isOk()) << out.status().message();
  EXPECT_EQ(out->containers.size(), 4u);
  ASSERT_EQ(out->rejectedSchedulingRequests.size(), 1u);
  EXPECT_EQ(out->rejectedSchedulingRequests[0].reason, RejectionReason::kCouldNotPlaceOnNode);
  std::set<NodeId> nodes;
  for (const ContainerChange& ch : out->containers) {
    nodes.insert(ch.node);
    EXPECT_EQ(ch.resource, Resource::of(GB, 1));  // normalised from 512 MB
  }
  EXPECT_EQ(nodes.size(), 4u);
}

TEST(PlacementHandlers, InvalidNamespaceComesBackRejected) {
  for (const char* handler : {"scheduler", "placement-processor"}) {
    Cluster c("capacity", handler, 2, 10 * GB);
    auto out = c.ask({request(1, {"t1"}, 1, "notin,node,all/t1")});
    ASSERT_TRUE(out.isOk());
    EXPECT_TRUE(out->rejectedSchedulingRequests.empty());
    placement::PlacementConstraint bad = placement::targetNotIn(
        placement::Scope::kNode, {placement::allocationTagWithNamespace("invalid", {"t1"})});
    SchedulingRequest r = request(2, {"t1"}, 1);
    r.constraint = bad;
    out = c.ask({r});
    ASSERT_TRUE(out.isOk()) << handler;
    EXPECT_EQ(out->rejectedSchedulingRequests.size(), 1u) << handler;
  }
}

}  // namespace
}  // namespace spindle
