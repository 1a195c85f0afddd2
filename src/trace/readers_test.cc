#include "trace/readers.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "trace/trace_test_util.h"

namespace spindle {
namespace {

using testing::defaultOptions;
using testing::sourcePath;

// A file under the test's temporary directory, removed with it.
class TempFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("spindle_trace_test_{}_{}",
                       ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                       static_cast<long>(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST(TraceType, ParsesCaseInsensitivelyAndListsTheThree) {
  EXPECT_EQ(parseTraceType("SLS").value(), TraceType::kSls);
  EXPECT_EQ(parseTraceType("rumen").value(), TraceType::kRumen);
  EXPECT_EQ(parseTraceType("Synth").value(), TraceType::kSynth);
  Result<TraceType> bad = parseTraceType("csv");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.status().message(), "unknown trace type 'csv' (expected SLS, RUMEN or SYNTH)");
}

using ReadTrace = TempFiles;

TEST_F(ReadTrace, FilesAreConcatenatedThenStablySortedByStart) {
  std::string a = write("a.json", R"({"job.id": "a1", "job.start.ms": 500, "job.queue.name": "q",
      "job.tasks": [{"container.host": "/r/h1", "container.duration.ms": 10}]}
    {"job.id": "a2", "job.start.ms": 100, "job.queue.name": "q"})");
  std::string b = write("b.json", R"({"job.id": "b1", "job.start.ms": 100, "job.queue.name": "q",
      "job.tasks": [{"container.host": "/r/h2", "container.duration.ms": 10}]}
    {"job.start.ms": 0, "job.queue.name": "q"})");
  Result<Trace> t = readTrace(TraceType::kSls, {a, b}, defaultOptions());
  ASSERT_TRUE(t) << t.status().toString();
  std::vector<std::string> ids;
  for (const TraceJob& j : t->jobs) ids.push_back(j.id);
  // The fourth job object overall has no id: job_4.
  EXPECT_EQ(ids, (std::vector<std::string>{"job_4", "a2", "b1", "a1"}));
  ASSERT_EQ(t->nodes.size(), 2u);
}

TEST_F(ReadTrace, NodesFileReplacesDerivedNodes) {
  TraceReadOptions o = defaultOptions();
  o.nodesFile = sourcePath("examples/sim/sls/nodes.json");
  Result<Trace> t = readTrace(TraceType::kSls, {sourcePath("examples/sim/sls/jobs.json")}, o);
  ASSERT_TRUE(t) << t.status().toString();
  ASSERT_EQ(t->nodes.size(), 6u);
  EXPECT_EQ(t->nodes[0].resource, Resource::of(16384, 16));
  EXPECT_TRUE(t->warnings.empty());
  o.nodesFile = sourcePath("tests/data/traces/nodes-labels.json");
  t = readTrace(TraceType::kSls, {sourcePath("examples/sim/sls/jobs.json")}, o);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_NE(t->warnings[0].find("6 host(s) the trace prefers are not in the nodes file (e.g. "
                                "'host1')"),
            std::string::npos)
      << t->warnings[0];
  o.nodesFile = sourcePath("tests/data/traces/bad-nodes-duplicate.json");
  EXPECT_FALSE(readTrace(TraceType::kSls, {sourcePath("examples/sim/sls/jobs.json")}, o));
}

TEST_F(ReadTrace, DuplicateIdsAreBadJobs) {
  std::string a = write("d.json", R"({"job.id": "x", "job.start.ms": 0, "job.queue.name": "q",
      "job.tasks": [{"container.host": "h", "container.duration.ms": 10}]}
    {"job.id": "x", "job.start.ms": 7, "job.queue.name": "q"})");
  Result<Trace> t = readTrace(TraceType::kSls, {a}, defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("job id 'x': field job.id: duplicate id"), std::string::npos)
      << t.status().message();
  TraceReadOptions o = defaultOptions();
  o.skipBadJobs = true;
  t = readTrace(TraceType::kSls, {a}, o);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->jobs.size(), 1u);
  EXPECT_EQ(t->skippedJobs, 1);
}

TEST_F(ReadTrace, ATraceWithoutHostsNeedsANodesFile) {
  std::string a = write("n.json", R"({"job.start.ms": 0, "job.queue.name": "q"})");
  Result<Trace> t = readTrace(TraceType::kSls, {a}, defaultOptions());
  ASSERT_FALSE(t);
  EXPECT_NE(t.status().message().find("no nodes to simulate; give --nodes"), std::string::npos);
  EXPECT_FALSE(readTrace(TraceType::kSls, {}, defaultOptions()));
}

struct BadFile {
  const char* file;
  const char* expected;
};

TEST(ReadTraceBadFiles, EachDefectIsNamed) {
  TraceReadOptions o = defaultOptions();
  o.knownQueues = {"prod", "root.prod"};
  const BadFile cases[] = {
      {"bad-missing-start.json",
       "bad-missing-start.json: job #2 (id no_start): field job.start.ms: missing (required)"},
      {"bad-zero-duration.json",
       "bad-zero-duration.json: job #1 (id zero): field job.tasks[0].container.end.ms: duration "
       "must be > 0, got 500 - 500 = 0"},
      {"bad-unknown-queue.json",
       "bad-unknown-queue.json: job #2 (id lost): field job.queue.name: unknown queue "
       "'nosuchqueue' (known: prod, root.prod)"},
      {"bad-syntax.json",
       "bad-syntax.json:3:56: JSON syntax error at byte 195: syntax error while parsing object - "
       "unexpected string literal"},
      {"bad-truncated.json",
       "unexpected end of file: the object opened at line 3 column 1 is not closed"},
  };
  for (const BadFile& c : cases) {
    Result<Trace> t =
        readTrace(TraceType::kSls, {sourcePath(std::string("tests/data/traces/") + c.file)}, o);
    ASSERT_FALSE(t) << c.file;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(t.status().message().find(c.expected), std::string::npos)
        << "got: " << t.status().message();
  }
}

TEST(ReadTraceBadFiles, SkipBadJobsKeepsTheGoodOnes) {
  TraceReadOptions o = defaultOptions();
  o.knownQueues = {"prod"};
  o.skipBadJobs = true;
  for (const char* file :
       {"bad-missing-start.json", "bad-zero-duration.json", "bad-unknown-queue.json"}) {
    Result<Trace> t =
        readTrace(TraceType::kSls, {sourcePath(std::string("tests/data/traces/") + file)}, o);
    ASSERT_TRUE(t) << file << ": " << t.status().toString();
    EXPECT_EQ(t->skippedJobs, 1) << file;
    EXPECT_FALSE(t->jobs.empty());
    for (const TraceJob& j : t->jobs) EXPECT_TRUE(j.id.starts_with("ok_")) << j.id;
  }
  // A syntax error is not a bad job: the file cannot be read past it.
  EXPECT_FALSE(readTrace(TraceType::kSls, {sourcePath("tests/data/traces/bad-syntax.json")}, o));
}

}  // namespace
}  // namespace spindle
