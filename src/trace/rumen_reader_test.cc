#include "trace/rumen_reader.h"

#include <gtest/gtest.h>

#include "trace/readers.h"
#include "trace/trace_test_util.h"

namespace spindle {
namespace {

using testing::defaultOptions;
using testing::sourcePath;

TEST(RumenReader, ExampleTraceUsesLastAttemptsAndRebasesTimes) {
  TraceReadOptions o = defaultOptions();
  o.sls.containerResource = Resource::of(1536, 1);
  Result<Trace> t = readRumenTrace({sourcePath("examples/sim/rumen/rumen-jobs.json")}, o);
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->jobs.size(), 3u);
  EXPECT_EQ(t->skippedTasks, 0);

  const TraceJob& wc = t->jobs[0];
  EXPECT_EQ(wc.id, "job_1700000000000_0001");
  EXPECT_EQ(wc.user, "alice");
  EXPECT_EQ(wc.queue, "prod");
  EXPECT_EQ(wc.amType, "mapreduce");
  EXPECT_EQ(wc.startMs, 0);
  EXPECT_EQ(wc.endMs, 62000);
  EXPECT_EQ(wc.amResource, Resource::of(1024, 1));
  ASSERT_EQ(wc.tasks.size(), 4u);
  EXPECT_EQ(wc.tasks[0].durationMs, 15000);
  EXPECT_EQ(wc.tasks[0].host, "host1");
  EXPECT_EQ(wc.tasks[0].rack, "/rack-a");
  // Task 1 failed on host2 and succeeded on host4: the last attempt counts.
  EXPECT_EQ(wc.tasks[1].host, "host4");
  EXPECT_EQ(wc.tasks[1].rack, "/rack-b");
  EXPECT_EQ(wc.tasks[1].durationMs, 18000);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(wc.tasks[i].type, TaskType::kMap);
    EXPECT_EQ(wc.tasks[i].priority, 20);
    EXPECT_EQ(wc.tasks[i].resource, Resource::of(1536, 1));
  }
  EXPECT_EQ(wc.tasks[3].type, TaskType::kReduce);
  EXPECT_EQ(wc.tasks[3].priority, 10);
  EXPECT_EQ(wc.tasks[3].durationMs, 32000);

  EXPECT_EQ(t->jobs[1].startMs, 30000);
  EXPECT_EQ(t->jobs[1].endMs, 95000);
  EXPECT_EQ(t->jobs[1].tasks.size(), 4u);
  EXPECT_EQ(t->jobs[2].startMs, 45000);
  EXPECT_EQ(t->jobs[2].queue, "adhoc");
  EXPECT_EQ(t->jobs[2].tasks.size(), 4u);
  EXPECT_EQ(t->jobs[2].tasks[3].durationMs, 13000 - 30);

  EXPECT_EQ(t->nodes.size(), 6u);
}

TEST(RumenReader, RealTraceShapeWithManyTasks) {
  // The shape of SLS's 2jobs2min-rumen-jh.json: pretty-printed "key" : value, nested layers.
  Result<Trace> t =
      readRumenTrace({sourcePath("examples/sim/rumen/rumen-jobs.json")}, defaultOptions());
  ASSERT_TRUE(t);
  int maps = 0, reduces = 0;
  for (const TraceJob& j : t->jobs) {
    for (const TraceTask& task : j.tasks) (task.type == TaskType::kMap ? maps : reduces)++;
  }
  EXPECT_EQ(maps, 9);
  EXPECT_EQ(reduces, 3);
}

TEST(RumenReader, EdgeCasesSkipUnusableTasksAndClampEarlyJobs) {
  Result<Trace> t =
      readRumenTrace({sourcePath("tests/data/traces/rumen-edge.json")}, defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->jobs.size(), 3u);
  const TraceJob& a = t->jobs[0];
  EXPECT_EQ(a.queue, "default");
  EXPECT_EQ(a.user, "default");
  EXPECT_EQ(a.startMs, 0);
  EXPECT_EQ(a.endMs, 90000);
  // m_000000 (no attempts), m_000002 (no finish) and r_000000 (zero length) are skipped.
  EXPECT_EQ(t->skippedTasks, 3);
  ASSERT_EQ(a.tasks.size(), 2u);
  EXPECT_EQ(a.tasks[0].durationMs, 10000);
  EXPECT_EQ(a.tasks[1].type, TaskType::kReduce);
  EXPECT_EQ(a.tasks[1].host, "h4");
  EXPECT_EQ(a.tasks[1].rack, "/default-rack");
  int skipNotes = 0;
  for (const std::string& w : t->warnings) {
    skipNotes += w.find("skipped task task_5_0001_") != std::string::npos;
  }
  EXPECT_EQ(skipNotes, 3);

  // Submitted 5 s before the first job: starts at 0 and keeps its 10 s length.
  const TraceJob& early = t->jobs[1];
  EXPECT_EQ(early.startMs, 0);
  EXPECT_EQ(early.endMs, 10000);
  EXPECT_EQ(early.user, "early");

  const TraceJob& late = t->jobs[2];
  EXPECT_EQ(late.startMs, 500000);
  EXPECT_FALSE(late.endMs.has_value());
  EXPECT_TRUE(late.tasks.empty());
}

TEST(RumenReader, BadJobsFailOrAreSkipped) {
  const std::string file = sourcePath("tests/data/traces/rumen-bad-no-submit.json");
  Result<Trace> t = readRumenTrace({file}, defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("job #2 (id job_6_0002): field submitTime: missing"),
            std::string::npos)
      << t.status().message();
  TraceReadOptions o = defaultOptions();
  o.skipBadJobs = true;
  t = readRumenTrace({file}, o);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->jobs.size(), 1u);
  EXPECT_EQ(t->skippedJobs, 1);

  o = defaultOptions();
  o.knownQueues = {"default"};
  t = readRumenTrace({file}, o);
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("job #1 (id job_6_0001): field queue: unknown queue 'q'"),
            std::string::npos);

  t = parseRumenTrace(R"({"jobID": "j", "submitTime": 1, "mapTasks": [{"attempts": [
      {"startTime": 1, "finishTime": 5, "hostName": 7}]}]})",
                      "r.json", defaultOptions());
  ASSERT_TRUE(t);  // numbers print as strings, as SLS's toString() would
  EXPECT_EQ(t->jobs[0].tasks[0].host, "7");
  t = parseRumenTrace(R"({"jobID": "j", "submitTime": 1, "reduceTasks": [{"attempts": 3}]})",
                      "r.json", defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("field reduceTasks[0].attempts: expected an array, got 3"),
            std::string::npos)
      << t.status().message();
  t = parseRumenTrace(R"({"jobID": "j", "submitTime": 1, "mapTasks": {}})", "r.json",
                      defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("r.json: job #1 (id j): field mapTasks: expected an array"),
            std::string::npos)
      << t.status().message();
}

TEST(RumenReader, RebaseSpansFiles) {
  const std::string ex = sourcePath("examples/sim/rumen/rumen-jobs.json");
  Result<Trace> t = readTrace(
      TraceType::kRumen, {ex, sourcePath("tests/data/traces/rumen-edge.json")}, defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  // rumen-edge's jobs are ~1.7e12 ms earlier than the first file's first job: clamped to 0.
  EXPECT_EQ(t->jobs.size(), 6u);
  EXPECT_EQ(t->jobs[0].startMs, 0);
  EXPECT_EQ(t->jobs.back().id, "job_1700000000000_0003");
}

}  // namespace
}  // namespace spindle
