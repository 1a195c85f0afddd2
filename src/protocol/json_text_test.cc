#include "protocol/json_text.h"

#include <cstdint>
#include <string>
#include <vector>

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

NodeHeartbeatRequest heartbeat(int statuses) {
  NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "127.0.0.1:" + std::to_string(20'000 + statuses);
  hb.nodeStatus.responseId = 1000 * statuses - 1;
  hb.nodeStatus.nodeHealthStatus.lastHealthReportTime = 1'764'000'000'000 + statuses;
  for (int i = 0; i < statuses; ++i) {
    ContainerStatus s;
    s.containerId = "container_1764000000000_0042_01_" + std::to_string(100'000 + i);
    s.state = i % 3 == 0 ? ContainerState::RUNNING
                         : (i % 3 == 1 ? ContainerState::COMPLETE : ContainerState::NEW);
    if (s.state == ContainerState::COMPLETE) s.exitStatus = i % 2 ? 0 : -106;
    if (i % 4 == 1) s.diagnostics = "killed by the \"RM\"\n";
    if (i % 5 == 2) s.allocatedResource = ResourceRecord{.memory = 1024 * i, .vCores = i};
    hb.nodeStatus.containersStatuses.push_back(std::move(s));
  }
  return hb;
}

// Heartbeats of every shape: no statuses and many, every optional member alone and together
// (attributes, labels, both utilisations), empty lists against absent ones, strings needing
// escaping or outside ASCII, extreme integers.
TEST(JsonText, HeartbeatRequestsAreWrittenAsDumpWritesThem) {
  std::vector<NodeHeartbeatRequest> shapes;
  shapes.emplace_back();  // every member at its default, nodeId ""
  for (int n : {0, 1, 2, 7}) shapes.push_back(heartbeat(n));
  NodeHeartbeatRequest full = heartbeat(3);
  full.nodeStatus.nodeHealthStatus = {.isNodeHealthy = false,
                                      .healthReport = "disk \"/data\" full — 99 %\t\x01",
                                      .lastHealthReportTime = INT64_MIN};
  full.nodeStatus.keepAliveApplications = {"application_1_0001", "application_1_0002"};
  full.nodeStatus.responseId = INT32_MAX;
  full.nodeStatus.containersUtilization =
      ResourceUtilization{.pmem = 2048, .vmem = 4096, .cpu = 1.5};
  full.nodeStatus.nodeUtilization = ResourceUtilization{.pmem = 0, .vmem = 1, .cpu = 1.0 / 3};
  NodeAttributeRecord attr;
  attr.attributePrefix = "nm.yarn.io";
  attr.attributeName = "os";
  attr.attributeValue = "linux";
  full.nodeAttributes = std::vector<NodeAttributeRecord>{attr, attr};
  full.nodeLabels = std::vector<std::string>{"gpu", "x\\y"};
  shapes.push_back(full);
  NodeHeartbeatRequest emptyOptionals = heartbeat(1);
  emptyOptionals.nodeAttributes = std::vector<NodeAttributeRecord>{};
  emptyOptionals.nodeLabels = std::vector<std::string>{};
  shapes.push_back(emptyOptionals);
  for (int which = 0; which < 4; ++which) {  // each optional member alone
    NodeHeartbeatRequest one = heartbeat(2);
    if (which == 0) one.nodeAttributes = std::vector<NodeAttributeRecord>{attr};
    if (which == 1) one.nodeLabels = std::vector<std::string>{""};
    if (which == 2) one.nodeStatus.containersUtilization = ResourceUtilization{.cpu = 0};
    if (which == 3) one.nodeStatus.nodeUtilization = ResourceUtilization{.pmem = -1, .cpu = 1e-9};
    shapes.push_back(one);
  }
  for (const NodeHeartbeatRequest& hb : shapes) {
    const std::string expected = toJson(hb).dump();
    EXPECT_EQ(jsonText(hb), expected);
    // The same with the statuses written beforehand, one text each, as a sender keeps them.
    std::vector<std::string> kept;
    for (const ContainerStatus& s : hb.nodeStatus.containersStatuses) {
      kept.push_back(jsonText(s));
      EXPECT_EQ(kept.back(), toJson(s).dump());
    }
    NodeHeartbeatRequest head = hb;
    head.nodeStatus.containersStatuses.clear();
    const std::string assembled = jsonText(head, [&kept](std::string& out) {
      for (size_t i = 0; i < kept.size(); ++i) {
        if (i) out += ',';
        out += kept[i];
      }
    });
    EXPECT_EQ(assembled, expected);
  }
}

TEST(JsonText, AllocateRequestsAreWrittenAsDumpWritesThem) {
  std::vector<AllocateRequest> shapes;
  shapes.emplace_back();
  AllocateRequest typical;
  typical.applicationAttemptId = "appattempt_1764000000000_0042_000001";
  typical.responseId = 17;
  typical.progress = 0.5;
  ResourceRequest ask;
  ask.priority = 1;
  ask.capability = {.memory = 1024, .vCores = 1};
  ask.numContainers = 2000;
  typical.ask.push_back(ask);
  shapes.push_back(typical);
  AllocateRequest full = typical;
  full.progress = 1.0 / 3;
  ask.resourceName = "/rack\"1\"";
  ask.relaxLocality = false;
  ask.nodeLabelExpression = "gpu || fpga";
  ask.allocationRequestId = -1;
  ask.priority = INT32_MIN;
  full.ask.push_back(ask);
  ask.resourceName = "nodé-1:8041";
  full.ask.push_back(ask);
  full.release = {"container_1_0001_01_000002", "container_1_0001_01_000003"};
  full.blacklistRequest.blacklistAdditions = {"h1", "h2"};
  full.blacklistRequest.blacklistRemovals = {"h3"};
  SchedulingRequestRecord sr;
  sr.allocationRequestId = 5;
  sr.priority = 2;
  sr.allocationTags = {"hbase"};
  sr.resourceSizing = ResourceSizingRecord{.numAllocations = 3, .resources = {2048, 2}};
  sr.placementConstraint = "notin,node,hbase";
  full.schedulingRequests.push_back(sr);
  shapes.push_back(full);
  // Progress: whole numbers, fractions, tiny and huge values in nlohmann's own forms.
  for (double p : {0.0, 1.0, 0.1, 0.25, 1e-7, 123456789.125, 1e300}) {
    AllocateRequest r = typical;
    r.progress = p;
    shapes.push_back(r);
  }
  for (const AllocateRequest& r : shapes) EXPECT_EQ(jsonText(r), toJson(r).dump());
}

// nlohmann refuses invalid UTF-8 when it writes; so does the writer, through it.
TEST(JsonText, InvalidUtf8IsRefusedAsDumpRefusesIt) {
  NodeHeartbeatResponse r;
  r.diagnosticsMessage = "bad \xff byte";
  EXPECT_THROW(toJson(r).dump(), nlohmann::json::type_error);
  EXPECT_THROW(jsonText(r), nlohmann::json::type_error);
  NodeHeartbeatRequest hb = heartbeat(1);
  hb.nodeStatus.containersStatuses[0].diagnostics = "\xc3";
  EXPECT_THROW(toJson(hb).dump(), nlohmann::json::type_error);
  EXPECT_THROW(jsonText(hb), nlohmann::json::type_error);
  AllocateRequest a;
  a.release = {"c\xff"};
  EXPECT_THROW(toJson(a).dump(), nlohmann::json::type_error);
  EXPECT_THROW(jsonText(a), nlohmann::json::type_error);
}

}  // namespace
}  // namespace spindle::protocol
