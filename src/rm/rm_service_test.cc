#include "rm/rm_service.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "protocol/codec.h"
#include "protocol/http_client.h"
#include "store/memory_store.h"

namespace spindle::rm {
namespace {

using nlohmann::json;

// The RM's HTTP front on a real loopback server: routing, methods, and bad input answered in
// YARN's RemoteException shape without reaching the scheduler.
class RmServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Configuration conf;
    conf.set("spindle.cluster.timestamp", "1700000000000");
    auto s = RmSettings::fromConfiguration(conf);
    ASSERT_TRUE(s.isOk());
    core = RmCore::create(*s, conf, clock, "127.0.0.1:0",
                          std::make_unique<store::MemoryStore>(storeData))
               .value();
    // The daemon's gather time, so that these requests go through the loop as the RM's do.
    loop = std::make_unique<SchedulerLoop>(
        50, [this] { core->tick(); }, SchedulerLoop::Task{}, s->schedulerGatherUs);
    service = std::make_unique<RmService>(*core, *loop);
    server = std::make_unique<protocol::HttpServer>(
        "127.0.0.1", 0, [this](protocol::HttpRequest r, protocol::Respond d) {
          service->handle(std::move(r), std::move(d));
        });
    ASSERT_TRUE(server->start().isOk());
    loop->start();
    client = std::make_unique<protocol::HttpClient>("127.0.0.1", server->port(), 5000);
  }
  void TearDown() override {
    server->stop();
    loop->stop();
  }
  // {status, parsed body}
  std::pair<int, json> call(const std::string& method, const std::string& path,
                            const std::string& body = "") {
    auto r = client->request(method, path, body);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    if (!r) return {0, json()};
    return {r->status, r->body.empty() ? json() : json::parse(r->body, nullptr, false)};
  }
  std::string message(const json& j) { return j["RemoteException"]["message"]; }

  SimulatedClock clock{1000};
  std::shared_ptr<store::MemoryStoreData> storeData = std::make_shared<store::MemoryStoreData>();
  std::unique_ptr<RmCore> core;
  std::unique_ptr<SchedulerLoop> loop;
  std::unique_ptr<RmService> service;
  std::unique_ptr<protocol::HttpServer> server;
  std::unique_ptr<protocol::HttpClient> client;
};

TEST_F(RmServiceTest, ViewsAndRouting) {
  auto [s1, info] = call("GET", "/ws/v1/cluster/info");
  EXPECT_EQ(s1, 200);
  EXPECT_EQ(info["clusterInfo"]["id"], 1700000000000);
  EXPECT_EQ(call("GET", "/ws/v1/cluster").first, 200);
  EXPECT_EQ(call("GET", "/ws/v1/cluster/metrics").second["clusterMetrics"]["activeNodes"], 0);
  EXPECT_EQ(call("GET", "/ws/v1/cluster/scheduler").second["scheduler"]["schedulerInfo"]["type"],
            "capacityScheduler");
  auto [s2, nf] = call("GET", "/ws/v1/cluster/nothing");
  EXPECT_EQ(s2, 404);
  EXPECT_EQ(nf["RemoteException"]["exception"], "NotFoundException");
  EXPECT_EQ(call("DELETE", "/ws/v1/cluster/apps").first, 405);
  EXPECT_EQ(call("GET", "/rpc/v1/am/allocate").first, 405);
  EXPECT_EQ(call("GET", "/elsewhere").first, 404);
}

TEST_F(RmServiceTest, BadInputIsAnswered400WithTheReason) {
  auto [s1, b1] = call("POST", "/ws/v1/cluster/apps", "{not json");
  EXPECT_EQ(s1, 400);
  EXPECT_EQ(message(b1), "application-submission-context: malformed JSON at byte 3");
  auto [s2, b2] = call("PUT", "/ws/v1/cluster/apps/application_1700000000000_0001/state",
                       R"({"state": "RUNNING"})");
  EXPECT_EQ(s2, 400);
  EXPECT_EQ(message(b2), "Only 'KILLED' is allowed as a target state.");
  auto [s3, b3] = call("GET", "/ws/v1/cluster/apps?states=RUNNING,NOPE");
  EXPECT_EQ(s3, 400);
  EXPECT_NE(message(b3).find("Invalid application-state NOPE"), std::string::npos);
  auto [s4, b4] = call("POST", "/rpc/v1/resource-tracker/heartbeat", R"({"nodeStatus": 3})");
  EXPECT_EQ(s4, 400);
  EXPECT_EQ(message(b4), "NodeHeartbeatRequest.nodeStatus: expected an object, got 3");
  auto [s5, b5] = call("POST", "/rpc/v1/am/allocate",
                       R"({"applicationAttemptId": "appattempt_1700000000000_0007_000001",
                           "responseId": 0})");
  EXPECT_EQ(s5, 404);
  EXPECT_EQ(message(b5), "application attempt appattempt_1700000000000_0007_000001 does not exist");
  auto [s6, b6] = call("GET", "/ws/v1/cluster/nodes/h:1");
  EXPECT_EQ(s6, 404);
  EXPECT_EQ(message(b6), "nodeId, h:1, is not found");
}

TEST_F(RmServiceTest, SubmitAndKillOverHttp) {
  auto [s1, fresh] = call("POST", "/ws/v1/cluster/apps/new-application");
  ASSERT_EQ(s1, 200);
  const std::string id = fresh["application-id"];
  EXPECT_EQ(id, "application_1700000000000_0001");
  const json ctx = {{"application-id", id},
                    {"resource", {{"memory", 1024}, {"vCores", 1}}},
                    {"am-container-spec", {{"commands", {{"command", "true"}}}}}};
  EXPECT_EQ(call("POST", "/ws/v1/cluster/apps?user.name=bob", ctx.dump()).first, 202);
  auto [s2, app] = call("GET", "/ws/v1/cluster/apps/" + id);
  ASSERT_EQ(s2, 200);
  EXPECT_EQ(app["app"]["user"], "bob");
  EXPECT_EQ(app["app"]["state"], "ACCEPTED");
  auto [s3, killed] = call("PUT", "/ws/v1/cluster/apps/" + id + "/state", R"({"state":"KILLED"})");
  EXPECT_EQ(s3, 200);
  EXPECT_EQ(killed["state"], "KILLED");
  EXPECT_EQ(call("GET", "/ws/v1/cluster/apps?states=KILLED").second["apps"]["app"].size(), 1u);
}

// RMWebServices consumes application/xml too: the same submission and kill as XML bodies.
TEST_F(RmServiceTest, XmlBodiesAreReadAsTheirJsonForm) {
  const std::string id =
      call("POST", "/ws/v1/cluster/apps/new-application").second["application-id"];
  const std::string ctx = R"(<?xml version="1.0" encoding="UTF-8"?>
<application-submission-context>
  <application-id>)" + id +
                          R"(</application-id>
  <application-name>xml app</application-name>
  <application-type>MAPREDUCE</application-type>
  <am-container-spec>
    <commands><command>sleep 1</command></commands>
    <environment>
      <entry><key>A</key><value>1</value></entry>
      <entry><key>B</key><value>2</value></entry>
    </environment>
  </am-container-spec>
  <resource><memory>1024</memory><vCores>1</vCores></resource>
  <keep-containers-across-application-attempts>true</keep-containers-across-application-attempts>
</application-submission-context>)";
  auto r = client->request("POST", "/ws/v1/cluster/apps?user.name=bob", ctx, "application/xml");
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->status, 202) << r->body;
  auto [s1, app] = call("GET", "/ws/v1/cluster/apps/" + id);
  ASSERT_EQ(s1, 200);
  EXPECT_EQ(app["app"]["name"], "xml app");
  EXPECT_EQ(app["app"]["applicationType"], "MAPREDUCE");
  EXPECT_EQ(app["app"]["allocatedMB"], 0);
  auto kill = client->request("PUT", "/ws/v1/cluster/apps/" + id + "/state",
                              "<appstate><state>KILLED</state></appstate>",
                              "application/xml; charset=utf-8");
  ASSERT_TRUE(kill.isOk());
  EXPECT_EQ(kill->status, 200) << kill->body;
  EXPECT_EQ(call("GET", "/ws/v1/cluster/apps/" + id).second["app"]["state"], "KILLED");
  // Malformed XML: 400 naming the call and the parser's reason.
  auto bad = client->request("POST", "/ws/v1/cluster/apps", "<a><b></a>", "text/xml");
  ASSERT_TRUE(bad.isOk());
  EXPECT_EQ(bad->status, 400);
  EXPECT_NE(bad->body.find("POST /ws/v1/cluster/apps"), std::string::npos) << bad->body;
  EXPECT_NE(bad->body.find("not well-formed"), std::string::npos) << bad->body;
}

// A deposed HA leader: its write is fenced, so the call that needed it is refused with
// StandbyException (clients fail over) rather than answered as if it were durable, and so is
// everything after.
TEST_F(RmServiceTest, AfterAFencedWriteEveryCallIsRefusedAsStandby) {
  auto [s1, fresh] = call("POST", "/ws/v1/cluster/apps/new-application");
  ASSERT_EQ(s1, 200);
  const std::string id = fresh["application-id"];
  storeData->fenced = true;
  const json ctx = {{"application-id", id},
                    {"resource", {{"memory", 1024}, {"vCores", 1}}},
                    {"am-container-spec", {{"commands", {{"command", "true"}}}}}};
  auto [s2, refused] = call("POST", "/ws/v1/cluster/apps?user.name=bob", ctx.dump());
  EXPECT_EQ(s2, 503);
  EXPECT_EQ(refused["RemoteException"]["exception"], "StandbyException");
  EXPECT_TRUE(core->storeFailed());
  EXPECT_EQ(call("GET", "/ws/v1/cluster/apps").first, 503);
  EXPECT_EQ(call("POST", "/rpc/v1/am/allocate", "{}").first, 503);
}

// The protocol calls' timings: each call counted once per measure, and only the methods called.
TEST_F(RmServiceTest, ProtocolCallsAreTimed) {
  protocol::RegisterNodeManagerRequest reg;
  reg.nodeId = "127.0.0.1:9001";
  reg.httpPort = 9001;
  reg.resource = {4096, 4};
  ASSERT_EQ(call("POST", "/rpc/v1/resource-tracker/register", toJson(reg).dump()).first, 200);
  protocol::NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = reg.nodeId;
  for (int i = 0; i < 3; ++i) {
    hb.nodeStatus.responseId = i;
    auto [status, answer] = call("POST", "/rpc/v1/resource-tracker/heartbeat", toJson(hb).dump());
    ASSERT_EQ(status, 200);
    ASSERT_EQ(answer["nodeAction"], "NORMAL");
  }
  // A malformed call is answered on the I/O thread and not timed.
  EXPECT_EQ(call("POST", "/rpc/v1/resource-tracker/heartbeat", "{").first, 400);
  // On the same connection: every answer above was recorded before this request was read.
  auto [status, body] = call("GET", "/ws/v1/cluster/spindle/rpc-timings");
  ASSERT_EQ(status, 200);
  const json& methods = body["rpcTimings"]["method"];
  ASSERT_EQ(methods.size(), 2u) << body.dump();
  EXPECT_EQ(methods[0]["name"], "registerNodeManager");
  EXPECT_EQ(methods[1]["name"], "nodeHeartbeat");
  for (const char* measure : {"queue", "processing", "total"}) {
    const json& m = methods[1][measure];
    EXPECT_EQ(m["numOps"], 3) << measure;
    uint64_t inBuckets = 0;
    for (const json& b : m["buckets"]) inBuckets += b[1].get<uint64_t>();
    EXPECT_EQ(inBuckets, 3u) << measure;
    EXPECT_LE(m["p50Us"].get<double>(), m["p99Us"].get<double>()) << measure;
    EXPECT_LE(m["p99Us"].get<double>(), m["maxUs"].get<double>()) << measure;
    EXPECT_EQ(methods[0][measure]["numOps"], 1) << measure;
  }
  // The whole span holds its parts.
  EXPECT_GE(methods[1]["total"]["maxUs"].get<int64_t>(),
            methods[1]["processing"]["maxUs"].get<int64_t>());
  EXPECT_EQ(call("POST", "/ws/v1/cluster/spindle/rpc-timings").first, 405);
}

}  // namespace
}  // namespace spindle::rm
