// NodeAttributesUpdate through the Driver: the admin's centralised add / replace / remove, a
// node's distributed replace, validation that leaves everything unchanged, and constraints that
// see the new attributes.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "placement/spec_parser.h"
#include "scheduler/driver.h"
#include "scheduler/scheduler_placement.h"

namespace spindle {
namespace {

constexpr int64_t GB = 1024;

placement::NodeAttribute rm(std::string name, std::string value) {
  return {std::string(placement::kCentralizedPrefix), std::move(name),
          placement::NodeAttributeType::kString, std::move(value)};
}
placement::NodeAttribute nm(std::string name, std::string value) {
  return {std::string(placement::kDistributedPrefix), std::move(name),
          placement::NodeAttributeType::kString, std::move(value)};
}

NodeAttributesUpdate update(NodeAttributeOp op, bool distributed, std::string node,
                            std::vector<placement::NodeAttribute> attrs) {
  NodeAttributesUpdate u;
  u.op = op;
  u.distributed = distributed;
  u.nodes.push_back({std::move(node), std::move(attrs)});
  return u;
}

struct Fixture {
  explicit Fixture(std::string handler = "scheduler") {
    Configuration conf;
    conf.set("yarn.scheduler.minimum-allocation-mb", "1024");
    conf.set("yarn.resourcemanager.placement-constraints.handler", handler);
    driver = Driver::create(conf, clock, rng, {.checkInvariantsEvery = 1}).value();
    for (int i = 1; i <= 3; ++i) {
      EXPECT_TRUE(driver
                      ->handle(NodeAdded{fmt::format("h{}", i),
                                         "/r1",
                                         Resource::of(8 * GB, 8),
                                         {},
                                         {{"nm.yarn.io/os", "linux"}}})
                      .isOk());
    }
  }
  const std::map<std::string, std::string>& attrs(std::string_view node) const {
    const Scheduler& s = driver->scheduler();
    return s.cluster().node(*s.cluster().findNode(node)).attributes();
  }
  SimulatedClock clock{0};
  Rng rng{1};
  std::unique_ptr<Driver> driver;
};

TEST(NodeAttributesUpdate, CentralizedAddReplaceRemove) {
  Fixture f;
  ASSERT_TRUE(f.driver
                  ->updateNodeAttributes(update(NodeAttributeOp::kAdd, false, "h1",
                                                {rm("java", "1.8"), rm("gpu", "")}))
                  .isOk());
  using M = std::map<std::string, std::string>;
  EXPECT_EQ(f.attrs("h1"),
            (M{{"nm.yarn.io/os", "linux"}, {"rm.yarn.io/gpu", ""}, {"rm.yarn.io/java", "1.8"}}));
  // ADD updates a value in place and keeps the others.
  ASSERT_TRUE(
      f.driver->updateNodeAttributes(update(NodeAttributeOp::kAdd, false, "h1", {rm("java", "11")}))
          .isOk());
  EXPECT_EQ(f.attrs("h1").at("rm.yarn.io/java"), "11");
  EXPECT_EQ(f.attrs("h1").size(), 3u);
  // REPLACE drops the node's other centralised attributes, never the distributed ones.
  ASSERT_TRUE(
      f.driver
          ->updateNodeAttributes(update(NodeAttributeOp::kReplace, false, "h1", {rm("ssd", "yes")}))
          .isOk());
  EXPECT_EQ(f.attrs("h1"), (M{{"nm.yarn.io/os", "linux"}, {"rm.yarn.io/ssd", "yes"}}));
  ASSERT_TRUE(
      f.driver->updateNodeAttributes(update(NodeAttributeOp::kRemove, false, "h1", {rm("ssd", "")}))
          .isOk());
  EXPECT_EQ(f.attrs("h1"), (M{{"nm.yarn.io/os", "linux"}}));
  // A distributed report replaces only the distributed set.
  ASSERT_TRUE(f.driver
                  ->updateNodeAttributes(update(NodeAttributeOp::kReplace, true, "h2",
                                                {nm("os", "bsd"), nm("arch", "arm64")}))
                  .isOk());
  EXPECT_EQ(f.attrs("h2"), (M{{"nm.yarn.io/arch", "arm64"}, {"nm.yarn.io/os", "bsd"}}));
  // Nothing uses placement: no placement state was created for the updates.
  EXPECT_EQ(f.driver->scheduler().placement(), nullptr);
}

TEST(NodeAttributesUpdate, BadInputNamesNodeAndAttributeAndChangesNothing) {
  Fixture f;
  auto expectError = [&](const NodeAttributesUpdate& u, std::string_view needle) {
    auto out = f.driver->updateNodeAttributes(u);
    ASSERT_FALSE(out.isOk());
    EXPECT_NE(out.status().message().find(needle), std::string::npos) << out.status().message();
    EXPECT_EQ(f.attrs("h1").size(), 1u);
    EXPECT_EQ(f.attrs("h2").size(), 1u);
  };
  expectError(update(NodeAttributeOp::kAdd, false, "h9", {rm("java", "1")}), "unknown node 'h9'");
  expectError(update(NodeAttributeOp::kAdd, false, "h1", {nm("java", "1")}),
              "node 'h1': attribute nm.yarn.io/java: the prefix must be rm.yarn.io");
  expectError(update(NodeAttributeOp::kAdd, false, "h1", {rm("-java", "1")}),
              "node 'h1': attribute rm.yarn.io/-java: the name must be");
  expectError(update(NodeAttributeOp::kAdd, false, "h1", {rm("java", "1 8")}),
              "attribute rm.yarn.io/java: the value '1 8'");
  expectError(update(NodeAttributeOp::kAdd, false, "h1", {rm("a", "1"), rm("a", "2")}),
              "node 'h1': attribute rm.yarn.io/a is named more than once");
  expectError(update(NodeAttributeOp::kRemove, false, "h1", {rm("java", "")}),
              "node 'h1' has no attribute rm.yarn.io/java to remove");
  expectError(update(NodeAttributeOp::kAdd, true, "h1", {nm("os", "x")}),
              "distributed node attributes are only replaced");
  expectError(update(NodeAttributeOp::kReplace, true, "h1", {rm("os", "x")}),
              "the prefix must be nm.yarn.io");
  // A batch is all or nothing: h1's valid entry is not applied when h2's is bad.
  NodeAttributesUpdate batch = update(NodeAttributeOp::kAdd, false, "h1", {rm("java", "1.8")});
  batch.nodes.push_back({"h2", {rm("bad/name", "x")}});
  expectError(batch, "node 'h2'");
}

TEST(NodeAttributesUpdate, ConstraintsSeeChangedAttributes) {
  Fixture f;
  AppSubmission sub;
  sub.name = "app";
  sub.amResource = Resource::of(GB, 1);
  const AppId app = f.driver->submit(sub)->admission()->app;
  auto heartbeatAll = [&] {
    for (NodeId n : f.driver->scheduler().cluster().nodeIds()) {
      ASSERT_TRUE(f.driver->heartbeat(n, {}).isOk());
    }
  };
  heartbeatAll();  // the AM
  SchedulingRequest r;
  r.allocationRequestId = 1;
  r.priority = 1;
  r.allocationTags = {"w"};
  r.sizing = ResourceSizing{2, Resource::of(GB, 1)};
  r.constraint = placement::parseExpression("rm.yarn.io/java=1.8").value();
  AppAllocate a;
  a.app = app;
  a.schedulingRequests = {r};
  ASSERT_TRUE(f.driver->handle(a).isOk());
  heartbeatAll();
  auto workers = [&] {
    std::map<std::string, int> out;
    for (const auto& [id, c] : f.driver->scheduler().containers()) {
      if (!c.isAm) ++out[f.driver->scheduler().cluster().nodeName(c.node)];
    }
    return out;
  };
  EXPECT_TRUE(workers().empty());  // no node has java=1.8 yet
  ASSERT_TRUE(
      f.driver
          ->updateNodeAttributes(update(NodeAttributeOp::kAdd, false, "h3", {rm("java", "1.8")}))
          .isOk());
  const SchedulerPlacement* p = f.driver->scheduler().placement();
  ASSERT_NE(p, nullptr);
  const NodeId h3 = *f.driver->scheduler().cluster().findNode("h3");
  EXPECT_EQ(p->attributes().value(h3, "rm.yarn.io", "java"), "1.8");
  EXPECT_EQ(p->attributes().value(h3, "nm.yarn.io", "os"), "linux");
  heartbeatAll();  // one container per heartbeat (the Capacity Scheduler's default)
  heartbeatAll();
  EXPECT_EQ(workers(), (std::map<std::string, int>{{"h3", 2}}));
  // Removed from the store as well.
  ASSERT_TRUE(
      f.driver
          ->updateNodeAttributes(update(NodeAttributeOp::kRemove, false, "h3", {rm("java", "")}))
          .isOk());
  EXPECT_FALSE(p->attributes().value(h3, "rm.yarn.io", "java").has_value());
  ASSERT_TRUE(
      f.driver->updateNodeAttributes(update(NodeAttributeOp::kReplace, true, "h3", {})).isOk());
  EXPECT_FALSE(p->attributes().hasAny(h3));
}

}  // namespace
}  // namespace spindle
