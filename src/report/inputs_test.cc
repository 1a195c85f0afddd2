// Input parsing: CSV records, jobs files and realtimetrack.json, with located errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/csv.h"
#include "report/jobs.h"
#include "report/track.h"

namespace spindle::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Csv, QuotedFieldsAndCrlf) {
  auto t = parseCsv("a,b,c\r\n1,\"x,y\",\"say \"\"hi\"\"\"\r\n\r\n2,,z\n", "t.csv", {"a", "c"});
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0].fields[1], "x,y");
  EXPECT_EQ(t->rows[0].fields[2], "say \"hi\"");
  EXPECT_EQ(t->rows[1].line, 4);
  EXPECT_EQ(t->field(t->rows[1], "b"), "");
}

TEST(Csv, ByteOrderMarkIsNotPartOfTheHeader) {
  auto t = parseCsv("\xEF\xBB\xBFJobID,x\nj1,2\n", "t.csv", {"JobID"});
  ASSERT_TRUE(t) << t.status().toString();
  EXPECT_EQ(t->field(t->rows[0], "JobID"), "j1");
}

TEST(Csv, ErrorsNameFileLineAndColumn) {
  auto missing = parseCsv("a,b\n1,2\n", "t.csv", {"a", "zz"});
  EXPECT_THAT(missing.status().message(), HasSubstr("t.csv: line 1: header lacks column 'zz'"));
  auto width = parseCsv("a,b\n1,2\n1,2,3\n", "t.csv", {});
  EXPECT_THAT(width.status().message(), HasSubstr("t.csv: line 3: expected 2 fields"));
  auto quote = parseCsv("a,b\n\"1,2\n", "t.csv", {});
  EXPECT_THAT(quote.status().message(), HasSubstr("t.csv: line 2: unterminated quoted field 1"));
  auto empty = parseCsv("", "t.csv", {});
  EXPECT_THAT(empty.status().message(), HasSubstr("t.csv: empty file"));
  auto num = parseCsv("a\n12x\n", "t.csv", {"a"});
  ASSERT_TRUE(num);
  auto v = num->optionalInt(num->rows[0], "a");
  EXPECT_THAT(v.status().message(), HasSubstr("t.csv: line 2: column 'a': expected an integer"));
}

TEST(Jobs, JobsCsvFieldsAndStates) {
  auto jobs = parseJobsCsv(
      "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state\n"
      "job_1,root.a,alice,mapreduce,0,1000,11000,1000,10000,4,FINISHED\n"
      "job_2,root.b,bob,mapreduce,500,,,,,2,ACCEPTED\n",
      "jobs.csv");
  ASSERT_TRUE(jobs) << jobs.status().toString();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].queue, "root.a");
  EXPECT_EQ((*jobs)[0].waitMs, 1000);
  EXPECT_EQ((*jobs)[0].turnaroundMs(), 11000);
  EXPECT_EQ((*jobs)[1].state, JobState::kAccepted);
  EXPECT_FALSE((*jobs)[1].startMs.has_value());
  EXPECT_FALSE((*jobs)[1].turnaroundMs().has_value());
}

TEST(Jobs, BadStateAndBadNumberAreLocated) {
  const char* header =
      "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state\n";
  auto state = parseJobsCsv(std::string(header) + "j,q,u,t,0,1,2,1,1,1,DONE\n", "jobs.csv");
  EXPECT_THAT(state.status().message(), HasSubstr("jobs.csv: line 2: column 'state'"));
  EXPECT_THAT(state.status().message(), HasSubstr("expected an application state"));
  EXPECT_THAT(state.status().message(), HasSubstr("got 'DONE'"));
  auto num = parseJobsCsv(std::string(header) +
                              "j,q,u,t,0,1,2,1,1,1,FINISHED\n"
                              "k,q,u,t,0,1.5,2,1,1,1,FINISHED\n",
                          "jobs.csv");
  EXPECT_THAT(num.status().message(), HasSubstr("jobs.csv: line 3: column 'start_ms'"));
  auto id = parseJobsCsv(std::string(header) + ",q,u,t,0,1,2,1,1,1,FINISHED\n", "jobs.csv");
  EXPECT_THAT(id.status().message(), HasSubstr("jobs.csv: line 2: column 'JobID' is empty"));
}

TEST(Jobs, JobRuntimeRowsWithoutEndAreRunning) {
  auto jobs = parseJobRuntimeCsv(
      "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n"
      "job_1,0,5000,100,6100\n"
      "job_2,0,5000,200,\n",
      "jobruntime.csv");
  ASSERT_TRUE(jobs) << jobs.status().toString();
  EXPECT_EQ((*jobs)[0].state, JobState::kFinished);
  EXPECT_EQ((*jobs)[0].turnaroundMs(), 6000);
  EXPECT_EQ((*jobs)[1].state, JobState::kRunning);
  auto bad = parseJobRuntimeCsv(
      "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n"
      "job_1,0,x,100,6100\n",
      "jobruntime.csv");
  EXPECT_THAT(bad.status().message(), HasSubstr("jobruntime.csv: line 2: column 'real_end_time'"));
}

TEST(Track, QueueNamesWithDotsSplitByKnownSuffix) {
  auto t = parseTrack(R"([
    {"time": 0, "queue.root.a.allocated.memory": 1, "queue.root.a.b.allocated.vcores": 2,
     "queue.default.pending.memory": 3, "running.containers": 4},
    {"time": 1, "queue.root.a.allocated.memory": 2, "queue.root.a.guaranteed.memory": 5,
     "queue.root.a.b.preempted.containers": 6, "queue.nosuch.thing": 7, "jvm.free.memory": null}
  ])",
                      "realtimetrack.json");
  ASSERT_TRUE(t) << t.status().toString();
  EXPECT_EQ(t->sampleCount(), 2u);
  EXPECT_EQ(t->queues(), (std::set<std::string>{"default", "root.a", "root.a.b"}));
  ASSERT_EQ(t->queueMetric("allocated.memory").count("root.a"), 1u);
  EXPECT_EQ(t->queueMetric("allocated.memory").at("root.a").size(), 2u);
  EXPECT_EQ(t->queueMetric("allocated.vcores").count("root.a.b"), 1u);
  // Extra per-queue metrics resolve against known queues, longest name first.
  EXPECT_EQ(t->queueMetric("guaranteed.memory").count("root.a"), 1u);
  EXPECT_EQ(t->queueMetric("preempted.containers").count("root.a.b"), 1u);
  // Unresolvable queue keys stay global; null is "absent in this sample".
  ASSERT_NE(t->global("queue.nosuch.thing"), nullptr);
  EXPECT_EQ(t->global("jvm.free.memory"), nullptr);
  EXPECT_EQ(t->global("running.containers")->size(), 1u);
  EXPECT_EQ(t->global("running.containers")->at(0), (Point{0, 4}));
}

TEST(Track, SyntaxErrorNamesLineAndColumn) {
  auto t = parseTrack("[\n  {\"time\": 0},\n  {\"time\": 1,,}\n]", "realtimetrack.json");
  ASSERT_FALSE(t);
  EXPECT_THAT(t.status().message(), HasSubstr("realtimetrack.json: line 3, column"));
  EXPECT_THAT(t.status().message(), HasSubstr("malformed JSON: syntax error while parsing object"));
  EXPECT_THAT(t.status().message(), Not(HasSubstr("json.exception")));
}

TEST(Track, BadValuesNameSampleAndKey) {
  auto str = parseTrack(R"([{"time": 0}, {"time": 1, "running.containers": "7"}])", "rt.json");
  EXPECT_THAT(str.status().message(),
              HasSubstr("rt.json: sample [1]: key \"running.containers\": expected a number"));
  auto noTime = parseTrack(R"([{"running.containers": 1}])", "rt.json");
  EXPECT_THAT(noTime.status().message(), HasSubstr("sample [0]: missing the number \"time\""));
  auto back = parseTrack(R"([{"time": 5}, {"time": 4}])", "rt.json");
  EXPECT_THAT(back.status().message(), HasSubstr("sample [1]: time 4 is before"));
  auto obj = parseTrack(R"({"time": 5})", "rt.json");
  EXPECT_THAT(obj.status().message(), HasSubstr("expected a JSON array of samples"));
  auto nested = parseTrack(R"([{"time": 5, "x": [1]}])", "rt.json");
  EXPECT_THAT(nested.status().message(), HasSubstr("key \"x\": expected a number, got an array"));
  auto empty = parseTrack("", "rt.json");
  EXPECT_FALSE(empty);
  auto none = parseTrack("[]", "rt.json");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->sampleCount(), 0u);
}

}  // namespace
}  // namespace spindle::report
