// The scenario `starvation:` view: fields of apps, leaves and parents, and its errors.
#include <gtest/gtest.h>

#include "scenario/scenario.h"
#include "scenario/scenario_runner.h"

namespace spindle {
namespace {

using nlohmann::json;

std::vector<CheckFailure> run(json doc) {
  auto sc = parseScenario(doc, "t.json");
  EXPECT_TRUE(sc.isOk()) << sc.status().toString();
  if (!sc.isOk()) return {};
  auto r = runScenario(*sc, {});
  EXPECT_TRUE(r.isOk()) << r.status().toString();
  return r.isOk() ? r->failures : std::vector<CheckFailure>{};
}

// One 4 GB node held by root.a; root.p.b (min share 2 GB, min-share timeout 1 s) then asks
// 2 x 1 GB. The 3.x design (default) marks; the deficit is the 2.x figure either way.
json scenario(const json& expect) {
  json doc = json::parse(R"({"spindleScenario": 1, "scheduler": "fair",
    "configuration": {
      "yarn-site": {"yarn.scheduler.fair.preemption": "true",
                    "yarn.scheduler.fair.preemption.cluster-utilization-threshold": "0"},
      "fair-scheduler": "<allocations><queue name=\"a\"/><queue name=\"p\"><queue name=\"b\"><minResources>2048mb,0vcores</minResources><minSharePreemptionTimeout>1</minSharePreemptionTimeout></queue></queue></allocations>"},
    "cluster": {"nodes": [{"name": "n1", "rack": "/r1", "resource": {"memory-mb": 4096, "vcores": 4}}]},
    "steps": [
      {"submit": {"app": "ga", "queue": "a", "am": null}},
      {"ask": {"app": "ga", "priority": 1, "resource": {"memory-mb": 1024}, "count": 4}},
      {"heartbeat": {"node": "n1", "times": 4}},
      {"submit": {"app": "sb", "queue": "p.b", "am": null}},
      {"ask": {"app": "sb", "priority": 1, "resource": {"memory-mb": 1024}, "count": 2}},
      {"monitor": {}}, {"advance": "1001ms"}, {"monitor": {}}]})");
  doc["steps"].push_back({{"expect", expect}});
  return doc;
}

TEST(StarvationView, AppLeafAndParentFields) {
  auto failures = run(scenario(json::parse(R"({"state": {
      "starvation:sb.starved": true,
      "starvation:sb.minshare.memory-mb": 2048,
      "starvation:sb.minshare.memory": 2048,
      "starvation:sb.fairshare.memory-mb": 0,
      "starvation:ga.starved": false,
      "starvation:root.p.b.starved": true,
      "starvation:p.b.deficit.memory-mb": 2048,
      "starvation:root.p.deficit.memory-mb": 2048,
      "starvation:root.p.starved": true,
      "starvation:root.a.starved": false,
      "starvation:root.toPreempt.memory-mb": 0}})")));
  for (const auto& f : failures) ADD_FAILURE() << f.message;
}

TEST(StarvationView, ErrorsNameThePath) {
  auto failures = run(scenario(json::parse(R"({"state": {
      "starvation:root.p.b.toPreempt.memory-mb": 0,
      "starvation:sb.minshare.gpu": 0,
      "starvation:nosuch.starved": false}})")));
  ASSERT_EQ(failures.size(), 3u);
  std::string all;
  for (const auto& f : failures) all += f.message + "\n";
  EXPECT_NE(all.find("no field 'toPreempt' of queue root.p.b"), std::string::npos) << all;
  EXPECT_NE(all.find("unknown resource type 'gpu'"), std::string::npos) << all;
  EXPECT_NE(all.find("no app handle or queue named"), std::string::npos) << all;
}

TEST(StarvationView, NeedsTheFairScheduler) {
  json doc = json::parse(R"({"spindleScenario": 1, "scheduler": "fifo",
    "cluster": {"nodes": [{"name": "n1", "resource": {"memory-mb": 4096, "vcores": 4}}]},
    "steps": [{"expect": {"state": {"starvation:root.starved": false}}}]})");
  auto failures = run(doc);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].message.find("needs the Fair Scheduler"), std::string::npos)
      << failures[0].message;
}

}  // namespace
}  // namespace spindle
