#include "protocol/heartbeat_decode.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "protocol/codec.h"

namespace spindle::protocol {
namespace {

// decode<NodeHeartbeatRequest>()'s general path: the document, then read().
Result<NodeHeartbeatRequest> throughDocument(const std::string& body) {
  auto j = parseJsonBody(body, "NodeHeartbeatRequest");
  if (!j) return j.status();
  return decodeJson<NodeHeartbeatRequest>(*j);
}

NodeHeartbeatRequest typical() {
  NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "127.0.0.1:20417";
  hb.nodeStatus.responseId = 12;
  hb.nodeStatus.nodeHealthStatus = {.isNodeHealthy = false,
                                    .healthReport = "ERROR disk \"full\" — /data",
                                    .lastHealthReportTime = 1'764'000'000'000};
  hb.nodeStatus.keepAliveApplications = {"application_1_0001"};
  ContainerStatus running;
  running.containerId = "container_1_0001_01_000002";
  hb.nodeStatus.containersStatuses.push_back(running);
  ContainerStatus done = running;
  done.containerId = "container_1_0001_01_000003";
  done.state = ContainerState::COMPLETE;
  done.exitStatus = -104;
  done.diagnostics = "killed: over its memory";
  done.allocatedResource = ResourceRecord{.memory = 1024, .vCores = 1};
  hb.nodeStatus.containersStatuses.push_back(done);
  return hb;
}

// What the NMs send takes the direct path, and reads as the document path reads it.
TEST(HeartbeatDecode, TheUsualShapeIsReadDirectlyAsTheDocumentPathReadsIt) {
  NodeHeartbeatRequest empty;
  empty.nodeStatus.nodeId = "h:1";
  for (const NodeHeartbeatRequest& hb : {typical(), empty}) {
    const std::string body = toJson(hb).dump();
    auto direct = decodeHeartbeatDirect(body);
    ASSERT_TRUE(direct.has_value()) << body;
    auto slow = throughDocument(body);
    ASSERT_TRUE(slow.isOk()) << slow.status().message();
    EXPECT_EQ(toJson(*direct).dump(), toJson(*slow).dump());
    EXPECT_EQ(toJson(*direct).dump(), body);
  }
  // Members in another order, fewer of them, blanks between tokens.
  const std::string minimal =
      R"( { "nodeStatus" : { "responseId" : 3 , "nodeId" : "h:2", "containersStatuses": [)"
      R"({"state": "RUNNING", "containerId": "c1"}]} } )";
  auto direct = decodeHeartbeatDirect(minimal);
  ASSERT_TRUE(direct.has_value());
  EXPECT_EQ(toJson(*direct).dump(), toJson(*throughDocument(minimal)).dump());
}

// Everything else is left to the document path: it gives the same answer or the usual error.
TEST(HeartbeatDecode, OtherBodiesAreLeftToTheDocumentPath) {
  const std::vector<std::string> others = {
      "",
      "[]",
      "{",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}} trailing)",
      R"({"nodeStatus": {"nodeId": "", "responseId": 1}})",
      R"({"nodeStatus": {"nodeId": "h:1"}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": "7"}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1.0}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 3000000000}})",
      R"({"nodeStatus": {"nodeId": "h:1", "nodeId": "h:2", "responseId": 1}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "extra": true}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "keepAliveApplications": "a"}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "nodeUtilization": {"pmem": 1}}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}, "nodeAttributes": []})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "containersStatuses": [)"
      R"({"containerId": "c", "state": "COMPLETE"}]}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "containersStatuses": [)"
      R"({"containerId": "c", "state": "LOST"}]}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "containersStatuses": [)"
      R"({"containerId": "", "state": "RUNNING"}]}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "containersStatuses": [)"
      R"({"containerId": "c", "state": "RUNNING", "allocatedResource": {"memory": -1, "vCores": 1}}]}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "containersStatuses": [)"
      R"({"containerId": "c", "state": "RUNNING", "allocatedResource": {"memory": 1}}]}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "containersStatuses": ["c"]}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "nodeHealthStatus": null}})",
      R"({"nodeStatus": {"nodeId": "h\ud800", "responseId": 1}})",
      "{\"nodeStatus\": {\"nodeId\": \"h\xff\", \"responseId\": 1}}",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1e999}})",
  };
  for (const std::string& body : others) {
    EXPECT_FALSE(decodeHeartbeatDirect(body).has_value()) << body;
    // decode() answers as the document path does.
    auto viaDecode = decode<NodeHeartbeatRequest>(body);
    auto slow = throughDocument(body);
    ASSERT_EQ(viaDecode.isOk(), slow.isOk()) << body;
    if (!slow.isOk()) {
      EXPECT_EQ(viaDecode.status().message(), slow.status().message());
    }
  }
}

}  // namespace
}  // namespace spindle::protocol
