// RmCore with a state store: what a restart keeps (apps, attempts, final states, admin node
// attributes), the epoch in container ids, NM resync with container recovery charging queue
// usage, AM_RESYNC, the scheduling wait, a recovered attempt whose AM container is never reported,
// and a failed or fenced write.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "store/memory_store.h"
#include "store/sqlite_store.h"

namespace spindle::rm {
namespace {

using protocol::ContainerState;
using protocol::NodeAction;

class RmRecoveryTest : public ::testing::Test {
 protected:
  void SetUp() override { start(); }

  void start() {
    core.reset();
    Configuration conf;
    conf.set("spindle.cluster.timestamp", std::to_string(clock.nowMs()));
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.set("yarn.am.liveness-monitor.expiry-interval-ms", "60000");
    conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    conf.set("yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms", "2000");
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk()) << s.status().toString();
    auto c = RmCore::create(*s, conf, clock, "127.0.0.1:8030",
                            std::make_unique<store::MemoryStore>(data));
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    core = std::move(*c);
    core->setStoreFailureHandler([this](const store::StoreStatus& st) { failures.push_back(st); });
    responseIds.clear();
  }

  protocol::RegisterNodeManagerResponse addNode(
      const std::string& id, int64_t mb, std::vector<protocol::ContainerStatus> running = {}) {
    protocol::RegisterNodeManagerRequest r;
    r.nodeId = id;
    r.httpPort = 8042;
    r.resource = {mb, 8};
    r.containerStatuses = std::move(running);
    responseIds[id] = 0;
    return core->registerNode(r);
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

  std::string submit(int64_t amMb = 256, bool keepContainers = false) {
    const std::string id = core->newApplication()["application-id"];
    protocol::SubmissionContext ctx;
    ctx.keepContainersAcrossApplicationAttempts = keepContainers;
    ctx.applicationId = id;
    ctx.applicationName = "job";
    ctx.resource = {amMb, 1};
    ctx.amContainerSpec.commands = {"run-am"};
    auto s = core->submit(ctx, "alice");
    EXPECT_TRUE(s.isOk()) << s.status().toString();
    return id;
  }

  // Heartbeats until the AM container is allocated; answers its id.
  std::string amContainer(const std::string& node) {
    heartbeat(node);
    auto launches = core->takeLaunches();
    EXPECT_EQ(launches.size(), 1u);
    return launches.empty() ? "" : launches[0].request.startContainerRequest.at(0).containerId;
  }

  // Registers the attempt's AM, asks for `n` 256 MB containers, heartbeats `node` twice and
  // answers the ids the AM's next allocate returns.
  std::vector<std::string> registerAndAllocate(const std::string& attempt, int32_t n,
                                               const std::string& node) {
    protocol::RegisterApplicationMasterRequest reg;
    reg.applicationAttemptId = attempt;
    EXPECT_TRUE(core->registerAm(reg).isOk());
    protocol::AllocateRequest ask;
    ask.applicationAttemptId = attempt;
    ask.ask = {{1, "*", {256, 1}, n, true, "", 0}};
    EXPECT_TRUE(core->allocate(ask).isOk());
    heartbeat(node);
    heartbeat(node);
    protocol::AllocateRequest pull;
    pull.applicationAttemptId = attempt;
    pull.responseId = 1;
    auto got = core->allocate(pull);
    EXPECT_TRUE(got.isOk()) << got.status().toString();
    std::vector<std::string> ids;
    if (got.isOk()) {
      for (const protocol::Container& c : got->allocatedContainers) ids.push_back(c.id);
    }
    return ids;
  }

  static std::string attemptOf(const std::string& container) {
    return protocol::toString(*protocol::attemptOfContainer(container));
  }

  std::string field(const std::string& app, const char* f) {
    auto j = core->app(app);
    EXPECT_TRUE(j.isOk()) << app;
    return j.isOk() ? (*j)["app"][f].dump() : "";
  }

  int64_t allocatedMb() { return core->metrics()["clusterMetrics"]["allocatedMB"]; }

  static protocol::ContainerStatus running(const std::string& id, int64_t mb) {
    protocol::ContainerStatus s{id, ContainerState::RUNNING, protocol::kInvalidExitStatus, ""};
    s.allocatedResource = protocol::ResourceRecord{mb, 1};
    return s;
  }

  SimulatedClock clock{1'700'000'000'000};
  std::shared_ptr<store::MemoryStoreData> data = std::make_shared<store::MemoryStoreData>();
  std::unique_ptr<RmCore> core;
  std::vector<store::StoreStatus> failures;
  std::map<std::string, int32_t> responseIds;
};

TEST_F(RmRecoveryTest, RestartKeepsAppsContainersAndQueueUsage) {
  EXPECT_EQ(core->epoch(), 1u);
  ASSERT_EQ(addNode("h1:1", 1024).nodeAction, NodeAction::NORMAL);
  const std::string a = submit();
  const std::string am = amContainer("h1:1");
  EXPECT_EQ(am.rfind("container_e1_", 0), 0u) << am;
  const std::string attempt = attemptOf(am);
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = attempt;
  const std::vector<std::string> tasks = registerAndAllocate(attempt, 2, "h1:1");
  ASSERT_EQ(tasks.size(), 2u);
  // A second app waits: the node is full (256 AM + 2 x 256 + this 512 AM > 1024).
  const std::string b = submit(512);
  heartbeat("h1:1");
  EXPECT_TRUE(core->takeLaunches().empty());
  EXPECT_EQ(allocatedMb(), 768);
  const int64_t batches = data->batchesApplied;
  EXPECT_GT(batches, 0);

  // kill -9: the core goes away without a word; a new one starts on the same store.
  clock.advanceMs(5000);
  start();
  EXPECT_EQ(core->epoch(), 2u);
  EXPECT_EQ(core->recoveredApps(), 2u);
  // A is ACCEPTED until an NM reports its AM container; B waits for its AM.
  EXPECT_EQ(field(a, "state"), "\"ACCEPTED\"");
  EXPECT_EQ(field(b, "state"), "\"ACCEPTED\"");
  EXPECT_EQ(allocatedMb(), 0);
  // The NM is unknown: RESYNC; it registers again with what it runs.
  EXPECT_EQ(heartbeat("h1:1").nodeAction, NodeAction::RESYNC);
  auto r = addNode(
      "h1:1", 1024,
      {running(am, 256), running(tasks[0], 256), running(tasks[1], 256),
       running("container_e1_" + std::to_string(1'700'000'000'000) + "_0099_01_000001", 256)});
  ASSERT_EQ(r.nodeAction, NodeAction::NORMAL);
  // Queue usage is rebuilt from the reports, exactly as allocations would have charged it.
  EXPECT_EQ(allocatedMb(), 768);
  EXPECT_EQ(field(a, "state"), "\"RUNNING\"");
  EXPECT_TRUE(core->driver().scheduler().checkInvariants().isOk());
  // The unknown app's container is cleaned up.
  auto hb = heartbeat("h1:1");
  ASSERT_EQ(hb.containersToCleanup.size(), 1u);
  EXPECT_NE(hb.containersToCleanup[0].find("_0099_"), std::string::npos);

  // The AM's next allocate is told to resync; it registers again and goes on.
  protocol::AllocateRequest old;
  old.applicationAttemptId = attempt;
  old.responseId = 2;
  auto resync = core->allocate(old);
  ASSERT_TRUE(resync.isOk());
  ASSERT_TRUE(resync->amCommand.has_value());
  EXPECT_EQ(*resync->amCommand, protocol::AMCommand::AM_RESYNC);
  ASSERT_TRUE(core->registerAm(reg).isOk());
  old.responseId = 0;
  ASSERT_TRUE(core->allocate(old).isOk());

  // A container that finished while the RM was down reaches the AM.
  heartbeat("h1:1", {{tasks[0], ContainerState::COMPLETE, 0, ""}});
  old.responseId = 1;
  auto done = core->allocate(old);
  ASSERT_TRUE(done.isOk());
  ASSERT_EQ(done->completedContainerStatuses.size(), 1u);
  EXPECT_EQ(done->completedContainerStatuses[0].containerId, tasks[0]);
  EXPECT_EQ(allocatedMb(), 512);

  // Nothing new during the scheduling wait; then the pending app starts, with an e2 id.
  EXPECT_TRUE(core->inSchedulingWait());
  heartbeat("h1:1");
  EXPECT_TRUE(core->takeLaunches().empty());
  clock.advanceMs(2001);
  core->tick();
  EXPECT_FALSE(core->inSchedulingWait());
  const std::string bAm = amContainer("h1:1");
  EXPECT_EQ(bAm.rfind("container_e2_", 0), 0u) << bAm;
  EXPECT_EQ(attemptOf(bAm), protocol::toString(protocol::ApplicationAttemptId{
                                *protocol::parseApplicationId(b), 1}));
  EXPECT_TRUE(core->driver().scheduler().checkInvariants().isOk());
  EXPECT_TRUE(failures.empty());
}

TEST_F(RmRecoveryTest, FinishedAppsStayFinishedAndNewIdsFollowTheStoredOnes) {
  ASSERT_EQ(addNode("h1:1", 4096).nodeAction, NodeAction::NORMAL);
  const std::string a = submit();
  const std::string attempt = attemptOf(amContainer("h1:1"));
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = attempt;
  ASSERT_TRUE(core->registerAm(reg).isOk());
  protocol::FinishApplicationMasterRequest fin;
  fin.applicationAttemptId = attempt;
  fin.finalApplicationStatus = protocol::FinalApplicationStatus::SUCCEEDED;
  fin.diagnostics = "all done";
  ASSERT_TRUE(core->finishAm(fin).isOk());
  const std::string k = submit();
  ASSERT_TRUE(core->killApp(k).isOk());
  clock.advanceMs(1000);
  start();
  EXPECT_EQ(field(a, "state"), "\"FINISHED\"");
  EXPECT_EQ(field(a, "finalStatus"), "\"SUCCEEDED\"");
  EXPECT_EQ(field(a, "diagnostics"), "\"all done\"");
  EXPECT_EQ(field(k, "state"), "\"KILLED\"");
  auto attempts = core->appAttempts(a);
  ASSERT_TRUE(attempts.isOk());
  EXPECT_EQ((*attempts)["appAttempts"]["appAttempt"][0]["appAttemptState"], "FINISHED");
  // The next id follows the stored ones (same cluster timestamp).
  const std::string next = core->newApplication()["application-id"];
  EXPECT_EQ(protocol::parseApplicationId(next)->seq, 3u);
  EXPECT_EQ(protocol::parseApplicationId(next)->clusterTimestamp,
            protocol::parseApplicationId(a)->clusterTimestamp);
}

// Recovery admits every stored app before one activation pass (Scheduler::beginBulkAdmission):
// apps that were waiting for their AM container come back waiting, and once a node registers
// and the scheduling wait ends they start in their order, as far as the node holds them.
TEST_F(RmRecoveryTest, AppsWaitingForTheirAmStartAfterARestartInTheirOrder) {
  std::vector<std::string> apps;
  for (int i = 0; i < 6; ++i) apps.push_back(submit(1024));
  clock.advanceMs(1000);
  start();
  EXPECT_EQ(core->recoveredApps(), 6u);
  ASSERT_EQ(addNode("h1:1", 4096).nodeAction, NodeAction::NORMAL);
  heartbeat("h1:1");
  EXPECT_TRUE(core->takeLaunches().empty()) << "nothing is allocated in the scheduling wait";
  clock.advanceMs(2500);
  std::set<std::string> started;
  for (int i = 0; i < 6; ++i) {
    heartbeat("h1:1");
    for (const auto& l : core->takeLaunches()) {
      const std::string& cid = l.request.startContainerRequest.at(0).containerId;
      started.insert(protocol::toString(protocol::attemptOfContainer(cid)->app));
    }
  }
  EXPECT_EQ(started, (std::set<std::string>{apps[0], apps[1], apps[2], apps[3]}))
      << "4 GB holds the first four 1 GB AMs";
  EXPECT_EQ(allocatedMb(), 4096);
}

// YARN recovers such an attempt as LAUNCHED: the end of the scheduling wait does not fail it
// (its NM may just be slow to register again); an AM that keeps calling keeps it, and the AM
// liveness monitor ends it when the AM stays silent.
TEST_F(RmRecoveryTest, AnAmNoNodeReportsWaitsForTheAmLivenessMonitor) {
  ASSERT_EQ(addNode("h1:1", 4096).nodeAction, NodeAction::NORMAL);
  const std::string a = submit();
  const std::string am = amContainer("h1:1");
  clock.advanceMs(1000);
  start();
  ASSERT_EQ(addNode("h1:1", 4096).nodeAction, NodeAction::NORMAL);  // without the AM
  heartbeat("h1:1");
  EXPECT_TRUE(core->takeLaunches().empty());
  clock.advanceMs(2500);
  core->tick();
  EXPECT_FALSE(core->inSchedulingWait());
  heartbeat("h1:1");
  EXPECT_TRUE(core->takeLaunches().empty());
  auto attempts = core->appAttempts(a);
  ASSERT_TRUE(attempts.isOk());
  EXPECT_EQ((*attempts)["appAttempts"]["appAttempt"].size(), 1u);

  // The AM calls (and is told to resync): the attempt lives past one expiry interval.
  protocol::AllocateRequest call;
  call.applicationAttemptId = attemptOf(am);
  clock.advanceMs(40'000);
  auto resync = core->allocate(call);
  ASSERT_TRUE(resync.isOk());
  ASSERT_TRUE(resync->amCommand.has_value());
  clock.advanceMs(40'000);
  core->tick();
  heartbeat("h1:1");
  EXPECT_TRUE(core->takeLaunches().empty());

  // Silent for longer than the expiry interval: the attempt times out and a second one starts.
  clock.advanceMs(25'000);
  core->tick();
  const std::string am2 = amContainer("h1:1");
  EXPECT_EQ(attemptOf(am2), protocol::toString(protocol::ApplicationAttemptId{
                                *protocol::parseApplicationId(a), 2}));
  attempts = core->appAttempts(a);
  ASSERT_TRUE(attempts.isOk());
  const auto& list = (*attempts)["appAttempts"]["appAttempt"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["appAttemptState"], "FAILED");
  EXPECT_NE(list[0]["diagnosticsInfo"].get<std::string>().find("timed out"), std::string::npos);
  // A report of the old AM container now is of a past attempt: stopped.
  auto hb = heartbeat("h1:1", {running(am, 256)});
  EXPECT_EQ(hb.containersToCleanup, std::vector<std::string>{am});
}

// AbstractYarnScheduler.releaseContainers: releasing a container the RM does not know is not an
// error; shortly after a restart it is remembered and stopped when an NM reports it.
TEST_F(RmRecoveryTest, ReleasingAnUnreportedContainerIsNoErrorAndStopsItWhenReported) {
  ASSERT_EQ(addNode("h1:1", 4096).nodeAction, NodeAction::NORMAL);
  submit();
  const std::string am = amContainer("h1:1");
  const std::string attempt = attemptOf(am);
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = attempt;
  const std::vector<std::string> tasks = registerAndAllocate(attempt, 1, "h1:1");
  ASSERT_EQ(tasks.size(), 1u);
  const std::string task = tasks[0];

  clock.advanceMs(1000);
  start();
  ASSERT_EQ(addNode("h1:1", 4096, {running(am, 256)}).nodeAction, NodeAction::NORMAL);
  protocol::AllocateRequest call;
  call.applicationAttemptId = attempt;
  ASSERT_TRUE(core->allocate(call).isOk());  // AM_RESYNC
  ASSERT_TRUE(core->registerAm(reg).isOk());
  call.release = {task};
  auto released = core->allocate(call);
  ASSERT_TRUE(released.isOk()) << released.status().toString();
  // The NM reports it late (it had not started it yet): stopped, not recovered.
  auto hb = heartbeat("h1:1", {running(am, 256), running(task, 256)});
  EXPECT_EQ(hb.containersToCleanup, std::vector<std::string>{task});
  EXPECT_EQ(allocatedMb(), 256);
  // Long after the restart, an unknown release is still no error.
  clock.advanceMs(700'000);
  call.responseId = 1;
  call.release = {task};
  EXPECT_TRUE(core->allocate(call).isOk());
}

TEST_F(RmRecoveryTest, AdminNodeAttributesSurviveARestart) {
  protocol::NodesToAttributesMappingRequest m;
  m.operation = "ADD";
  m.nodesToAttributes = {{"h9", {{"rm.yarn.io", "os", "STRING", "linux"}}}};
  ASSERT_TRUE(core->mapAttributesToNodes(m).isOk());
  start();
  auto j = core->nodesToAttributes({{"nodes", "h9"}});
  ASSERT_TRUE(j.isOk());
  EXPECT_NE(j->dump().find("linux"), std::string::npos) << j->dump();
}

TEST_F(RmRecoveryTest, FailedAndFencedWritesReachTheHandler) {
  data->failWrites = true;
  submit();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].code(), store::StoreCode::kFailed);
  data->failWrites = false;
  data->fenced = true;
  submit();
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[1].code(), store::StoreCode::kFenced);
}

TEST(RmRecoveryStore, ACorruptSqliteStoreIsRefusedNamingTheFile) {
  char tmpl[] = "/tmp/spindle_rm_recovery_XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string path = dir + "/rm.db";
  { std::ofstream(path) << "this is not SQLite, it is a truncated text file\n"; }
  Configuration conf;
  auto s = RmSettings::fromConfiguration(conf);
  ASSERT_TRUE(s.isOk());
  SimulatedClock clock{1000};
  auto c = RmCore::create(*s, conf, clock, "", std::make_unique<store::SqliteStore>(path));
  ASSERT_FALSE(c.isOk());
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(c.status().message().find(path), std::string::npos) << c.status().message();
  std::filesystem::remove_all(dir);
}

// RMAppAttemptImpl.shouldCountTowardsMaxAttemptRetry: an AM lost with its node (ABORTED) does
// not count against am.max-attempts (2 here); an AM that exits with an error does. What
// counted survives a restart in the stored attempts.
TEST_F(RmRecoveryTest, AnAmLostWithItsNodeDoesNotCountAgainstMaxAttempts) {
  ASSERT_EQ(addNode("h1:1", 1024).nodeAction, NodeAction::NORMAL);
  const std::string a = submit();
  std::string am = amContainer("h1:1");
  for (int lost = 0; lost < 3; ++lost) {
    // The node registers again (a restarted NM): what it ran ends ABORTED.
    ASSERT_EQ(addNode("h1:1", 1024).nodeAction, NodeAction::NORMAL);
    EXPECT_EQ(field(a, "state"), "\"ACCEPTED\"") << "after node loss " << lost;
    am = amContainer("h1:1");
  }
  EXPECT_EQ(attemptOf(am).substr(attemptOf(am).size() - 6), "000004");
  // An AM that exits 1 counts: one failure, a new attempt.
  heartbeat("h1:1", {{am, ContainerState::COMPLETE, 1, ""}});
  EXPECT_EQ(field(a, "state"), "\"ACCEPTED\"");
  am = amContainer("h1:1");
  start();  // restart: the stored attempts keep their AM exit statuses
  ASSERT_EQ(heartbeat("h1:1").nodeAction, NodeAction::RESYNC);
  addNode("h1:1", 1024, {running(am, 256)});
  heartbeat("h1:1", {{am, ContainerState::COMPLETE, 1, ""}});
  EXPECT_EQ(field(a, "state"), "\"FAILED\"");
  EXPECT_NE(field(a, "diagnostics").find("failed 2 times"), std::string::npos)
      << field(a, "diagnostics");
  const auto& attempts = data->snapshot.of(store::RecordKind::kAttempt);
  ASSERT_EQ(attempts.size(), 5u);
  EXPECT_EQ(attempts.begin()->second["amContainerExitStatus"], -100);
  EXPECT_EQ(attempts.rbegin()->second["amContainerExitStatus"], 1);
}

// keep-containers-across-application-attempts: a container of attempt 1 that completes while
// attempt 2 runs reaches attempt 2's AM (it received the container at registration).
TEST_F(RmRecoveryTest, AKeptContainersCompletionReachesTheNextAttempt) {
  ASSERT_EQ(addNode("h1:1", 2048).nodeAction, NodeAction::NORMAL);
  submit(256, /*keepContainers=*/true);
  const std::string am1 = amContainer("h1:1");
  const std::vector<std::string> tasks = registerAndAllocate(attemptOf(am1), 1, "h1:1");
  ASSERT_EQ(tasks.size(), 1u);
  heartbeat("h1:1", {{am1, ContainerState::COMPLETE, 1, ""}});  // the AM dies
  const std::string am2 = amContainer("h1:1");
  protocol::RegisterApplicationMasterRequest reg;
  reg.applicationAttemptId = attemptOf(am2);
  auto registered = core->registerAm(reg);
  ASSERT_TRUE(registered.isOk());
  ASSERT_EQ(registered->containersFromPreviousAttempts.size(), 1u);
  EXPECT_EQ(registered->containersFromPreviousAttempts[0].id, tasks[0]);
  heartbeat("h1:1", {{tasks[0], ContainerState::COMPLETE, 0, ""}});
  protocol::AllocateRequest pull;
  pull.applicationAttemptId = attemptOf(am2);
  auto got = core->allocate(pull);
  ASSERT_TRUE(got.isOk()) << got.status().toString();
  ASSERT_EQ(got->completedContainerStatuses.size(), 1u);
  EXPECT_EQ(got->completedContainerStatuses[0].containerId, tasks[0]);
  EXPECT_EQ(got->completedContainerStatuses[0].exitStatus, 0);
}

}  // namespace
}  // namespace spindle::rm
