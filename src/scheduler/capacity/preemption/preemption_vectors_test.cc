// Runs the recorded Hadoop preemption test vectors (testdata/vectors.json, transcribed from
// TestProportionalCapacityPreemptionPolicy* and TestPreemptionForQueueWithPriorities) against
// the policy core: one round per vector, then the per-app mark counts, per-node counts, ideal
// assignments and extras the Hadoop test asserted.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "scheduler/capacity/preemption/preemption_policy.h"
#include "scheduler/capacity/preemption/selection_util.h"
#include "scheduler/capacity/preemption/vector_adapter.h"

namespace spindle::preemption {
namespace {

using nlohmann::json;
using testing::BuiltVector;

const json& allVectors() {
  static const json doc = [] {
    std::ifstream in(std::string(SPINDLE_PREEMPTION_TESTDATA) + "/vectors.json");
    return json::parse(in);
  }();
  return doc["vectors"];
}

std::vector<std::string> vectorIds() {
  std::vector<std::string> ids;
  for (const json& v : allVectors()) {
    // testContainerOrdering has no queues; VectorContainerOrdering below checks it.
    if (v["kind"] != "container-sort") ids.push_back(v["id"].get<std::string>());
  }
  return ids;
}

const json& vectorById(const std::string& id) {
  for (const json& v : allVectors()) {
    if (v["id"] == id) return v;
  }
  throw std::runtime_error("no vector " + id);
}

// MARK_CONTAINER_FOR_PREEMPTION events of one round: one per candidate unless observe_only.
std::map<AttemptId, int> marksPerApp(const PreemptionPlan& plan) {
  std::map<AttemptId, int> out;
  if (plan.observeOnly) return out;
  for (const PreemptionCandidate& c : plan.candidates) ++out[c.container.attempt];
  return out;
}

Result<BuiltVector> build(const json& v) {
  if (v.contains("table")) return testing::buildTableVector(v);
  return testing::buildDslVector(v);
}

std::string describe(const PreemptionPlan& plan, const BuiltVector& b) {
  std::string out;
  for (const QueueFigures& f : plan.figures) {
    if (!f.path.empty()) {
      out += fmt::format("  {}[{}] G={} U={} P={} ideal={} toBePreempted={} actual={}\n", f.path,
                         f.partition, f.guaranteed.toString(), f.used.toString(),
                         f.pending.toString(), f.ideal.toString(), f.toBePreempted.toString(),
                         f.actuallyToBePreempted.toString());
    }
  }
  for (const auto& [name, id] : b.appByName) {
    int n = 0;
    for (const PreemptionCandidate& c : plan.candidates) n += c.container.attempt == id;
    if (n > 0) out += fmt::format("  {} marked {}\n", name, n);
  }
  return out;
}

class VectorTest : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorTest, MatchesHadoopExpectation) {
  const json& v = vectorById(GetParam());
  auto built = build(v);
  ASSERT_TRUE(built.isOk()) << built.status().message();
  BuiltVector& b = built.value();
  auto planned = planPreemptionRound(b.snapshot, *b.calculator, b.settings);
  ASSERT_TRUE(planned.isOk()) << planned.status().message();
  const PreemptionPlan& plan = planned.value();
  std::map<AttemptId, int> marks = marksPerApp(plan);
  const json& e = v["expected"];
  SCOPED_TRACE(describe(plan, b));
  auto appId = [&](const std::string& name) {
    auto it = b.appByName.find(name);
    EXPECT_NE(it, b.appByName.end()) << "vector names unknown app " << name;
    return it == b.appByName.end() ? AttemptId{} : it->second;
  };
  // Invariants of every plan: no container twice; the budget shrank by exactly the picks;
  // no victim in a queue whose preemption is disabled (inherited).
  std::set<ContainerId> seen;
  Resource picked;
  for (const PreemptionCandidate& c : plan.candidates) {
    EXPECT_TRUE(seen.insert(c.container).second) << "picked twice: " << c.container.seq;
    picked += c.size;
    for (QueueId q = c.queue; q.valid(); q = b.snapshot.queue(q).parent) {
      const auto& own = b.snapshot.queue(q).disablePreemption;
      if (own.has_value()) {
        EXPECT_FALSE(*own) << "victim in disabled queue " << c.queuePath;
        break;
      }
    }
  }
  const double factor = asYarnFloat(b.settings.totalPreemptionPerRound);
  EXPECT_EQ(plan.budgetLeft.memoryMb() + picked.memoryMb(),
            static_cast<int64_t>(static_cast<double>(b.snapshot.clusterTotal.memoryMb()) * factor));
  for (const PreemptionCandidate& c : plan.candidates) {
    if (c.selector == SelectorKind::kIntraQueue) {
      // Intra-queue picks serve the starved apps of their own queue.
      EXPECT_EQ(c.beneficiaries, std::vector<std::string>{c.queuePath});
      EXPECT_FALSE(c.isAm);
    }
  }
  if (e.value("no_preemption_events_at_all", false)) {
    EXPECT_TRUE(marks.empty()) << "expected no MARK events at all";
    EXPECT_TRUE(plan.observeOnly || plan.reservationsToKill.empty());
  }
  if (e.contains("containers_marked_for_preemption_per_app")) {
    for (const auto& [name, n] : e["containers_marked_for_preemption_per_app"].items()) {
      EXPECT_EQ(marks[appId(name)], n.get<int>()) << name;
    }
  }
  if (e.contains("apps_with_no_preemption")) {
    for (const json& name : e["apps_with_no_preemption"]) {
      EXPECT_EQ(marks[appId(name.get<std::string>())], 0) << name;
    }
  }
  if (e.contains("per_app_node")) {
    for (const auto& [key, n] : e["per_app_node"].items()) {
      if (key == "uncertainty") continue;
      auto at = key.find('@');
      AttemptId app = appId(key.substr(0, at));
      NodeId node = b.nodeByName.at(key.substr(at + 1));
      int count = 0;
      for (const PreemptionCandidate& c : plan.candidates) {
        if (c.container.attempt != app) continue;
        for (const AppSnapshot& a : b.snapshot.apps) {
          for (const ContainerSnapshot& cs : a.containers) {
            if (cs.id == c.container && cs.node == node) ++count;
          }
        }
      }
      EXPECT_EQ(count, n.get<int>()) << key;
    }
  }
  if (e.contains("ideal_assigned")) {
    for (const auto& [queue, want] : e["ideal_assigned"].items()) {
      QueueId q = b.queueByName.at(queue);
      auto parsed = testing::parseResource(want.is_string() ? want.get<std::string>()
                                                            : std::to_string(want.get<int>()));
      ASSERT_TRUE(parsed.isOk());
      for (const QueueFigures& f : plan.figures) {
        if (f.queue == q && f.partition.empty()) {
          EXPECT_EQ(f.ideal.memoryMb(), parsed.value().memoryMb()) << queue;
          if (want.is_string()) {
            EXPECT_EQ(f.ideal.vcores(), parsed.value().vcores()) << queue;
          }
        }
      }
    }
  }
  if (e.contains("balance_selector_max_kill_wait_ms")) {
    for (const PreemptionCandidate& c : plan.candidates) {
      if (c.selector == SelectorKind::kFifoBalance) {
        EXPECT_EQ(c.killWaitMs, e["balance_selector_max_kill_wait_ms"].get<int64_t>());
      }
    }
  }
  if (e.contains("asserts")) {
    // testHierarchicalLarge3Levels: extras of queueE and queueA.
    auto fig = [&](const std::string& name) {
      for (const QueueFigures& f : plan.figures) {
        if (f.queue == b.queueByName.at(name) && f.partition.empty()) return f;
      }
      return QueueFigures{};
    };
    EXPECT_EQ(fig("queueE").preemptableExtra.memoryMb(), 10);
    EXPECT_EQ(fig("queueA").untouchableExtra.memoryMb(), 0);
    EXPECT_EQ(fig("queueA").preemptableExtra.memoryMb(),
              fig("queueA").used.memoryMb() - fig("queueA").guaranteed.memoryMb());
  }
  if (e.contains("timeline")) {
    // testExpireKill: the first round marks 10 of appC; the executor (not this core) turns a
    // mark into a kill when the same container is selected again after max_wait_before_kill.
    // What the core owes the executor: the same snapshot selects the same containers again.
    EXPECT_EQ(marks[appId("appC")], 10);
    auto again = planPreemptionRound(b.snapshot, *b.calculator, b.settings);
    ASSERT_TRUE(again.isOk());
    ASSERT_EQ(again.value().candidates.size(), plan.candidates.size());
    for (size_t i = 0; i < plan.candidates.size(); ++i) {
      EXPECT_EQ(again.value().candidates[i].container, plan.candidates[i].container);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Hadoop, VectorTest, ::testing::ValuesIn(vectorIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name;
                           for (char ch : info.param) name += std::isalnum(ch) ? ch : '_';
                           return name;
                         });

// testContainerOrdering: request priority (larger number first), then container id descending.
TEST(VectorContainerOrdering, LowestPriorityNewestFirst) {
  const json& v = vectorById("table/testContainerOrdering");
  AppSnapshot app;
  app.attempt = AttemptId{AppId(1), 1};
  std::map<uint64_t, std::string> nameBySeq;
  std::map<std::string, json> byName;
  for (const json& c : v["input"]["containers"]) byName[c["name"]] = c;
  for (const json& n : v["input"]["insertion_order"]) {
    const json& c = byName.at(n.get<std::string>());
    uint64_t seq = c["container_id"].get<uint64_t>();
    nameBySeq[seq] = n.get<std::string>();
    app.containers.push_back(ContainerSnapshot{.id = {app.attempt, seq},
                                               .node = NodeId(0),
                                               .size = Resource::of(1, 1),
                                               .requestPriority = c["priority"].get<int>()});
  }
  std::vector<std::string> got;
  for (const ContainerSnapshot* c : liveContainersInPreemptionOrder(app)) {
    got.push_back(nameBySeq[c->id.seq]);
  }
  std::vector<std::string> want;
  for (const json& n : v["expected"]["preemption_order"]) want.push_back(n.get<std::string>());
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace spindle::preemption
