// Reads SLS's own sample files (apache/hadoop, kept outside the repository in
// ../shared/reference/sls-fixtures) when they are present; skipped otherwise. They are not
// copied into the repository: these tests check that Spindle reads what SLS users have.
#include <filesystem>

#include <gtest/gtest.h>

#include "trace/nodes_reader.h"
#include "trace/readers.h"
#include "trace/rumen_reader.h"
#include "trace/sls_reader.h"
#include "trace/synth_generator.h"
#include "trace/trace_test_util.h"

namespace spindle {
namespace {

using testing::defaultOptions;

std::string fixture(const std::string& name) {
  return std::string(SPINDLE_SOURCE_DIR) + "/../shared/reference/sls-fixtures/" + name;
}

#define REQUIRE_FIXTURE(name)                                          \
  if (!std::filesystem::exists(fixture(name))) {                       \
    GTEST_SKIP() << "SLS fixture " << fixture(name) << " not present"; \
  }

TEST(SlsReferenceFixtures, RealRumenTraceRebasesToTheSlsTraceTimes) {
  REQUIRE_FIXTURE("2jobs2min-rumen-jh.json");
  Result<Trace> t =
      readTrace(TraceType::kRumen, {fixture("2jobs2min-rumen-jh.json")}, defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->jobs.size(), 2u);
  EXPECT_EQ(t->jobs[0].id, "job_1369942127770_1205");
  EXPECT_EQ(t->jobs[0].user, "jenkins");
  EXPECT_EQ(t->jobs[0].queue, "sls_queue_1");
  EXPECT_EQ(t->jobs[0].startMs, 0);
  EXPECT_EQ(t->jobs[0].endMs, 1371222153874 - 1371222054499);
  // The second job starts where SLS's own converted trace (inputsls.json) starts job_2.
  EXPECT_EQ(t->jobs[1].startMs, 105204);
  EXPECT_EQ(t->jobs[0].tasks.size(), 96u);
  EXPECT_EQ(t->jobs[1].tasks.size(), 96u);
  EXPECT_EQ(t->skippedTasks, 0);
  EXPECT_EQ(t->jobs[0].tasks[0].host, "a2118.smile.com");
  EXPECT_EQ(t->jobs[0].tasks[0].rack, "/default-rack");
  EXPECT_EQ(t->jobs[0].tasks[0].durationMs, 1371222078206 - 1371222061163);
  EXPECT_EQ(t->nodes.size(), 4u);
}

TEST(SlsReferenceFixtures, InputSlsAndDagTraces) {
  REQUIRE_FIXTURE("inputsls.json");
  Result<Trace> t = readTrace(TraceType::kSls, {fixture("inputsls.json")}, defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->jobs.size(), 2u);
  EXPECT_EQ(t->jobs[0].tasks.size(), 3u);
  EXPECT_EQ(t->jobs[0].tasks[2].durationMs, 86613 - 68770);
  EXPECT_EQ(t->jobs[0].tasks[2].allocationId, 2);
  EXPECT_EQ(t->jobs[1].startMs, 105204);
  EXPECT_EQ(t->nodes.size(), 3u);
  EXPECT_TRUE(t->warnings.empty());

  Result<Trace> dag = readTrace(TraceType::kSls, {fixture("sls_dag.json")}, defaultOptions());
  ASSERT_TRUE(dag) << dag.status().toString();
  EXPECT_EQ(dag->jobs[0].amType, "dag");
  EXPECT_EQ(dag->jobs[0].tasks[1].requestDelayMs, 1500);
}

TEST(SlsReferenceFixtures, NodesFiles) {
  REQUIRE_FIXTURE("nodes.json");
  ResourceTypes types;
  Result<std::vector<TraceNode>> n =
      readNodesFile(fixture("nodes.json"), types, Resource::of(100, 1));
  ASSERT_TRUE(n) << n.status().toString();
  EXPECT_EQ(n->size(), 19u);  // the trailing {} entry is skipped
  EXPECT_EQ(n->back().rack, "/rack5");
  // SLS's sample gives nodes two labels ("label1, label2(exclusive=false)"); a node belongs to
  // one partition (the scheduler refuses a second label when the node registers), so the reader
  // refuses the file, naming the entry, its line and the node's labels.
  Result<std::vector<TraceNode>> r =
      readNodesFile(fixture("nodes-with-resources.json"), types, Resource::of(100, 1));
  ASSERT_FALSE(r);
  EXPECT_NE(r.status().message().find(
                "nodes-with-resources.json: rack entry #1 (line 1): field nodes[2].labels: "
                "'label1, label2(exclusive=false)' names 2 labels"),
            std::string::npos)
      << r.status().message();
}

TEST(SlsReferenceFixtures, SynthSpecsGenerate) {
  REQUIRE_FIXTURE("syn.json");
  for (const char* name : {"syn.json", "syn_generic.json", "syn_stream.json"}) {
    Result<Trace> t = readTrace(TraceType::kSynth, {fixture(name)}, defaultOptions());
    ASSERT_TRUE(t) << name << ": " << t.status().toString();
    EXPECT_EQ(t->nodes.size(), 20u) << name;
    EXPECT_EQ(t->jobs.size(), std::string(name) == "syn_stream.json" ? 5u : 10u);
    for (const TraceJob& j : t->jobs) {
      EXPECT_EQ(j.queue, "sls_queue_1");
      EXPECT_EQ(j.user, "foobar");
      EXPECT_GE(j.startMs, 1000);
      EXPECT_LT(j.startMs, std::string(name) == "syn_stream.json" ? 2000 : 60000);
    }
  }
}

}  // namespace
}  // namespace spindle
