// End to end: write a small simulator output folder, run writeHtmlReport, check what a user
// reads in report.html (numbers worked out by hand below), and the errors on bad input.
#include "report/html_report.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace spindle {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// A fresh folder under the system temp dir, removed at the end of the test.
class OutputDir {
 public:
  OutputDir() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() / fmt::format("spindle-report-{}-{}-{}", ::getpid(),
                                                    info ? info->name() : "x", counter++);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~OutputDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  OutputDir& write(const std::string& name, const std::string& content) {
    std::ofstream(path_ / name, std::ios::binary) << content;
    return *this;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path_ / name, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  bool exists(const std::string& name) const { return fs::exists(path_ / name); }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

// Five samples. Memory utilisation per sample: 0/8, 4/8, 8/8, 6/8, and t=4 has no capacity
// (0 + 0, skipped): mean (0 + .5 + 1 + .75) / 4 = 56.25%. Vcores: 0/4, 2/4, 4/4, 4/4, t=4
// absent: mean (0 + .5 + 1 + 1) / 4 = 62.50%. Peak running containers 5.
const char* kTrack = R"([
{"time":0,"scheduler.commit.success.throughput":0,"running.applications":0,"running.containers":0,"cluster.allocated.memory":0,"cluster.available.memory":8,"cluster.allocated.vcores":0,"cluster.available.vcores":4,"queue.root.a.allocated.memory":0,"queue.root.b.allocated.memory":0,"queue.root.a.allocated.vcores":0,"queue.root.b.allocated.vcores":0,"cluster.pending.memory":2,"queue.root.a.pending.memory":2,"cluster.pending.vcores":1,"queue.root.a.pending.vcores":1,"pending.applications":2,"completed.applications":0,"scheduler.allocate.timecost":0.5,"scheduler.handle.timecost":0.25},
{"time":1,"scheduler.commit.success.throughput":3,"running.applications":1,"running.containers":3,"cluster.allocated.memory":4,"cluster.available.memory":4,"cluster.allocated.vcores":2,"cluster.available.vcores":2,"queue.root.a.allocated.memory":3,"queue.root.b.allocated.memory":1,"queue.root.a.allocated.vcores":1,"queue.root.b.allocated.vcores":1,"cluster.pending.memory":1,"queue.root.a.pending.memory":1,"cluster.pending.vcores":1,"queue.root.a.pending.vcores":1,"pending.applications":1,"completed.applications":0,"scheduler.allocate.timecost":0.75,"scheduler.handle.timecost":0.5},
{"time":2,"running.applications":2,"running.containers":5,"cluster.allocated.memory":8,"cluster.available.memory":0,"cluster.allocated.vcores":4,"cluster.available.vcores":0,"queue.root.a.allocated.memory":5,"queue.root.b.allocated.memory":3,"queue.root.a.allocated.vcores":2,"queue.root.b.allocated.vcores":2,"cluster.pending.memory":0,"queue.root.a.pending.memory":0,"cluster.pending.vcores":0,"queue.root.a.pending.vcores":0,"pending.applications":0,"completed.applications":0,"scheduler.allocate.timecost":1.0,"scheduler.handle.timecost":0.5},
{"time":3,"running.applications":2,"running.containers":4,"cluster.allocated.memory":6,"cluster.available.memory":2,"cluster.allocated.vcores":4,"cluster.available.vcores":0,"queue.root.a.allocated.memory":3,"queue.root.b.allocated.memory":3,"queue.root.a.allocated.vcores":2,"queue.root.b.allocated.vcores":2,"pending.applications":0,"completed.applications":1,"scheduler.allocate.timecost":0.5,"scheduler.handle.timecost":0.25},
{"time":4,"running.applications":0,"running.containers":0,"cluster.allocated.memory":0,"cluster.available.memory":0,"jvm.free.memory":1.5}
])";

const char* kJobsHeader =
    "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state\n";

// waits: a 1000, 2000; b 0, 2000 (job_5 never started). runtimes: a 10000, 6000; b 20000.
// overall wait: mean 1250, nearest-rank p95 of [0,1000,2000,2000] is rank ceil(3.8)=4 -> 2000.
// overall runtime: mean 12000, p95 rank ceil(2.85)=3 of [6000,10000,20000] -> 20000.
// makespan: last end 21000 - first submit 0 = 21000 ms, a lower bound (2 jobs unfinished).
const char* kJobsRows =
    "job_1,root.a,alice,mapreduce,0,1000,11000,1000,10000,4,FINISHED\n"
    "job_2,root.a,alice,mapreduce,500,2500,8500,2000,6000,2,FINISHED\n"
    "job_3,root.b,bob,mapreduce,1000,1000,21000,0,20000,8,FINISHED\n"
    "job_4,root.b,bob,mapreduce,2000,4000,,2000,,3,RUNNING\n"
    "job_5,root.b,bob,mapreduce,3000,,,,,1,ACCEPTED\n";

const char* kRuntime =
    "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n"
    "job_1,0,10000,0,11000\n"
    "job_2,500,6500,500,8500\n"
    "job_3,1000,21000,1000,21000\n";

void writeFixture(OutputDir& d) {
  d.write("realtimetrack.json", kTrack)
      .write("jobs.csv", std::string(kJobsHeader) + kJobsRows)
      .write("jobruntime.csv", kRuntime);
}

// The <svg> element with the given id, or "" when absent.
std::string chartSvg(const std::string& html, const std::string& id) {
  size_t start = html.find("<svg id=\"chart-" + id + "\"");
  if (start == std::string::npos) return "";
  size_t end = html.find("</svg>", start);
  return html.substr(start, end - start);
}

std::string writeAndRead(OutputDir& d) {
  Status s = writeHtmlReport(d.str());
  EXPECT_TRUE(s) << s.toString();
  return d.read("report.html");
}

TEST(HtmlReport, SummaryNumbersMatchHandComputation) {
  OutputDir d;
  writeFixture(d);
  std::string html = writeAndRead(d);
  EXPECT_THAT(html,
              HasSubstr("<td>5 (finished 3, unfinished 2, failed 0, killed 0, rejected 0)</td>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"makespan\">21.000 s</span> (21.000 s); a lower bound"));
  EXPECT_THAT(html,
              HasSubstr("<td>Wait: mean / p95 / max</td><td>1.250 s / 2.000 s / 2.000 s</td>"));
  EXPECT_THAT(
      html, HasSubstr("<td>Runtime: mean / p95 / max</td><td>12.000 s / 20.000 s / 20.000 s</td>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"util-memory\">56.25%</span>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"util-vcores\">62.50%</span>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"peak-containers\">5</span> / 2"));
  EXPECT_THAT(html, HasSubstr("5 (simulated time 0.000 s to 4.000 s)"));
  EXPECT_THAT(html, HasSubstr("<caption>Jobs per queue (from jobs.csv)</caption>"));
  // The fixture's jobruntime.csv lacks the two unfinished jobs: worth a note, not an error.
  EXPECT_THAT(html, HasSubstr("<p class=\"note warn\">2 job ids in jobs.csv are missing from "
                              "jobruntime.csv: job_4, job_5</p>"));
  // Per-queue rows: queue, jobs, finished, unfinished, failed, killed, rejected, wait mean/p95,
  // runtime mean/p95 (seconds).
  EXPECT_THAT(
      html,
      HasSubstr("<tr><td>root.a</td><td>2</td><td>2</td><td>0</td><td>0</td><td>0"
                "</td><td>0</td><td>1.500</td><td>2.000</td><td>8.000</td><td>10.000</td></tr>"));
  EXPECT_THAT(
      html,
      HasSubstr("<tr><td>root.b</td><td>3</td><td>1</td><td>2</td><td>0</td><td>0"
                "</td><td>0</td><td>1.000</td><td>2.000</td><td>20.000</td><td>20.000</td></tr>"));
  EXPECT_THAT(html,
              HasSubstr("<tr class=\"total\"><td>all queues</td><td>5</td><td>3</td><td>2"
                        "</td><td>0</td><td>0</td><td>0</td><td>1.250</td><td>2.000</td><td>12.000"
                        "</td><td>20.000</td></tr>"));
}

TEST(HtmlReport, QueueUsageOverTime) {
  OutputDir d;
  writeFixture(d);
  std::string html = writeAndRead(d);
  // root.a memory 0,3,5,3 (mean 2.75, peak 5); vcores 0,1,2,2; pending memory 2,1,0. Share of
  // the 8 GB cluster: 0, 37.5, 62.5, 37.5% (mean 34.375%, peak 62.5%).
  // root.b memory 0,1,3,3 (shares 0, 12.5, 37.5, 37.5%: mean 21.875%); vcores 0,1,2,2; no
  // pending series. No guarantee or maximum in this track.
  EXPECT_THAT(html, HasSubstr("<tr><td>root.a</td><td>\u2014</td><td>\u2014</td><td>2.750</td>"
                              "<td>5.000</td><td>34.38%</td><td>62.50%</td><td>1.250</td>"
                              "<td>2</td><td>1.000</td><td>2.000</td></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>root.b</td><td>\u2014</td><td>\u2014</td><td>1.750</td>"
                              "<td>3.000</td><td>21.88%</td><td>37.50%</td><td>1.250</td>"
                              "<td>2</td><td>\u2014</td><td>\u2014</td></tr>"));
}

TEST(HtmlReport, JobListInSubmitOrder) {
  OutputDir d;
  writeFixture(d);
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, HasSubstr("<a href=\"#job-list\">Job list</a>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>job_1</td><td>root.a</td><td>alice</td><td>FINISHED</td>"
                              "<td>0.000</td><td>1.000</td><td>11.000</td><td>1.000</td>"
                              "<td>10.000</td><td>4</td></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>job_5</td><td>root.b</td><td>bob</td><td>ACCEPTED</td>"
                              "<td>3.000</td><td>\u2014</td><td>\u2014</td><td>\u2014</td>"
                              "<td>\u2014</td><td>1</td></tr>"));
  size_t list = html.find("id=\"job-table\"");
  ASSERT_NE(list, std::string::npos);
  EXPECT_LT(html.find("<td>job_2</td>", list), html.find("<td>job_3</td>", list));
  EXPECT_LT(html.find("<td>job_4</td>", list), html.find("<td>job_5</td>", list));
}

TEST(HtmlReport, EveryChartHasItsSeriesInTheLegend) {
  OutputDir d;
  writeFixture(d);
  std::string html = writeAndRead(d);
  struct Expect {
    const char* id;
    std::vector<std::string> legend;
  };
  std::vector<Expect> charts = {
      {"cluster-memory", {"allocated", "available"}},
      {"cluster-vcores", {"allocated", "available"}},
      {"cluster-utilisation", {"memory", "vcores"}},
      {"queue-allocated-memory", {"root.a", "root.b"}},
      {"queue-allocated-vcores", {"root.a", "root.b"}},
      {"pending-memory", {"cluster", "root.a"}},
      {"pending-vcores", {"cluster", "root.a"}},
      {"running", {"running applications", "running containers"}},
      {"app-states", {"pending", "running", "completed"}},
      {"job-wait", {"root.a", "root.b"}},
      {"job-runtime", {"root.a", "root.b"}},
      {"scheduler-timecost", {"allocate", "handle"}},
      {"scheduler-throughput", {"commit success"}},
      {"queue-share-memory", {"root.a", "root.b"}},
      {"queue-detail-root.a", {"allocated"}},
      {"queue-detail-root.b", {"allocated"}},
  };
  for (const Expect& e : charts) {
    std::string svg = chartSvg(html, e.id);
    ASSERT_FALSE(svg.empty()) << e.id;
    for (const std::string& name : e.legend) {
      EXPECT_THAT(svg, HasSubstr("\">" + name + "</text></g>")) << e.id << " lacks " << name;
    }
  }
  // Timeline: rows by submit time (job_1 at the top, row 5); a grey wait bar per job, then a
  // run bar in the queue's colour for jobs whose AM started. job_4 is still running and
  // job_5 still waiting: their bars reach the end of the run (21 s, job_3's end).
  std::string timeline = chartSvg(html, "job-timeline");
  ASSERT_FALSE(timeline.empty());
  auto pathOf = [&](const std::string& series) {
    size_t p = timeline.find("data-series=\"" + series + "\"");
    size_t a = timeline.find(" d=\"", p) + 4;
    return timeline.substr(a, timeline.find('"', a) - a);
  };
  auto countIn = [](const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(countIn(pathOf("0"), "H"), 2u);  // root.a: job_1, job_2
  EXPECT_EQ(countIn(pathOf("1"), "H"), 2u);  // root.b: job_3, job_4
  EXPECT_EQ(countIn(pathOf("2"), "H"), 5u);  // waiting: every job
  // x axis 0..25 s over 636 px from x = 68: 21 s is at 602.2 (job_3's end, job_4's open bar,
  // job_5's open wait).
  EXPECT_EQ(countIn(pathOf("1"), "H602.2"), 2u);
  EXPECT_EQ(countIn(pathOf("2"), "H602.2"), 1u);
  EXPECT_THAT(timeline, HasSubstr(">waiting (submit to AM start)</text>"));
  // Each row is labelled with its job id, left of the plot.
  for (const char* id : {"job_1", "job_2", "job_3", "job_4", "job_5"}) {
    EXPECT_THAT(timeline, HasSubstr(fmt::format("<title>{0}</title>{0}</text>", id)));
  }
  // Pending has its own charts: the queue's allocation chart does not carry it.
  EXPECT_THAT(chartSvg(html, "queue-detail-root.a"), Not(HasSubstr(">pending<")));
  EXPECT_THAT(timeline, HasSubstr("stroke=\"#c8c8c8\""));
  // Series the run did not write are not invented.
  EXPECT_THAT(chartSvg(html, "scheduler-timecost"), Not(HasSubstr(">commit success<")));
  // job_4 has a wait but no runtime; job_5 neither: 4 wait markers, 3 runtime markers
  // (plus one legend marker per queue). Each marker is a zero-length "h0" segment.
  auto markers = [](const std::string& s) {
    size_t n = 0;
    for (size_t p = s.find("h0"); p != std::string::npos; p = s.find("h0", p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(markers(chartSvg(html, "job-wait")), 4u + 2u);
  EXPECT_EQ(markers(chartSvg(html, "job-runtime")), 3u + 2u);
  // jvm.free.memory is charted nowhere, so it is listed with min/mean/max.
  EXPECT_THAT(html, HasSubstr("<tr><td>jvm.free.memory</td><td>1</td><td>1.500</td><td>1.500</td>"
                              "<td>1.500</td></tr>"));
  // Self-contained: inline style, no script, nothing loaded (the SVG namespace is a name, not a
  // fetch).
  EXPECT_THAT(html, testing::StartsWith("<!DOCTYPE html>\n"));
  EXPECT_THAT(html, HasSubstr("<meta charset=\"utf-8\">"));
  EXPECT_THAT(html, HasSubstr("<style>"));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("href=\"http")));
  EXPECT_THAT(html, Not(HasSubstr("url(")));
}

TEST(HtmlReport, NoTimingsRunGetsANoteInsteadOfAChart) {
  OutputDir d;
  std::string track = R"([{"time":0,"running.containers":1},{"time":1,"running.containers":2}])";
  d.write("realtimetrack.json", track)
      .write("jobs.csv", std::string(kJobsHeader) + kJobsRows)
      .write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  EXPECT_TRUE(chartSvg(html, "scheduler-timecost").empty());
  EXPECT_TRUE(chartSvg(html, "scheduler-throughput").empty());
  EXPECT_THAT(html, HasSubstr("the run used --no-timings"));
  EXPECT_THAT(html, HasSubstr("<span id=\"util-memory\">\u2014</span>"));
}

TEST(HtmlReport, ExtraPerQueueMetricsGetGenericCharts) {
  OutputDir d;
  std::string track = R"([
    {"time":0,"queue.root.a.allocated.memory":1,"queue.root.b.allocated.memory":1,
     "queue.root.a.reserved.memory":4,"queue.root.b.reserved.memory":4},
    {"time":1,"queue.root.a.allocated.memory":2,"queue.root.b.allocated.memory":1,
     "queue.root.a.reserved.memory":4,"queue.root.b.reserved.memory":4}])";
  d.write("realtimetrack.json", track)
      .write("jobs.csv", std::string(kJobsHeader) + kJobsRows)
      .write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  std::string svg = chartSvg(html, "queue-reserved.memory");
  ASSERT_FALSE(svg.empty());
  EXPECT_THAT(svg, HasSubstr(">Per leaf queue: reserved.memory</text>"));
  EXPECT_THAT(svg, HasSubstr(">root.a</text>"));
  EXPECT_THAT(svg, HasSubstr(">root.b</text>"));
  EXPECT_THAT(svg, HasSubstr(">GB</text>"));
  // Each queue's detail chart puts the extra metric beside its allocation, in fixed colours.
  std::string detail = chartSvg(html, "queue-detail-root.a");
  ASSERT_FALSE(detail.empty());
  EXPECT_THAT(detail, HasSubstr(">Queue root.a: allocated memory</text>"));
  EXPECT_THAT(detail, HasSubstr(">allocated</text>"));
  EXPECT_THAT(detail, HasSubstr(">reserved</text>"));
  // The extra dashed first, the allocation last in the queue's colour (root.a: first queue).
  EXPECT_THAT(detail, HasSubstr("data-series=\"0\" fill=\"none\" stroke=\"#76b7b2\" "
                                "stroke-dasharray=\"4 2\""));
  EXPECT_THAT(detail, HasSubstr("data-series=\"1\" fill=\"none\" stroke=\"#4e79a7\" points"));
  EXPECT_FALSE(chartSvg(html, "queue-detail-root.b").empty());
}

// Preemption figures (the simulator writes them once the capacity monitor ran a round) get the
// YARN-569 chart per queue: allocated, pending, guaranteed, ideal assignment, ideal and actual
// preemption, in fixed colours; the totals are a note and a chart; they stay out of "Other
// per-queue metrics" and of the per-queue detail.
TEST(HtmlReport, PreemptionFiguresGetTheSeedsChartPerQueue) {
  OutputDir d;
  std::string track = R"([
    {"time":0,"queue.A.allocated.memory":0,"queue.B.allocated.memory":10,
     "queue.A.pending.memory":40,"queue.B.pending.memory":2,
     "cluster.allocated.memory":10,"cluster.available.memory":0},
    {"time":3,"queue.A.allocated.memory":1,"queue.B.allocated.memory":9,
     "queue.A.pending.memory":7,"queue.B.pending.memory":2,
     "queue.A.guaranteed.memory":8,"queue.B.guaranteed.memory":2,
     "queue.A.ideal.assigned.memory":8,"queue.B.ideal.assigned.memory":2,
     "queue.A.ideal.preemption.memory":0,"queue.B.ideal.preemption.memory":7,
     "queue.A.actual.preemption.memory":0,"queue.B.actual.preemption.memory":1.5,
     "queue.A.preemption.selected.memory":0,"queue.B.preemption.selected.memory":2,
     "queue.A.guaranteed.vcores":8,"queue.B.guaranteed.vcores":2,
     "preemption.rounds":1,"preemption.containers.marked":2,"preemption.containers.killed":0},
    {"time":6,"queue.A.allocated.memory":3,"queue.B.allocated.memory":7,
     "queue.A.pending.memory":5,"queue.B.pending.memory":2,
     "queue.A.guaranteed.memory":8,"queue.B.guaranteed.memory":2,
     "queue.A.ideal.assigned.memory":8,"queue.B.ideal.assigned.memory":2,
     "queue.A.ideal.preemption.memory":0,"queue.B.ideal.preemption.memory":5,
     "queue.A.actual.preemption.memory":0,"queue.B.actual.preemption.memory":1,
     "queue.A.preemption.selected.memory":0,"queue.B.preemption.selected.memory":1,
     "queue.A.guaranteed.vcores":8,"queue.B.guaranteed.vcores":2,
     "preemption.rounds":2,"preemption.containers.marked":3,"preemption.containers.killed":1}])";
  d.write("realtimetrack.json", track)
      .write("jobs.csv", std::string(kJobsHeader) + kJobsRows)
      .write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, HasSubstr("<h2>Preemption monitor</h2>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"#preemption\">"));
  EXPECT_THAT(html, HasSubstr("2 preemption rounds; 3 containers marked for preemption (the AM "
                              "is told), 1 killed after max_wait_before_kill."));
  for (const char* q : {"A", "B"}) {
    std::string svg = chartSvg(html, std::string("preemption-") + q);
    ASSERT_FALSE(svg.empty()) << q;
    EXPECT_THAT(svg, HasSubstr(std::string(">Queue ") + q + ": preemption figures</text>"));
    // The round's figures dashed in fixed colours, then the allocation solid in the queue's
    // colour, drawn last so the ideal assignment does not hide it. Pending (A's 40 GB would
    // flatten the rest) is left to the pending charts.
    const char* names[] = {"guaranteed", "ideal assignment", "ideal preemption",
                           "actual preemption"};
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_THAT(svg, HasSubstr(std::string("\">") + names[i] + "</text></g>")) << q << names[i];
      EXPECT_THAT(svg, HasSubstr(fmt::format("data-series=\"{}\" fill=\"none\" stroke=\"{}\" "
                                             "stroke-dasharray",
                                             i, report::paletteColour(i + 5))))
          << q << " series " << i << " keeps its colour";
    }
    EXPECT_THAT(svg, HasSubstr(fmt::format("data-series=\"4\" fill=\"none\" stroke=\"{}\" points",
                                           report::paletteColour(std::string(q) == "A" ? 0 : 1))))
        << q << ": allocated last, in the queue's colour";
    EXPECT_THAT(svg, Not(HasSubstr(">pending")));
  }
  std::string ideal = chartSvg(html, "preemption-ideal");
  EXPECT_THAT(ideal, HasSubstr(">A</text>"));
  EXPECT_THAT(ideal, HasSubstr(">B</text>"));
  std::string counts = chartSvg(html, "preemption-containers");
  EXPECT_THAT(counts, HasSubstr(">containers marked</text>"));
  EXPECT_THAT(counts, HasSubstr(">containers killed</text>"));
  EXPECT_THAT(counts, HasSubstr(">rounds</text>"));
  // Not repeated elsewhere: no generic charts, the detail chart keeps allocated,
  // and the count keys are not "other series".
  EXPECT_TRUE(chartSvg(html, "queue-guaranteed.memory").empty());
  EXPECT_TRUE(chartSvg(html, "queue-guaranteed.vcores").empty());
  EXPECT_THAT(html, Not(HasSubstr("id=\"queue-extras\"")));
  std::string detail = chartSvg(html, "queue-detail-B");
  ASSERT_FALSE(detail.empty());
  EXPECT_THAT(detail, HasSubstr(">allocated</text>"));
  EXPECT_THAT(detail, Not(HasSubstr(">guaranteed</text>")));
  EXPECT_THAT(html, Not(HasSubstr("<td>preemption.rounds</td>")));
}

// What an operator reads first: the run (run.json), each queue's guarantee, maximum and fair
// share on its allocation chart, its share of the cluster, preemption per queue under either
// scheduler; one queue naming (jobs.csv's root.a is the track's a) and one colour per queue in
// every chart; the scheduler charts without series that say nothing.
TEST(HtmlReport, OperatorViewRunConfigurationSharesAndPreemptionPerQueue) {
  OutputDir d;
  std::string track = R"([
    {"time":0,"cluster.allocated.memory":2,"cluster.available.memory":6,
     "queue.a.allocated.memory":2,"queue.b.allocated.memory":0,
     "queue.a.guarantee.memory":2,"queue.a.maximum.memory":8,"queue.a.fairshare.memory":4,
     "queue.b.guarantee.memory":6,"queue.b.maximum.memory":8,"queue.b.fairshare.memory":4,
     "scheduler.allocate.timecost":0.5,"scheduler.commit.success.timecost":0.5,
     "scheduler.commit.failure.timecost":0,"scheduler.handle.timecost":0.25},
    {"time":1,"cluster.allocated.memory":8,"cluster.available.memory":0,
     "queue.a.allocated.memory":6,"queue.b.allocated.memory":2,
     "queue.a.guarantee.memory":2,"queue.a.maximum.memory":8,"queue.a.fairshare.memory":4,
     "queue.b.guarantee.memory":6,"queue.b.maximum.memory":8,"queue.b.fairshare.memory":4,
     "queue.a.containers.marked":3,"queue.a.containers.preempted":2,
     "scheduler.allocate.timecost":0.75,"scheduler.commit.success.timecost":0.75,
     "scheduler.commit.failure.timecost":0,"scheduler.handle.timecost":0.5}])";
  const char* run = R"({"scheduler":"FairScheduler","configuration":"conf/fair","trace":"t.json",
    "trace_type":"SLS","seed":7,"version":"9.9","containers":{"allocated":10,"am":2,
    "completed":5,"released":1,"killed":3,"preempted":2,"running_at_end":1}})";
  d.write("realtimetrack.json", track)
      .write("jobs.csv", std::string(kJobsHeader) +
                             "job_1,root.a,alice,mapreduce,0,0,1000,0,1000,1,FINISHED\n"
                             "job_2,root.b,bob,mapreduce,0,0,1000,0,1000,1,FINISHED\n")
      .write("jobruntime.csv",
             "JobID,real_start_time,real_end_time,simulate_start_time,"
             "simulate_end_time\njob_1,0,1,0,1000\njob_2,0,1,0,1000\n")
      .write("run.json", run);
  std::string html = writeAndRead(d);
  // Run metadata and container totals that add up.
  EXPECT_THAT(html, HasSubstr("<td>Scheduler</td><td>FairScheduler</td>"));
  EXPECT_THAT(html, HasSubstr("<td>Configuration folder</td><td>conf/fair</td>"));
  EXPECT_THAT(html, HasSubstr("<td>Trace</td><td>t.json (SLS)</td>"));
  EXPECT_THAT(html, HasSubstr("<td>Seed</td><td>7</td>"));
  EXPECT_THAT(html, HasSubstr("<td>Spindle version</td><td>9.9</td>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"containers-allocated\">10</span> = 2 AM + 8 task"));
  EXPECT_THAT(html, HasSubstr("5 completed + 1 released by their AM + 3 killed (2 of them "
                              "preempted) + 1 still running when the run stopped"));
  // One queue naming: jobs.csv's paths become the track's leaf names.
  EXPECT_THAT(html, HasSubstr("<tr><td>a</td><td>1</td>"));
  EXPECT_THAT(html, Not(HasSubstr("<td>root.a</td>")));
  // Queue usage: guarantee, maximum, share of the 8 GB cluster (25% then 75%).
  EXPECT_THAT(html, HasSubstr("<tr><td>a</td><td>2.000</td><td>8.000</td><td>4.000</td>"
                              "<td>6.000</td><td>50.00%</td><td>75.00%</td>"));
  // Preemption per queue.
  EXPECT_THAT(html, HasSubstr("<tr><td>a</td><td>3</td><td>2</td></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"total\"><td>all queues</td><td>3</td><td>2</td></tr>"));
  // Queue a's allocation chart: guarantee, maximum and fair share dashed, allocated last in a's
  // colour, the same colour as a's series in the other charts.
  std::string detail = chartSvg(html, "queue-detail-a");
  ASSERT_FALSE(detail.empty());
  for (const char* name : {"guarantee", "maximum", "fair share", "allocated"}) {
    EXPECT_THAT(detail, HasSubstr(std::string("\">") + name + "</text></g>")) << name;
  }
  const std::string a = report::paletteColour(0);
  EXPECT_THAT(detail, HasSubstr("data-series=\"3\" fill=\"none\" stroke=\"" + a + "\" points"));
  EXPECT_THAT(detail, HasSubstr("stroke-dasharray=\"6 3\""));
  EXPECT_THAT(chartSvg(html, "queue-allocated-memory"),
              HasSubstr("data-series=\"0\" fill=\"none\" stroke=\"" + a + "\""));
  EXPECT_THAT(chartSvg(html, "job-wait"), HasSubstr("stroke=\"" + a + "\""));
  EXPECT_THAT(chartSvg(html, "queue-share-memory"), HasSubstr(">%</text>"));
  // Scheduler time: commit success repeats allocate, commit failure is zero: not drawn, said.
  std::string cost = chartSvg(html, "scheduler-timecost");
  EXPECT_THAT(cost, HasSubstr(">allocate</text>"));
  EXPECT_THAT(cost, Not(HasSubstr(">commit success</text>")));
  EXPECT_THAT(cost, Not(HasSubstr(">commit failure</text>")));
  EXPECT_THAT(html, HasSubstr("not drawn: commit success (equal to allocate)."));
  EXPECT_THAT(html, HasSubstr("not drawn, zero throughout: commit failure."));
}

TEST(HtmlReport, NoPreemptionFiguresNoPreemptionSection) {
  OutputDir d;
  writeFixture(d);
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, Not(HasSubstr("Preemption monitor")));
  EXPECT_THAT(html, Not(HasSubstr("#preemption")));
}

TEST(HtmlReport, ReservationMetricsGetTheirSection) {
  OutputDir d;
  writeFixture(d);
  EXPECT_THAT(writeAndRead(d), Not(HasSubstr("id=\"reservations\"")));
  d.write("reservation-metrics.json",
          R"({"reservationsAsked": 4, "reservationsAccepted": 3, "acceptanceRatio": 0.75,
              "acceptedFinished": 3, "acceptedMetDeadline": 2, "deadlineShare": 0.6667,
              "askedMetDeadline": 2, "askedDeadlineShare": 0.5, "clusterUtilisation": 0.4,
              "bestEffortJobs": 10, "bestEffortMeanLatencyMs": 12500.0,
              "bestEffortP95LatencyMs": 30000.0})");
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, HasSubstr("<td>4 / 3 (acceptance ratio 75.00%)</td>"));
  EXPECT_THAT(html, HasSubstr("<td>2 (66.67%)</td>"));
  EXPECT_THAT(html, HasSubstr("<td>40.00%</td>"));
  EXPECT_THAT(html, HasSubstr("<td>12.5 s / 30.0 s (10 jobs)</td>"));
  d.write("reservation-metrics.json", "[1, 2]");
  EXPECT_FALSE(renderHtmlReport(d.str(), {}).isOk());
}

TEST(HtmlReport, PlacementCsvGetsAPlacementSection) {
  OutputDir d;
  writeFixture(d);
  EXPECT_THAT(writeAndRead(d), Not(HasSubstr("id=\"placement\"")));
  d.write("jobs.csv",
          "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state,"
          "rejected,rejection_reasons\n"
          "job_1,root.a,alice,mapreduce,0,1000,11000,1000,10000,4,FINISHED,2,"
          "COULD_NOT_PLACE_ON_NODE=2\n"
          "job_2,root.a,alice,mapreduce,500,2500,8500,2000,6000,2,FINISHED,0,\n"
          "job_3,root.b,bob,mapreduce,1000,1000,21000,0,20000,8,FINISHED,0,\n"
          "job_4,root.b,bob,mapreduce,2000,4000,,2000,,3,RUNNING,0,\n"
          "job_5,root.b,bob,mapreduce,3000,,,,,1,ACCEPTED,0,\n")
      .write("placement.csv",
             "job,tag,rack,placed,peak_live,peak_per_node\n"
             "job_1,web,/r0,2,2,1\njob_1,web,/r1,2,1,1\n");
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, HasSubstr("<section id=\"placement\">"));
  EXPECT_THAT(html, HasSubstr("<tr><td>job_1</td><td>web</td><td>/r0</td><td>2</td><td>2</td>"
                              "<td>1</td></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>job_1</td><td>2</td><td>COULD_NOT_PLACE_ON_NODE=2</td>"));
  d.write("placement.csv", "job,tag,rack,placed,peak_live,peak_per_node\njob_1,web,/r0,x,1,1\n");
  Result<std::string> bad = renderHtmlReport(d.str(), {});
  ASSERT_FALSE(bad.isOk());
  EXPECT_THAT(bad.status().message(), HasSubstr("placement.csv"));
}

TEST(HtmlReport, ManyQueuesGetANoteInsteadOfPerQueueDetail) {
  OutputDir d;
  std::string sample = "{\"time\":0";
  for (int q = 0; q < 17; ++q)
    sample += fmt::format(",\"queue.root.q{}.allocated.memory\":{}", q, q);
  d.write("realtimetrack.json", "[" + sample + "}]")
      .write("jobs.csv", std::string(kJobsHeader) + kJobsRows)
      .write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, HasSubstr("Per-queue detail is drawn for at most 16 queues; this run has 17."));
  EXPECT_TRUE(chartSvg(html, "queue-detail-root.q0").empty());
  std::string all = chartSvg(html, "queue-allocated-memory");
  EXPECT_THAT(all, HasSubstr(">root.q16</text>"));  // the combined chart still has every queue
}

TEST(HtmlReport, InputStringsAreEscaped) {
  OutputDir d;
  std::string track =
      R"([{"time":0,"queue.root.<x>&\"y\".allocated.memory":1},{"time":1,"queue.root.<x>&\"y\".allocated.memory":2}])";
  d.write("realtimetrack.json", track)
      .write("jobs.csv", std::string(kJobsHeader) +
                             "<img src=x>,\"root.<x>&\"\"y\"\"\",u,t,0,10,20,10,10,1,FINISHED\n")
      .write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, HasSubstr("<tr><td>root.&lt;x&gt;&amp;&quot;y&quot;</td><td>1</td>"));
  EXPECT_THAT(chartSvg(html, "queue-allocated-memory"),
              HasSubstr(">root.&lt;x&gt;&amp;&quot;y&quot;</text>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>&lt;img src=x&gt;</td><td>root.&lt;x&gt;&amp;&quot;y&quot;"
                              "</td>"));  // the job list
  EXPECT_THAT(html, Not(HasSubstr("<x>")));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
}

TEST(HtmlReport, DayLongRunIsDownsampled) {
  OutputDir d;
  std::string track = "[";
  for (int t = 0; t < 86400; t += 10) {  // 8,640 samples
    track += fmt::format(
        "{}{{\"time\":{},\"running.containers\":{},\"cluster.allocated.memory\":{},"
        "\"cluster.available.memory\":{},\"queue.default.allocated.memory\":{}}}",
        t == 0 ? "" : ",\n", t, (t / 10) % 113, (t / 10) % 64, 64 - (t / 10) % 64, (t / 10) % 64);
  }
  track += "]";
  d.write("realtimetrack.json", track).write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  std::string svg = chartSvg(html, "cluster-memory");
  ASSERT_FALSE(svg.empty());
  size_t pos = 0;
  int polylines = 0;
  while ((pos = svg.find("<polyline", pos)) != std::string::npos) {
    size_t a = svg.find("points=\"", pos) + 8;
    size_t b = svg.find('"', a);
    std::string pts = svg.substr(a, b - a);
    EXPECT_LE(static_cast<size_t>(std::count(pts.begin(), pts.end(), ' ')) + 1, 1000u);
    pos = b;
    ++polylines;
  }
  EXPECT_EQ(polylines, 2);
  EXPECT_THAT(html, HasSubstr("<figcaption>Drawn with"));
  EXPECT_THAT(html, HasSubstr(">simulated time (h)</text>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"peak-containers\">112</span>"));
  EXPECT_LT(html.size(), 400'000u);
  EXPECT_FALSE(chartSvg(html, "job-timeline").empty());  // 3 jobs: drawn
}

TEST(HtmlReport, EveryRMAppStateIsCountedByOutcome) {
  OutputDir d;
  std::string jobs = kJobsHeader;
  const char* states[] = {"NEW",          "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING",
                          "FINAL_SAVING", "FINISHING",  "FINISHED",  "FAILED",   "KILLING",
                          "KILLED",       "REJECTED",   "FINISHED",  "KILLED"};
  int i = 0;
  for (const char* st : states) {
    jobs += fmt::format("j{},root.a,u,t,{},,,,,1,{}\n", i, i * 100, st);
    ++i;
  }
  d.write("realtimetrack.json", kTrack).write("jobs.csv", jobs).write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  // 7 in-flight states + KILLING are unfinished; FINISHED x2, FAILED, KILLED x2, REJECTED.
  EXPECT_THAT(html, HasSubstr("<td>14 (finished 2, unfinished 8, failed 1, killed 2, rejected 1)"
                              "</td>"));
}

TEST(HtmlReport, JobsOnlyInJobRuntimeAreNoted) {
  OutputDir d;
  std::string runtime = kRuntime;
  for (int i = 0; i < 7; ++i) runtime += fmt::format("extra_{},0,1,0,1\n", i);
  d.write("realtimetrack.json", kTrack)
      .write("jobs.csv", std::string(kJobsHeader) + kJobsRows)
      .write("jobruntime.csv", runtime);
  std::string html = writeAndRead(d);
  EXPECT_THAT(html, HasSubstr("7 job ids in jobruntime.csv are missing from jobs.csv: extra_0, "
                              "extra_1, extra_2, extra_3, extra_4, ...</p>"));
}

TEST(HtmlReport, ManyJobsGetANoteInsteadOfATimeline) {
  OutputDir d;
  std::string jobs = kJobsHeader;
  // wait_ms 0, 10, ..., 2000: mean 1000; p95 is rank ceil(0.95 * 201) = 191, i.e. 1900;
  // max 2000.
  for (int i = 0; i < 201; ++i) {
    jobs += fmt::format("job_{},root.a,u,t,{},{},{},{},100,1,FINISHED\n", i, i * 10, i * 20,
                        i * 20 + 100, i * 10);
  }
  d.write("realtimetrack.json", kTrack).write("jobs.csv", jobs).write("jobruntime.csv", kRuntime);
  std::string html = writeAndRead(d);
  EXPECT_TRUE(chartSvg(html, "job-timeline").empty());
  EXPECT_THAT(html, HasSubstr("<td>Wait: mean / p95 / max</td><td>1.000 s / 1.900 s / 2.000 s"));
  EXPECT_THAT(html, HasSubstr("The per-job timeline is drawn for runs of at most 200 jobs."));
  EXPECT_THAT(html, HasSubstr("The job list is shown for runs of at most 200 jobs; this run has "
                              "201."));
  EXPECT_THAT(html, Not(HasSubstr("id=\"job-table\"")));
  EXPECT_FALSE(chartSvg(html, "job-wait").empty());
}

TEST(HtmlReport, SameInputsGiveByteIdenticalReports) {
  OutputDir a;
  OutputDir b;
  writeFixture(a);
  writeFixture(b);
  std::string first = writeAndRead(a);
  std::string again = writeAndRead(a);
  EXPECT_EQ(first, again);
  EXPECT_FALSE(a.exists("report.html.tmp"));  // written beside, then renamed over
  EXPECT_EQ(first, writeAndRead(b));          // the folder path does not leak into the page
}

TEST(HtmlReport, WithoutJobsCsvTheSummaryUsesJobRuntime) {
  OutputDir d;
  d.write("realtimetrack.json", kTrack)
      .write("jobruntime.csv", std::string(kRuntime) + "job_4,0,0,2000,\n");
  std::string html = writeAndRead(d);
  // Turnarounds 11000, 8000, 20000: mean 13000, p95 rank 3 -> 20000; job_4 never ended.
  EXPECT_THAT(
      html,
      HasSubstr("<td>Turnaround: mean / p95 / max</td><td>13.000 s / 20.000 s / 20.000 s</td>"));
  EXPECT_THAT(html,
              HasSubstr("<td>4 (finished 3, unfinished 1, failed 0, killed 0, rejected 0)</td>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"makespan\">21.000 s</span>"));
  EXPECT_THAT(html, HasSubstr("no jobs.csv (4 jobs from jobruntime.csv, queues unknown)"));
  EXPECT_THAT(html, HasSubstr("<caption>Jobs per queue (from jobruntime.csv)</caption>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"total\"><td>all jobs</td><td>4</td><td>3</td><td>1</td>"
                              "<td>0</td><td>0</td><td>0</td><td>13.000</td><td>20.000</td></tr>"));
  EXPECT_FALSE(chartSvg(html, "job-turnaround").empty());
  EXPECT_TRUE(chartSvg(html, "job-wait").empty());
  EXPECT_THAT(chartSvg(html, "job-turnaround"), HasSubstr(">all jobs</text>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>job_4</td><td>RUNNING</td><td>2.000</td><td>\u2014</td>"
                              "<td>\u2014</td></tr>"));
}

TEST(HtmlReport, EmptyRunStillRendersWithNotes) {
  OutputDir d;
  d.write("realtimetrack.json", "[]")
      .write("jobs.csv", kJobsHeader)
      .write("jobruntime.csv",
             "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n");
  std::string html = writeAndRead(d);
  EXPECT_THAT(html,
              HasSubstr("<td>0 (finished 0, unfinished 0, failed 0, killed 0, rejected 0)</td>"));
  EXPECT_THAT(html, HasSubstr("<td>Makespan (first submit to last job end)</td><td>\u2014</td>"));
  EXPECT_THAT(html, HasSubstr("realtimetrack.json has no cluster.* series."));
  EXPECT_THAT(html, HasSubstr("No job has the times these charts need."));
  EXPECT_THAT(html, HasSubstr("<td>Samples in realtimetrack.json</td><td>0</td>"));
  EXPECT_THAT(html, HasSubstr("<td>Wait: mean / p95 / max</td><td>\u2014 / \u2014 / \u2014</td>"));
  EXPECT_THAT(html, Not(HasSubstr("<svg")));
  EXPECT_THAT(html, HasSubstr("</html>\n"));
}

TEST(HtmlReport, MissingOrMalformedInputsAreNamedAndNothingIsWritten) {
  {
    OutputDir d;
    d.write("jobruntime.csv", kRuntime);
    Status s = writeHtmlReport(d.str());
    EXPECT_EQ(s.code(), StatusCode::kNotFound);
    EXPECT_THAT(s.message(), HasSubstr("realtimetrack.json: no such file"));
    EXPECT_FALSE(d.exists("report.html"));
  }
  {
    OutputDir d;
    d.write("realtimetrack.json", kTrack);
    Status s = writeHtmlReport(d.str());
    EXPECT_EQ(s.code(), StatusCode::kNotFound);
    EXPECT_THAT(s.message(), HasSubstr("jobruntime.csv: no such file"));
  }
  {
    OutputDir d;
    writeFixture(d);
    d.write("jobs.csv",
            std::string(kJobsHeader) + kJobsRows + "job_6,root.a,u,t,0,1,2,x,1,1,FINISHED\n");
    Status s = writeHtmlReport(d.str());
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(s.message(), HasSubstr("jobs.csv: line 7: column 'wait_ms'"));
    EXPECT_FALSE(d.exists("report.html"));
  }
  {
    OutputDir d;
    writeFixture(d);
    d.write("realtimetrack.json", "[\n{\"time\":0},\n{\"time\":1 \"x\":2}\n]");
    Status s = writeHtmlReport(d.str());
    EXPECT_THAT(s.message(), HasSubstr("realtimetrack.json: line 3, column"));
  }
  {
    OutputDir d;
    writeFixture(d);
    d.write("jobruntime.csv", "JobID,real_start_time,simulate_start_time\n");
    Status s = writeHtmlReport(d.str());
    EXPECT_THAT(s.message(),
                HasSubstr("jobruntime.csv: line 1: header lacks column 'real_end_time'"));
  }
  Status nodir = writeHtmlReport("/nonexistent/spindle-report-dir");
  EXPECT_EQ(nodir.code(), StatusCode::kNotFound);
  EXPECT_THAT(nodir.message(), HasSubstr("no such output folder"));
}

}  // namespace
}  // namespace spindle
