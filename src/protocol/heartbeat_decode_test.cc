#include "protocol/heartbeat_decode.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "protocol/codec.h"
#include "protocol/json_mutations.h"
#include "protocol/json_text.h"

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

// A heartbeat of `n` running containers, as the NMs write it.
NodeHeartbeatRequest withStatuses(int n) {
  NodeHeartbeatRequest hb = typical();
  hb.nodeStatus.containersStatuses.clear();
  for (int i = 0; i < n; ++i) {
    ContainerStatus s;
    s.containerId = "container_1764000000000_0042_01_" + std::to_string(100'000 + i);
    hb.nodeStatus.containersStatuses.push_back(std::move(s));
  }
  return hb;
}

// The direct path takes `body`, with and without room after it, and reads it as the document
// path does.
void expectDirectAsDocument(const std::string& body) {
  auto slow = throughDocument(body);
  ASSERT_TRUE(slow.isOk()) << body << ": " << slow.status().message();
  std::string padded = body;
  padded.reserve(body.size() + 64);
  for (size_t capacity : {size_t{0}, body.size(), padded.capacity()}) {
    auto direct = decodeHeartbeatDirect(capacity == padded.capacity() ? padded : body, capacity);
    ASSERT_TRUE(direct.has_value()) << body << " (capacity " << capacity << ")";
    EXPECT_EQ(toJson(*direct).dump(), toJson(*slow).dump()) << body;
  }
  auto viaDecode = decode<NodeHeartbeatRequest>(padded);
  ASSERT_TRUE(viaDecode.isOk());
  EXPECT_EQ(toJson(*viaDecode).dump(), toJson(*slow).dump());
}

// The direct path leaves `body` to the document path, and decode() answers as that does.
void expectLeftToDocument(const std::string& body) {
  EXPECT_FALSE(decodeHeartbeatDirect(body).has_value()) << body;
  std::string padded = body;
  padded.reserve(body.size() + 64);
  EXPECT_FALSE(decodeHeartbeatDirect(padded, padded.capacity()).has_value()) << body;
  auto viaDecode = decode<NodeHeartbeatRequest>(body);
  auto slow = throughDocument(body);
  ASSERT_EQ(viaDecode.isOk(), slow.isOk()) << body;
  if (!slow.isOk()) {
    EXPECT_EQ(viaDecode.status().message(), slow.status().message());
  } else {
    EXPECT_EQ(toJson(*viaDecode).dump(), toJson(*slow).dump());
  }
}

// The text of a heartbeat whose nodeStatus has these members (after nodeId and responseId).
std::string withMembers(const std::string& members) {
  return R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1)" + members + "}}";
}

// A heartbeat whose only container status has these members.
std::string withStatus(const std::string& members) {
  return withMembers(R"(, "containersStatuses": [{)" + members + "}]");
}

// What the NMs send takes the direct path, and reads as the document path reads it.
TEST(HeartbeatDecode, TheUsualShapeIsReadDirectlyAsTheDocumentPathReadsIt) {
  NodeHeartbeatRequest empty;
  empty.nodeStatus.nodeId = "h:1";
  for (const NodeHeartbeatRequest& hb : {typical(), empty, withStatuses(64)}) {
    const std::string body = toJson(hb).dump();
    auto direct = decodeHeartbeatDirect(body);
    ASSERT_TRUE(direct.has_value()) << body;
    EXPECT_EQ(toJson(*direct).dump(), body);
    expectDirectAsDocument(body);
    expectDirectAsDocument(jsonText(hb));
  }
  // Members in another order, fewer of them, blanks between tokens.
  expectDirectAsDocument(
      R"( { "nodeStatus" : { "responseId" : 3 , "nodeId" : "h:2", "containersStatuses": [)"
      R"({"state": "RUNNING", "containerId": "c1"}]} } )");
  expectDirectAsDocument("{\"nodeStatus\":\n\t{\"nodeId\":\"h\",\r\n\"responseId\":1}}\n");
}

// Shapes the direct reader could get wrong and must read as nlohmann does.
TEST(HeartbeatDecode, EscapesUnicodeLimitsAndEmptyListsReadAsTheDocumentPathReadsThem) {
  const std::vector<std::string> bodies = {
      // Shorter than simdjson's padding.
      R"({"nodeStatus":{"nodeId":"h","responseId":1}})",
      // Escapes in values, each kind.
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "a\"b\\c\/d\be\ff\ng\rh\ti"})"),
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "\u0041\u00e9\u20ac\u0000z"})"),
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "\uD83D\uDE00 \ud83d\ude00"})"),
      withStatus(R"("containerId": "c\u005f1", "state": "RUNNING", "diagnostics": "x\ny")"),
      withStatus(R"("containerId": "c", "state": "RUN\u004eING")"),
      // UTF-8 as it is, 2, 3 and 4 bytes long.
      withMembers(R"(, "keepAliveApplications": ["é", "€ 中文", "😀", ""])"),
      R"({"nodeStatus": {"nodeId": "ノード:1", "responseId": 1}})",
      // Empty lists and objects.
      withMembers(R"(, "containersStatuses": [], "keepAliveApplications": [])"),
      withMembers(R"(, "nodeHealthStatus": {})"),
      R"({"nodeStatus":{"nodeId":"h","responseId":1,"containersStatuses":[ ],"nodeHealthStatus":{ }}})",
      // The int32 and int64 limits, and zero written negative.
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 2147483647}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": -2147483648}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": -0}})",
      withMembers(R"(, "nodeHealthStatus": {"lastHealthReportTime": 9223372036854775807})"),
      withMembers(R"(, "nodeHealthStatus": {"lastHealthReportTime": -9223372036854775808})"),
      withStatus(R"("containerId": "c", "state": "COMPLETE", "exitStatus": -2147483648)"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "allocatedResource": )"
                 R"({"vCores": 0, "memory": 9223372036854775807})"),
  };
  for (const std::string& body : bodies) expectDirectAsDocument(body);
}

// Everything else is left to the document path: it gives the same answer or the usual error.
TEST(HeartbeatDecode, OtherBodiesAreLeftToTheDocumentPath) {
  const std::vector<std::string> others = {
      "",
      " ",
      "[]",
      "{}",
      "{",
      "null",
      R"("nodeStatus")",
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
      withStatus(R"("containerId": "c", "state": "COMPLETE")"),
      withStatus(R"("containerId": "c", "state": "LOST")"),
      withStatus(R"("containerId": "", "state": "RUNNING")"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "allocatedResource": )"
                 R"({"memory": -1, "vCores": 1})"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "allocatedResource": {"memory": 1})"),
      withMembers(R"(, "containersStatuses": ["c"])"),
      withMembers(R"(, "nodeHealthStatus": null)"),
      R"({"nodeStatus": {"nodeId": "h\ud800", "responseId": 1}})",
      "{\"nodeStatus\": {\"nodeId\": \"h\xff\", \"responseId\": 1}}",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1e999}})",
  };
  for (const std::string& body : others) expectLeftToDocument(body);
}

// What simdjson's On-Demand reader does not check by itself, or checks otherwise than nlohmann.
TEST(HeartbeatDecode, DuplicatesTrailingTextFloatsAndBadTextAreLeftToTheDocumentPath) {
  const std::vector<std::string> others = {
      // A member twice, at each level.
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}, "nodeStatus": {"nodeId": "h:2", "responseId": 2}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1, "responseId": 2}})",
      withMembers(R"(, "containersStatuses": [], "containersStatuses": [])"),
      withMembers(R"(, "keepAliveApplications": [], "keepAliveApplications": ["a"])"),
      withMembers(R"(, "nodeHealthStatus": {}, "nodeHealthStatus": {})"),
      withMembers(R"(, "nodeHealthStatus": {"isNodeHealthy": true, "isNodeHealthy": false})"),
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "a", "healthReport": "b"})"),
      withMembers(
          R"(, "nodeHealthStatus": {"lastHealthReportTime": 1, "lastHealthReportTime": 2})"),
      withStatus(R"("containerId": "c", "containerId": "d", "state": "RUNNING")"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "state": "NEW")"),
      withStatus(R"("containerId": "c", "state": "COMPLETE", "exitStatus": 1, "exitStatus": 2)"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "diagnostics": "", "diagnostics": "")"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "allocatedResource": )"
                 R"({"memory": 1, "vCores": 1}, "allocatedResource": {"memory": 1, "vCores": 1})"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "allocatedResource": )"
                 R"({"memory": 1, "vCores": 1, "memory": 2})"),
      // Text after the root, or a root left open.
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}}])",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}}{})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}},)",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}} 1)",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}} "x")",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1)",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}}  x)",
      std::string(R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1}})") + '\0',
      // Escapes in a key.
      R"({"node\u0053tatus": {"nodeId": "h:1", "responseId": 1}})",
      R"({"nodeStatus": {"node\u0049d": "h:1", "responseId": 1}})",
      withStatus(R"("container\u0049d": "c", "state": "RUNNING")"),
      // Floats, exponents, numbers as text, null, booleans for numbers.
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1e2}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": -0.0}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": null}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": true}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 01}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": +1}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 2147483648}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": -2147483649}})",
      withMembers(R"(, "nodeHealthStatus": {"lastHealthReportTime": 9223372036854775808})"),
      withMembers(R"(, "nodeHealthStatus": {"lastHealthReportTime": 1.5})"),
      withMembers(R"(, "nodeHealthStatus": {"isNodeHealthy": "true"})"),
      withMembers(R"(, "nodeHealthStatus": {"isNodeHealthy": tru})"),
      withStatus(R"("containerId": "c", "state": "COMPLETE", "exitStatus": 4294967296)"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "allocatedResource": )"
                 R"({"memory": 1.0, "vCores": 1})"),
      withStatus(R"("containerId": "c", "state": "RUNNING", "allocatedResource": )"
                 R"({"memory": 18446744073709551615, "vCores": 1})"),
      // Malformed text inside the shape.
      R"({"nodeStatus": {"nodeId": "h:1" "responseId": 1}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1,}})",
      R"({"nodeStatus": {"nodeId" "h:1", "responseId": 1}})",
      R"({"nodeStatus": {"nodeId": "h:1", "responseId": }})",
      withMembers(R"(, "keepAliveApplications": ["a",])"),
      withMembers(R"(, "keepAliveApplications": ["a" "b"])"),
      withMembers(R"(, "keepAliveApplications": ["a"})"),
      withMembers(R"(, "keepAliveApplications": [[["a"]]])"),
      withMembers(R"(, "containersStatuses": [{}])"),
      withMembers(R"(, "containersStatuses": [[]])"),
      // Bad strings: a lone or wrongly paired surrogate, a bad escape, a raw control character,
      // bad UTF-8.
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "\udc00"})"),
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "\ud800\u0041"})"),
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "\ud800x"})"),
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "\x41"})"),
      withMembers(R"(, "nodeHealthStatus": {"healthReport": "\u12"})"),
      withMembers(", \"nodeHealthStatus\": {\"healthReport\": \"a\tb\"}"),
      withMembers(", \"nodeHealthStatus\": {\"healthReport\": \"a\x01z\"}"),
      withMembers(", \"nodeHealthStatus\": {\"healthReport\": \"\xc3\x28\"}"),
      withMembers(", \"nodeHealthStatus\": {\"healthReport\": \"\xed\xa0\x80\"}"),
      withMembers(", \"nodeHealthStatus\": {\"healthReport\": \"\xc0\xaf\"}"),
  };
  for (const std::string& body : others) expectLeftToDocument(body);
  // Deep nesting, inside a known member and in an unknown one.
  const std::string deep(5000, '[');
  expectLeftToDocument(withMembers(", \"keepAliveApplications\": " + deep));
  expectLeftToDocument(
      withMembers(", \"keepAliveApplications\": " + deep.substr(0, 300) + std::string(300, ']')));
  expectLeftToDocument(withMembers(", \"x\": " + deep.substr(0, 300) + std::string(300, ']')));
}

// A body over the On-Demand reader's limit (1 MiB, kLargestOnDemandText in ondemand_reader.h,
// a header only the library includes) is read by the document path, as it reads it.
TEST(HeartbeatDecode, AHugeHeartbeatIsLeftToTheDocumentPath) {
  std::string body = jsonText(withStatuses(10'000));
  ASSERT_GT(body.size(), size_t{1} << 20);
  EXPECT_FALSE(decodeHeartbeatDirect(body).has_value());
  body.reserve(body.size() + 64);
  EXPECT_FALSE(decodeHeartbeatDirect(body, body.capacity()).has_value());
  auto viaDecode = decode<NodeHeartbeatRequest>(body);
  ASSERT_TRUE(viaDecode.isOk()) << viaDecode.status().message();
  EXPECT_EQ(viaDecode->nodeStatus.containersStatuses.size(), 10'000u);
  EXPECT_EQ(viaDecode->nodeStatus.containersStatuses.back().containerId,
            "container_1764000000000_0042_01_109999");
}

// Mutated heartbeats (bytes deleted, copied, changed): whenever the direct path takes one, the
// document path takes it too and reads the same record.
TEST(HeartbeatDecode, MutatedBodiesTheDirectPathTakesReadAsTheDocumentPathReadsThem) {
  NodeHeartbeatRequest escaped = typical();
  escaped.nodeStatus.nodeHealthStatus.healthReport = "tab\there \"q\" \\ é 😀 \x01";
  const std::vector<std::string> seeds = {toJson(typical()).dump(), jsonText(withStatuses(3)),
                                          jsonText(escaped), withMembers(R"(, "x": 1)"),
                                          R"({"nodeStatus":{"nodeId":"h","responseId":-7}})"};
  std::mt19937 rng(20260517);
  int taken = 0, left = 0;
  for (int round = 0; round < 6000; ++round) {
    const std::string body = mutated(seeds[round % seeds.size()], rng);
    std::string padded = body;
    padded.reserve(body.size() + 64);
    auto direct = decodeHeartbeatDirect(body);
    auto directInPlace = decodeHeartbeatDirect(padded, padded.capacity());
    ASSERT_EQ(direct.has_value(), directInPlace.has_value()) << body;
    if (!direct) {
      ++left;
      continue;
    }
    ++taken;
    auto slow = throughDocument(body);
    ASSERT_TRUE(slow.isOk()) << body;
    EXPECT_EQ(toJson(*direct).dump(), toJson(*slow).dump()) << body;
    EXPECT_EQ(toJson(*directInPlace).dump(), toJson(*slow).dump()) << body;
  }
  // Both outcomes occur, so the comparison above ran on many bodies.
  EXPECT_GT(taken, 200);
  EXPECT_GT(left, 200);
}

}  // namespace
}  // namespace spindle::protocol
