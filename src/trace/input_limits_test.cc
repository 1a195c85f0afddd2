// Robustness of the trace readers on hostile input: numbers and types the JSON parser or a
// conversion would throw on, deep nesting, and sizes and times beyond the configured limits.
// Each case must come back as an error naming the file, the position or job, and the field.
#include <gtest/gtest.h>

#include "trace/nodes_reader.h"
#include "trace/readers.h"
#include "trace/rumen_reader.h"
#include "trace/sls_reader.h"
#include "trace/synth_generator.h"
#include "trace/synth_spec.h"
#include "trace/trace_test_util.h"

namespace spindle {
namespace {

using testing::defaultOptions;

std::string deep(int levels, const std::string& inner = "1") {
  return std::string(static_cast<size_t>(levels), '[') + inner +
         std::string(static_cast<size_t>(levels), ']');
}

void expectError(const Status& s, const std::vector<std::string>& parts) {
  ASSERT_FALSE(s.isOk());
  for (const std::string& p : parts) {
    EXPECT_NE(s.message().find(p), std::string::npos) << "want: " << p << "\ngot: " << s.message();
  }
}

const char* kTask = R"("job.tasks": [{"container.duration.ms": 5, "count": 1}])";

TEST(InputLimits, NumberOutOfDoubleRangeIsALocatedErrorInEveryReader) {
  const TraceReadOptions o = defaultOptions();
  const ResourceTypes types;
  expectError(parseSlsTrace("{\"job.start.ms\": 0, \"job.queue.name\": \"q\",\n \"job.tasks\": "
                            "[{\"container.duration.ms\": 1e999}]}",
                            "jobs.json", o)
                  .status(),
              {"jobs.json:2:", "number overflow parsing '1e999'", "field 'container.duration.ms'"});
  expectError(parseNodesFile(R"({"rack": "r", "nodes": [{"node": "a", "memory-mb": -1e999}]})",
                             "nodes.json", types, Resource::of(1024, 1))
                  .status(),
              {"nodes.json:1:", "number overflow", "field 'memory-mb'"});
  expectError(parseRumenTrace(R"({"jobID": "j", "submitTime": 1e400})", "r.json", o).status(),
              {"r.json:1:", "number overflow", "field 'submitTime'"});
  expectError(parseSynthSpec(R"({"num_jobs": 1e999})", "s.json", o).status(),
              {"s.json:1:", "number overflow", "field 'num_jobs'"});
}

TEST(InputLimits, WrongTypesAndOutOfRangeIntegersAreFieldErrors) {
  const TraceReadOptions o = defaultOptions();
  // 2^64 - 1 does not fit an int64_t; 1e300 is finite but not an integer in range.
  for (const char* v : {"18446744073709551615", "1e300", "-1e300", "\"1e999\""}) {
    const std::string text =
        fmt::format(R"({{"job.start.ms": {}, "job.queue.name": "q", {}}})", v, kTask);
    expectError(parseSlsTrace(text, "jobs.json", o).status(),
                {"jobs.json: job #1", "field job.start.ms: expected an integer"});
  }
  expectError(parseSynthSpec(R"({"num_jobs": [1]})", "s.json", o).status(),
              {"s.json", "field num_jobs: expected an integer, got [1]"});
}

TEST(InputLimits, DeepNestingIsRefusedWithItsPosition) {
  const TraceReadOptions o = defaultOptions();
  // 100,000 levels: dumping or copying such a value recursively would overflow the stack.
  const std::string sls = fmt::format(R"({{"job.start.ms": 0, "job.queue.name": "q", {},
 "job.tags": {}}})",
                                      kTask, deep(100'000));
  expectError(parseSlsTrace(sls, "jobs.json", o).status(),
              {"jobs.json:2:", "nested deeper than 64 levels"});
  expectError(parseNodesFile(fmt::format(R"({{"rack": "r", "nodes": {}}})", deep(100'000)),
                             "nodes.json", ResourceTypes(), Resource::of(1024, 1))
                  .status(),
              {"nodes.json:1:", "nested deeper than 64 levels"});
  expectError(parseSynthSpec(fmt::format(R"({{"num_jobs": 1, "workloads": {}}})", deep(100'000)),
                             "s.json", o)
                  .status(),
              {"s.json:1:", "nested deeper than 64 levels"});
  expectError(
      parseRumenTrace(fmt::format(R"({{"jobID": "j", "x": {}}})", deep(100'000)), "r.json", o)
          .status(),
      {"r.json:1:", "nested deeper than 64 levels"});
}

TEST(InputLimits, WrongTypedNestedValueGivesAShortMessage) {
  // Within the depth limit, but wide: the message shows at most 40 characters of it.
  std::string wide = "[";
  for (int i = 0; i < 200'000; ++i) wide += (i ? ",[1,2,3]" : "[1,2,3]");
  wide += "]";
  const std::string text =
      fmt::format(R"({{"job.start.ms": {}, "job.queue.name": "q", {}}})", wide, kTask);
  Result<Trace> t = parseSlsTrace(text, "jobs.json", defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("expected an integer, got [[1,2,3],[1,2,3],"),
            std::string::npos)
      << t.status().message();
  EXPECT_LT(t.status().message().size(), 200u);
}

TEST(InputLimits, TaskCountsBeyondTheLimitsAreBadJobsNotAllocations) {
  TraceReadOptions o = defaultOptions();
  // 2^40 containers of one group: refused before anything is allocated.
  expectError(parseSlsTrace(R"({"job.start.ms": 0, "job.queue.name": "q", "job.id": "big",
                        "job.tasks": [{"container.duration.ms": 5, "count": 1099511627776}]})",
                            "jobs.json", o)
                  .status(),
              {"jobs.json: job #1 (id big)", "field job.tasks[0].count",
               "exceed spindle.sls.max-containers-per-job (1000000)"});
  // Two groups that pass one by one but not together.
  o.sls.maxContainersPerJob = 10;
  expectError(parseSlsTrace(R"({"job.start.ms": 0, "job.queue.name": "q",
                        "job.tasks": [{"container.duration.ms": 5, "count": 6},
                                      {"container.duration.ms": 5, "count": 6}]})",
                            "jobs.json", o)
                  .status(),
              {"field job.tasks[1].count", "max-containers-per-job (10)"});
  // job.count copies against the whole trace's limit.
  o.sls.maxContainers = 100;
  expectError(
      parseSlsTrace(R"({"job.start.ms": 0, "job.queue.name": "q", "job.count": 30,
                        "job.tasks": [{"container.duration.ms": 5, "count": 4}]})",
                    "jobs.json", o)
          .status(),
      {"field job.count", "30 copies of 5 container(s)", "spindle.sls.max-containers (100"});
  // The header's node count.
  o.sls.maxNodes = 1000;
  expectError(parseSlsTrace(R"({"num.nodes": 30000000})", "jobs.json", o).status(),
              {"header object", "field num.nodes", "exceed spindle.sls.max-nodes (1000)"});
  // Under --skip-bad-jobs the oversized job is skipped and counted, the rest kept.
  o.skipBadJobs = true;
  Result<Trace> t = parseSlsTrace(R"({"job.start.ms": 0, "job.queue.name": "q", "job.count": 30,
                        "job.tasks": [{"container.duration.ms": 5, "count": 4}]}
                     {"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [{"container.duration.ms": 5}]})",
                                  "jobs.json", o);
  ASSERT_TRUE(t) << t.status().toString();
  EXPECT_EQ(t->skippedJobs, 1);
  EXPECT_EQ(t->jobs.size(), 1u);
}

TEST(InputLimits, LimitsAreConfigurable) {
  Configuration conf;
  conf.set("spindle.sls.max-containers-per-job", "5");
  conf.set("spindle.sls.max-containers", "7");
  conf.set("spindle.sls.max-nodes", "9");
  Result<SlsSettings> s = slsSettingsFromConfig(conf, ResourceTypes());
  ASSERT_TRUE(s) << s.status().toString();
  EXPECT_EQ(s->maxContainersPerJob, 5);
  EXPECT_EQ(s->maxContainers, 7);
  EXPECT_EQ(s->maxNodes, 9);
  conf.set("spindle.sls.max-containers", "0");
  EXPECT_FALSE(slsSettingsFromConfig(conf, ResourceTypes()));
}

TEST(InputLimits, SynthCountsAndTimesBeyondTheLimits) {
  TraceReadOptions o = defaultOptions();
  auto generate = [&](const std::string& spec) -> Status {
    Result<SynthSpec> s = parseSynthSpec(spec, "s.json", o);
    if (!s) return s.status();
    return generateSynthTrace(*s, generateNodes(2, 1, Resource::of(1024, 1)), 1, o, "s.json")
        .status();
  };
  expectError(
      generate(R"({"num_jobs": 1, "workloads": [{"queue_name": "q",
          "job_classes": [{"mtasks_avg": 30000000, "mtime_avg": 1}],
          "time_distribution": [{"time": 0}]}]})"),
      {"s.json: drawn job #1 (workloads[0].job_classes[0])", "max-containers-per-job (1000000)"});
  expectError(generate(R"({"num_jobs": 1, "workloads": [{"queue_name": "q",
          "job_classes": [{"mtasks_avg": 1, "mtime_avg": 1e17}],
          "time_distribution": [{"time": 0}]}]})"),
              {"s.json: drawn job #1", "task duration", "beyond the largest time"});
  o.sls.maxContainers = 10;
  expectError(generate(R"({"num_jobs": 1000000000000, "workloads": [{"queue_name": "q",
          "job_classes": [{}], "time_distribution": [{"time": 0}]}]})"),
              {"field num_jobs", "spindle.sls.max-containers (10)"});
}

TEST(InputLimits, TimesNearThe64BitLimitAreRefused) {
  const TraceReadOptions o = defaultOptions();
  for (const char* field : {"container.duration.ms", "duration.ms"}) {
    const std::string text = fmt::format(
        R"({{"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [{{"{}": 9223372036854775000}}]}})",
        field);
    expectError(parseSlsTrace(text, "jobs.json", o).status(),
                {"jobs.json: job #1", fmt::format("field job.tasks[0].{}", field),
                 "beyond the largest time a trace may give"});
  }
  // end - start would overflow.
  expectError(parseSlsTrace(R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
      {"container.start.ms": -9223372036854775000, "container.end.ms": 9223372036854775000}]})",
                            "jobs.json", o)
                  .status(),
              {"field job.tasks[0].container.start.ms", "beyond the largest time"});
  expectError(parseSlsTrace(fmt::format(R"({{"job.start.ms": 9223372036854775000,
                                            "job.queue.name": "q", {}}})",
                                        kTask),
                            "jobs.json", o)
                  .status(),
              {"field job.start.ms", "beyond the largest time"});
  expectError(parseRumenTrace(R"({"jobID": "j", "submitTime": 1, "mapTasks": [{"attempts": [
      {"startTime": 0, "finishTime": 9223372036854775000}]}]})",
                              "r.json", o)
                  .status(),
              {"r.json: job #1", "finishTime", "beyond the largest time"});
  Configuration conf;
  conf.set("yarn.sls.am.heartbeat.interval.ms", "9223372036854775000");
  expectError(slsSettingsFromConfig(conf, ResourceTypes()).status(),
              {"yarn.sls.am.heartbeat.interval.ms", "must be at most"});
}

}  // namespace
}  // namespace spindle
