// Node health, the include / exclude files and decommissioning in RmCore.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"

namespace spindle::rm {
namespace {

using protocol::NodeAction;

class RmNodesAdminTest : public ::testing::Test {
 protected:
  void SetUp() override {
    exclude = std::filesystem::temp_directory_path() /
              ("spindle-exclude-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    writeExclude("");
    Configuration conf;
    conf.set("spindle.cluster.timestamp", "1700000000000");
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.set("yarn.resourcemanager.nodes.exclude-path", exclude);
    conf.set("yarn.resourcemanager.nodemanager-graceful-decommission-timeout-secs", "30");
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    auto c = RmCore::create(*s, conf, clock, "127.0.0.1:8088");
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    core = std::move(*c);
  }
  void TearDown() override { std::filesystem::remove(exclude); }

  void writeExclude(const std::string& text) { std::ofstream(exclude) << text; }

  protocol::RegisterNodeManagerResponse addNode(const std::string& id, int64_t mb) {
    protocol::RegisterNodeManagerRequest r;
    r.nodeId = id;
    r.httpPort = 8042;
    r.resource = {mb, 8};
    responseIds[id] = 0;
    return core->registerNode(r);
  }

  protocol::NodeHeartbeatResponse heartbeat(const std::string& id, bool healthy = true,
                                            std::string report = "") {
    protocol::NodeHeartbeatRequest hb;
    hb.nodeStatus.nodeId = id;
    hb.nodeStatus.responseId = responseIds[id];
    hb.nodeStatus.nodeHealthStatus.isNodeHealthy = healthy;
    hb.nodeStatus.nodeHealthStatus.healthReport = std::move(report);
    hb.nodeStatus.nodeUtilization = protocol::ResourceUtilization{900, 1000, 1.5};
    hb.nodeStatus.containersUtilization = protocol::ResourceUtilization{300, 400, 0.5};
    auto r = core->nodeHeartbeat(hb);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    if (r.isOk() && r->nodeAction == NodeAction::NORMAL) responseIds[id] = r->responseId;
    return r.isOk() ? *r : protocol::NodeHeartbeatResponse{};
  }

  std::string submit() {
    const std::string id = core->newApplication()["application-id"];
    protocol::SubmissionContext ctx;
    ctx.applicationId = id;
    ctx.applicationName = "test";
    ctx.resource = {256, 1};
    ctx.amContainerSpec.commands = {"run-am"};
    EXPECT_TRUE(core->submit(ctx, "alice").isOk());
    return id;
  }

  nlohmann::json node(const std::string& id) { return (*core->node(id))["node"]; }
  int64_t metric(const char* name) { return core->metrics()["clusterMetrics"][name]; }

  std::string exclude;
  SimulatedClock clock{1000};
  std::unique_ptr<RmCore> core;
  std::map<std::string, int32_t> responseIds;
};

TEST_F(RmNodesAdminTest, UnhealthyNodeGetsNothingUntilHealthyAgain) {
  addNode("h1:1", 4096);
  heartbeat("h1:1", false, "ERROR disk full");
  EXPECT_EQ(node("h1:1")["state"], "UNHEALTHY");
  EXPECT_EQ(node("h1:1")["healthReport"], "ERROR disk full");
  EXPECT_EQ(node("h1:1")["healthStatus"], "Unhealthy");
  EXPECT_EQ(metric("unhealthyNodes"), 1);
  EXPECT_EQ(metric("activeNodes"), 0);
  const std::string app = submit();
  heartbeat("h1:1", false, "ERROR disk full");
  EXPECT_TRUE(core->takeLaunches().empty());  // the AM waits
  EXPECT_EQ((*core->app(app))["app"]["state"], "ACCEPTED");
  auto states = (*core->nodes({{"states", "unhealthy"}}))["nodes"]["node"];
  ASSERT_EQ(states.size(), 1u);

  heartbeat("h1:1");  // healthy: back in the scheduler, the AM is placed on the next heartbeat
  EXPECT_EQ(node("h1:1")["state"], "RUNNING");
  heartbeat("h1:1");
  EXPECT_EQ(core->takeLaunches().size(), 1u);
}

TEST_F(RmNodesAdminTest, UnhealthyNodeLosesItsContainers) {
  addNode("h1:1", 4096);
  submit();
  heartbeat("h1:1");
  auto launches = core->takeLaunches();
  ASSERT_EQ(launches.size(), 1u);
  const std::string am = launches[0].request.startContainerRequest[0].containerId;
  heartbeat("h1:1", false, "ERROR bad");
  // The AM container ended ABORTED with the node: the attempt failed, a new one waits.
  auto attempts = (*core->appAttempts(protocol::toString(protocol::attemptOfContainer(am)->app)));
  EXPECT_EQ(attempts["appAttempts"]["appAttempt"][0]["appAttemptState"], "FAILED");
  // The NM still reports it running: the RM tells it to clean the container up.
  protocol::NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "h1:1";
  hb.nodeStatus.responseId = responseIds["h1:1"];
  hb.nodeStatus.nodeHealthStatus.isNodeHealthy = false;
  hb.nodeStatus.containersStatuses = {{am, protocol::ContainerState::RUNNING, -1000, ""}};
  auto r = core->nodeHeartbeat(hb);
  ASSERT_TRUE(r.isOk());
  EXPECT_NE(std::find(r->containersToCleanup.begin(), r->containersToCleanup.end(), am),
            r->containersToCleanup.end());
}

TEST_F(RmNodesAdminTest, RefreshNodesDecommissionsExcludedNodes) {
  addNode("h1:1", 4096);
  addNode("h2:1", 4096);
  writeExclude("# retired\nh2  \n");
  auto r = core->refreshNodes({DecommissionType::NORMAL, std::nullopt});
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ((*r)["refreshNodes"]["decommissioned"], nlohmann::json::array({"h2:1"}));
  EXPECT_EQ(node("h2:1")["state"], "DECOMMISSIONED");
  EXPECT_EQ(metric("decommissionedNodes"), 1);
  auto hb = heartbeat("h2:1");
  EXPECT_EQ(hb.nodeAction, NodeAction::SHUTDOWN);
  EXPECT_EQ(hb.diagnosticsMessage, "Disallowed NodeManager nodeId: h2:1 hostname: h2");
  auto reg = addNode("h2:1", 4096);
  EXPECT_EQ(reg.nodeAction, NodeAction::SHUTDOWN);
  EXPECT_EQ(reg.diagnosticsMessage,
            "Disallowed NodeManager from  h2, Sending SHUTDOWN signal to the NodeManager.");
  EXPECT_EQ(heartbeat("h1:1").nodeAction, NodeAction::NORMAL);
}

TEST_F(RmNodesAdminTest, GracefulDecommissionWaitsForTheAppThenShutsDown) {
  addNode("h1:1", 4096);
  const std::string app = submit();
  heartbeat("h1:1");
  ASSERT_EQ(core->takeLaunches().size(), 1u);
  writeExclude("h1:1\n");
  auto r = core->refreshNodes({DecommissionType::GRACEFUL, 60});
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ((*r)["refreshNodes"]["decommissioning"], nlohmann::json::array({"h1:1"}));
  EXPECT_EQ(heartbeat("h1:1").nodeAction, NodeAction::NORMAL);
  EXPECT_EQ(node("h1:1")["state"], "DECOMMISSIONING");
  EXPECT_EQ(node("h1:1")["availMemoryMB"], 0);  // nothing new fits
  EXPECT_EQ(metric("decommissioningNodes"), 1);
  ASSERT_TRUE(core->killApp(app).isOk());
  auto hb = heartbeat("h1:1");
  EXPECT_EQ(hb.nodeAction, NodeAction::SHUTDOWN);
  EXPECT_EQ(hb.diagnosticsMessage, "DECOMMISSIONING h1:1 is ready to be decommissioned");
  EXPECT_EQ(node("h1:1")["state"], "DECOMMISSIONED");
}

TEST_F(RmNodesAdminTest, GracefulTimeoutForcefulAndRecommission) {
  addNode("h1:1", 4096);
  addNode("h2:1", 4096);
  addNode("h3:1", 4096);
  for (const char* n : {"h1:1", "h2:1", "h3:1"}) {
    submit();
    heartbeat(n);
  }
  writeExclude("h1 h2 h3\n");
  ASSERT_TRUE(core->refreshNodes({DecommissionType::GRACEFUL, std::nullopt}).isOk());  // 30 s
  clock.advanceMs(29'000);
  core->tick();
  EXPECT_EQ(node("h1:1")["state"], "DECOMMISSIONING");
  // h3 leaves the exclude file: RUNNING again with its whole resource; h1 and h2 take the new
  // timeout (none).
  writeExclude("h1 h2\n");
  auto r = core->refreshNodes({DecommissionType::GRACEFUL, -1});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ((*r)["refreshNodes"]["recommissioned"], nlohmann::json::array({"h3:1"}));
  EXPECT_EQ(node("h3:1")["state"], "RUNNING");
  EXPECT_EQ(node("h3:1")["totalResource"]["memory"], 4096);
  clock.advanceMs(5'000);
  core->tick();
  EXPECT_EQ(node("h1:1")["state"], "DECOMMISSIONING");
  r = core->refreshNodes({DecommissionType::FORCEFUL, std::nullopt});
  EXPECT_EQ((*r)["refreshNodes"]["decommissioned"], nlohmann::json::array({"h1:1", "h2:1"}));
  EXPECT_EQ(node("h2:1")["state"], "DECOMMISSIONED");
  // Past a timeout the node is decommissioned anyway.
  writeExclude("h1 h2 h3\n");
  ASSERT_TRUE(core->refreshNodes({DecommissionType::GRACEFUL, 10}).isOk());
  clock.advanceMs(9'000);
  core->tick();
  EXPECT_EQ(node("h3:1")["state"], "DECOMMISSIONING");
  clock.advanceMs(2'000);
  core->tick();
  EXPECT_EQ(node("h3:1")["state"], "DECOMMISSIONED");
  auto hb = heartbeat("h3:1");
  EXPECT_EQ(hb.nodeAction, NodeAction::SHUTDOWN);
  EXPECT_EQ(hb.diagnosticsMessage, "DECOMMISSIONING h3:1 timeout");
}

// RMAppImpl.processNodeUpdate: the AM hears of each state change of a known node once, on its
// next allocate, with the state and why (NodeUpdateType).
TEST_F(RmNodesAdminTest, AmsHearOfNodesTurningUnusableUsableAndDecommissioning) {
  addNode("h1:1", 4096);
  addNode("h2:1", 4096);
  submit();
  heartbeat("h1:1");
  ASSERT_EQ(core->takeLaunches().size(), 1u);
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = "appattempt_1700000000000_0001_000001";
  ASSERT_TRUE(core->registerAm(reg).isOk());
  int32_t responseId = 0;
  auto updates = [&] {
    protocol::AllocateRequest a;
    a.applicationAttemptId = reg.applicationAttemptId;
    a.responseId = responseId;
    auto r = core->allocate(a);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    if (!r.isOk()) return std::vector<protocol::NodeReport>{};
    responseId = r->responseId;
    return r->updatedNodes;
  };
  auto expectOne = [&](const char* state, const char* why) {
    auto u = updates();
    ASSERT_EQ(u.size(), 1u) << state;
    EXPECT_EQ(u[0].nodeId, "h2:1");
    EXPECT_EQ(u[0].nodeState, state);
    EXPECT_EQ(u[0].nodeUpdateType, why);
  };
  EXPECT_TRUE(updates().empty());  // registering nodes are not reported
  heartbeat("h2:1", false, "disk full");
  {
    auto u = updates();
    ASSERT_EQ(u.size(), 1u);
    EXPECT_EQ(u[0].nodeState, "UNHEALTHY");
    EXPECT_EQ(u[0].nodeUpdateType, "NODE_UNUSABLE");
    EXPECT_EQ(u[0].healthReport, "disk full");
    EXPECT_FALSE(u[0].decommissioningTimeout.has_value());
  }
  EXPECT_TRUE(updates().empty());  // told once
  heartbeat("h2:1");
  expectOne("RUNNING", "NODE_USABLE");
  writeExclude("h2:1\n");
  ASSERT_TRUE(core->refreshNodes({DecommissionType::GRACEFUL, std::nullopt}).isOk());  // 30 s
  {
    auto u = updates();
    ASSERT_EQ(u.size(), 1u);
    EXPECT_EQ(u[0].nodeState, "DECOMMISSIONING");
    EXPECT_EQ(u[0].nodeUpdateType, "NODE_DECOMMISSIONING");
    EXPECT_EQ(u[0].decommissioningTimeout, 30);
  }
  writeExclude("");
  ASSERT_TRUE(core->refreshNodes({DecommissionType::NORMAL, std::nullopt}).isOk());
  expectOne("RUNNING", "NODE_USABLE");  // recommissioned
  writeExclude("h2:1\n");
  ASSERT_TRUE(core->refreshNodes({DecommissionType::NORMAL, std::nullopt}).isOk());
  expectOne("DECOMMISSIONED", "NODE_UNUSABLE");
  EXPECT_TRUE(updates().empty());
}

TEST_F(RmNodesAdminTest, UnreadableExcludeFileChangesNothing) {
  addNode("h1:1", 4096);
  std::filesystem::remove(exclude);
  auto r = core->refreshNodes({DecommissionType::NORMAL, std::nullopt});
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("yarn.resourcemanager.nodes.exclude-path: cannot read"),
            std::string::npos);
  EXPECT_EQ(node("h1:1")["state"], "RUNNING");
}

TEST_F(RmNodesAdminTest, UtilisationInTheNodeView) {
  addNode("h1:1", 4096);
  heartbeat("h1:1");
  const auto u = node("h1:1")["resourceUtilization"];
  EXPECT_EQ(u["nodePhysicalMemoryMB"], 900);
  EXPECT_EQ(u["nodeVirtualMemoryMB"], 1000);
  EXPECT_EQ(u["nodeCPUUsage"], 1.5);
  EXPECT_EQ(u["aggregatedContainersPhysicalMemoryMB"], 300);
  EXPECT_EQ(u["aggregatedContainersVirtualMemoryMB"], 400);
  EXPECT_EQ(u["containersCPUUsage"], 0.5);
}

}  // namespace
}  // namespace spindle::rm
