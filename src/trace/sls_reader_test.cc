#include "trace/sls_reader.h"

#include <gtest/gtest.h>

#include "trace/readers.h"
#include "trace/trace_test_util.h"

namespace spindle {
namespace {

using testing::defaultOptions;
using testing::sourcePath;

const TraceJob* findJob(const Trace& t, const std::string& id) {
  for (const TraceJob& j : t.jobs) {
    if (j.id == id) return &j;
  }
  return nullptr;
}

TEST(SlsReader, ExampleTraceParsesEveryJobAndTask) {
  Result<Trace> t = readSlsTrace({sourcePath("examples/sim/sls/jobs.json")}, defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  // job_adhoc_3 has job.count 2: six jobs from five objects.
  ASSERT_EQ(t->jobs.size(), 6u);
  EXPECT_EQ(t->skippedJobs, 0);

  const TraceJob* etl = findJob(*t, "job_etl_1");
  ASSERT_NE(etl, nullptr);
  EXPECT_EQ(etl->startMs, 0);
  EXPECT_EQ(etl->endMs, 61000);
  EXPECT_EQ(etl->queue, "prod");
  EXPECT_EQ(etl->user, "alice");
  EXPECT_EQ(etl->amType, "mapreduce");
  EXPECT_EQ(etl->amResource, Resource::of(1024, 1));
  ASSERT_EQ(etl->tasks.size(), 4u);
  EXPECT_EQ(etl->tasks[0].host, "host1");
  EXPECT_EQ(etl->tasks[0].rack, "/rack-a");
  EXPECT_EQ(etl->tasks[0].durationMs, 20000);
  EXPECT_EQ(etl->tasks[0].priority, 20);
  EXPECT_EQ(etl->tasks[0].type, TaskType::kMap);
  EXPECT_EQ(etl->tasks[0].resource, Resource::of(2048, 1));
  EXPECT_EQ(etl->tasks[0].allocationId, -1);
  EXPECT_EQ(etl->tasks[3].type, TaskType::kReduce);
  EXPECT_EQ(etl->tasks[3].priority, 10);
  EXPECT_EQ(etl->tasks[3].rack, "/rack-b");
  EXPECT_EQ(etl->tasks[3].host, "host5");
  EXPECT_EQ(etl->tasks[3].durationMs, 30000);
  EXPECT_EQ(etl->tasks[3].resource, Resource::of(4096, 2));

  // count expands groups; sizes fall back to yarn.sls.container.* (1024 MB, 1 vcore).
  const TraceJob* report = findJob(*t, "job_report_2");
  ASSERT_NE(report, nullptr);
  ASSERT_EQ(report->tasks.size(), 6u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(report->tasks[i].durationMs, 12000);
    EXPECT_EQ(report->tasks[i].host, "host3");
    EXPECT_EQ(report->tasks[i].resource, Resource::of(1024, 1));
  }
  EXPECT_EQ(report->tasks[4].resource, Resource::of(3072, 1));
  EXPECT_EQ(report->tasks[5].type, TaskType::kReduce);

  // job.count 2: two copies with suffixed ids; old keys duration.ms and container.memory;
  // am.memory-mb overrides the AM size.
  for (const char* id : {"job_adhoc_3_1", "job_adhoc_3_2"}) {
    const TraceJob* adhoc = findJob(*t, id);
    ASSERT_NE(adhoc, nullptr) << id;
    EXPECT_EQ(adhoc->startMs, 12000);
    EXPECT_FALSE(adhoc->endMs.has_value());
    EXPECT_EQ(adhoc->amResource, Resource::of(2048, 1));
    ASSERT_EQ(adhoc->tasks.size(), 4u);
    EXPECT_EQ(adhoc->tasks[0].durationMs, 8000);
    EXPECT_EQ(adhoc->tasks[0].resource, Resource::of(1536, 1));
    EXPECT_EQ(adhoc->tasks[3].durationMs, 15000);
  }

  const TraceJob* stream = findJob(*t, "job_stream_4");
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(stream->amType, "stream");
  ASSERT_EQ(stream->tasks.size(), 2u);
  EXPECT_EQ(stream->tasks[1].durationMs, 90000);

  const TraceJob* dag = findJob(*t, "job_dag_5");
  ASSERT_NE(dag, nullptr);
  EXPECT_EQ(dag->amType, "dag");
  ASSERT_EQ(dag->tasks.size(), 3u);
  EXPECT_EQ(dag->tasks[1].requestDelayMs, 5000);
  EXPECT_EQ(dag->tasks[2].requestDelayMs, 12000);
  EXPECT_EQ(dag->tasks[2].allocationId, 3);
  EXPECT_EQ(dag->tasks[2].executionType, ExecutionType::kOpportunistic);
  EXPECT_EQ(dag->tasks[0].executionType, ExecutionType::kGuaranteed);

  // Without --nodes: every distinct task host, in order of first appearance.
  std::vector<std::string> names;
  for (const TraceNode& n : t->nodes) names.push_back(n.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"host1", "host2", "host4", "host5", "host3", "host6"}));
  EXPECT_EQ(t->nodes[2].rack, "/rack-b");
  EXPECT_EQ(t->nodes[0].resource, Resource::of(10240, 10));
}

TEST(SlsReader, HeaderObjectAddsGeneratedNodesAndIsNotAJob) {
  const char* text = R"({"num.nodes": 4, "num.racks": 2}
    {"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
      {"container.host": "/rack9/extra", "container.duration.ms": 5}]})";
  Result<Trace> t = parseSlsTrace(text, "h.json", defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->jobs.size(), 1u);
  EXPECT_EQ(t->jobs[0].id, "job_1");  // generated: no job.id
  ASSERT_EQ(t->nodes.size(), 5u);
  EXPECT_EQ(t->nodes[0].name, "node0");
  EXPECT_EQ(t->nodes[0].rack, "/rack0");
  EXPECT_EQ(t->nodes[1].rack, "/rack1");
  EXPECT_EQ(t->nodes[2].rack, "/rack0");
  EXPECT_EQ(t->nodes[4].name, "extra");
  EXPECT_EQ(t->nodes[4].rack, "/rack9");

  // Two headers naming the same generated nodes: each node once.
  t = parseSlsTrace(std::string(text) + R"({"num.nodes": 6, "num.racks": 2})", "h.json",
                    defaultOptions());
  ASSERT_TRUE(t);
  EXPECT_EQ(t->nodes.size(), 7u);
}

// container.hosts: a map's three replica hosts; the first is the task's host, the others
// are asked for besides; the nodes list takes every one. A bad entry names the key.
TEST(SlsReader, ContainerHostsGivesEveryPreferredHost) {
  const char* text = R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
      {"container.hosts": ["/r1/a", "/r2/b", "/r2/c"], "container.duration.ms": 5}]})";
  Result<Trace> t = parseSlsTrace(text, "h.json", defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  const TraceTask& task = t->jobs.at(0).tasks.at(0);
  EXPECT_EQ(task.host, "a");
  EXPECT_EQ(task.rack, "/r1");
  ASSERT_EQ(task.otherHosts.size(), 2u);
  EXPECT_EQ(task.otherHosts[0].host, "b");
  EXPECT_EQ(task.otherHosts[1].host, "c");
  EXPECT_EQ(task.otherHosts[1].rack, "/r2");
  ASSERT_EQ(t->nodes.size(), 3u);
  EXPECT_EQ(t->nodes[2].name, "c");
  Result<Trace> bad = parseSlsTrace(R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
      {"container.hosts": ["/r1/a", 7], "container.duration.ms": 5}]})",
                                    "b.json", defaultOptions());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find("container.hosts"), std::string::npos)
      << bad.status().message();
}

TEST(SlsReader, DefaultsAndStringNumbersAsSlsReadsThem) {
  const char* text = R"({"job.start.ms": "1500", "job.queue.name": "q",
    "yarn.sls.am.type": "dag", "job.label.expression": "gpu",
    "job.tasks": [{"container.host": "node7", "container.duration.ms": "250"}]})";
  Result<Trace> t = parseSlsTrace(text, "d.json", defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  const TraceJob& j = t->jobs.at(0);
  EXPECT_EQ(j.startMs, 1500);
  EXPECT_EQ(j.user, "default");
  EXPECT_EQ(j.amType, "dag");
  EXPECT_EQ(j.labelExpression, "gpu");
  EXPECT_EQ(j.tasks.at(0).durationMs, 250);
  EXPECT_EQ(j.tasks[0].priority, 20);
  EXPECT_EQ(j.tasks[0].host, "node7");
  EXPECT_EQ(j.tasks[0].rack, "/default-rack");

  Result<Trace> numeric = parseSlsTrace(
      R"({"job.id": 42, "job.start.ms": 0, "job.queue.name": "q"})", "n.json", defaultOptions());
  ASSERT_TRUE(numeric);
  EXPECT_EQ(numeric->jobs.at(0).id, "42");
}

TEST(SlsReader, ExtraResourceTypesFromAmAndContainerKeys) {
  TraceReadOptions o = defaultOptions();
  o.types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value();
  o.sls = slsSettingsFromConfig(Configuration(), o.types).value();
  const char* text = R"({"job.start.ms": 0, "job.queue.name": "q", "am.yarn.io/gpu": 1,
    "job.tasks": [{"container.duration.ms": 10, "container.yarn.io/gpu": 2,
                   "container.memory-mb": 512, "container.memory": 9999}]})";
  Result<Trace> t = parseSlsTrace(text, "g.json", o);
  ASSERT_TRUE(t) << t.status().toString();
  const int gpu = o.types.indexOf("yarn.io/gpu").value();
  EXPECT_EQ(t->jobs[0].amResource.get(gpu), 1);
  EXPECT_EQ(t->jobs[0].tasks[0].resource.get(gpu), 2);
  // container.memory-mb wins over the 2.x container.memory.
  EXPECT_EQ(t->jobs[0].tasks[0].resource.memoryMb(), 512);
  EXPECT_TRUE(t->warnings.empty());
}

TEST(SlsReader, UnknownKeysAreIgnoredWithOneWarningEach) {
  const char* text = R"({"job.start.ms": 0, "job.queue.name": "q", "job.colour": 1,
    "job.tasks": [{"container.duration.ms": 10, "container.flavour": "x"}]}
    {"job.start.ms": 0, "job.queue.name": "q", "job.colour": 2})";
  Result<Trace> t = parseSlsTrace(text, "u.json", defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->warnings.size(), 2u);
  EXPECT_NE(t->warnings[0].find("container.flavour"), std::string::npos);
  EXPECT_NE(t->warnings[1].find("u.json: job #1 (id job_1): ignored unknown key 'job.colour'"),
            std::string::npos);
}

struct BadCase {
  const char* text;
  const char* expected;  // substring of the error
};

TEST(SlsReader, BadJobsNameFileJobIndexIdAndField) {
  const BadCase cases[] = {
      {R"({"job.id": "a", "job.start.ms": 0, "job.queue.name": "q"}
          {"job.id": "b", "job.queue.name": "q"})",
       "t.json: job #2 (id b): field job.start.ms: missing (required)"},
      {R"({"job.id": "a", "job.start.ms": 0})",
       "t.json: job #1 (id a): field job.queue.name: missing (required)"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
          {"container.duration.ms": 5}, {"container.start.ms": 10, "container.end.ms": 10}]})",
       "t.json: job #1 (id job_1): field job.tasks[1].container.end.ms: duration must be > 0, "
       "got 10 - 10 = 0"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [{"duration.ms": -4}]})",
       "field job.tasks[0].duration.ms: duration must be > 0, got -4"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [{"container.host": "h"}]})",
       "field job.tasks[0].container.duration.ms: missing"},
      {R"({"job.id": ["x"], "job.start.ms": 0, "job.queue.name": "q"})",
       "t.json: job #1 (id job_1): field job.id: expected a string, got [\"x\"]"},
      {R"({"job.start.ms": "soon", "job.queue.name": "q"})",
       "field job.start.ms: expected an integer, got \"soon\""},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": {}})",
       "field job.tasks: expected an array"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "am.type": "spark"})",
       "field am.type: unknown AM type 'spark'"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.count": 0})",
       "field job.count: must be >= 1, got 0"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
          {"container.duration.ms": 5, "container.type": "shuffle"}]})",
       "field job.tasks[0].container.type: unknown type 'shuffle'"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
          {"container.duration.ms": 5, "container.execution.type": "MAYBE"}]})",
       "field job.tasks[0].container.execution.type: unknown execution type 'MAYBE'"},
      {R"({"job.start.ms": 0, "job.queue.name": "q", "job.tasks": [
          {"container.duration.ms": 5, "container.memory-mb": -1}]})",
       "field job.tasks[0].container.memory-mb: must not be negative, got -1"},
  };
  for (const BadCase& c : cases) {
    Result<Trace> t = parseSlsTrace(c.text, "t.json", defaultOptions());
    ASSERT_FALSE(t) << c.expected;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(t.status().message().find(c.expected), std::string::npos)
        << "got: " << t.status().message() << "\nwant: " << c.expected;
  }
}

TEST(SlsReader, UnknownQueueIsABadJobOnlyWhenQueuesAreKnown) {
  const char* text = R"({"job.id": "a", "job.start.ms": 0, "job.queue.name": "prod"}
                        {"job.id": "b", "job.start.ms": 0, "job.queue.name": "nosuch"})";
  EXPECT_TRUE(parseSlsTrace(text, "q.json", defaultOptions()));
  TraceReadOptions o = defaultOptions();
  o.knownQueues = {"prod", "root.prod", "root"};
  Result<Trace> t = parseSlsTrace(text, "q.json", o);
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find(
                "q.json: job #2 (id b): field job.queue.name: unknown queue 'nosuch' (known: "
                "prod, root, root.prod)"),
            std::string::npos)
      << t.status().message();
}

TEST(SlsReader, SkipBadJobsDropsAndCountsThem) {
  const char* text = R"({"job.id": "a", "job.start.ms": 0, "job.queue.name": "q"}
    {"job.id": "b", "job.queue.name": "q"}
    {"job.id": "c", "job.start.ms": 5, "job.queue.name": "q", "job.tasks": [{"duration.ms": 0}]}
    {"job.id": "d", "job.start.ms": 9, "job.queue.name": "q"})";
  TraceReadOptions o = defaultOptions();
  o.skipBadJobs = true;
  Result<Trace> t = parseSlsTrace(text, "s.json", o);
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->jobs.size(), 2u);
  EXPECT_EQ(t->jobs[0].id, "a");
  EXPECT_EQ(t->jobs[1].id, "d");
  EXPECT_EQ(t->skippedJobs, 2);
  ASSERT_EQ(t->warnings.size(), 2u);
  EXPECT_NE(t->warnings[0].find("job #2 (id b): field job.start.ms"), std::string::npos);
  EXPECT_NE(t->warnings[1].find("job #3 (id c)"), std::string::npos);
}

TEST(SlsReader, JsonSyntaxErrorNamesFileLineAndByte) {
  const char* text = "{\"job.start.ms\": 0, \"job.queue.name\": \"q\"}\n{\"job.start.ms\": 1,,}";
  Result<Trace> t = parseSlsTrace(text, "bad.json", defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("bad.json:2:20: JSON syntax error at byte 62"),
            std::string::npos)
      << t.status().message();
}

TEST(SlsReader, AnArrayOfJobsIsExplained) {
  Result<Trace> t =
      parseSlsTrace(R"([{"job.start.ms": 0, "job.queue.name": "q"}])", "a.json", defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_EQ(t.status().message(),
            "a.json:1:1: JSON syntax error at byte 0: expected '{' starting a JSON object, got "
            "'[' (the file is a stream of concatenated objects, not an array)");
}

TEST(SlsReader, UnreadableFileIsAnError) {
  Result<Trace> t = readSlsTrace({"/nonexistent/jobs.json"}, defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_EQ(t.status().message(), "/nonexistent/jobs.json: cannot read file");
}

TEST(SlsReader, PlacementKeysPerJobAndPerTaskGroup) {
  const char* text = R"({"job.id": "svc", "job.start.ms": 0, "job.queue.name": "q",
    "job.tags": ["svc", "web"], "job.placement.spec": "notin,node,web",
    "job.tasks": [
      {"count": 2, "container.duration.ms": 10},
      {"container.duration.ms": 10, "container.tags": "cache, svc",
       "container.placement.spec": "cardinality,rack,cache,0,2"},
      {"container.duration.ms": 10, "container.tags": [], "container.placement.spec": "java=1.8"}]}
{"job.id": "batch", "job.start.ms": 0, "job.queue.name": "q",
 "job.tasks": [{"container.duration.ms": 10}]})";
  Result<Trace> t = parseSlsTrace(text, "p.json", defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  EXPECT_TRUE(t->warnings.empty());
  const TraceJob& svc = t->jobs.at(0);
  ASSERT_EQ(svc.tasks.size(), 4u);
  EXPECT_EQ(svc.tasks[0].allocationTags, (std::vector<std::string>{"svc", "web"}));
  EXPECT_EQ(svc.tasks[1].placementSpec, "notin,node,web");
  EXPECT_EQ(svc.tasks[2].allocationTags, (std::vector<std::string>{"cache", "svc"}));
  EXPECT_EQ(svc.tasks[2].placementSpec, "cardinality,rack,cache,0,2");
  EXPECT_TRUE(svc.tasks[3].allocationTags.empty());  // [] overrides the job's tags
  EXPECT_EQ(svc.tasks[3].placementSpec, "java=1.8");
  EXPECT_TRUE(svc.tasks[3].usesPlacement());
  EXPECT_FALSE(t->jobs.at(1).tasks.at(0).usesPlacement());
}

TEST(SlsReader, PlacementKeyRejectionsNameFileJobAndField) {
  auto error = [](const std::string& job) {
    Result<Trace> t = parseSlsTrace(job, "bad.json", defaultOptions());
    return t ? std::string("parsed") : t.status().message();
  };
  const std::string head = R"({"job.id": "s", "job.start.ms": 0, "job.queue.name": "q", )";
  std::string m = error(head + R"("job.placement.spec": "notin,nod,web"})");
  EXPECT_NE(m.find("bad.json: job #1 (id s)"), std::string::npos) << m;
  EXPECT_NE(m.find("field job.placement.spec: unparsable placement spec 'notin,nod,web'"),
            std::string::npos)
      << m;
  m = error(head + R"("job.tasks": [{"container.duration.ms": 1,
      "container.placement.spec": "cardinality,rack,web,-1,2"}]})");
  EXPECT_NE(m.find("field job.tasks[0].container.placement.spec"), std::string::npos) << m;
  m = error(head + R"("job.tasks": [{"container.duration.ms": 1,
      "container.placement.spec": "in,node,bogus-ns/web"}]})");
  EXPECT_NE(m.find("field job.tasks[0].container.placement.spec"), std::string::npos) << m;
  m = error(head + R"("job.tags": "a,,b"})");
  EXPECT_NE(m.find("field job.tags: empty allocation tag"), std::string::npos) << m;
  m = error(head + R"("job.tags": [1]})");
  EXPECT_NE(m.find("field job.tags: expected tag strings"), std::string::npos) << m;
  m = error(head + R"("job.tags": {"a": 1}})");
  EXPECT_NE(m.find("field job.tags: expected an array of tags"), std::string::npos) << m;
  m = error(head + R"("job.tasks": [{"container.duration.ms": 1, "container.tags": ["a:b"]}]})");
  EXPECT_NE(m.find("field job.tasks[0].container.tags: allocation tag 'a:b'"), std::string::npos)
      << m;
}

}  // namespace
}  // namespace spindle
