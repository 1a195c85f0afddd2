#include "sim/scenario.h"

#include <gtest/gtest.h>

#include "sim/scenario_runner.h"

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

TEST(Scenario, UnknownFieldsAreErrors) {
  json doc = base();
  doc["stpes"] = json::array();
  EXPECT_EQ(parseScenario(doc, "t.json").status().message(), ": unknown field 'stpes'");
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

TEST(Scenario, ReservedStepsNameTheMissingFeature) {
  json doc = base();
  doc["steps"] = json::parse(R"([{"submitReservation": {}}])");
  auto r = run(doc);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("the reservation system"), std::string::npos);
}

TEST(Scenario, NodeCountExpandsNames) {
  json doc = base();
  doc["cluster"]["nodes"][0]["count"] = 3;
  auto sc = parseScenario(doc, "t.json");
  ASSERT_TRUE(sc.isOk());
  ASSERT_EQ(sc->nodes.size(), 3u);
  EXPECT_EQ(sc->nodes[2].name, "h1-2");
}

}  // namespace
}  // namespace spindle
