// The RM's rack topology (net.topology.*): a registering node gets the rack its host maps to,
// the scheduler serves a rack-local ask on that rack, and REST shows it.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"

namespace spindle::rm {
namespace {

namespace fs = std::filesystem;
using protocol::NodeAction;

class RmRacksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table_ = fs::temp_directory_path() /
             ("spindle-rm-racks-" + std::to_string(getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::ofstream(table_) << "# the lab\nh1 /rackA\nh2 /rackA\nh3 /rackB/\nh4 rackC\n";
  }
  void TearDown() override { fs::remove(table_); }

  void start(bool withTable) {
    responseIds.clear();
    Configuration conf;
    conf.set("spindle.cluster.timestamp", "1700000000000");
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    // Rack-local at the first opportunity (CapacityScheduler: missed > node-locality-delay).
    conf.set("yarn.scheduler.capacity.node-locality-delay", "-1");
    if (withTable) {
      conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
      conf.set("net.topology.table.file.name", table_.string());
    }
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    auto c = RmCore::create(*s, conf, clock, "127.0.0.1:8088");
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    core = std::move(*c);
  }

  void addNode(const std::string& id) {
    protocol::RegisterNodeManagerRequest r;
    r.nodeId = id;
    r.httpPort = 8042;
    r.resource = {4096, 8};
    auto resp = core->registerNode(r);
    ASSERT_EQ(resp.nodeAction, NodeAction::NORMAL) << resp.diagnosticsMessage;
    responseIds[id] = 0;
  }

  void heartbeat(const std::string& id, bool healthy = true) {
    protocol::NodeHeartbeatRequest hb;
    hb.nodeStatus.nodeId = id;
    hb.nodeStatus.nodeHealthStatus.isNodeHealthy = healthy;
    hb.nodeStatus.responseId = responseIds[id];
    auto r = core->nodeHeartbeat(hb);
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    responseIds[id] = r->responseId;
  }

  std::string rackOf(const std::string& id) {
    auto j = core->node(id);
    EXPECT_TRUE(j.isOk());
    return j.isOk() ? (*j)["node"]["rack"].get<std::string>() : "";
  }

  // An app whose AM runs on `amNode` and is registered; returns its attempt id.
  std::string runningAm(const std::string& amNode) {
    const std::string id = core->newApplication()["application-id"];
    protocol::SubmissionContext ctx;
    ctx.applicationId = id;
    ctx.applicationName = "racks";
    ctx.resource = {256, 1};
    ctx.amContainerSpec.commands = {"run-am"};
    EXPECT_TRUE(core->submit(ctx, "alice").isOk());
    heartbeat(amNode);
    auto launches = core->takeLaunches();
    EXPECT_EQ(launches.size(), 1u);
    if (launches.empty()) return "";
    const std::string attempt = protocol::toString(
        *protocol::attemptOfContainer(launches[0].request.startContainerRequest.at(0).containerId));
    protocol::RegisterApplicationMasterRequest reg;
    reg.applicationAttemptId = attempt;
    EXPECT_TRUE(core->registerAm(reg).isOk());
    return attempt;
  }

  fs::path table_;
  SimulatedClock clock{1000};
  std::unique_ptr<RmCore> core;
  std::map<std::string, int32_t> responseIds;
};

TEST_F(RmRacksTest, NodesGetTheirHostsRackFromTheTable) {
  start(true);
  for (const char* id : {"h1:1", "h2:1", "h3:1", "h4:1", "other:1"}) addNode(id);
  EXPECT_EQ(rackOf("h1:1"), "/rackA");
  EXPECT_EQ(rackOf("h2:1"), "/rackA");
  EXPECT_EQ(rackOf("h3:1"), "/rackB");            // NodeBase.normalize drops the trailing '/'
  EXPECT_EQ(rackOf("h4:1"), "/default-rack");     // not a rack path: refused, default rack
  EXPECT_EQ(rackOf("other:1"), "/default-rack");  // not in the table
  EXPECT_EQ(core->rackResolver().cached("h1"), std::optional<std::string>("/rackA"));
  // The node list carries the same racks.
  auto all = core->nodes({});
  ASSERT_TRUE(all.isOk());
  std::map<std::string, std::string> racks;
  for (const auto& n : (*all)["nodes"]["node"]) racks[n["id"]] = n["rack"];
  EXPECT_EQ(racks["h1:1"], "/rackA");
  EXPECT_EQ(racks["h3:1"], "/rackB");
}

// An UNHEALTHY node leaves the scheduler and comes back on its rack (RmNode keeps it).
TEST_F(RmRacksTest, NodeKeepsItsRackThroughUnhealthy) {
  start(true);
  addNode("h1:1");
  heartbeat("h1:1", false);
  ASSERT_EQ((*core->node("h1:1"))["node"]["state"], "UNHEALTHY");
  EXPECT_EQ(rackOf("h1:1"), "/rackA");
  heartbeat("h1:1", true);
  ASSERT_EQ((*core->node("h1:1"))["node"]["state"], "RUNNING");
  EXPECT_EQ(rackOf("h1:1"), "/rackA");
  EXPECT_EQ(core->rackResolver().mappingCalls(), 1);
}

TEST_F(RmRacksTest, WithoutAMappingEveryNodeIsOnTheDefaultRack) {
  start(false);
  addNode("h1:1");
  addNode("h3:1");
  EXPECT_EQ(rackOf("h1:1"), "/default-rack");
  EXPECT_EQ(rackOf("h3:1"), "/default-rack");
}

TEST_F(RmRacksTest, UnknownMappingImplStopsTheRm) {
  Configuration conf;
  conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.StaticMapping");
  auto s = RmSettings::fromConfiguration(conf);
  ASSERT_TRUE(s.isOk());
  auto c = RmCore::create(*s, conf, clock, "127.0.0.1:8088");
  ASSERT_FALSE(c.isOk());
  EXPECT_NE(c.status().message().find("net.topology.node.switch.mapping.impl"), std::string::npos);
  EXPECT_NE(c.status().message().find("org.apache.hadoop.net.StaticMapping"), std::string::npos);
}

// A rack-local ask for /rackA naming a host that has no node. With the table, h2's first
// heartbeat serves it RACK_LOCAL (h2 is on /rackA); without a mapping no node is on /rackA and
// whatever h2 gets is not rack-local.
TEST_F(RmRacksTest, RackLocalAskIsServedOnTheMappedRack) {
  for (bool withTable : {true, false}) {
    SCOPED_TRACE(withTable ? "with the table" : "without a mapping");
    start(withTable);
    addNode("h2:1");
    addNode("h3:1");
    const std::string attempt = runningAm("h3:1");
    protocol::AllocateRequest a;
    a.applicationAttemptId = attempt;
    a.ask = {{1, "h1", {512, 1}, 1, true, "", 0},
             {1, "/rackA", {512, 1}, 1, true, "", 0},
             {1, "*", {512, 1}, 1, true, "", 0}};
    ASSERT_TRUE(core->allocate(a).isOk());
    heartbeat("h2:1");
    a.ask.clear();
    a.responseId = 1;
    auto r = core->allocate(a);
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    auto d = core->decisions({{"node", "h2:1"}});
    ASSERT_TRUE(d.isOk());
    std::string locality;
    for (const auto& x : (*d)["decisions"]["decision"]) {
      if (x.value("kind", "") == "allocate" && !x.value("am", true)) locality = x["locality"];
    }
    if (!withTable) {
      EXPECT_NE(locality, "RACK_LOCAL") << d->dump();
      continue;
    }
    ASSERT_EQ(r->allocatedContainers.size(), 1u) << d->dump();
    EXPECT_EQ(r->allocatedContainers[0].nodeId, "h2:1");
    EXPECT_EQ(locality, "RACK_LOCAL") << d->dump();
  }
}

}  // namespace
}  // namespace spindle::rm
