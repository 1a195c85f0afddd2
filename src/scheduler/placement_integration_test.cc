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

// Each call's walk starts one past the node of the previous call's last placement (next fit), so
// unconstrained one-container calls go round the nodes instead of filling the first one.
TEST(PlacementHandlers, ProcessorBatchesStartWhereThePreviousOneStopped) {
  Cluster c("capacity", "placement-processor", 3, 8 * GB);
  std::vector<std::string> where;
  for (int64_t id = 1; id <= 4; ++id) {
    auto out = c.ask({request(id, {"foo"}, 1, "cardinality,node,foo,0,100")});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    ASSERT_EQ(out->containers.size(), 1u);
    where.push_back(c.driver->scheduler().cluster().nodeName(out->containers[0].node));
  }
  EXPECT_EQ(where, (std::vector<std::string>{"h1", "h2", "h3", "h1"}));
}

// A configured global constraint is ANDed with the request's own (the multi-level rule): the
// request allows 100 per node, the global one for its tag only one.
TEST(PlacementHandlers, GlobalConstraintFromConfigurationApplies) {
  for (const char* handler : {"scheduler", "placement-processor"}) {
    Cluster c("capacity", handler, 3, 8 * GB,
              {{"yarn.resourcemanager.placement-constraints.retry-attempts", "1"},
               {"spindle.placement-constraints.global.foo", "notin,node,foo"}});
    ASSERT_TRUE(c.ask({request(1, {"foo"}, 4, "cardinality,node,foo,0,100")}).isOk());
    c.heartbeatAll();
    c.heartbeatAll();
    EXPECT_EQ(c.perNode(), (std::map<std::string, int>{{"h1", 1}, {"h2", 1}, {"h3", 1}}))
        << handler;
  }
}

TEST(PlacementHandlers, BadGlobalConstraintNamesTheKey) {
  SimulatedClock clock{0};
  Rng rng{1};
  for (const auto& [key, value, text] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"spindle.placement-constraints.global.foo", "notin,nowhere,foo", "nowhere"},
           {"spindle.placement-constraints.global.foo", "cardinality,node,foo,3,1", "min"},
           {"spindle.placement-constraints.global.a,b", "notin,node,foo", "one allocation tag"}}) {
    Configuration conf;
    conf.set("yarn.resourcemanager.scheduler.class", "capacity");
    conf.set(key, value);
    auto d = Driver::create(conf, clock, rng);
    ASSERT_FALSE(d.isOk()) << value;
    EXPECT_NE(d.status().message().find(text), std::string::npos) << d.status().message();
    EXPECT_NE(d.status().message().find(key), std::string::npos) << d.status().message();
  }
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

// ---- The public vectors of scheduler_allocator_validation that a scenario cannot write ----
// (TestSingleConstraintAppPlacementAllocator; the others are tests/scenarios/placement/v03-...).

// targetNotIn(NODE, allocationTag(mapper, reducer), nodePartition(p...)).
SchedulingRequest mapperReducer(std::vector<std::string> partition) {
  SchedulingRequest r = request(1, {"mapper", "reducer"}, 1);
  std::vector<placement::TargetExpression> targets = {
      placement::allocationTag({"mapper", "reducer"})};
  if (!partition.empty()) {
    targets.push_back(placement::nodePartition(std::move(partition)));
  }
  r.constraint = placement::targetNotIn(placement::Scope::kNode, std::move(targets));
  return r;
}

TEST(PlacementVector, V01_EmptyPartitionTargetIsTheDefaultPartition) {
  SchedulingRequest r = mapperReducer({""});
  EXPECT_EQ(targetPartition(r).value(), "");
  Cluster c("capacity", "scheduler", 2, 10 * GB);
  ASSERT_TRUE(c.ask({r}).isOk());
  c.heartbeatAll();
  EXPECT_EQ(c.perNode().size(), 1u);
}

TEST(PlacementVector, V02_PartitionTargetNamesThePartition) {
  EXPECT_EQ(targetPartition(mapperReducer({"x"})).value(), "x");
  // More than one partition value is refused.
  Result<std::string> two = targetPartition(mapperReducer({"x", "y"}));
  ASSERT_FALSE(two.isOk());
  EXPECT_NE(two.status().message().find("at most one node partition"), std::string::npos);
}

TEST(PlacementVector, V04_NoResourceSizingIsRefused) {
  Cluster c("capacity", "scheduler", 2, 10 * GB);
  SchedulingRequest r = request(1, {"mapper"}, 1, "notin,node,mapper");
  r.sizing.reset();
  auto out = c.ask({r});
  ASSERT_FALSE(out.isOk());
  EXPECT_NE(out.status().message().find("No ResourceSizing found in the scheduling request"),
            std::string::npos);
  EXPECT_EQ(c.driver->scheduler().findApp(c.app)->asks().count({1, 1}, "*"), 0);
}

TEST(PlacementVector, V06_OpportunisticIsRefused) {
  Cluster c("capacity", "scheduler", 2, 10 * GB);
  SchedulingRequest r = request(1, {"mapper"}, 1, "notin,node,mapper");
  r.executionType = RequestExecutionType::kOpportunistic;
  auto out = c.ask({r});
  ASSERT_FALSE(out.isOk());
  EXPECT_NE(out.status().message().find("Only GUARANTEED execution type is supported."),
            std::string::npos);
}

TEST(PlacementVector, V11_PrecheckOnANodeOfTheTargetPartition) {
  Configuration conf;
  conf.set("yarn.resourcemanager.scheduler.class", "capacity");
  conf.set("yarn.scheduler.minimum-allocation-mb", "1024");
  conf.set("yarn.resourcemanager.placement-constraints.handler", "scheduler");
  conf.set("yarn.scheduler.capacity.root.accessible-node-labels", "x");
  conf.set("yarn.scheduler.capacity.root.accessible-node-labels.x.capacity", "100");
  conf.set("yarn.scheduler.capacity.root.default.accessible-node-labels", "x");
  conf.set("yarn.scheduler.capacity.root.default.accessible-node-labels.x.capacity", "100");
  SimulatedClock clock{0};
  Rng rng{1};
  auto d = Driver::create(conf, clock, rng, {.checkInvariantsEvery = 1}).value();
  ASSERT_TRUE(d->handle(AddNodeLabels{{NodeLabel{"x", true}}}).isOk());
  ASSERT_TRUE(d->handle(NodeAdded{"hx", "/r1", Resource::of(10 * GB, 8), {"x"}, {}}).isOk());
  ASSERT_TRUE(d->handle(NodeAdded{"h0", "/r1", Resource::of(10 * GB, 8), {}, {}}).isOk());
  AppSubmission sub;
  sub.name = "app";
  sub.amResource = Resource::of(GB, 1);
  const AppId app = d->submit(sub)->admission()->app;
  ASSERT_TRUE(d->handle(NodeHeartbeat{"h0", {}}).isOk());
  AppAllocate a;
  a.app = app;
  a.schedulingRequests = {mapperReducer({"x"})};
  ASSERT_TRUE(d->handle(a).isOk());
  const SchedulerPlacement& p = *d->scheduler().placement();
  const Node& hx = d->scheduler().cluster().node(*d->scheduler().cluster().findNode("hx"));
  const Node& h0 = d->scheduler().cluster().node(*d->scheduler().cluster().findNode("h0"));
  // The partition target holds on hx only; the tag targets hold on both.
  EXPECT_TRUE(p.satisfied(*d->scheduler().findApp(app), {1, 1}, hx));
  EXPECT_FALSE(p.satisfied(*d->scheduler().findApp(app), {1, 1}, h0));
  ASSERT_TRUE(d->handle(NodeHeartbeat{"h0", {}}).isOk());
  ASSERT_TRUE(d->handle(NodeHeartbeat{"hx", {}}).isOk());
  int onX = 0;
  for (const auto& [id, ct] : d->scheduler().containers()) onX += !ct.isAm && ct.node == hx.id();
  EXPECT_EQ(onX, 1);
}

}  // namespace
}  // namespace spindle
