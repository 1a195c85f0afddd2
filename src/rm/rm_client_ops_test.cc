// RmCore's client operations: priority, attempts and containers, node labels at run time,
// activities and refreshQueues, on a SimulatedClock.
#include <gtest/gtest.h>

#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "webui/list_page.h"

namespace spindle::rm {
namespace {

using nlohmann::json;
using protocol::NodeAction;

class RmClientOpsTest : public ::testing::Test {
 protected:
  Configuration baseConf() {
    Configuration conf;
    conf.set("spindle.cluster.timestamp", "1700000000000");
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.set("yarn.cluster.max-application-priority", "10");
    conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
    conf.set("yarn.nm.liveness-monitor.expiry-interval-ms", "60000");
    conf.set("yarn.am.liveness-monitor.expiry-interval-ms", "5000");
    return conf;
  }
  void SetUp() override {
    Configuration conf = baseConf();
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

  void heartbeat(const std::string& id) {
    protocol::NodeHeartbeatRequest hb;
    hb.nodeStatus.nodeId = id;
    hb.nodeStatus.responseId = responseIds[id];
    auto r = core->nodeHeartbeat(hb);
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    responseIds[id] = r->responseId;
  }

  std::string submit(int64_t amMb = 256, bool keep = false) {
    const std::string id = core->newApplication()["application-id"];
    protocol::SubmissionContext ctx;
    ctx.keepContainersAcrossApplicationAttempts = keep;
    ctx.applicationId = id;
    ctx.resource = {amMb, 1};
    ctx.amContainerSpec.commands = {"run-am"};
    auto s = core->submit(ctx, "alice");
    EXPECT_TRUE(s.isOk()) << s.status().toString();
    return id;
  }

  SimulatedClock clock{1000};
  std::unique_ptr<RmCore> core;
  std::map<std::string, int32_t> responseIds;
};

TEST_F(RmClientOpsTest, PriorityIsCappedAtTheClusterMaximumAndRefusedWhenFinished) {
  addNode("h1:1", 4096);
  const std::string app = submit();
  EXPECT_EQ((*core->appPriority(app))["priority"], 0);
  auto up = core->updateAppPriority(app, 7);
  ASSERT_TRUE(up.isOk()) << up.status().toString();
  EXPECT_EQ((*up)["priority"], 7);
  EXPECT_EQ((*core->app(app))["app"]["priority"], 7);
  // yarn.cluster.max-application-priority caps it
  // (CapacityScheduler.checkAndGetApplicationPriority).
  EXPECT_EQ((*core->updateAppPriority(app, 50))["priority"], 10);
  ASSERT_TRUE(core->killApp(app).isOk());
  auto late = core->updateAppPriority(app, 3);
  ASSERT_FALSE(late.isOk());
  EXPECT_EQ(late.status().message(), "Application in KILLED state cannot update priority.");
  EXPECT_EQ(core->appPriority("application_1700000000000_0099").status().code(),
            StatusCode::kNotFound);
}

TEST_F(RmClientOpsTest, AHigherPriorityAppGetsTheNextAmContainerFirst) {
  addNode("h1:1", 512);  // room for one AM of 256 + ... two at most
  const std::string a = submit(384);
  heartbeat("h1:1");  // a's AM runs: 128 MB left
  const std::string b = submit(256);
  const std::string c = submit(256);
  ASSERT_TRUE(core->updateAppPriority(c, 5).isOk());
  ASSERT_TRUE(core->killApp(a).isOk());
  heartbeat("h1:1");
  // c (priority 5) is allocated before b (priority 0), submitted earlier.
  EXPECT_EQ((*core->app(c))["app"]["runningContainers"], 1);
  EXPECT_EQ((*core->app(b))["app"]["runningContainers"], 0);
}

// The web UI's list pages sort light rows: every row field holds the full entry's value, and
// only the page's entries are built in full (resourceRequests and all).
TEST_F(RmClientOpsTest, ListPagesSortRowsThatMatchTheFullEntries) {
  addNode("h1:1", 1024);
  addNode("h2:1", 2048);
  const std::string a = submit(256), b = submit(512), c = submit(384);
  heartbeat("h1:1");
  heartbeat("h2:1");
  ASSERT_TRUE(core->killApp(c).isOk());
  auto page = core->appsPage({{"sort", "allocatedMB"}, {"desc", "true"}, {"limit", "2"}});
  ASSERT_TRUE(page.isOk()) << page.status().toString();
  const json& items = (*page)["appsPage"]["items"];
  EXPECT_EQ((*page)["appsPage"]["total"], 3);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0]["id"], b);  // 512 MB, then a's 256; the killed c shows -1
  EXPECT_EQ(items[1]["id"], a);
  EXPECT_TRUE(items[0].contains("resourceRequests"));
  const json all = *core->apps({});
  for (const json& full : all["apps"]["app"]) {
    auto one = core->appsPage({{"q", full["id"].get<std::string>()}});
    ASSERT_TRUE(one.isOk());
    ASSERT_EQ((*one)["appsPage"]["total"], 1);
    EXPECT_EQ((*one)["appsPage"]["items"][0], full);
    for (const std::string& f : webui::kAppRowFields) {
      auto sorted = core->appsPage({{"sort", f}});
      ASSERT_TRUE(sorted.isOk()) << f;
    }
  }
  EXPECT_EQ(core->appsPage({{"sort", "diagnostics"}}).status().code(),
            StatusCode::kInvalidArgument);
  auto nodes = core->nodesPage({{"sort", "availMemoryMB"}, {"desc", "true"}});
  ASSERT_TRUE(nodes.isOk());
  EXPECT_EQ((*nodes)["nodesPage"]["items"][0]["id"], "h2:1");
  EXPECT_EQ((*nodes)["nodesPage"]["items"][0], (*core->node("h2:1"))["node"]);
  EXPECT_EQ(core->nodeSummary()["nodeSummary"]["byPartition"], (json{{"DEFAULT", 2}}));
}

TEST_F(RmClientOpsTest, AttemptAndContainersViews) {
  addNode("h1:1", 4096);
  const std::string app = submit();
  heartbeat("h1:1");
  const std::string attempt = "appattempt_1700000000000_0001_000001";
  auto at = core->appAttempt(app, attempt);
  ASSERT_TRUE(at.isOk()) << at.status().toString();
  EXPECT_EQ((*at)["appAttempt"]["appAttemptId"], attempt);
  auto list = core->attemptContainers(app, attempt);
  ASSERT_TRUE(list.isOk()) << list.status().toString();
  const json& cs = (*list)["containers"]["container"];
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0]["containerId"], "container_1700000000000_0001_01_000001");
  EXPECT_EQ(cs[0]["allocatedMB"], 256);
  EXPECT_EQ(cs[0]["assignedNodeId"], "h1:1");
  EXPECT_EQ(cs[0]["containerState"], "RUNNING");
  EXPECT_EQ(cs[0]["nodeHttpAddress"], "http://h1:8042");
  auto one = core->attemptContainer(app, attempt, "container_1700000000000_0001_01_000001");
  ASSERT_TRUE(one.isOk()) << one.status().toString();
  EXPECT_EQ((*one)["container"]["containerId"], cs[0]["containerId"]);
  EXPECT_EQ(core->appAttempt(app, "appattempt_1700000000000_0001_000002").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(core->attemptContainer(app, attempt, "container_1700000000000_0001_01_000009")
                .status()
                .code(),
            StatusCode::kNotFound);
  EXPECT_FALSE(core->appAttempt(app, "not-an-attempt").isOk());
}

TEST_F(RmClientOpsTest, NodeLabelsChangeAtRunTimeAndReachTheScheduler) {
  addNode("h1:1", 4096);
  addNode("h2:1", 4096);
  ASSERT_TRUE(core->addClusterNodeLabels({{"gpu", true}, {"x", false}}).isOk());
  EXPECT_EQ(core->clusterNodeLabels()["nodeLabelsInfo"]["nodeLabelInfo"].size(), 2u);
  auto bad = core->replaceLabelsOnNodes({{"h1:1", {"nope"}}});
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("nope"), std::string::npos);
  auto r = core->replaceLabelsOnNodes({{"h1", {"gpu"}}});
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(core->driver()
                .scheduler()
                .cluster()
                .node(*core->driver().scheduler().cluster().findNode("h1:1"))
                .partition(),
            "gpu");
  const json m = core->nodeToLabels();
  ASSERT_EQ(m["nodeToLabels"]["nodeToLabels"]["entry"].size(), 1u);
  EXPECT_EQ(m["nodeToLabels"]["nodeToLabels"]["entry"][0]["key"], "h1:1");
  auto l2n = core->labelsToNodes({{"labels", "gpu"}});
  ASSERT_TRUE(l2n.isOk());
  EXPECT_EQ((*l2n)["labelsToNodesInfo"]["labelsToNodes"]["entry"][0]["value"]["nodes"][0], "h1:1");
  // The default partition lost h1's capacity: the cluster view shows it in the gpu partition.
  EXPECT_EQ((*core->node("h1:1"))["node"]["nodeLabels"][0], "gpu");
  // A label a node carries cannot go; once the node is back in the default partition it can.
  EXPECT_FALSE(core->removeClusterNodeLabels({"gpu"}).isOk());
  ASSERT_TRUE(core->replaceLabelsOnNodes({{"h1:1", {}}}).isOk());
  ASSERT_TRUE(core->removeClusterNodeLabels({"gpu"}).isOk());
  EXPECT_FALSE(core->removeClusterNodeLabels({"gpu"}).isOk());  // no longer exists
  EXPECT_EQ(core->clusterNodeLabels()["nodeLabelsInfo"]["nodeLabelInfo"].size(), 1u);
}

TEST_F(RmClientOpsTest, ANodeRunningContainersKeepsItsPartition) {
  addNode("h1:1", 4096);
  ASSERT_TRUE(core->addClusterNodeLabels({{"gpu", true}}).isOk());
  submit();
  heartbeat("h1:1");
  auto r = core->replaceLabelsOnNodes({{"h1:1", {"gpu"}}});
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("runs 1 container"), std::string::npos);
}

// NodeManager-reported labels (ResourceTrackerService with
// yarn.node-labels.configuration-type=distributed): a heartbeat's nodeLabels replace the node's
// partition as rmadmin -replaceLabelsOnNode does; absent means unchanged.
class RmReportedLabelsTest : public RmClientOpsTest {
 protected:
  void distributed() {
    Configuration conf = baseConf();
    conf.set("yarn.node-labels.configuration-type", "distributed");
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    core = std::move(RmCore::create(*s, conf, clock, "127.0.0.1:8088")).value();
  }
  std::string partition(const std::string& id) {
    const Cluster& c = core->driver().scheduler().cluster();
    return c.node(*c.findNode(id)).partition();
  }
  protocol::NodeHeartbeatResponse labelled(const std::string& id,
                                           std::optional<std::vector<std::string>> labels) {
    protocol::NodeHeartbeatRequest hb;
    hb.nodeStatus.nodeId = id;
    hb.nodeStatus.responseId = responseIds[id];
    hb.nodeLabels = std::move(labels);
    auto r = core->nodeHeartbeat(hb);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    if (r.isOk()) responseIds[id] = r->responseId;
    return r.isOk() ? *r : protocol::NodeHeartbeatResponse{};
  }
};

TEST_F(RmReportedLabelsTest, HeartbeatLabelsChangeThePartitionInDistributedMode) {
  distributed();
  ASSERT_TRUE(core->addClusterNodeLabels({{"gpu", true}, {"ssd", true}}).isOk());
  protocol::RegisterNodeManagerRequest reg;
  reg.nodeId = "h1:1";
  reg.httpPort = 8042;
  reg.resource = {4096, 8};
  reg.nodeLabels = {"gpu"};
  auto rr = core->registerNode(reg);
  EXPECT_TRUE(rr.areNodeLabelsAcceptedByRM) << rr.diagnosticsMessage;
  EXPECT_EQ(partition("h1:1"), "gpu");
  responseIds["h1:1"] = 0;

  auto r = labelled("h1:1", std::vector<std::string>{"ssd"});
  EXPECT_TRUE(r.areNodeLabelsAcceptedByRM) << r.diagnosticsMessage;
  EXPECT_EQ(partition("h1:1"), "ssd");
  EXPECT_EQ((*core->node("h1:1"))["node"]["nodeLabels"][0], "ssd");
  EXPECT_TRUE(labelled("h1:1", std::nullopt).areNodeLabelsAcceptedByRM);  // absent: unchanged
  EXPECT_EQ(partition("h1:1"), "ssd");
  r = labelled("h1:1", std::vector<std::string>{"nope"});  // not a cluster label
  EXPECT_FALSE(r.areNodeLabelsAcceptedByRM);
  EXPECT_NE(r.diagnosticsMessage.find("node labels not accepted: Label nope of node h1:1"),
            std::string::npos)
      << r.diagnosticsMessage;
  EXPECT_EQ(r.nodeAction, NodeAction::NORMAL);
  EXPECT_EQ(partition("h1:1"), "ssd");  // the previous partition stays
  r = labelled("h1:1", std::vector<std::string>{"gpu", "ssd"});
  EXPECT_FALSE(r.areNodeLabelsAcceptedByRM);
  EXPECT_NE(r.diagnosticsMessage.find("a node belongs to one partition"), std::string::npos);
  r = labelled("h1:1", std::vector<std::string>{});  // empty: the default partition
  EXPECT_TRUE(r.areNodeLabelsAcceptedByRM) << r.diagnosticsMessage;
  EXPECT_EQ(partition("h1:1"), "");
  EXPECT_TRUE((*core->node("h1:1"))["node"]["nodeLabels"].empty());
}

TEST_F(RmReportedLabelsTest, HeartbeatLabelsWaitUntilTheNodeIsEmpty) {
  distributed();
  ASSERT_TRUE(core->addClusterNodeLabels({{"gpu", true}}).isOk());
  addNode("h1:1", 4096);
  submit();
  heartbeat("h1:1");  // the AM runs on h1
  auto r = labelled("h1:1", std::vector<std::string>{"gpu"});
  EXPECT_FALSE(r.areNodeLabelsAcceptedByRM);
  EXPECT_NE(r.diagnosticsMessage.find("runs 1 container"), std::string::npos);
  EXPECT_EQ(partition("h1:1"), "");
}

TEST_F(RmReportedLabelsTest, LabelsAreRefusedOutsideDistributedMode) {
  ASSERT_TRUE(core->addClusterNodeLabels({{"gpu", true}}).isOk());
  protocol::RegisterNodeManagerRequest reg;
  reg.nodeId = "h1:1";
  reg.httpPort = 8042;
  reg.resource = {4096, 8};
  reg.nodeLabels = {"gpu"};
  auto rr = core->registerNode(reg);
  EXPECT_EQ(rr.nodeAction, NodeAction::NORMAL);
  EXPECT_FALSE(rr.areNodeLabelsAcceptedByRM);
  EXPECT_NE(rr.diagnosticsMessage.find("yarn.node-labels.configuration-type=distributed"),
            std::string::npos)
      << rr.diagnosticsMessage;
  EXPECT_EQ(partition("h1:1"), "");
  responseIds["h1:1"] = 0;
  auto r = labelled("h1:1", std::vector<std::string>{"gpu"});
  EXPECT_EQ(r.nodeAction, NodeAction::NORMAL);
  EXPECT_FALSE(r.areNodeLabelsAcceptedByRM);
  EXPECT_NE(r.diagnosticsMessage.find("node labels not accepted: the ResourceManager takes node "
                                      "labels from NodeManagers only with "
                                      "yarn.node-labels.configuration-type=distributed"),
            std::string::npos)
      << r.diagnosticsMessage;
  EXPECT_EQ(partition("h1:1"), "");
  EXPECT_TRUE(labelled("h1:1", std::nullopt).areNodeLabelsAcceptedByRM);
  // An administrator's label is not undone by heartbeats that carry none.
  ASSERT_TRUE(core->replaceLabelsOnNodes({{"h1:1", {"gpu"}}}).isOk());
  EXPECT_TRUE(labelled("h1:1", std::nullopt).areNodeLabelsAcceptedByRM);
  EXPECT_EQ(partition("h1:1"), "gpu");
}

TEST(RmSettingsLabels, ConfigurationTypeIsChecked) {
  Configuration conf;
  EXPECT_FALSE(RmSettings::fromConfiguration(conf).value().distributedNodeLabels);
  conf.set("yarn.node-labels.configuration-type", "distributed");
  EXPECT_TRUE(RmSettings::fromConfiguration(conf).value().distributedNodeLabels);
  conf.set("yarn.node-labels.configuration-type", "delegated-centralized");
  EXPECT_FALSE(RmSettings::fromConfiguration(conf).value().distributedNodeLabels);
  conf.set("yarn.node-labels.configuration-type", "Distributed");
  EXPECT_NE(RmSettings::fromConfiguration(conf).status().message().find(
                "yarn.node-labels.configuration-type"),
            std::string::npos);
}

TEST_F(RmClientOpsTest, AppActivitiesSayWhyAnAppWaits) {
  addNode("h1:1", 512);
  const std::string a = submit(384);
  heartbeat("h1:1");
  const std::string b = submit(384);
  heartbeat("h1:1");
  auto acts = core->appActivities(b, {});
  ASSERT_TRUE(acts.isOk()) << acts.status().toString();
  const json& info = (*acts)["appActivities"];
  EXPECT_EQ(info["applicationId"], b);
  EXPECT_FALSE(info["diagnostic"].get<std::string>().empty());
  ASSERT_FALSE(info["allocations"].empty());
  EXPECT_EQ(info["allocations"][0]["allocationState"], "SKIPPED");
  // a's AM allocation is in its own activities and in the node's last cycle.
  auto mine = core->appActivities(a, {{"limit", "1"}});
  ASSERT_TRUE(mine.isOk());
  EXPECT_EQ((*mine)["appActivities"]["allocations"].size(), 1u);
  auto node = core->activities({{"nodeId", "h1:1"}});
  ASSERT_TRUE(node.isOk()) << node.status().toString();
  EXPECT_EQ((*node)["activities"]["nodeId"], "h1:1");
  EXPECT_FALSE((*node)["activities"]["allocations"].empty());
  EXPECT_FALSE(core->activities({{"nodeId", "nope:1"}}).isOk());
  EXPECT_FALSE(core->appActivities(b, {{"limit", "0"}}).isOk());
}

TEST_F(RmClientOpsTest, RefreshQueuesAppliesAValidConfigurationAndKeepsTheOldOnError) {
  addNode("h1:1", 4096);
  Configuration next = baseConf();
  next.set("yarn.scheduler.capacity.root.queues", "default,b");
  next.set("yarn.scheduler.capacity.root.default.capacity", "60");
  next.set("yarn.scheduler.capacity.root.b.capacity", "40");
  auto ok = core->refreshQueues(next);
  ASSERT_TRUE(ok.isOk()) << ok.status().toString();
  EXPECT_NE(core->scheduler().dump().find("root.b"), std::string::npos);
  Configuration bad = baseConf();
  bad.set("yarn.scheduler.capacity.root.default.capacity", "60");  // children sum to 60
  auto refused = core->refreshQueues(bad);
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(core->scheduler().dump().find("root.b"), std::string::npos);  // old config kept
}

protocol::AllocateResponse allocateOk(RmCore& core, const std::string& attempt, int32_t id,
                                      std::vector<protocol::ResourceRequest> asks = {}) {
  protocol::AllocateRequest a;
  a.applicationAttemptId = attempt;
  a.responseId = id;
  a.ask = std::move(asks);
  auto r = core.allocate(a);
  EXPECT_TRUE(r.isOk()) << r.status().toString();
  return r.isOk() ? *r : protocol::AllocateResponse{};
}

TEST_F(RmClientOpsTest, KeptContainersReachTheNextAttemptsAm) {
  addNode("h1:1", 4096);
  const std::string app = submit(256, /*keep=*/true);
  heartbeat("h1:1");
  ASSERT_EQ(core->takeLaunches().size(), 1u);
  const std::string first = "appattempt_1700000000000_0001_000001";
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = first;
  ASSERT_TRUE(core->registerAm(reg).isOk());
  allocateOk(*core, first, 0, {{1, "*", {256, 1}, 1, true, "", 0}});
  heartbeat("h1:1");
  auto got = allocateOk(*core, first, 1);
  ASSERT_EQ(got.allocatedContainers.size(), 1u);
  const std::string worker = got.allocatedContainers[0].id;
  // The AM goes silent: its attempt fails, the worker keeps running.
  clock.advanceMs(6000);
  heartbeat("h1:1");
  core->tick();
  heartbeat("h1:1");  // the second attempt's AM container
  ASSERT_EQ(core->takeLaunches().size(), 1u);
  reg.applicationAttemptId = "appattempt_1700000000000_0001_000002";
  auto second = core->registerAm(reg);
  ASSERT_TRUE(second.isOk()) << second.status().toString();
  ASSERT_EQ(second->containersFromPreviousAttempts.size(), 1u);
  EXPECT_EQ(second->containersFromPreviousAttempts[0].id, worker);
  EXPECT_EQ(second->containersFromPreviousAttempts[0].nodeHttpAddress, "h1:8042");
  auto list = core->attemptContainers(app, "appattempt_1700000000000_0001_000001");
  ASSERT_TRUE(list.isOk());
  EXPECT_EQ((*list)["containers"]["container"].size(), 1u);  // the worker, still live
}

TEST_F(RmClientOpsTest, WithoutKeepTheWorkersEndWithTheAttempt) {
  addNode("h1:1", 4096);
  submit();
  heartbeat("h1:1");
  core->takeLaunches();
  const std::string first = "appattempt_1700000000000_0001_000001";
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = first;
  ASSERT_TRUE(core->registerAm(reg).isOk());
  allocateOk(*core, first, 0, {{1, "*", {256, 1}, 1, true, "", 0}});
  heartbeat("h1:1");
  ASSERT_EQ(allocateOk(*core, first, 1).allocatedContainers.size(), 1u);
  clock.advanceMs(6000);
  heartbeat("h1:1");
  core->tick();
  heartbeat("h1:1");
  reg.applicationAttemptId = "appattempt_1700000000000_0001_000002";
  auto second = core->registerAm(reg);
  ASSERT_TRUE(second.isOk()) << second.status().toString();
  EXPECT_TRUE(second->containersFromPreviousAttempts.empty());
}

TEST_F(RmClientOpsTest, ALostNodeIsInTheNextAllocateResponsesUpdatedNodes) {
  addNode("h1:1", 4096);
  addNode("h2:1", 4096);
  submit();
  heartbeat("h1:1");
  core->takeLaunches();
  const std::string attempt = "appattempt_1700000000000_0001_000001";
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = attempt;
  ASSERT_TRUE(core->registerAm(reg).isOk());
  EXPECT_TRUE(allocateOk(*core, attempt, 0).updatedNodes.empty());
  // h2 stays silent past the NM expiry; h1 and the AM keep talking.
  for (int i = 0; i < 13; ++i) {
    clock.advanceMs(5000);
    heartbeat("h1:1");
    allocateOk(*core, attempt, i + 1);
    core->tick();
  }
  auto r = allocateOk(*core, attempt, 14);
  ASSERT_EQ(r.updatedNodes.size(), 1u);
  EXPECT_EQ(r.updatedNodes[0].nodeId, "h2:1");
  EXPECT_EQ(r.updatedNodes[0].nodeState, "LOST");
  EXPECT_EQ(r.updatedNodes[0].nodeUpdateType, "NODE_UNUSABLE");
  EXPECT_EQ(r.updatedNodes[0].capability.memory, 4096);
  EXPECT_TRUE(allocateOk(*core, attempt, 15).updatedNodes.empty());  // told once
}

}  // namespace
}  // namespace spindle::rm
