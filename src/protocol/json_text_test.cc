#include "protocol/json_text.h"

#include <gtest/gtest.h>

#include "protocol/codec.h"

namespace spindle::protocol {
namespace {

Container container(int i) {
  Container c;
  c.id = "container_1764000000000_0042_01_00000" + std::to_string(i);
  c.nodeId = "127.0.0.1:" + std::to_string(20'000 + i);
  c.nodeHttpAddress = "127.0.0.1:8042";
  c.resource = {.memory = 1024 * i, .vCores = i};
  c.priority = 20 - i;
  c.allocationRequestId = i % 2 ? -1 : 7;
  return c;
}

// The written text is dump()'s, record by record: empty lists, every optional member, and
// strings that need escaping or are not ASCII (which take nlohmann's path).
TEST(JsonText, AllocateResponsesAreWrittenAsDumpWritesThem) {
  AllocateResponse empty;
  EXPECT_EQ(jsonText(empty), toJson(empty).dump());

  AllocateResponse r;
  r.responseId = 41;
  r.amCommand = AMCommand::AM_RESYNC;
  r.limit = {.memory = 8192, .vCores = 8};
  r.numClusterNodes = 3;
  for (int i = 1; i <= 3; ++i) r.allocatedContainers.push_back(container(i));
  r.allocatedContainers[1].nodeHttpAddress = "h\"ost\\\n\t\x01";
  ContainerStatus done;
  done.containerId = "container_1";
  done.state = ContainerState::COMPLETE;
  done.exitStatus = -100;
  done.diagnostics = "Container released on a *lost* node — héllo";
  r.completedContainerStatuses.push_back(done);
  done.allocatedResource = ResourceRecord{.memory = 2048, .vCores = 2};
  done.diagnostics = "";
  r.completedContainerStatuses.push_back(done);
  r.preemptContainers = {"container_2", "container_3"};
  RejectedSchedulingRequestRecord rejected;
  rejected.reason = "COULD_NOT_PLACE_ON_NODE";
  rejected.message = "no node satisfies notin,node,zk";
  r.rejectedSchedulingRequests.push_back(rejected);
  NodeReport n;
  n.nodeId = "h1:1";
  n.nodeState = "LOST";
  n.nodeUpdateType = "NODE_UNUSABLE";
  n.nodeLabels = {"gpu"};
  n.decommissioningTimeout = 30;
  r.updatedNodes.push_back(n);
  EXPECT_EQ(jsonText(r), toJson(r).dump());
  // And it reads back as the record.
  auto back = decode<AllocateResponse>(jsonText(r));
  ASSERT_TRUE(back.isOk()) << back.status().message();
  EXPECT_EQ(back->allocatedContainers[1].nodeHttpAddress, "h\"ost\\\n\t\x01");
}

TEST(JsonText, HeartbeatResponsesAreWrittenAsDumpWritesThem) {
  NodeHeartbeatResponse empty;
  EXPECT_EQ(jsonText(empty), toJson(empty).dump());
  NodeHeartbeatResponse r;
  r.responseId = 9;
  r.nodeAction = NodeAction::RESYNC;
  r.containersToCleanup = {"container_1", "container_2"};
  r.applicationsToCleanup = {"application_1_0001"};
  r.nextHeartBeatInterval = 250;
  r.diagnosticsMessage = "attribute \"x\" refused";
  r.areNodeAttributesAcceptedByRM = false;
  r.areNodeLabelsAcceptedByRM = false;
  EXPECT_EQ(jsonText(r), toJson(r).dump());
}

// nlohmann refuses invalid UTF-8 when it writes; so does the writer, through it.
TEST(JsonText, InvalidUtf8IsRefusedAsDumpRefusesIt) {
  NodeHeartbeatResponse r;
  r.diagnosticsMessage = "bad \xff byte";
  EXPECT_THROW(toJson(r).dump(), nlohmann::json::type_error);
  EXPECT_THROW(jsonText(r), nlohmann::json::type_error);
}

}  // namespace
}  // namespace spindle::protocol
