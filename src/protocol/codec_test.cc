#include "protocol/codec.h"

#include <gtest/gtest.h>

#include "protocol/rest_records.h"

namespace spindle::protocol {
namespace {

template <typename T>
T roundTrip(const T& in) {
  auto out = decode<T>(toJson(in).dump());
  EXPECT_TRUE(out.isOk()) << out.status().toString();
  return out.isOk() ? *out : T{};
}

template <typename T>
std::string errorOf(std::string_view body) {
  auto out = decode<T>(body);
  EXPECT_FALSE(out.isOk()) << body;
  return out.isOk() ? "" : out.status().message();
}

TEST(Codec, RegisterNodeManagerRoundTrip) {
  RegisterNodeManagerRequest r;
  r.nodeId = "host1:45454";
  r.httpPort = 8042;
  r.resource = {8192, 8};
  r.nodeLabels = {"gpu"};
  r.containerStatuses.push_back({"container_1_0001_01_000001", ContainerState::RUNNING, -1000, ""});
  const auto back = roundTrip(r);
  EXPECT_EQ(back.nodeId, "host1:45454");
  EXPECT_EQ(back.httpPort, 8042);
  EXPECT_EQ(back.resource, (ResourceRecord{8192, 8}));
  EXPECT_EQ(back.nodeLabels, std::vector<std::string>{"gpu"});
  ASSERT_EQ(back.containerStatuses.size(), 1u);
  EXPECT_EQ(back.containerStatuses[0].state, ContainerState::RUNNING);
  EXPECT_EQ(back.registrationSecret, "");
  r.registrationSecret = "s3cret";
  EXPECT_EQ(roundTrip(r).registrationSecret, "s3cret");
  EXPECT_EQ(back.httpHost, "");  // the nodeId's host
  r.httpHost = "127.0.0.1";
  EXPECT_EQ(roundTrip(r).httpHost, "127.0.0.1");
}

TEST(Codec, HeartbeatRoundTripKeepsStatusesAndActions) {
  NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "h:1";
  hb.nodeStatus.responseId = 7;
  hb.nodeStatus.containersStatuses.push_back(
      {"container_1_0001_01_000002", ContainerState::COMPLETE, 137, "killed"});
  const auto back = roundTrip(hb);
  EXPECT_EQ(back.nodeStatus.responseId, 7);
  ASSERT_EQ(back.nodeStatus.containersStatuses.size(), 1u);
  EXPECT_EQ(back.nodeStatus.containersStatuses[0].exitStatus, 137);

  NodeHeartbeatResponse resp;
  resp.responseId = 8;
  resp.nodeAction = NodeAction::RESYNC;
  resp.containersToCleanup = {"container_1_0001_01_000003"};
  resp.nextHeartBeatInterval = 250;
  const auto r2 = roundTrip(resp);
  EXPECT_EQ(r2.nodeAction, NodeAction::RESYNC);
  EXPECT_EQ(r2.containersToCleanup, resp.containersToCleanup);
  EXPECT_EQ(r2.nextHeartBeatInterval, 250);
}

TEST(Codec, HeartbeatNodeLabelsRoundTrip) {
  NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "h:1";
  EXPECT_FALSE(roundTrip(hb).nodeLabels.has_value());  // absent: unchanged
  EXPECT_FALSE(toJson(hb).contains("nodeLabels"));
  hb.nodeLabels = std::vector<std::string>{};
  ASSERT_TRUE(roundTrip(hb).nodeLabels.has_value());  // empty: no label any more
  EXPECT_TRUE(roundTrip(hb).nodeLabels->empty());
  hb.nodeLabels = std::vector<std::string>{"gpu"};
  EXPECT_EQ(roundTrip(hb).nodeLabels, std::vector<std::string>{"gpu"});
  EXPECT_NE(errorOf<NodeHeartbeatRequest>(
                R"({"nodeStatus": {"nodeId": "h:1", "responseId": 0}, "nodeLabels": 5})")
                .find("nodeLabels"),
            std::string::npos);

  NodeHeartbeatResponse resp;
  EXPECT_TRUE(roundTrip(resp).areNodeLabelsAcceptedByRM);
  resp.areNodeLabelsAcceptedByRM = false;
  resp.diagnosticsMessage = "node labels not accepted: x";
  EXPECT_FALSE(roundTrip(resp).areNodeLabelsAcceptedByRM);
  EXPECT_EQ(roundTrip(resp).diagnosticsMessage, "node labels not accepted: x");
  RegisterNodeManagerResponse reg;
  reg.areNodeLabelsAcceptedByRM = false;
  EXPECT_FALSE(roundTrip(reg).areNodeLabelsAcceptedByRM);
}

TEST(Codec, AllocateRoundTrip) {
  AllocateRequest a;
  a.applicationAttemptId = "appattempt_1_0001_000001";
  a.responseId = 3;
  a.progress = 0.5;
  a.ask.push_back({1, "*", {256, 1}, 4, true, "", 0});
  a.release = {"container_1_0001_01_000004"};
  const auto back = roundTrip(a);
  ASSERT_EQ(back.ask.size(), 1u);
  EXPECT_EQ(back.ask[0].numContainers, 4);
  EXPECT_EQ(back.ask[0].capability, (ResourceRecord{256, 1}));
  EXPECT_EQ(back.release, a.release);
  EXPECT_DOUBLE_EQ(back.progress, 0.5);

  AllocateResponse resp;
  resp.responseId = 4;
  resp.amCommand = AMCommand::AM_SHUTDOWN;
  resp.allocatedContainers.push_back(
      {"container_1_0001_01_000002", "h:1", "h:8042", {256, 1}, 1, 0});
  resp.completedContainerStatuses.push_back(
      {"container_1_0001_01_000003", ContainerState::COMPLETE, -100, "lost"});
  resp.preemptContainers = {"container_1_0001_01_000005"};
  const auto r2 = roundTrip(resp);
  EXPECT_EQ(r2.amCommand, AMCommand::AM_SHUTDOWN);
  ASSERT_EQ(r2.allocatedContainers.size(), 1u);
  EXPECT_EQ(r2.allocatedContainers[0].nodeHttpAddress, "h:8042");
  EXPECT_EQ(r2.completedContainerStatuses[0].exitStatus, -100);
  EXPECT_EQ(r2.preemptContainers, resp.preemptContainers);
}

TEST(Codec, StartContainersRoundTrip) {
  StartContainersRequest s;
  s.startContainerRequest.push_back(
      {"container_1_0001_01_000002", {128, 1}, {{"echo", "hi"}, {{"A", "1"}}}});
  const auto back = roundTrip(s);
  ASSERT_EQ(back.startContainerRequest.size(), 1u);
  EXPECT_EQ(back.startContainerRequest[0].containerLaunchContext.commands,
            (std::vector<std::string>{"echo", "hi"}));
  EXPECT_EQ(back.startContainerRequest[0].containerLaunchContext.environment.at("A"), "1");
}

TEST(Codec, MalformedMessagesNameTheField) {
  EXPECT_EQ(errorOf<NodeHeartbeatRequest>(""), "NodeHeartbeatRequest: the request body is empty");
  EXPECT_EQ(errorOf<NodeHeartbeatRequest>("{\"nodeStatus\": "),
            "NodeHeartbeatRequest: malformed JSON at byte 16");
  EXPECT_EQ(errorOf<NodeHeartbeatRequest>("[1]"),
            "NodeHeartbeatRequest: expected an object, got [1]");
  EXPECT_EQ(errorOf<NodeHeartbeatRequest>(R"({"nodeStatus": {"nodeId": "h:1"}})"),
            "NodeHeartbeatRequest.nodeStatus.responseId: required field is missing");
  EXPECT_EQ(errorOf<NodeHeartbeatRequest>(
                R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1,
                    "containersStatuses": [{"containerId": "c", "state": "DONE"}]}})"),
            "NodeHeartbeatRequest.nodeStatus.containersStatuses[0].state: unknown value 'DONE' "
            "(one of NEW, RUNNING, COMPLETE)");
  EXPECT_EQ(errorOf<NodeHeartbeatRequest>(
                R"({"nodeStatus": {"nodeId": "h:1", "responseId": 1,
                    "containersStatuses": [{"containerId": "c", "state": "COMPLETE"}]}})"),
            "NodeHeartbeatRequest.nodeStatus.containersStatuses[0].exitStatus: a COMPLETE "
            "container needs its exit status");
  EXPECT_EQ(errorOf<RegisterNodeManagerRequest>(
                R"({"nodeId": "nohost", "httpPort": 1, "resource": {"memory": 1, "vCores": 1}})"),
            "RegisterNodeManagerRequest.nodeId: expected host:port, got 'nohost'");
  EXPECT_EQ(errorOf<RegisterNodeManagerRequest>(
                R"({"nodeId": "h:1", "httpPort": 1, "resource": {"memory": -5, "vCores": 1}})"),
            "RegisterNodeManagerRequest.resource.memory: must not be negative, got -5");
  EXPECT_EQ(errorOf<AllocateRequest>(R"({"applicationAttemptId": "a", "responseId": "x"})"),
            "AllocateRequest.responseId: expected an integer, got \"x\"");
  EXPECT_EQ(errorOf<AllocateRequest>(R"({"applicationAttemptId": "a", "responseId": 0,
                                        "progress": 2})"),
            "AllocateRequest.progress: must be between 0 and 1, got 2.000000");
  EXPECT_EQ(errorOf<AllocateRequest>(R"({"applicationAttemptId": "a", "responseId": 0,
                                        "ask": [{"priority": 1, "numContainers": 1}]})"),
            "AllocateRequest.ask[0].capability: required field is missing");
  EXPECT_EQ(errorOf<FinishApplicationMasterRequest>(
                R"({"applicationAttemptId": "a", "finalApplicationStatus": "OK"})"),
            "FinishApplicationMasterRequest.finalApplicationStatus: unknown value 'OK' (one of "
            "UNDEFINED, SUCCEEDED, FAILED, KILLED)");
  EXPECT_EQ(errorOf<StartContainersRequest>(R"({"startContainerRequest": []})"),
            "StartContainersRequest.startContainerRequest: at least one container is needed");
}

TEST(Codec, PlacementRecordsRoundTrip) {
  RegisterNodeManagerRequest reg;
  reg.nodeId = "h:1";
  reg.httpPort = 1;
  reg.nodeAttributes = {{"nm.yarn.io", "os", "STRING", "linux"}};
  EXPECT_EQ(roundTrip(reg).nodeAttributes, reg.nodeAttributes);
  NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = "h:1";
  EXPECT_FALSE(roundTrip(hb).nodeAttributes.has_value());  // absent: unchanged
  hb.nodeAttributes = std::vector<NodeAttributeRecord>{};
  ASSERT_TRUE(roundTrip(hb).nodeAttributes.has_value());  // empty: none any more
  EXPECT_TRUE(roundTrip(hb).nodeAttributes->empty());

  AllocateRequest a;
  a.applicationAttemptId = "appattempt_1_0001_000001";
  SchedulingRequestRecord s;
  s.allocationRequestId = 7;
  s.priority = 2;
  s.allocationTags = {"zk"};
  s.resourceSizing = ResourceSizingRecord{3, {512, 1}};
  s.placementConstraint = "notin,node,zk";
  a.schedulingRequests = {s};
  const SchedulingRequestRecord back = roundTrip(a).schedulingRequests.at(0);
  EXPECT_EQ(back.allocationRequestId, 7);
  EXPECT_EQ(back.allocationTags, std::vector<std::string>{"zk"});
  ASSERT_TRUE(back.resourceSizing.has_value());
  EXPECT_EQ(back.resourceSizing->numAllocations, 3);
  EXPECT_EQ(back.resourceSizing->resources, (ResourceRecord{512, 1}));
  EXPECT_EQ(back.placementConstraint, "notin,node,zk");

  AllocateResponse resp;
  resp.rejectedSchedulingRequests = {{"COULD_NOT_PLACE_ON_NODE", s, "no node"}};
  const auto rej = roundTrip(resp).rejectedSchedulingRequests.at(0);
  EXPECT_EQ(rej.reason, "COULD_NOT_PLACE_ON_NODE");
  EXPECT_EQ(rej.request.placementConstraint, "notin,node,zk");

  RegisterApplicationMasterRequest am;
  am.applicationAttemptId = "appattempt_1_0001_000001";
  am.placementConstraints = {{{"zk"}, "notin,node,zk"}};
  EXPECT_EQ(roundTrip(am).placementConstraints.at(0).placementConstraint, "notin,node,zk");

  NodesToAttributesMappingRequest m;
  m.operation = "REPLACE";
  m.nodesToAttributes = {{"host1", {{"rm.yarn.io", "java", "STRING", "1.8"}}}};
  EXPECT_EQ(roundTrip(m).nodesToAttributes.at(0).nodeAttributes.at(0).attributeValue, "1.8");
}

TEST(Codec, MalformedPlacementRecordsNameTheField) {
  EXPECT_EQ(errorOf<RegisterNodeManagerRequest>(
                R"({"nodeId": "h:1", "httpPort": 1, "resource": {"memory": 1, "vCores": 1},
                    "nodeAttributes": [{"attributeKey": {"attributePrefix": "nm.yarn.io",
                    "attributeName": "os"}, "attributeType": "INT"}]})"),
            "RegisterNodeManagerRequest.nodeAttributes[0].attributeType: unknown value 'INT' "
            "(one of STRING)");
  EXPECT_EQ(errorOf<AllocateRequest>(R"({"applicationAttemptId": "a", "responseId": 0,
      "schedulingRequests": [{"resourceSizing": {"numAllocations": -1,
                                                 "resources": {"memory": 1, "vCores": 1}}}]})"),
            "AllocateRequest.schedulingRequests[0].resourceSizing.numAllocations: must not be "
            "negative, got -1");
  EXPECT_EQ(errorOf<AllocateRequest>(R"({"applicationAttemptId": "a", "responseId": 0,
      "schedulingRequests": [{"executionType": {"executionType": "LATER"}}]})"),
            "AllocateRequest.schedulingRequests[0].executionType.executionType: unknown value "
            "'LATER' (one of GUARANTEED, OPPORTUNISTIC)");
  EXPECT_EQ(errorOf<NodesToAttributesMappingRequest>(
                R"({"operation": "MERGE", "nodesToAttributes": []})"),
            "NodesToAttributesMappingRequest.operation: unknown value 'MERGE' (one of ADD, "
            "REPLACE, REMOVE)");
  EXPECT_EQ(errorOf<NodesToAttributesMappingRequest>(R"({"operation": "ADD"})"),
            "NodesToAttributesMappingRequest.nodesToAttributes: No node-to-attributes mappings "
            "are specified");
}

TEST(Codec, UnknownFieldsAreIgnored) {
  auto r = decode<FinishApplicationMasterResponse>(R"({"isUnregistered": true, "future": 1})");
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(r->isUnregistered);
}

TEST(RestRecords, SubmissionContext) {
  auto c = decodeSubmissionContext(R"({
    "application-id": "application_1_0001", "application-name": "ds", "queue": "a",
    "resource": {"memory": 512, "vCores": 1},
    "am-container-spec": {"commands": {"command": "spindle dshell --am"},
                          "environment": {"entry": [{"key": "X", "value": "1"}]}}})");
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  EXPECT_EQ(c->applicationName, "ds");
  EXPECT_EQ(c->amContainerSpec.commands, std::vector<std::string>{"spindle dshell --am"});
  EXPECT_EQ(c->amContainerSpec.environment.at("X"), "1");
  EXPECT_EQ(c->resource, (ResourceRecord{512, 1}));

  auto noCmd = decodeSubmissionContext(
      R"({"application-id": "a", "resource": {"memory": 512, "vCores": 1}})");
  ASSERT_FALSE(noCmd.isOk());
  EXPECT_EQ(noCmd.status().message(),
            "application-submission-context.am-container-spec.commands.command: a managed AM "
            "needs its launch command");
}

TEST(RestRecords, AppStateOnlyKilled) {
  EXPECT_TRUE(decodeAppStateTarget(R"({"state": "KILLED"})").isOk());
  auto bad = decodeAppStateTarget(R"({"state": "RUNNING"})");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(), "Only 'KILLED' is allowed as a target state.");
}

TEST(RestRecords, RemoteExceptionShape) {
  auto j = remoteException(notFound("app application_1_0009 not found"));
  EXPECT_EQ(j["RemoteException"]["exception"], "NotFoundException");
  EXPECT_EQ(j["RemoteException"]["javaClassName"],
            "org.apache.hadoop.yarn.webapp.NotFoundException");
  EXPECT_EQ(httpStatusFor(invalidArgument("x")), 400);
  EXPECT_EQ(remoteExceptionMessage(j.dump()), "app application_1_0009 not found");
  EXPECT_EQ(remoteExceptionMessage("plain text"), "plain text");
  EXPECT_EQ(remoteExceptionMessage(R"({"RemoteException": 3})"), R"({"RemoteException": 3})");
}

}  // namespace
}  // namespace spindle::protocol

#include "protocol/yarn_ids.h"

namespace spindle::protocol {
namespace {

TEST(YarnIds, ParseAndPrint) {
  auto a = attemptOfContainer("container_1700000000000_0001_02_000005");
  ASSERT_TRUE(a.isOk()) << a.status().toString();
  EXPECT_EQ(toString(*a), "appattempt_1700000000000_0001_000002");
  auto e = parseContainerIdParts("container_e17_1410901177871_0001_01_000005");
  ASSERT_TRUE(e.isOk());
  EXPECT_EQ(e->seq, 5u);
  EXPECT_EQ(e->attempt.app.clusterTimestamp, 1410901177871);
  EXPECT_EQ(toString(*parseApplicationId("application_5_0012")), "application_5_0012");
  auto bad = parseApplicationId("application_5");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(),
            "'application_5' is not an application id (application_<timestamp>_<seq>)");
  EXPECT_FALSE(parseAttemptId("appattempt_1_x_1").isOk());
  EXPECT_FALSE(parseContainerIdParts("container_1_1_1").isOk());
}

}  // namespace
}  // namespace spindle::protocol
