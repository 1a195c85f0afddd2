#include "protocol/response_decode.h"

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

// decode<T>()'s general path: the document, then read().
template <typename T>
Result<T> throughDocument(const std::string& body) {
  auto j = parseJsonBody(body, recordName<T>());
  if (!j) return j.status();
  return decodeJson<T>(*j);
}

// The direct path takes `body` and reads it as the document path does.
template <typename T, typename Direct>
void expectReadAlike(const std::string& body, Direct direct) {
  auto fast = direct(body);
  ASSERT_TRUE(fast.has_value()) << body;
  auto slow = throughDocument<T>(body);
  ASSERT_TRUE(slow.isOk()) << slow.status().message();
  EXPECT_EQ(toJson(*fast).dump(), toJson(*slow).dump()) << body;
  auto viaDecode = decode<T>(body);
  ASSERT_TRUE(viaDecode.isOk());
  EXPECT_EQ(toJson(*viaDecode).dump(), toJson(*slow).dump());
  // Read in place, with simdjson's padding after the text.
  std::string padded = body;
  padded.reserve(body.size() + 64);
  auto inPlace = decode<T>(padded);
  ASSERT_TRUE(inPlace.isOk());
  EXPECT_EQ(toJson(*inPlace).dump(), toJson(*slow).dump());
}

// The direct path leaves `body` to the document path, and decode<T>() answers as that does.
template <typename T, typename Direct>
void expectLeftToDocument(const std::string& body, Direct direct) {
  EXPECT_FALSE(direct(body).has_value()) << body;
  auto viaDecode = decode<T>(body);
  auto slow = throughDocument<T>(body);
  ASSERT_EQ(viaDecode.isOk(), slow.isOk()) << body;
  if (slow.isOk()) {
    EXPECT_EQ(toJson(*viaDecode).dump(), toJson(*slow).dump()) << body;
  } else {
    EXPECT_EQ(viaDecode.status().message(), slow.status().message()) << body;
  }
}

std::vector<NodeHeartbeatResponse> heartbeatAnswers() {
  std::vector<NodeHeartbeatResponse> out;
  out.emplace_back();
  NodeHeartbeatResponse r;
  r.responseId = 9;
  r.nodeAction = NodeAction::RESYNC;
  r.containersToCleanup = {"container_1_0001_01_000002", "container_1_0001_01_000003"};
  r.applicationsToCleanup = {"application_1_0001"};
  r.nextHeartBeatInterval = 250;
  r.diagnosticsMessage = "attribute \"x\" refused — é\n";
  r.areNodeAttributesAcceptedByRM = false;
  r.areNodeLabelsAcceptedByRM = false;
  out.push_back(r);
  r.nodeAction = NodeAction::SHUTDOWN;
  r.responseId = INT32_MIN;
  r.nextHeartBeatInterval = INT64_MAX;
  out.push_back(r);
  r.responseId = INT32_MAX;
  r.nodeAction = NodeAction::NORMAL;
  r.containersToCleanup = {""};
  out.push_back(r);
  return out;
}

TEST(ResponseDecode, HeartbeatAnswersAreReadDirectlyAsTheDocumentPathReadsThem) {
  auto direct = [](const std::string& b) { return decodeHeartbeatResponseDirect(b); };
  for (const NodeHeartbeatResponse& r : heartbeatAnswers()) {
    expectReadAlike<NodeHeartbeatResponse>(jsonText(r), direct);
  }
  // Members in another order, fewer of them (the defaults), blanks between tokens.
  expectReadAlike<NodeHeartbeatResponse>(
      R"( { "nodeAction" : "NORMAL" , "responseId" : 3, "containersToCleanup" : [ "c1" ,"c2"] } )",
      direct);
  expectReadAlike<NodeHeartbeatResponse>(R"({"responseId":-4,"nodeAction":"SHUTDOWN"})", direct);
}

TEST(ResponseDecode, OtherHeartbeatAnswersAreLeftToTheDocumentPath) {
  auto direct = [](const std::string& b) { return decodeHeartbeatResponseDirect(b); };
  const std::vector<std::string> others = {
      "",
      " ",
      "[]",
      "7",
      "\"x\"",
      "null",
      "{",
      "{}",
      R"({"responseId": 1, "nodeAction": "NORMAL"} trailing)",
      R"({"responseId": 1})",
      R"({"nodeAction": "NORMAL"})",
      R"({"responseId": "1", "nodeAction": "NORMAL"})",
      R"({"responseId": 1.0, "nodeAction": "NORMAL"})",
      R"({"responseId": 3000000000, "nodeAction": "NORMAL"})",
      R"({"responseId": 18446744073709551615, "nodeAction": "NORMAL"})",
      R"({"responseId": 1e999, "nodeAction": "NORMAL"})",
      R"({"responseId": 1, "nodeAction": "REBOOT"})",
      R"({"responseId": 1, "nodeAction": null})",
      R"({"responseId": 1, "responseId": 2, "nodeAction": "NORMAL"})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "extra": 1})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "containersToCleanup": "c1"})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "containersToCleanup": [1]})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "containersToCleanup": [["c"]]})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "applicationsToCleanup": [{}]})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "nextHeartBeatInterval": 0})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "nextHeartBeatInterval": -5})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "nextHeartBeatInterval": "100"})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "diagnosticsMessage": 5})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "areNodeLabelsAcceptedByRM": "false"})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "areNodeLabelsAcceptedByRM": 0})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "diagnosticsMessage": "\ud800"})",
      "{\"responseId\": 1, \"nodeAction\": \"NORMAL\", \"diagnosticsMessage\": \"\xff\"}",
      // Each member twice, text after the root, an escape in a key, floats.
      R"({"responseId": 1, "nodeAction": "NORMAL", "nodeAction": "NORMAL"})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "containersToCleanup": [], "containersToCleanup": []})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "applicationsToCleanup": [], "applicationsToCleanup": []})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "nextHeartBeatInterval": 1, "nextHeartBeatInterval": 1})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "diagnosticsMessage": "", "diagnosticsMessage": ""})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "areNodeAttributesAcceptedByRM": true, "areNodeAttributesAcceptedByRM": true})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "areNodeLabelsAcceptedByRM": true, "areNodeLabelsAcceptedByRM": true})",
      R"({"responseId": 1, "nodeAction": "NORMAL"}})",
      R"({"responseId": 1, "nodeAction": "NORMAL"}])",
      R"({"responseId": 1, "nodeAction": "NORMAL"},)",
      R"({"responseId": 1, "nodeAction": "NORMAL"} {})",
      R"({"responseId": 1, "nodeAction": "NORMAL")",
      R"({"response\u0049d": 1, "nodeAction": "NORMAL"})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "nextHeartBeatInterval": 1e3})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "nextHeartBeatInterval": 1000.0})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "containersToCleanup": ["a",]})",
      R"({"responseId": 1, "nodeAction": "NORMAL", "containersToCleanup": ["\ud800\u0041"]})",
  };
  for (const std::string& body : others) expectLeftToDocument<NodeHeartbeatResponse>(body, direct);
}

Container container(int i) {
  Container c;
  c.id = "container_1764000000000_0042_01_" + std::to_string(100'000 + i);
  c.nodeId = "127.0.0.1:" + std::to_string(20'000 + i);
  c.nodeHttpAddress = i % 3 ? "127.0.0.1:8042" : "";
  c.resource = {.memory = 1024 * i, .vCores = i};
  c.priority = 20 - i;
  c.allocationRequestId = i % 2 ? -1 : 7;
  return c;
}

ContainerStatus completed(int i) {
  ContainerStatus s;
  s.containerId = "container_1764000000000_0042_01_" + std::to_string(200'000 + i);
  s.state = ContainerState::COMPLETE;
  s.exitStatus = i % 2 ? 0 : -102;
  if (i % 3 == 0) s.diagnostics = "Container preempted by the \"scheduler\"\t—";
  if (i % 4 == 1) s.allocatedResource = ResourceRecord{.memory = 512, .vCores = 0};
  return s;
}

std::vector<AllocateResponse> allocateAnswers() {
  std::vector<AllocateResponse> out;
  out.emplace_back();
  for (int n : {1, 3, 20}) {
    AllocateResponse r;
    r.responseId = n * 11;
    r.limit = {.memory = 1'048'576 * n, .vCores = 1024};
    r.numClusterNodes = 10'000;
    for (int i = 0; i < n; ++i) r.allocatedContainers.push_back(container(i));
    for (int i = 0; i < n + 1; ++i) r.completedContainerStatuses.push_back(completed(i));
    if (n == 3) r.preemptContainers = {"container_1_0001_01_000009", "c\\10"};
    if (n == 20) r.amCommand = AMCommand::AM_RESYNC;
    out.push_back(r);
  }
  AllocateResponse shutdown;
  shutdown.amCommand = AMCommand::AM_SHUTDOWN;
  shutdown.responseId = INT32_MAX;
  ContainerStatus running;  // the RM only returns COMPLETE ones; still a valid record
  running.containerId = "container_1";
  shutdown.completedContainerStatuses.push_back(running);
  out.push_back(shutdown);
  return out;
}

TEST(ResponseDecode, AllocateAnswersAreReadDirectlyAsTheDocumentPathReadsThem) {
  auto direct = [](const std::string& b) { return decodeAllocateResponseDirect(b); };
  for (const AllocateResponse& r : allocateAnswers()) {
    expectReadAlike<AllocateResponse>(jsonText(r), direct);
    expectReadAlike<AllocateResponse>(toJson(r).dump(2), direct);  // with blanks and newlines
  }
  // Members in another order, the optional ones absent.
  expectReadAlike<AllocateResponse>(
      R"({"allocatedContainers":[{"resource":{"vCores":1,"memory":1024},"nodeId":"h:1",)"
      R"("id":"c1"}],"responseId":5,"preempt":{},"limit":{"vCores":0,"memory":0}})",
      direct);
  expectReadAlike<AllocateResponse>(R"({"responseId":5,"preempt":{"strictContract":{}}})", direct);
}

TEST(ResponseDecode, OtherAllocateAnswersAreLeftToTheDocumentPath) {
  auto direct = [](const std::string& b) { return decodeAllocateResponseDirect(b); };
  const std::string c = R"("id":"c1","nodeId":"h:1","resource":{"memory":1,"vCores":1})";
  const std::string s = R"("containerId":"c2","state":"COMPLETE","exitStatus":0)";
  auto withContainer = [](const std::string& members) {
    return R"({"responseId":1,"allocatedContainers":[{)" + members + "}]}";
  };
  auto withStatus = [](const std::string& members) {
    return R"({"responseId":1,"completedContainerStatuses":[{)" + members + "}]}";
  };
  const std::vector<std::string> others = {
      "",
      "[]",
      "{}",
      "{\"responseId\":1",
      R"({"responseId":1}{})",
      R"({"responseId":"1"})",
      R"({"responseId":1,"responseId":1})",
      R"({"responseId":1,"amCommand":"AM_REBOOT"})",
      R"({"responseId":1,"amCommand":null})",
      R"({"responseId":1,"numClusterNodes":-3000000000})",
      R"({"responseId":1,"limit":{"memory":1}})",
      R"({"responseId":1,"limit":{"memory":-1,"vCores":1}})",
      R"({"responseId":1,"limit":{"memory":1,"vCores":1,"gpu":1}})",
      R"({"responseId":1,"limit":null})",
      R"({"responseId":1,"preempt":{"strictContract":{"container":"c1"}}})",
      R"({"responseId":1,"preempt":{"contract":{}}})",
      R"({"responseId":1,"rejectedSchedulingRequests":[{"reason":"X","request":{}}]})",
      R"({"responseId":1,"updatedNodes":[{"nodeId":"h:1","nodeState":"LOST"}]})",
      R"({"responseId":1,"updatedNodes":[{"nodeId":"","nodeState":"LOST"}]})",
      R"({"responseId":1,"allocatedContainers":{"id":"c1","nodeId":"h:1","resource":{"memory":1,"vCores":1}}})",
      R"({"responseId":1,"allocatedContainers":["c1"]})",
      withContainer(c + R"(,"extra":true)"),
      withContainer(R"("nodeId":"h:1","resource":{"memory":1,"vCores":1})"),
      withContainer(R"("id":"c1","resource":{"memory":1,"vCores":1})"),
      withContainer(R"("id":"c1","nodeId":"h:1")"),
      withContainer(R"("id":"c1","nodeId":"h:1","resource":{"memory":1,"vCores":-1})"),
      withContainer(R"("id":"c1","nodeId":"h:1","resource":{"memory":"1","vCores":1})"),
      withContainer(c + R"(,"priority":2147483648)"),
      withContainer(c + R"(,"priority":1.5)"),
      withContainer(c + R"(,"allocationRequestId":9223372036854775808)"),
      withContainer(c + R"(,"id":"c9")"),
      withContainer(c + R"(,"nodeHttpAddress":null)"),
      withStatus(R"("containerId":"","state":"COMPLETE","exitStatus":0)"),
      withStatus(R"("containerId":"c2","state":"COMPLETE")"),
      withStatus(R"("containerId":"c2","state":"COMPLETE","exitStatus":-1000)"),
      withStatus(R"("containerId":"c2","state":"LOST","exitStatus":0)"),
      withStatus(R"("containerId":"c2","exitStatus":0)"),
      withStatus(R"("state":"RUNNING")"),
      withStatus(s + R"(,"allocatedResource":{"memory":1})"),
      withStatus(s + R"(,"allocatedResource":{"memory":-1,"vCores":1})"),
      withStatus(s + R"(,"exitStatus":4294967296)"),
      withStatus(s + R"(,"diagnostics":["x"])"),
      withStatus(s + R"(,"diagnostics":"\udc00")"),
      // Each member twice at each level, text after the root, an escape in a key, floats.
      R"({"responseId":1,"amCommand":"AM_RESYNC","amCommand":"AM_RESYNC"})",
      R"({"responseId":1,"allocatedContainers":[],"allocatedContainers":[]})",
      R"({"responseId":1,"completedContainerStatuses":[],"completedContainerStatuses":[]})",
      R"({"responseId":1,"limit":{"memory":1,"vCores":1},"limit":{"memory":1,"vCores":1}})",
      R"({"responseId":1,"limit":{"memory":1,"vCores":1,"vCores":1}})",
      R"({"responseId":1,"numClusterNodes":1,"numClusterNodes":1})",
      R"({"responseId":1,"preempt":{},"preempt":{}})",
      R"({"responseId":1,"preempt":{"strictContract":{},"strictContract":{}}})",
      R"({"responseId":1,"preempt":{"strictContract":{"container":[],"container":[]}}})",
      R"({"responseId":1,"rejectedSchedulingRequests":[],"rejectedSchedulingRequests":[]})",
      R"({"responseId":1,"updatedNodes":[],"updatedNodes":[]})",
      withContainer(c + R"(,"nodeId":"h:2")"),
      withContainer(c + R"(,"nodeHttpAddress":"a","nodeHttpAddress":"b")"),
      withContainer(c + R"(,"resource":{"memory":1,"vCores":1})"),
      withContainer(c + R"(,"priority":1,"priority":1)"),
      withContainer(c + R"(,"allocationRequestId":1,"allocationRequestId":1)"),
      withStatus(s + R"(,"containerId":"c3")"),
      withStatus(s + R"(,"state":"COMPLETE")"),
      withStatus(s + R"(,"diagnostics":"","diagnostics":"")"),
      withStatus(
          s +
          R"(,"allocatedResource":{"memory":1,"vCores":1},"allocatedResource":{"memory":1,"vCores":1})"),
      R"({"responseId":1}})",
      R"({"responseId":1}])",
      R"({"responseId":1} 1)",
      R"({"responseId":1,"allocatedContainers":[{)" + c + "}]",
      R"({"response\u0049d":1})",
      withContainer(R"("i\u0064":"c1","nodeId":"h:1","resource":{"memory":1,"vCores":1})"),
      R"({"responseId":1,"limit":{"memory":1.5,"vCores":1}})",
      R"({"responseId":1,"numClusterNodes":1e1})",
      R"({"responseId":1,"rejectedSchedulingRequests":[[]]})",
  };
  for (const std::string& body : others) expectLeftToDocument<AllocateResponse>(body, direct);
}

// Mutated answers (bytes deleted, copied, changed): whenever the direct path takes one, the
// document path takes it too and reads the same record.
template <typename T, typename Direct>
void expectMutationsReadAlike(const std::vector<std::string>& seeds, Direct direct, int rounds) {
  std::mt19937 rng(20260518);
  int taken = 0, left = 0;
  for (int round = 0; round < rounds; ++round) {
    const std::string body = mutated(seeds[round % seeds.size()], rng);
    std::string padded = body;
    padded.reserve(body.size() + 64);
    auto fast = direct(body, 0);
    auto inPlace = direct(padded, padded.capacity());
    ASSERT_EQ(fast.has_value(), inPlace.has_value()) << body;
    if (!fast) {
      ++left;
      continue;
    }
    ++taken;
    auto slow = throughDocument<T>(body);
    ASSERT_TRUE(slow.isOk()) << body;
    EXPECT_EQ(toJson(*fast).dump(), toJson(*slow).dump()) << body;
    EXPECT_EQ(toJson(*inPlace).dump(), toJson(*slow).dump()) << body;
  }
  // Both outcomes occur, so the comparison above ran on many bodies.
  EXPECT_GT(taken, rounds / 30);
  EXPECT_GT(left, rounds / 30);
}

TEST(ResponseDecode, MutatedAnswersTheDirectPathTakesReadAsTheDocumentPathReadsThem) {
  std::vector<std::string> heartbeats;
  for (const NodeHeartbeatResponse& r : heartbeatAnswers()) heartbeats.push_back(jsonText(r));
  expectMutationsReadAlike<NodeHeartbeatResponse>(
      heartbeats,
      [](const std::string& b, size_t capacity) {
        return decodeHeartbeatResponseDirect(b, capacity);
      },
      4000);
  std::vector<std::string> allocates;
  for (const AllocateResponse& r : allocateAnswers()) {
    if (r.allocatedContainers.size() < 20) allocates.push_back(jsonText(r));
  }
  expectMutationsReadAlike<AllocateResponse>(
      allocates,
      [](const std::string& b, size_t capacity) {
        return decodeAllocateResponseDirect(b, capacity);
      },
      4000);
}

}  // namespace
}  // namespace spindle::protocol
