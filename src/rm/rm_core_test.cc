#include "rm/rm_core.h"

#include <set>

#include <gtest/gtest.h>

#include <fmt/ranges.h>

#include "protocol/yarn_ids.h"

namespace spindle::rm {
namespace {

using protocol::ContainerState;
using protocol::NodeAction;

class RmCoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Configuration conf;
    conf.set("spindle.cluster.timestamp", "1700000000000");
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.set("yarn.nm.liveness-monitor.expiry-interval-ms", "5000");
    conf.set("yarn.am.liveness-monitor.expiry-interval-ms", "20000");
    conf.set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "500");
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    auto c = RmCore::create(*s, conf, clock, "127.0.0.1:8088");
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    core = std::move(*c);
  }

  void addNode(const std::string& id, int64_t mb) {
    protocol::RegisterNodeManagerRequest r;
    r.nodeId = id;
    r.httpPort = 8042;
    r.resource = {mb, 8};
    auto resp = core->registerNode(r);
    ASSERT_EQ(resp.nodeAction, NodeAction::NORMAL) << resp.diagnosticsMessage;
    responseIds[id] = 0;
  }

  protocol::NodeHeartbeatResponse heartbeat(const std::string& id,
                                            std::vector<protocol::ContainerStatus> statuses = {}) {
    protocol::NodeHeartbeatRequest hb;
    hb.nodeStatus.nodeId = id;
    hb.nodeStatus.responseId = responseIds[id];
    hb.nodeStatus.containersStatuses = std::move(statuses);
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
    auto s = core->submit(ctx, "alice");
    EXPECT_TRUE(s.isOk()) << s.status().toString();
    return id;
  }

  protocol::AllocateResponse allocate(const std::string& attempt, int32_t responseId,
                                      std::vector<protocol::ResourceRequest> asks = {},
                                      std::vector<std::string> release = {}) {
    protocol::AllocateRequest a;
    a.applicationAttemptId = attempt;
    a.responseId = responseId;
    a.ask = std::move(asks);
    a.release = std::move(release);
    auto r = core->allocate(a);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    return r.isOk() ? *r : protocol::AllocateResponse{};
  }

  std::string appField(const std::string& app, const char* field) {
    auto j = core->app(app);
    EXPECT_TRUE(j.isOk());
    return j.isOk() ? (*j)["app"][field].dump() : "";
  }

  SimulatedClock clock{1000};
  std::unique_ptr<RmCore> core;
  std::map<std::string, int32_t> responseIds;
};

TEST_F(RmCoreTest, AppRunsThroughAmProtocolToSucceeded) {
  addNode("h1:1", 4096);
  const std::string app = submit();
  EXPECT_EQ(appField(app, "state"), "\"ACCEPTED\"");
  heartbeat("h1:1");
  auto launches = core->takeLaunches();
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].nodeHttpAddress, "h1:8042");
  const auto& start = launches[0].request.startContainerRequest.at(0);
  EXPECT_EQ(start.containerLaunchContext.commands, std::vector<std::string>{"run-am"});
  EXPECT_EQ(start.containerLaunchContext.environment.at("SPINDLE_RM_ADDRESS"), "127.0.0.1:8088");
  const std::string attempt = protocol::toString(*protocol::attemptOfContainer(start.containerId));

  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = attempt;
  auto r = core->registerAm(reg);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_FALSE(core->registerAm(reg).isOk());  // already registered

  auto a0 = allocate(attempt, 0, {{1, "*", {256, 1}, 2, true, "", 0}});
  EXPECT_EQ(a0.responseId, 1);
  EXPECT_TRUE(a0.allocatedContainers.empty());  // allocation happens on node heartbeats
  heartbeat("h1:1");  // one off-switch container per heartbeat (the Capacity Scheduler's rule)
  heartbeat("h1:1");
  auto a1 = allocate(attempt, 1);
  ASSERT_EQ(a1.allocatedContainers.size(), 2u);
  EXPECT_EQ(a1.allocatedContainers[0].nodeHttpAddress, "h1:8042");
  // A repeated call gets the same answer and applies nothing twice.
  auto again = allocate(attempt, 1);
  EXPECT_EQ(again.responseId, a1.responseId);
  EXPECT_EQ(again.allocatedContainers.size(), 2u);
  // A stale id is refused with the reason.
  protocol::AllocateRequest stale;
  stale.applicationAttemptId = attempt;
  stale.responseId = 0;
  auto s = core->allocate(stale);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.status().message().find("expect responseId to be 2, but get 0"), std::string::npos);

  // The node reports one container done with exit 0: the AM sees it.
  heartbeat("h1:1", {{a1.allocatedContainers[0].id, ContainerState::COMPLETE, 0, ""},
                     {a1.allocatedContainers[1].id, ContainerState::RUNNING, -1000, ""}});
  // The AM releases the other: both come back completed, the released one ABORTED (-100).
  auto a2 = allocate(attempt, 2, {}, {a1.allocatedContainers[1].id});
  ASSERT_EQ(a2.completedContainerStatuses.size(), 2u);
  EXPECT_EQ(a2.completedContainerStatuses[0].exitStatus, 0);
  EXPECT_EQ(a2.completedContainerStatuses[1].exitStatus, -100);
  // The released one goes to the node's cleanup list.
  auto hb = heartbeat("h1:1");
  EXPECT_EQ(hb.containersToCleanup, std::vector<std::string>{a1.allocatedContainers[1].id});
  allocate(attempt, 3);

  protocol::FinishApplicationMasterRequest fin;
  fin.applicationAttemptId = attempt;
  fin.finalApplicationStatus = protocol::FinalApplicationStatus::SUCCEEDED;
  auto f = core->finishAm(fin);
  ASSERT_TRUE(f.isOk()) << f.status().toString();
  EXPECT_TRUE(f->isUnregistered);
  EXPECT_EQ(appField(app, "state"), "\"FINISHED\"");
  EXPECT_EQ(appField(app, "finalStatus"), "\"SUCCEEDED\"");
  // An AM allocating after finishing is refused with the reason.
  protocol::AllocateRequest late;
  late.applicationAttemptId = attempt;
  late.responseId = 4;
  auto l = core->allocate(late);
  ASSERT_FALSE(l.isOk());
  EXPECT_NE(l.status().message().find("has finished"), std::string::npos);
}

TEST_F(RmCoreTest, SilentNodeIsLostAndItsContainersAborted) {
  addNode("h1:1", 1024);
  addNode("h2:1", 1024);
  const std::string app = submit();
  heartbeat("h1:1");
  auto launches = core->takeLaunches();
  ASSERT_EQ(launches.size(), 1u);
  const std::string attempt = protocol::toString(
      *protocol::attemptOfContainer(launches[0].request.startContainerRequest[0].containerId));
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = attempt;
  ASSERT_TRUE(core->registerAm(reg).isOk());
  allocate(attempt, 0, {{1, "*", {512, 1}, 1, true, "", 0}});
  heartbeat("h2:1");
  auto a1 = allocate(attempt, 1);
  ASSERT_EQ(a1.allocatedContainers.size(), 1u);
  EXPECT_EQ(a1.allocatedContainers[0].nodeId, "h2:1");

  // h1 keeps heartbeating, h2 falls silent past the expiry.
  for (int i = 0; i < 6; ++i) {
    clock.advanceMs(1000);
    heartbeat("h1:1");
    core->tick();
  }
  auto n = core->node("h2:1");
  ASSERT_TRUE(n.isOk());
  EXPECT_EQ((*n)["node"]["state"], "LOST");
  EXPECT_EQ(core->metrics()["clusterMetrics"]["lostNodes"], 1);
  auto a2 = allocate(attempt, 2);
  ASSERT_EQ(a2.completedContainerStatuses.size(), 1u);
  EXPECT_EQ(a2.completedContainerStatuses[0].exitStatus, -100);
  // A lost node that heartbeats again is told to resynchronise.
  protocol::NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "h2:1";
  hb.nodeStatus.responseId = responseIds["h2:1"];
  auto r = core->nodeHeartbeat(hb);
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->nodeAction, NodeAction::RESYNC);
  EXPECT_NE(r->diagnosticsMessage.find("LOST"), std::string::npos);
  EXPECT_EQ(appField(app, "state"), "\"RUNNING\"");
}

TEST_F(RmCoreTest, UnknownNodeLabelsAreRefusedNotTheNode) {
  protocol::RegisterNodeManagerRequest r;
  r.nodeId = "h9:1";
  r.httpPort = 8042;
  r.resource = {1024, 2};
  r.nodeLabels = {"gpu"};
  auto resp = core->registerNode(r);
  EXPECT_EQ(resp.nodeAction, NodeAction::NORMAL);
  EXPECT_NE(resp.diagnosticsMessage.find("node labels not accepted"), std::string::npos);
  EXPECT_EQ((*core->node("h9:1"))["node"]["nodeLabels"].size(), 0u);
}

TEST_F(RmCoreTest, LostNodeRegistersAgainAndRunsAgain) {
  addNode("h1:1", 1024);
  clock.advanceMs(6000);
  core->tick();
  EXPECT_EQ((*core->node("h1:1"))["node"]["state"], "LOST");
  addNode("h1:1", 2048);
  EXPECT_EQ((*core->node("h1:1"))["node"]["state"], "RUNNING");
  EXPECT_EQ(core->metrics()["clusterMetrics"]["totalMB"], 2048);
  EXPECT_EQ(core->metrics()["clusterMetrics"]["lostNodes"], 0);
  EXPECT_EQ(heartbeat("h1:1").nodeAction, NodeAction::NORMAL);
}

TEST_F(RmCoreTest, SilentAmExpiresAndANewAttemptStarts) {
  addNode("h1:1", 4096);
  const std::string app = submit();
  heartbeat("h1:1");
  auto first = core->takeLaunches();
  ASSERT_EQ(first.size(), 1u);
  const std::string am1 = first[0].request.startContainerRequest[0].containerId;
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = protocol::toString(*protocol::attemptOfContainer(am1));
  ASSERT_TRUE(core->registerAm(reg).isOk());
  // The node keeps heartbeating; the AM never calls allocate.
  std::set<std::string> cleaned;
  for (int i = 0; i < 25; ++i) {
    clock.advanceMs(1000);
    for (const std::string& c : heartbeat("h1:1").containersToCleanup) cleaned.insert(c);
    core->tick();
  }
  auto second = core->takeLaunches();
  ASSERT_EQ(second.size(), 1u);
  EXPECT_NE(second[0].request.startContainerRequest[0].containerId.find("_02_"), std::string::npos);
  EXPECT_NE(appField(app, "diagnostics").find("timed out"), std::string::npos);
  auto attempts = core->appAttempts(app);
  ASSERT_TRUE(attempts.isOk());
  const auto& list = (*attempts)["appAttempts"]["appAttempt"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["appAttemptState"], "FAILED");
  EXPECT_EQ(list[0]["containerId"], am1);
  EXPECT_EQ(list[1]["appAttemptState"], "ALLOCATED");
  // The old AM container is cleaned up on its node.
  EXPECT_TRUE(cleaned.contains(am1));
  // The old attempt may no longer call the RM.
  protocol::AllocateRequest old;
  old.applicationAttemptId = reg.applicationAttemptId;
  auto r = core->allocate(old);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("is not the current attempt"), std::string::npos);
}

TEST_F(RmCoreTest, AmContainerExitFailsAttemptUntilMaxAttempts) {
  addNode("h1:1", 4096);
  const std::string app = submit();
  for (int attempt = 1; attempt <= 2; ++attempt) {
    heartbeat("h1:1");
    auto launches = core->takeLaunches();
    ASSERT_EQ(launches.size(), 1u) << "attempt " << attempt;
    const std::string cid = launches[0].request.startContainerRequest[0].containerId;
    heartbeat("h1:1", {{cid, ContainerState::COMPLETE, 1, "exit 1"}});
  }
  EXPECT_EQ(appField(app, "state"), "\"FAILED\"");
  EXPECT_EQ(appField(app, "finalStatus"), "\"FAILED\"");
  EXPECT_NE(appField(app, "diagnostics").find("failed 2 times"), std::string::npos);
}

TEST_F(RmCoreTest, ClientErrors) {
  protocol::SubmissionContext ctx;
  ctx.applicationId = "application_1700000000000_0042";
  ctx.resource = {256, 1};
  ctx.amContainerSpec.commands = {"x"};
  auto s = core->submit(ctx, "u");
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.status().message(),
            "application_1700000000000_0042 was not issued by apps/new-application");
  auto a = core->app("application_1700000000000_0042");
  ASSERT_FALSE(a.isOk());
  EXPECT_EQ(a.status().code(), StatusCode::kNotFound);
  auto bad = core->apps({{"states", "RUNNING,BOGUS"}});
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("Invalid application-state BOGUS"), std::string::npos);
  const std::string app = submit();
  auto move = core->moveApp(app, "nowhere");
  ASSERT_FALSE(move.isOk());
  EXPECT_EQ((*core->appQueue(app))["queue"], "root.default");
  auto killed = core->killApp(app);
  ASSERT_TRUE(killed.isOk());
  EXPECT_EQ((*killed)["state"], "KILLED");
  auto list = core->apps({{"states", "killed"}});
  ASSERT_TRUE(list.isOk());
  ASSERT_EQ((*list)["apps"]["app"].size(), 1u);
  EXPECT_EQ((*list)["apps"]["app"][0]["finalStatus"], "KILLED");
  EXPECT_EQ((*core->apps({{"states", "RUNNING"}}))["apps"]["app"].size(), 0u);
  auto late = core->moveApp(app, "default");
  ASSERT_FALSE(late.isOk());
  EXPECT_EQ(late.status().message(), "App in KILLED state cannot be moved.");
}

class RmPlacementTest : public RmCoreTest {
 protected:
  void SetUp() override {
    Configuration conf;
    conf.set("spindle.cluster.timestamp", "1700000000000");
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.set("yarn.resourcemanager.placement-constraints.handler", "placement-processor");
    conf.set("yarn.admin.acl", "boss");
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    core = std::move(RmCore::create(*s, conf, clock, "127.0.0.1:8088")).value();
  }
  protocol::RegisterNodeManagerResponse registerWith(
      const std::string& id, std::vector<protocol::NodeAttributeRecord> attrs) {
    protocol::RegisterNodeManagerRequest r;
    r.nodeId = id;
    r.httpPort = 8042;
    r.resource = {4096, 8};
    r.nodeAttributes = std::move(attrs);
    responseIds[id] = 0;
    return core->registerNode(r);
  }
  std::string nodeAttrs(const std::string& id) {
    std::vector<std::string> out;
    const nlohmann::json node = core->node(id).value();
    for (const auto& a : node["node"]["nodeAttributesInfo"]["nodeAttributeInfo"]) {
      out.push_back(fmt::format("{}/{}={}", a["prefix"].get<std::string>(),
                                a["name"].get<std::string>(), a["value"].get<std::string>()));
    }
    return fmt::format("{}", fmt::join(out, " "));
  }
  // The app's AM attempt, registered.
  std::string runningAttempt(const std::string& node) {
    submit();
    heartbeat(node);
    auto launches = core->takeLaunches();
    EXPECT_EQ(launches.size(), 1u);
    const std::string attempt = protocol::toString(*protocol::attemptOfContainer(
        launches.at(0).request.startContainerRequest.at(0).containerId));
    protocol::RegisterApplicationMasterRequest reg;
    reg.applicationAttemptId = attempt;
    EXPECT_TRUE(core->registerAm(reg).isOk());
    return attempt;
  }
};

TEST_F(RmPlacementTest, DistributedAttributesFromRegistrationAndHeartbeats) {
  auto ok = registerWith("h1:1", {{"nm.yarn.io", "os", "STRING", "linux"}});
  EXPECT_TRUE(ok.areNodeAttributesAcceptedByRM);
  EXPECT_EQ(nodeAttrs("h1:1"), "nm.yarn.io/os=linux");
  // A wrong prefix is refused; the node registers without its attributes.
  auto refused = registerWith("h2:1", {{"rm.yarn.io", "os", "STRING", "linux"}});
  EXPECT_EQ(refused.nodeAction, NodeAction::NORMAL);
  EXPECT_FALSE(refused.areNodeAttributesAcceptedByRM);
  EXPECT_NE(
      refused.diagnosticsMessage.find("attribute rm.yarn.io/os: the prefix must be nm.yarn.io"),
      std::string::npos)
      << refused.diagnosticsMessage;
  EXPECT_EQ(nodeAttrs("h2:1"), "");
  // A heartbeat with a changed set replaces it; a bad one is refused and changes nothing.
  protocol::NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "h1:1";
  hb.nodeAttributes =
      std::vector<protocol::NodeAttributeRecord>{{"nm.yarn.io", "os", "STRING", "bsd"}};
  auto r = core->nodeHeartbeat(hb);
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(r->areNodeAttributesAcceptedByRM);
  EXPECT_EQ(nodeAttrs("h1:1"), "nm.yarn.io/os=bsd");
  hb.nodeStatus.responseId = r->responseId;
  hb.nodeAttributes =
      std::vector<protocol::NodeAttributeRecord>{{"nm.yarn.io", "-os", "STRING", "x"}};
  r = core->nodeHeartbeat(hb);
  ASSERT_TRUE(r.isOk());
  EXPECT_FALSE(r->areNodeAttributesAcceptedByRM);
  EXPECT_NE(r->diagnosticsMessage.find("the name must be"), std::string::npos);
  EXPECT_EQ(nodeAttrs("h1:1"), "nm.yarn.io/os=bsd");
}

TEST_F(RmPlacementTest, CentralizedAttributesByHostAndTheViews) {
  registerWith("h1:1", {{"nm.yarn.io", "os", "STRING", "linux"}});
  registerWith("h1:2", {});
  protocol::NodesToAttributesMappingRequest m;
  m.operation = "ADD";
  m.nodesToAttributes = {{"h1", {{"rm.yarn.io", "java", "STRING", "1.8"}}},
                         {"later", {{"rm.yarn.io", "gpu", "STRING", ""}}}};
  ASSERT_TRUE(core->mapAttributesToNodes(m).isOk());
  // Every NM on the host has it; a host that registers later gets its attributes then.
  EXPECT_EQ(nodeAttrs("h1:1"), "nm.yarn.io/os=linux rm.yarn.io/java=1.8");
  EXPECT_EQ(nodeAttrs("h1:2"), "rm.yarn.io/java=1.8");
  registerWith("later:1", {});
  EXPECT_EQ(nodeAttrs("later:1"), "rm.yarn.io/gpu=");
  // Bad input changes nothing.
  m.operation = "REMOVE";
  m.nodesToAttributes = {{"h1", {{"rm.yarn.io", "java", "STRING", ""}}},
                         {"h1", {{"rm.yarn.io", "nothere", "STRING", ""}}}};
  auto bad = core->mapAttributesToNodes(m);
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(), "node 'h1' has no attribute rm.yarn.io/nothere to remove");
  EXPECT_EQ(nodeAttrs("h1:1"), "nm.yarn.io/os=linux rm.yarn.io/java=1.8");
  m.nodesToAttributes = {{"nohost", {{"rm.yarn.io", "java", "STRING", ""}}}};
  m.failOnUnknownNodes = true;
  EXPECT_EQ(core->mapAttributesToNodes(m).status().message(),
            "Following nodes does not exist : [nohost]");
  EXPECT_TRUE(core->denyAdmin("carol", "mapAttributesToNodes").has_value());
  EXPECT_FALSE(core->denyAdmin("boss", "mapAttributesToNodes").has_value());

  const auto keys = core->clusterNodeAttributes()["nodeAttributes"];
  EXPECT_EQ(keys.size(), 3u);  // gpu, java, os
  auto a2n = core->attributesToNodes({{"attributes", "java"}});
  ASSERT_TRUE(a2n.isOk());
  ASSERT_EQ((*a2n)["attributesToNodes"].size(), 1u);
  EXPECT_EQ((*a2n)["attributesToNodes"][0]["nodeToAttributeValues"][0]["hostname"], "h1");
  auto n2a = core->nodesToAttributes({{"nodes", "h1"}});
  ASSERT_TRUE(n2a.isOk());
  EXPECT_EQ((*n2a)["nodesToAttributes"][0]["nodeAttributes"].size(), 2u);
  EXPECT_FALSE(core->attributesToNodes({{"attributes", "a/b/c"}}).isOk());
}

TEST_F(RmPlacementTest, SchedulingRequestsAndRejectionsThroughTheAmProtocol) {
  registerWith("h1:1", {});
  const std::string attempt = runningAttempt("h1:1");
  protocol::AllocateRequest a;
  a.applicationAttemptId = attempt;
  protocol::SchedulingRequestRecord s;
  s.allocationRequestId = 1;
  s.priority = 1;
  s.allocationTags = {"w"};
  s.resourceSizing = protocol::ResourceSizingRecord{1, {256, 1}};
  s.placementConstraint = "notin,nod,w";
  a.schedulingRequests = {s};
  auto bad = core->allocate(a);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(
      bad.status().message().find("AllocateRequest.schedulingRequests[0].placementConstraint: "),
      std::string::npos)
      << bad.status().message();
  // No node has java=1.8: the processor rejects the request back to the AM, as the AM wrote it.
  s.placementConstraint = "rm.yarn.io/java=1.8";
  a.schedulingRequests = {s};
  auto r = core->allocate(a);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->rejectedSchedulingRequests.size(), 1u);
  EXPECT_EQ(r->rejectedSchedulingRequests[0].reason, "COULD_NOT_PLACE_ON_NODE");
  EXPECT_EQ(r->rejectedSchedulingRequests[0].request.placementConstraint, "rm.yarn.io/java=1.8");
  EXPECT_EQ(r->rejectedSchedulingRequests[0].request.resourceSizing->numAllocations, 1);
  // With the attribute set, the same request is placed on h1.
  protocol::NodesToAttributesMappingRequest m;
  m.operation = "ADD";
  m.nodesToAttributes = {{"h1", {{"rm.yarn.io", "java", "STRING", "1.8"}}}};
  ASSERT_TRUE(core->mapAttributesToNodes(m).isOk());
  a.responseId = r->responseId;
  r = core->allocate(a);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->rejectedSchedulingRequests.empty());
  ASSERT_EQ(r->allocatedContainers.size(), 1u);
  EXPECT_EQ(r->allocatedContainers[0].nodeId, "h1:1");
}

// The decision ring keeps records and renders them when read: the allocation of the AM
// container shows with its app, name, node and container, also after the app was killed.
TEST_F(RmCoreTest, RecentDecisionsRenderRecordsWhenRead) {
  addNode("h1:1", 4096);
  const std::string app = submit();
  heartbeat("h1:1");
  ASSERT_TRUE(core->killApp(app).isOk());
  auto all = core->decisions({{"kind", "allocate"}});
  ASSERT_TRUE(all.isOk()) << all.status().toString();
  const auto& list = (*all)["decisions"]["decision"];
  ASSERT_EQ(list.size(), 1u) << all->dump();
  EXPECT_EQ(list[0]["app"], app);
  EXPECT_EQ(list[0]["appName"], "test");
  EXPECT_EQ(list[0]["node"], "h1:1");
  EXPECT_EQ(list[0]["container"], "container_1700000000000_0001_01_000001");
  EXPECT_EQ(list[0]["am"], true);
  auto mine = core->appDecisions(app);
  ASSERT_TRUE(mine.isOk());
  const auto& own = (*mine)["appDecisions"]["decision"];
  ASSERT_GE(own.size(), 2u);  // accepted, allocated, ...
  for (const auto& d : own) EXPECT_EQ(d["app"], app);
  EXPECT_TRUE(
      (*core->decisions({{"app", "application_1700000000000_0099"}}))["decisions"]["decision"]
          .empty());
}

}  // namespace
}  // namespace spindle::rm
