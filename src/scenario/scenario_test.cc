#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include "scenario/scenario_runner.h"

namespace spindle {
namespace {

using nlohmann::json;

Result<RunResult> run(const json& doc) {
  SPINDLE_ASSIGN_OR_RETURN(Scenario sc, parseScenario(doc, "test.json"));
  return runScenario(sc, {});
}

json base() {
  return json::parse(R"({"spindleScenario": 1, "scheduler": "fifo",
    "cluster": {"nodes": [{"name": "h1", "rack": "/r1", "resource": {"memory-mb": 4096, "vcores": 4}}]}})");
}

TEST(Scenario, ErrorsNameTheJsonPath) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submit": {"app": "a"}}, {"ask": {"app": "a", "count": "x",
                                   "resource": {"memory-mb": 1}}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_FALSE(sc.isOk());
  EXPECT_EQ(sc.status().message(), "steps[1].ask.count: expected an integer, got \"x\"");
}

TEST(Scenario, TextIsParsedAsLoadScenarioReadsAFile) {
  auto sc = parseScenarioText(base().dump(), "given.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().message();
  EXPECT_EQ(sc->file, "given.json");
  ASSERT_EQ(sc->nodes.size(), 1u);
  EXPECT_EQ(sc->nodes[0].name, "h1");
  auto bad = parseScenarioText("{\"spindleScenario\": 1,\n  \"steps\": [1e999]}", "given.json");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("given.json:2:"), std::string::npos)
      << bad.status().message();
}

TEST(Scenario, UnknownFieldsAreErrors) {
  json doc = base();
  doc["stpes"] = json::array();
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(), "top level: unknown field 'stpes'");
}

TEST(Scenario, ExpectationFailuresAreReportedNotThrown) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "am": null}},
    {"ask": {"app": "a", "priority": 1, "resource": {"memory-mb": 1024}, "count": 1}},
    {"heartbeat": "h1"},
    {"expect": {"allocations": [{"app": "a", "locality": "NODE_LOCAL"}]}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 1u);
  EXPECT_EQ(r->failures[0].step, 3);
  EXPECT_NE(r->failures[0].message.find("OFF_SWITCH"), std::string::npos);
}

TEST(Scenario, RuntimeErrorsNameTheStep) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"release": {"app": "ghost", "containers": []}}])");
  auto r = run(doc);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().message(), "steps[0] (release): unknown app 'ghost' (submit it first)");
}

TEST(Scenario, NodeLabelsAreDeclaredBeforeNodes) {
  json doc = base();
  doc["cluster"]["nodeLabels"] = json::parse(R"(["x", {"name": "y", "exclusive": false}])");
  doc["cluster"]["nodes"][0]["labels"] = {"y"};
  doc["steps"] = json::parse(R"([{"addNode": {"name": "h2", "labels": ["x"],
                                               "resource": {"memory-mb": 1024}}},
    {"expect": {"state": {"metrics.activeNodes": 2}}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().toString();
  ASSERT_EQ(sc->nodeLabels.size(), 2u);
  EXPECT_TRUE(sc->nodeLabels[0].exclusive);
  EXPECT_FALSE(sc->nodeLabels[1].exclusive);
  auto r = runScenario(*sc, {});
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty()) << r->failures[0].message;
}

TEST(Scenario, AddNodeTakesACountAsClusterNodesDo) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"addNode": {"name": "w", "count": 3,
                                               "resource": {"memory-mb": 1024}}},
    {"expect": {"state": {"metrics.activeNodes": 4, "node:w-2.availMemoryMB": 1024}}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().toString();
  auto r = runScenario(*sc, {});
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty()) << r->failures[0].message;
  doc["steps"][0]["addNode"]["count"] = 0;
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[0].addNode: count must be at least 1");
}

TEST(Scenario, PlaceRefusesMoreThanTheNodeHolds) {
  json doc = base();
  doc["steps"] = json::parse(R"j([{"submit": {"app": "a", "am": null}},
    {"place": {"app": "a", "node": "h1", "resource": {"memory-mb": 3072, "vcores": 1}}},
    {"place": {"app": "a", "node": "h1", "resource": {"memory-mb": 2048, "vcores": 1}},
     "expectError": "place: <memory:2048, vCores:1> does not fit on h1: <memory:1024, vCores:3> unallocated of <memory:4096, vCores:4> (<memory:3072, vCores:1> allocated)"
},
    {"expect": {"state": {"node:h1.usedMemoryMB": 3072}}}])j");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().toString();
  auto r = runScenario(*sc, {});
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty()) << r->failures[0].message;
}

TEST(Scenario, ConfigurationErrorsNameTheWrongPropertyOnce) {
  json doc = base();
  doc["scheduler"] = "capacity";
  doc["configuration"] = json::parse(R"({"capacity-scheduler": {
      "yarn.scheduler.capacity.root.queues": "a,b",
      "yarn.scheduler.capacity.root.a.capacity": 120,
      "yarn.scheduler.capacity.root.b.capacity": 0}})");
  auto r = run(doc);
  ASSERT_FALSE(r.isOk());
  const std::string& m = r.status().message();
  EXPECT_TRUE(
      m.starts_with("configuration.capacity-scheduler.yarn.scheduler.capacity.root.a."
                    "capacity: Illegal capacity of 120.0 for queue root.a"))
      << m;
  EXPECT_EQ(m.find("yarn.resourcemanager.scheduler.class"), std::string::npos) << m;
  EXPECT_EQ(m.find("property '"), std::string::npos) << "the key is named once: " << m;
}

TEST(Scenario, NodeLabelsMustBeDeclared) {
  json doc = base();
  doc["cluster"]["nodeLabels"] = {"x"};
  doc["cluster"]["nodes"][0]["labels"] = {"z"};
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "cluster.nodes[0].labels[0]: label 'z' is not declared in cluster.nodeLabels");
  doc["cluster"]["nodes"][0].erase("labels");
  doc["steps"] = json::parse(R"([{"addNode": {"name": "h2", "labels": ["y"],
                                               "resource": {"memory-mb": 1024}}}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[0].addNode.labels[0]: label 'y' is not declared in cluster.nodeLabels");
  doc.erase("steps");
  doc["cluster"]["nodeLabels"] = json::parse(R"(["x", {"name": "x", "exclusive": false}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "cluster.nodeLabels[1]: label 'x' is declared twice");
  doc["cluster"]["nodeLabels"] = json::parse(R"([{"name": "x", "exclusiv": false}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "cluster.nodeLabels[0]: unknown field 'exclusiv'");
}

TEST(Scenario, StepExpectErrorPassesWhenTheStepFailsWithTheText) {
  json doc = base();
  doc["steps"] = json::parse(R"([
    {"release": {"app": "ghost", "containers": []}, "expectError": "unknown app 'ghost'"},
    {"release": {"app": "ghost", "containers": []}, "expectError": ""},
    {"submit": {"app": "a", "am": null}},
    {"expect": {"state": {"appsInQueue:default": 1}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty()) << r->failures[0].message;
  EXPECT_EQ(r->expectationsChecked, 3);
}

TEST(Scenario, StepExpectErrorFailsOnOtherTextOrSuccess) {
  json doc = base();
  doc["steps"] = json::parse(R"([
    {"release": {"app": "ghost", "containers": []}, "expectError": "queue is full"},
    {"submit": {"app": "a", "am": null}, "expectError": ""}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 2u);
  EXPECT_EQ(r->failures[0].message,
            "expected an error containing 'queue is full', got: unknown app 'ghost' (submit it "
            "first)");
  EXPECT_EQ(r->failures[1].step, 1);
  EXPECT_EQ(r->failures[1].message, "expected the step to fail with '', but it succeeded");
}

TEST(Scenario, RefreshConfigReachesTheScheduler) {
  // FIFO has nothing to reload: the refresh is refused, with YARN-like failedPrecondition.
  json doc = base();
  doc["steps"] = json::parse(R"([{"refreshConfig": {"configuration": {
      "capacity-scheduler": {"yarn.scheduler.capacity.root.queues": "a",
                             "yarn.scheduler.capacity.root.b.capacity": null}}}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().toString();
  const auto& step = std::get<RefreshConfigStep>(sc->steps[0].body);
  EXPECT_EQ(step.properties.get("yarn.scheduler.capacity.root.queues"), "a");
  EXPECT_EQ(step.removed, std::vector<std::string>{"yarn.scheduler.capacity.root.b.capacity"});
  auto r = runScenario(*sc, {});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().message(),
            "steps[0] (refreshConfig): the fifoScheduler has no reloadable configuration");
  doc["steps"][0]["expectError"] = "no reloadable configuration";
  auto ok = run(doc);
  ASSERT_TRUE(ok.isOk()) << ok.status().toString();
  EXPECT_TRUE(ok->failures.empty());
}

TEST(Scenario, RefreshConfigValidatesItsBody) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"refreshConfig": {"conf": {}}}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[0].refreshConfig: unknown field 'conf'");
  doc["steps"] =
      json::parse(R"([{"refreshConfig": {"configuration": {"yarn-site": {"k": [1]}}}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk());
  auto r = runScenario(*sc, {});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().message(),
            "steps[0] (refreshConfig): steps[0].refreshConfig.configuration.yarn-site.k: expected "
            "a string, number or boolean (or null to remove the property)");
  // A null outside refreshConfig is an error: there is nothing to remove from.
  doc.erase("steps");
  doc["configuration"] = json::parse(R"({"yarn-site": {"k": null}})");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "configuration.yarn-site.k: expected a string, number or boolean");
}

TEST(Scenario, HeadroomAndArraySelectorPaths) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "am": null}},
    {"ask": {"app": "a", "priority": 1, "resource": {"memory-mb": 1024}, "count": 2,
             "locality": [{"name": "127.0.0.1", "count": 1}]}},
    {"expect": {"state": {
      "headroom:a.memory-mb": 4096, "headroom:a.memory": 4096, "headroom:a.vcores": 4,
      "app:a.resourceRequests[resourceName=127.0.0.1].numContainers": 1,
      "app:a.resourceRequests[resourceName=*].numContainers": 2,
      "app:a.resourceRequests[numContainers=2].resourceName": "*",
      "app:a.resourceRequests[relaxLocality=true].priority": 1}}},
    {"expect": {"state": {"app:a.resourceRequests[resourceName=h9].numContainers": 1,
                          "headroom:a.gpu": 0, "app:a.resourceRequests[x].y": 0}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 3u) << r->failures[0].message;
  EXPECT_EQ(r->failures[0].message,
            "state app:a.resourceRequests[resourceName=h9].numContainers: no element of "
            "'resourceRequests' has resourceName = h9 (in "
            "app:a.resourceRequests[resourceName=h9].numContainers)");
  // State checks run in path order.
  EXPECT_EQ(r->failures[1].message,
            "state app:a.resourceRequests[x].y: no field 'resourceRequests[x]' (in "
            "app:a.resourceRequests[x].y)");
  EXPECT_EQ(r->failures[2].message,
            "state headroom:a.gpu: unknown resource type 'gpu' in headroom:a.gpu");
}

TEST(Scenario, CapacitySchedulerNameIsAccepted) {
  // The parser takes the name; whether this build has the scheduler is the factory's answer.
  json doc = base();
  doc["scheduler"] = "capacity";
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().toString();
  EXPECT_EQ(sc->conf.get("yarn.resourcemanager.scheduler.class"), "capacity");
  doc["scheduler"] =
      "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler";
  EXPECT_TRUE(parseScenario(doc, "t.json").isOk());
}

TEST(Scenario, RejectedSubmissionIsADecisionNotBadInput) {
  json doc = base();
  doc["scheduler"] = "capacity";
  doc["configuration"] = json::parse(R"({"capacity-scheduler": {
      "yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": 100}})");
  doc["steps"] = json::parse(R"([{"submit": {"app": "x", "queue": "nosuch", "am": null}},
    {"submit": {"app": "y", "queue": "a", "am": null}},
    {"expect": {"state": {"app:x.state": "FAILED", "app:y.state": "ACCEPTED", "appsInQueue:a": 1}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty()) << r->failures[0].message;
  // An AM above the maximum allocation is bad input: no app-rejected decision is recorded.
  doc["steps"] = json::parse(R"([{"submit": {"app": "z", "queue": "a",
                                             "am": {"memory-mb": 999999}}}])");
  auto bad = run(doc);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("exceeds the maximum allocation"), std::string::npos)
      << bad.status().message();
}

TEST(Scenario, RefreshConfigMergesOntoTheConfigurationInForce) {
  json doc = base();
  doc["scheduler"] = "capacity";
  doc["configuration"] = json::parse(R"({"capacity-scheduler": {
      "yarn.scheduler.capacity.root.queues": "a,b", "yarn.scheduler.capacity.root.a.capacity": 50,
      "yarn.scheduler.capacity.root.b.capacity": 50}})");
  doc["steps"] = json::parse(R"([
    {"refreshConfig": {"configuration": {"capacity-scheduler": {
        "yarn.scheduler.capacity.root.a.capacity": 25, "yarn.scheduler.capacity.root.b.capacity": 75}}}},
    {"refreshConfig": {"configuration": {"capacity-scheduler": {
        "yarn.scheduler.capacity.root.a.capacity": 90}}}, "expectError": "Illegal capacity sum"},
    {"refreshConfig": {"configuration": {"capacity-scheduler": {
        "yarn.scheduler.capacity.root.b.maximum-capacity": 80}}}},
    {"refreshConfig": {"configuration": {"capacity-scheduler": {
        "yarn.scheduler.capacity.root.b.maximum-capacity": null}}}},
    {"expect": {"state": {"queue:a.capacity": 25, "queue:b.capacity": 75, "queue:b.maxCapacity": 100}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty()) << r->failures[0].message;
}

TEST(Scenario, ReservedStepsNameTheMissingFeature) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"setQueueState": {"queue": "default", "state": "STOPPED"}}])");
  auto r = run(doc);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("queue states"), std::string::npos) << r.status().message();
}

TEST(Scenario, ReservationStepsNeedTheReservationSystem) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submitReservation": {"queue": "default"}}])");
  auto r = run(doc);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("reservation-system.enable"), std::string::npos)
      << r.status().message();
}

TEST(Scenario, ReservationStepsRejectUnknownFields) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"deleteReservation": {"reservation-id": "r", "queue": "q"}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_FALSE(sc.isOk());
  EXPECT_NE(sc.status().message().find("queue"), std::string::npos) << sc.status().message();
}

TEST(Scenario, NodeCountExpandsNames) {
  json doc = base();
  doc["cluster"]["nodes"][0]["count"] = 3;
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk());
  ASSERT_EQ(sc->nodes.size(), 3u);
  EXPECT_EQ(sc->nodes[2].name, "h1-2");
}

// --- Capacity preemption elements: place reserved, expect.preemption, preemption: view -------

TEST(ScenarioPreemption, PlaceReservedIsParsedAndChecked) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "am": null}},
    {"place": {"app": "a", "node": "h1", "resource": {"memory-mb": 1024}, "reserved": true}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().toString();
  EXPECT_TRUE(std::get<PlaceStep>(sc->steps[1].body).reserved);
  // FIFO has no node reservations to place: the step fails, naming itself.
  auto r = runScenario(*sc, {});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().message(),
            "steps[1] (place): the fifoScheduler does not place reserved containers");
  doc["steps"][1]["place"]["count"] = 2;
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[1].place: a node holds one reserved container: 'count' must be 1 with "
            "'reserved'");
  doc["steps"][1]["place"].erase("count");
  doc["steps"][1]["place"]["am"] = true;
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[1].place: a reserved container cannot be the AM ('am' and 'reserved')");
  doc["steps"][1]["place"].erase("am");
  doc["steps"][1]["place"]["reserved"] = "yes";
  EXPECT_NE(parseScenario(doc, "t.json").status().message().find("steps[1].place.reserved"),
            std::string::npos);
}

TEST(ScenarioPreemption, PlaceNodeLabelMustBeTheNodesPartition) {
  json doc = base();
  doc["cluster"]["nodeLabels"] = {"x"};
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "am": null}},
    {"place": {"app": "a", "node": "h1", "resource": {"memory-mb": 1024}, "nodeLabel": "x"}}])");
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk()) << sc.status().toString();
  EXPECT_EQ(std::get<PlaceStep>(sc->steps[1].body).nodeLabel, "x");
  auto r = runScenario(*sc, {});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().message(),
            "steps[1] (place): place: a container asking for label 'x' cannot run on h1 "
            "(partition '')");
}

TEST(ScenarioPreemption, ExpectPreemptionKeysAreValidated) {
  json doc = base();
  auto parseWith = [&](const char* preemption) {
    doc["steps"] = json::array({json{{"expect", {{"preemption", json::parse(preemption)}}}}});
    return parseScenario(doc, "t.json").status().message();
  };
  EXPECT_EQ(parseWith(R"({"marked": {"a": 1, "a@h1": 0}, "killed": {}, "exhaustive": false})"), "");
  EXPECT_EQ(parseWith(R"({"markd": {}})"), "steps[0].expect.preemption: unknown field 'markd'");
  EXPECT_EQ(parseWith(R"({"marked": {"a": -1}})"),
            "steps[0].expect.preemption.marked.a: expected a non-negative integer, got -1");
  EXPECT_EQ(parseWith(R"({"killed": {"a": "2"}})"),
            "steps[0].expect.preemption.killed.a: expected a non-negative integer, got \"2\"");
  EXPECT_EQ(parseWith(R"({"marked": {"@h1": 1}})"),
            "steps[0].expect.preemption.marked: '@h1' is not an app handle or '<app>@<node>'");
  EXPECT_EQ(parseWith(R"({"marked": {"a@": 1}})"),
            "steps[0].expect.preemption.marked: 'a@' is not an app handle or '<app>@<node>'");
  EXPECT_EQ(parseWith(R"({"marked": {"a@h1@h2": 1}})"),
            "steps[0].expect.preemption.marked: 'a@h1@h2' is not an app handle or "
            "'<app>@<node>'");
  EXPECT_EQ(parseWith(R"({"marked": [1]})"),
            "steps[0].expect.preemption.marked: expected an object, got [1]");
  EXPECT_NE(parseWith(R"({"exhaustive": 1})").find("steps[0].expect.preemption.exhaustive"),
            std::string::npos);
}

TEST(ScenarioPreemption, UnknownAppsAndNodesInExpectationsAreFailures) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "am": null}},
    {"expect": {"preemption": {"marked": {"a": 0, "a@h1": 0}}}},
    {"expect": {"preemption": {"marked": {"ghost": 0, "a@h9": 0}, "exhaustive": false}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 2u);
  EXPECT_EQ(r->failures[0].step, 2);
  EXPECT_EQ(r->failures[0].message, "preemption.marked.a@h9: unknown node");
  EXPECT_EQ(r->failures[1].message, "preemption.marked.ghost: unknown app handle");
}

TEST(ScenarioPreemption, ViewNeedsAPreemptionRound) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"monitor": {}},
    {"expect": {"state": {"preemption:root.default.pending.memory-mb": 0}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 1u);
  EXPECT_NE(r->failures[0].message.find("no capacity preemption round has run"), std::string::npos)
      << r->failures[0].message;
}

// A live round: b (50 %) holds the whole cluster, a (50 %) asks for half of it.
json liveRound() {
  return json::parse(R"({"spindleScenario": 1, "scheduler": "capacity",
    "configuration": {
      "yarn-site": {"yarn.resourcemanager.scheduler.monitor.enable": true,
        "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round": 1.0,
        "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor": 1.0,
        "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill": 10000},
      "capacity-scheduler": {"yarn.scheduler.capacity.root.queues": "a,b",
        "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
        "yarn.scheduler.capacity.root.b.maximum-capacity": 100,
        "yarn.scheduler.capacity.root.a.user-limit-factor": 2},
      "resource-types": {"yarn.resource-types": "yarn.io/gpu"}},
    "cluster": {"nodes": [{"name": "h1", "resource": {"memory-mb": 8192, "vcores": 8}},
                          {"name": "h2", "resource": {"memory-mb": 8192, "vcores": 8}}]},
    "steps": [
      {"submit": {"app": "x", "queue": "b", "am": null}},
      {"submit": {"app": "y", "queue": "a", "am": null}},
      {"place": {"app": "x", "node": "h1", "resource": {"memory-mb": 1024, "vcores": 1}, "count": 8}},
      {"place": {"app": "x", "node": "h2", "resource": {"memory-mb": 1024, "vcores": 1}, "count": 8}},
      {"ask": {"app": "y", "priority": 1, "resource": {"memory-mb": 1024, "vcores": 1}, "count": 8}},
      {"monitor": {}}]})");
}

TEST(ScenarioPreemption, MarksAreCountedPerAppAndPerNode) {
  json doc = liveRound();
  // The newest containers go first: the 8 on h2.
  doc["steps"].push_back(json::parse(R"({"expect": {
      "preemption": {"marked": {"x": 8, "x@h2": 8, "x@h1": 0}, "killed": {}},
      "state": {"preemption:root.b.used.memory-mb": 16384, "preemption:b.used.memory": 16384,
                "preemption:root.b.toBePreempted.memory-mb": 8192,
                "preemption:root.a.pending.memory-mb": 8192,
                "preemption:root.b.selected.memory-mb": 8192,
                "preemption:root.b.used.yarn.io/gpu": 0}}})"));
  doc["steps"].push_back(json::parse(R"({"monitor": {}, "at": 10000})"));
  doc["steps"].push_back(json::parse(R"({"expect": {
      "preemption": {"marked": {}, "killed": {"x@h2": 8}, "exhaustive": false}}})"));
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty()) << r->failures[0].message;
}

TEST(ScenarioPreemption, ExhaustiveCountsEveryAppButNotNodeKeys) {
  json doc = liveRound();
  doc["steps"].push_back(json::parse(R"({"expect": {"preemption": {"marked": {"x@h2": 8}}}})"));
  doc["steps"].push_back(json::parse(R"({"monitor": {}, "at": 10000})"));
  doc["steps"].push_back(json::parse(R"({"expect": {"preemption": {"killed": {"y": 0}}}})"));
  doc["steps"].push_back(json::parse(R"({"expect": {"state": {
      "preemption:root.c.used.memory-mb": 0, "preemption:root.b@x.used.memory-mb": 0,
      "preemption:root.b.ideal.memory-mb": 0, "preemption:root.b.used.gpu": 0,
      "preemption:root.b.used": 0, "preemption:nosuch.used.memory-mb": 0}}})"));
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 8u);
  EXPECT_EQ(r->failures[0].message, "preemption.marked.x: expected 0, got 8");
  EXPECT_EQ(r->failures[1].message, "preemption.killed.x: expected 0, got 8");
  EXPECT_EQ(r->failures[2].message,
            "state preemption:nosuch.used.memory-mb: no queue (and partition) of the last "
            "preemption round is named in preemption:nosuch.used.memory-mb");
  EXPECT_EQ(r->failures[3].message,
            "state preemption:root.b.ideal.memory-mb: 'ideal' after 'root.b' is neither a "
            "preemption figure (guaranteed, maximum, used, pending, idealAssigned, toBePreempted, "
            "actuallyToBePreempted, preemptableExtra, untouchableExtra, selected) nor a queue (and "
            "partition) of the last round, in preemption:root.b.ideal.memory-mb");
  EXPECT_EQ(r->failures[4].message,
            "state preemption:root.b.used: expected "
            "preemption:<queue>[@partition].<figure>.<resource type> in preemption:root.b.used");
  EXPECT_EQ(r->failures[5].message,
            "state preemption:root.b.used.gpu: unknown resource type 'gpu' in "
            "preemption:root.b.used.gpu");
  EXPECT_EQ(r->failures[6].message,
            "state preemption:root.b@x.used.memory-mb: 'b@x' after 'root' is neither a "
            "preemption figure (guaranteed, maximum, used, pending, idealAssigned, toBePreempted, "
            "actuallyToBePreempted, preemptableExtra, untouchableExtra, selected) nor a queue (and "
            "partition) of the last round, in preemption:root.b@x.used.memory-mb");
  EXPECT_EQ(r->failures[7].message,
            "state preemption:root.c.used.memory-mb: 'c' after 'root' is neither a preemption "
            "figure (guaranteed, maximum, used, pending, idealAssigned, toBePreempted, "
            "actuallyToBePreempted, preemptableExtra, untouchableExtra, selected) nor a queue (and "
            "partition) of the last round, in preemption:root.c.used.memory-mb");
}

TEST(ScenarioFormat, ContainsMatcherChecksStringsAndFailsOtherwise) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "am": null}},
    {"ask": {"app": "a", "priority": 1, "resource": {"memory-mb": 1024}, "count": 1}},
    {"heartbeat": "h1"},
    {"expect": {"allocations": [{"app": {"contains": "a"}, "locality": {"contains": "SWITCH"}}],
                "state": {"app:a.queue": {"contains": "defa"}, "app:a.state": {"contains": "RUN"}}}},
    {"expect": {"state": {"app:a.queue": {"contains": "root.b"},
                          "app:a.allocatedMB": {"contains": "1024"}}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 2u) << r->failures[0].message;
  EXPECT_EQ(r->failures[0].message,
            "state app:a.allocatedMB: expected {\"contains\":\"1024\"}, got 1024");
  EXPECT_EQ(r->failures[1].message,
            "state app:a.queue: expected {\"contains\":\"root.b\"}, got \"default\"");
  doc["steps"] =
      json::parse(R"([{"expect": {"state": {"metrics.appsPending": {"contains": 1}}}}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[0].expect.state.metrics.appsPending: a contains matcher is {\"contains\": "
            "\"text\"}, got {\"contains\":1}");
  doc["steps"] = json::parse(R"([{"expect": {"skips": [{"reason": {"contains": "x", "y": 1}}]}}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[0].expect.skips[0].reason: a contains matcher is {\"contains\": \"text\"}, "
            "got {\"contains\":\"x\",\"y\":1}");
}

TEST(ScenarioFormat, AdvanceTakesMonitorTicksAndKeepsItsDefault) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"advance": {"by": "2s", "monitorTicks": true}},
    {"advance": "1s"}, {"advance": {"by": 500}},
    {"expect": {"state": {"metrics.appsSubmitted": 0}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(r->failures.empty());
  EXPECT_NE(r->summary.find("simulated time: 3500 ms"), std::string::npos) << r->summary;
  doc["steps"] = json::parse(R"([{"advance": {"monitorTicks": true}}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[0].advance: missing required field 'by'");
  doc["steps"] = json::parse(R"([{"advance": {"by": "1s", "ticks": true}}])");
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(),
            "steps[0].advance: unknown field 'ticks'");
}

TEST(ScenarioFormat, SchedulerViewsNameWhatTheSchedulerLacks) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "am": null}},
    {"ask": {"app": "a", "priority": 1, "resource": {"memory-mb": 1024}, "count": 2}},
    {"heartbeat": "h1"},
    {"expect": {"state": {"queueMetrics:default.allocatedMB": 2048,
                          "queueMetrics:default.availableMB": 2048,
                          "queueMetrics:default.appsRunning": 1,
                          "queueMetrics:root.pendingContainers": 0}}},
    {"expect": {"state": {"preemptionSettings:observe_only": false,
                          "app:a.reReservations.total": 0,
                          "queueMetrics:nosuch.allocatedMB": 0,
                          "queueMetrics:default.bogus": 0}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->failures.size(), 4u) << r->failures[0].message;
  EXPECT_EQ(r->failures[0].message,
            "state app:a.reReservations.total: fifoScheduler keeps no re-reservation counts "
            "(app:a.reReservations.total)");
  EXPECT_EQ(r->failures[1].message,
            "state preemptionSettings:observe_only: fifoScheduler has no capacity preemption "
            "policy (preemptionSettings:observe_only)");
  EXPECT_EQ(r->failures[2].message,
            "state queueMetrics:default.bogus: no queue metric 'bogus' (in "
            "queueMetrics:default.bogus); metrics: allocatedContainers, allocatedMB, "
            "allocatedVirtualCores, appsCompleted, appsFailed, appsKilled, appsPending, "
            "appsRunning, appsSubmitted, availableMB, availableVirtualCores, pendingContainers, "
            "pendingMB, pendingVirtualCores, queuePath, reservedContainers, reservedMB, "
            "reservedVirtualCores");
  EXPECT_EQ(r->failures[3].message,
            "state queueMetrics:nosuch.allocatedMB: no queue of fifoScheduler is named in "
            "queueMetrics:nosuch.allocatedMB");
}

TEST(ScenarioFormat, FairQueueMetricsSetAvailableOnRootOnly) {
  json doc = base();
  doc["scheduler"] = "fair";
  // user-as-default-queue (default true) places the app in root.user.
  doc["steps"] = json::parse(R"([{"submit": {"app": "a", "queue": "default", "am": null}},
    {"ask": {"app": "a", "priority": 1, "resource": {"memory-mb": 1024}, "count": 3}},
    {"heartbeat": "h1"},
    {"expect": {"state": {"app:a.queue": "root.user",
                          "queueMetrics:root.user.allocatedMB": 1024,
                          "queueMetrics:user.pendingMB": 2048,
                          "queueMetrics:user.availableMB": 0,
                          "queueMetrics:root.default.appsSubmitted": 0,
                          "queueMetrics:root.availableMB": 3072,
                          "queueMetrics:root.appsRunning": 1}}}])");
  auto r = run(doc);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  for (const auto& f : r->failures) ADD_FAILURE() << f.message;
}

}  // namespace
}  // namespace spindle
