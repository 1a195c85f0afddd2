#include "report/report_charts.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "report/summary.h"

namespace spindle::report {

namespace {

struct NamedKey {
  const char* name;  // legend label
  const char* key;   // realtimetrack.json key
};

const std::vector<NamedKey> kThroughputKeys = {
    {"commit success", "scheduler.commit.success.throughput"},
    {"commit failure", "scheduler.commit.failure.throughput"},
};

const std::vector<NamedKey> kTimecostKeys = {
    {"allocate", "scheduler.allocate.timecost"},
    {"handle", "scheduler.handle.timecost"},
    {"commit success", "scheduler.commit.success.timecost"},
    {"commit failure", "scheduler.commit.failure.timecost"},
};

// The per-queue figures of the preemption monitor's rounds (realtimetrack.json keys
// queue.<q>.<metric>), in the order of the seed's YARN-569 chart.
const std::vector<NamedKey> kPreemptionMetrics = {
    {"guaranteed", "guaranteed.memory"},
    {"ideal assignment", "ideal.assigned.memory"},
    {"ideal preemption", "ideal.preemption.memory"},
    {"actual preemption", "actual.preemption.memory"},
};

const std::vector<NamedKey> kPreemptionCountKeys = {
    {"rounds", "preemption.rounds"},
    {"containers marked", "preemption.containers.marked"},
    {"containers killed", "preemption.containers.killed"},
};

using Colours = std::map<std::string, std::string>;

// A queue's colour in every chart (dark grey for a name not in the map: none of the run).
std::string colourOf(const Colours& colours, const std::string& queue) {
  auto it = colours.find(queue);
  return it == colours.end() ? std::string("#333333") : it->second;
}

ChartSpec chart(std::string id, std::string title, std::string yLabel, ChartKind kind,
                const ReportOptions& o) {
  ChartSpec c;
  c.id = std::move(id);
  c.title = std::move(title);
  c.yLabel = std::move(yLabel);
  c.kind = kind;
  c.maxPointsPerSeries = o.maxPointsPerSeries;
  c.maxPointsPerChart = o.maxPointsPerChart;
  return c;
}

void addGlobals(ChartSpec& c, const MetricsTrack& t, const std::vector<NamedKey>& keys) {
  for (const NamedKey& k : keys) {
    if (const std::vector<Point>* pts = t.global(k.key)) c.series.push_back({k.name, *pts});
  }
}

void addQueues(ChartSpec& c, const MetricsTrack& t, const std::string& metric,
               const Colours& colours) {
  for (const auto& [queue, pts] : t.queueMetric(metric)) {
    c.series.push_back({queue, pts, colourOf(colours, queue)});
  }
}

// The cluster's size per sample (allocated + available), matched by time.
std::map<double, double> clusterSize(const MetricsTrack& t, const char* res) {
  std::map<double, double> out;
  const std::vector<Point>* a = t.global(fmt::format("cluster.allocated.{}", res));
  const std::vector<Point>* b = t.global(fmt::format("cluster.available.{}", res));
  if (!a || !b) return out;
  std::map<double, double> avail;
  for (const Point& p : *b) avail[p.x] = p.y;
  for (const Point& p : *a) {
    auto it = avail.find(p.x);
    if (it != avail.end() && p.y + it->second > 0) out[p.x] = p.y + it->second;
  }
  return out;
}

// Adds `c` when it has any series.
void keep(ChartSection& s, ChartSpec c) {
  if (!c.series.empty()) s.charts.push_back(std::move(c));
}

std::string unitOf(const std::string& metric) {
  if (metric.ends_with("memory")) return "GB";
  if (metric.ends_with("vcores")) return "vcores";
  return "value";
}

std::string queueLabel(const std::string& queue) {
  return queue.empty() ? "(unknown queue)" : queue;
}

ChartSection clusterSection(const MetricsTrack& t, const ReportOptions& o) {
  ChartSection s{"cluster", "Cluster resources", {}, {}};
  ChartSpec mem =
      chart("cluster-memory", "Cluster memory: allocated vs available", "GB", ChartKind::kArea, o);
  addGlobals(
      mem, t,
      {{"allocated", "cluster.allocated.memory"}, {"available", "cluster.available.memory"}});
  keep(s, std::move(mem));
  ChartSpec vc = chart("cluster-vcores", "Cluster vcores: allocated vs available", "vcores",
                       ChartKind::kArea, o);
  addGlobals(
      vc, t,
      {{"allocated", "cluster.allocated.vcores"}, {"available", "cluster.available.vcores"}});
  keep(s, std::move(vc));
  ChartSpec util =
      chart("cluster-utilisation", "Cluster utilisation: allocated / (allocated + available)", "%",
            ChartKind::kLine, o);
  util.yInclude = 100;
  for (const char* res : {"memory", "vcores"}) {
    const std::vector<Point>* a = t.global(fmt::format("cluster.allocated.{}", res));
    const std::vector<Point>* b = t.global(fmt::format("cluster.available.{}", res));
    if (!a || !b) continue;
    std::vector<Point> pts = utilisationSeries(*a, *b);
    for (Point& p : pts) p.y *= 100;
    util.series.push_back({res, std::move(pts)});
  }
  keep(s, std::move(util));
  if (s.charts.empty()) s.notes.push_back("realtimetrack.json has no cluster.* series.");
  return s;
}

ChartSection queueSection(const MetricsTrack& t, const ReportOptions& o, const Colours& colours) {
  ChartSection s{"queues", "Queue allocation", {}, {}};
  ChartSpec mem =
      chart("queue-allocated-memory", "Allocated memory per leaf queue", "GB", ChartKind::kLine, o);
  addQueues(mem, t, "allocated.memory", colours);
  keep(s, std::move(mem));
  // Each queue's allocation as a share of the cluster's memory at that sample.
  ChartSpec share = chart("queue-share-memory", "Share of cluster memory per leaf queue", "%",
                          ChartKind::kLine, o);
  share.yInclude = 100;
  const std::map<double, double> size = clusterSize(t, "memory");
  for (const auto& [queue, pts] : t.queueMetric("allocated.memory")) {
    std::vector<Point> pct;
    for (const Point& p : pts) {
      auto it = size.find(p.x);
      if (it != size.end()) pct.push_back({p.x, 100 * p.y / it->second});
    }
    if (!pct.empty()) share.series.push_back({queue, std::move(pct), colourOf(colours, queue)});
  }
  keep(s, std::move(share));
  ChartSpec vc = chart("queue-allocated-vcores", "Allocated vcores per leaf queue", "vcores",
                       ChartKind::kLine, o);
  addQueues(vc, t, "allocated.vcores", colours);
  keep(s, std::move(vc));
  if (s.charts.empty())
    s.notes.push_back("realtimetrack.json has no queue.<q>.allocated.* series.");
  return s;
}

ChartSection pendingSection(const MetricsTrack& t, const ReportOptions& o, const Colours& colours) {
  ChartSection s{"pending", "Pending resources", {}, {}};
  for (const char* res : {"memory", "vcores"}) {
    std::string unit = std::string(res) == "memory" ? "GB" : "vcores";
    ChartSpec c = chart(fmt::format("pending-{}", res),
                        fmt::format("Pending {}: cluster and per leaf queue", res), unit,
                        ChartKind::kLine, o);
    std::string clusterKey = fmt::format("cluster.pending.{}", res);
    if (const std::vector<Point>* pts = t.global(clusterKey)) {
      c.series.push_back({"cluster", *pts, "#555555", "2 3"});
    }
    addQueues(c, t, fmt::format("pending.{}", res), colours);
    keep(s, std::move(c));
  }
  if (s.charts.empty()) s.notes.push_back("realtimetrack.json has no pending.* series.");
  return s;
}

ChartSection appsSection(const MetricsTrack& t, const ReportOptions& o) {
  ChartSection s{"apps", "Applications and containers", {}, {}};
  ChartSpec run =
      chart("running", "Running applications and containers", "count", ChartKind::kLine, o);
  addGlobals(run, t,
             {{"running applications", "running.applications"},
              {"running containers", "running.containers"}});
  keep(s, std::move(run));
  ChartSpec states =
      chart("app-states", "Applications by state", "applications", ChartKind::kLine, o);
  if (t.global("pending.applications") || t.global("completed.applications")) {
    addGlobals(states, t,
               {{"pending", "pending.applications"},
                {"running", "running.applications"},
                {"completed", "completed.applications"}});
  }
  keep(s, std::move(states));
  if (s.charts.empty()) s.notes.push_back("realtimetrack.json has no application counts.");
  return s;
}

std::string seriesKey(const JobSet& jobs, const JobRecord& j) {
  return jobs.hasQueues ? queueLabel(j.queue) : "all jobs";
}

// One scatter series per queue, points (submit s, value s) sorted for stable downsampling.
std::vector<Series> jobScatter(const JobSet& jobs, const Colours& colours,
                               std::optional<int64_t> (*value)(const JobRecord&)) {
  std::map<std::string, std::vector<Point>> byQueue;
  for (const JobRecord& j : jobs.jobs) {
    std::optional<int64_t> v = value(j);
    if (!j.submitMs || !v) continue;
    byQueue[seriesKey(jobs, j)].push_back(
        Point{static_cast<double>(*j.submitMs) / 1000.0, static_cast<double>(*v) / 1000.0});
  }
  std::vector<Series> out;
  for (auto& [name, pts] : byQueue) {
    std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) {
      return a.x < b.x || (a.x == b.x && a.y < b.y);
    });
    out.push_back({name, std::move(pts), colourOf(colours, name)});
  }
  return out;
}

// Timeline rows: one per job with a submit time, first submitted at the top. With jobs.csv a
// row is a grey wait bar (submit to AM start) then a bar in the queue's colour (AM start to
// end); without it, one turnaround bar (submit to end). A bar with no end runs to `endS`.
ChartSpec jobTimeline(const JobSet& jobs, double endS, const ReportOptions& o,
                      const Colours& colours) {
  std::vector<const JobRecord*> rows = jobsBySubmit(jobs);
  std::erase_if(rows, [](const JobRecord* j) { return !j->submitMs; });
  auto sec = [](int64_t ms) { return static_cast<double>(ms) / 1000.0; };
  std::map<std::string, std::vector<Point>> bars;
  std::vector<Point> waits;
  std::vector<std::pair<double, std::string>> labels;
  for (size_t i = 0; i < rows.size(); ++i) {
    const JobRecord& j = *rows[i];
    double y = static_cast<double>(rows.size() - i);
    if (rows.size() <= kMaxTimelineLabels) labels.emplace_back(y, j.id);
    double submit = sec(*j.submitMs);
    double end = j.endMs ? sec(*j.endMs) : std::max(endS, submit);
    std::vector<Point>& bar = bars[seriesKey(jobs, j)];
    if (!jobs.hasQueues) {
      bar.insert(bar.end(), {{submit, y}, {end, y}});
      continue;
    }
    double start = j.startMs ? sec(*j.startMs) : end;
    waits.insert(waits.end(), {{submit, y}, {start, y}});
    if (j.startMs) bar.insert(bar.end(), {{start, y}, {end, y}});
  }
  ChartSpec c;
  c.id = "job-timeline";
  c.title = jobs.hasQueues ? "Job timeline: wait (grey) then run, by queue"
                           : "Job timeline: submit to end";
  if (rows.size() <= kMaxTimelineLabels) c.title += "; rows are job ids, first submitted on top";
  c.yLabel = "jobs by submit time";
  c.kind = ChartKind::kSegments;
  c.yTickLabels = false;
  c.yFixed = std::make_pair(0.0, static_cast<double>(rows.size() + 1));
  c.maxPointsPerSeries = o.maxPointsPerSeries;
  c.maxPointsPerChart = o.maxPointsPerChart;
  c.rowLabels = std::move(labels);
  if (!c.rowLabels.empty()) c.yLabel = "";  // the job ids take the margin
  for (auto& [name, pts] : bars) {
    c.series.push_back({name, std::move(pts), colourOf(colours, name)});
  }
  if (!waits.empty())
    c.series.push_back({"waiting (submit to AM start)", std::move(waits), "#c8c8c8"});
  return c;
}

ChartSection jobsSection(const JobSet& jobs, const MetricsTrack& t, const ReportOptions& o,
                         const Colours& colours) {
  ChartSection s{"jobs", "Jobs", {}, {}};
  // Submit times share the time series' x range so the charts read side by side.
  std::optional<std::pair<double, double>> span;
  if (t.sampleCount() > 0) span = std::make_pair(t.firstTime(), t.lastTime());
  if (jobs.jobs.size() <= kMaxTimelineJobs) {
    // Bars of unfinished jobs run to the end of the run: the last sample or the latest job time.
    double endS = t.lastTime();
    for (const JobRecord& j : jobs.jobs) {
      for (const std::optional<int64_t>& ms : {j.submitMs, j.startMs, j.endMs}) {
        if (ms) endS = std::max(endS, static_cast<double>(*ms) / 1000.0);
      }
    }
    ChartSpec timeline = jobTimeline(jobs, endS, o, colours);
    timeline.xInclude = span;
    keep(s, std::move(timeline));
  } else {
    s.notes.push_back(fmt::format("The per-job timeline is drawn for runs of at most {} jobs.",
                                  kMaxTimelineJobs));
  }
  if (jobs.hasQueues) {
    ChartSpec wait = chart("job-wait", "Job wait (submit to AM start) by submit time", "wait (s)",
                           ChartKind::kScatter, o);
    wait.xLabel = "submit time";
    wait.xInclude = span;
    wait.series = jobScatter(jobs, colours, [](const JobRecord& j) { return j.waitMs; });
    keep(s, std::move(wait));
    ChartSpec run = chart("job-runtime", "Job runtime (AM start to end) by submit time",
                          "runtime (s)", ChartKind::kScatter, o);
    run.xLabel = "submit time";
    run.xInclude = span;
    run.series = jobScatter(jobs, colours, [](const JobRecord& j) { return j.runtimeMs; });
    keep(s, std::move(run));
  } else {
    s.notes.push_back(
        "jobs.csv is absent: wait and runtime are unknown; turnaround is simulate_end_time - "
        "simulate_start_time from jobruntime.csv.");
    ChartSpec ta = chart("job-turnaround", "Job turnaround (submit to end) by submit time",
                         "turnaround (s)", ChartKind::kScatter, o);
    ta.xLabel = "submit time";
    ta.xInclude = span;
    ta.series = jobScatter(jobs, colours, [](const JobRecord& j) { return j.turnaroundMs(); });
    keep(s, std::move(ta));
  }
  if (s.charts.empty()) s.notes.push_back("No job has the times these charts need.");
  return s;
}

bool allZero(const std::vector<Point>& pts) {
  return std::all_of(pts.begin(), pts.end(), [](const Point& p) { return p.y == 0; });
}

// Drops series that are zero throughout or repeat an earlier series point for point (SLS's
// commit timecost is the allocate timecost here, commit failures never happen); says which.
void dropFlatAndRepeated(ChartSpec& c, ChartSection& s) {
  std::vector<Series> kept;
  std::vector<std::string> zero, repeated;
  for (Series& x : c.series) {
    auto same = std::find_if(kept.begin(), kept.end(),
                             [&](const Series& k) { return k.points == x.points; });
    if (allZero(x.points)) {
      zero.push_back(x.name);
    } else if (same != kept.end()) {
      repeated.push_back(fmt::format("{} (equal to {})", x.name, same->name));
    } else {
      kept.push_back(std::move(x));
    }
  }
  c.series = std::move(kept);
  auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& n : v) out += (out.empty() ? "" : ", ") + n;
    return out;
  };
  if (!zero.empty())
    s.notes.push_back(c.title + ": not drawn, zero throughout: " + list(zero) + ".");
  if (!repeated.empty()) s.notes.push_back(c.title + ": not drawn: " + list(repeated) + ".");
}

ChartSection schedulerSection(const MetricsTrack& t, const ReportOptions& o) {
  ChartSection s{"scheduler", "Scheduler operations", {}, {}};
  ChartSpec c =
      chart("scheduler-timecost", "Scheduler call time: mean wall ms per call over the last calls",
            "ms", ChartKind::kLine, o);
  addGlobals(c, t, kTimecostKeys);
  bool timings = !c.series.empty();
  dropFlatAndRepeated(c, s);
  keep(s, std::move(c));
  ChartSpec tp = chart("scheduler-throughput", "Containers allocated per simulated second",
                       "allocations/s", ChartKind::kLine, o);
  addGlobals(tp, t, kThroughputKeys);
  dropFlatAndRepeated(tp, s);
  keep(s, std::move(tp));
  if (!timings) {
    s.notes.push_back(
        "No scheduler.*.timecost series: the run used --no-timings (wall-clock timings off, "
        "which keeps the outputs deterministic).");
  }
  return s;
}

ChartSection extraQueueSection(const MetricsTrack& t, const ReportOptions& o,
                               const Colours& colours) {
  ChartSection s{"queue-extras", "Other per-queue metrics", {}, {}};
  const std::vector<std::string>& known = kKnownQueueMetrics;
  for (const auto& [metric, queues] : t.queueMetrics()) {
    if (std::find(known.begin(), known.end(), metric) != known.end()) continue;
    ChartSpec c =
        chart("queue-" + metric, "Per leaf queue: " + metric, unitOf(metric), ChartKind::kLine, o);
    addQueues(c, t, metric, colours);
    keep(s, std::move(c));
  }
  return s;
}

// The configuration lines of a queue's allocation chart, dashed and in greys so the queue's
// own colour stays its allocation.
const std::vector<Series> kConfigurationLines = {
    {"guarantee", {}, "#555555", "6 3"},
    {"maximum", {}, "#999999", "2 3"},
    {"fair share", {}, "#b07aa1", "8 3 2 3"},
};
const std::vector<std::string> kConfigurationMetrics = {"guarantee.memory", "maximum.memory",
                                                        "fairshare.memory"};

// Memory metrics of no fixed chart (e.g. a later experiment's), by name.
std::vector<std::string> extraMemoryMetrics(const MetricsTrack& t) {
  std::vector<std::string> out;
  for (const auto& [metric, queues] : t.queueMetrics()) {
    bool known = std::find(kKnownQueueMetrics.begin(), kKnownQueueMetrics.end(), metric) !=
                 kKnownQueueMetrics.end();
    if (!known && metric.ends_with(".memory")) out.push_back(metric);
  }
  return out;
}

// One chart per queue: its allocated memory (in the queue's colour, drawn last so no other
// line hides it) against its configured guarantee and maximum (Capacity: capacity and maximum
// capacity; Fair: min and max share) and, under the Fair Scheduler, its fair share; then any
// extra memory metric of the queue. Pending has its own charts (it can be many times the
// cluster and would flatten the rest).
ChartSection queueDetailSection(const MetricsTrack& t, const ReportOptions& o,
                                const Colours& colours) {
  ChartSection s{"queue-detail", "Per-queue allocation against configuration", {}, {}};
  if (t.queues().size() > kMaxQueueDetailCharts) {
    s.notes.push_back(
        fmt::format("Per-queue detail is drawn for at most {} queues; this run has {}.",
                    kMaxQueueDetailCharts, t.queues().size()));
    return s;
  }
  s.notes.push_back(
      "Memory. Guarantee and maximum: the Capacity Scheduler's capacity and maximum capacity, "
      "the Fair Scheduler's min and max share (cut at the cluster); fair share: the Fair "
      "Scheduler's instantaneous fair share. Pending is charted under Pending resources.");
  std::vector<std::string> extras = extraMemoryMetrics(t);
  auto pointsOf = [&](const std::string& metric,
                      const std::string& queue) -> const std::vector<Point>* {
    const MetricsTrack::QueueSeries& byQueue = t.queueMetric(metric);
    auto it = byQueue.find(queue);
    return it == byQueue.end() ? nullptr : &it->second;
  };
  for (const std::string& queue : t.queues()) {
    ChartSpec c = chart("queue-detail-" + queue, "Queue " + queue + ": allocated memory", "GB",
                        ChartKind::kLine, o);
    for (size_t i = 0; i < kConfigurationMetrics.size(); ++i) {
      if (const std::vector<Point>* pts = pointsOf(kConfigurationMetrics[i], queue)) {
        Series line = kConfigurationLines[i];
        line.points = *pts;
        c.series.push_back(std::move(line));
      }
    }
    for (size_t i = 0; i < extras.size(); ++i) {
      if (const std::vector<Point>* pts = pointsOf(extras[i], queue)) {
        std::string name =
            extras[i].substr(0, extras[i].size() - std::string_view(".memory").size());
        c.series.push_back({name, *pts, paletteColour(i + 3), "4 2"});
      }
    }
    if (const std::vector<Point>* pts = pointsOf("allocated.memory", queue)) {
      c.series.push_back({"allocated", *pts, colourOf(colours, queue)});
    }
    keep(s, std::move(c));
  }
  return s;
}

double lastValue(const MetricsTrack& t, const char* key) {
  const std::vector<Point>* pts = t.global(key);
  return pts && !pts->empty() ? pts->back().y : 0;
}

// The seed's YARN-569 figure, one chart per leaf queue: instantaneous allocation and pending
// beside what the last preemption round computed (guarantee, ideal assignment, ideal and actual
// preemption); then every queue's ideal assignment together, and the marked / killed totals.
ChartSection preemptionSection(const MetricsTrack& t, const ReportOptions& o,
                               const Colours& colours) {
  ChartSection s{"preemption", "Preemption monitor", {}, {}};
  bool any = false;
  for (const NamedKey& m : kPreemptionMetrics) any = any || !t.queueMetric(m.key).empty();
  if (!any) return s;
  s.notes.push_back(fmt::format(
      "{:.0f} preemption rounds; {:.0f} containers marked for preemption (the AM is told), {:.0f} "
      "killed after max_wait_before_kill.",
      lastValue(t, "preemption.rounds"), lastValue(t, "preemption.containers.marked"),
      lastValue(t, "preemption.containers.killed")));
  s.notes.push_back(
      "Per leaf queue, memory: allocated as sampled (solid); guaranteed, ideal assignment, "
      "ideal preemption (used above what the queue may keep, scaled to "
      "total_preemption_per_round) and actual preemption (after the dead zone and "
      "natural_termination_factor) from the last round of ProportionalCapacityPreemptionPolicy "
      "(default partition). vcores figures are in realtimetrack.json and preemption.csv.");
  if (t.queues().size() > kMaxQueueDetailCharts) {
    s.notes.push_back(
        fmt::format("Per-queue preemption charts are drawn for at most {} queues; "
                    "this run has {}.",
                    kMaxQueueDetailCharts, t.queues().size()));
  } else {
    // The round's figures dashed, then the queue's allocation solid in its colour, drawn last
    // so the ideal assignment (often equal to it) does not hide it. Pending is charted under
    // Pending resources: it can be many times the cluster and would flatten the rest.
    static const std::vector<std::string> kDash = {"6 3", "8 3 2 3", "2 3", "4 2"};
    for (const std::string& queue : t.queues()) {
      ChartSpec c = chart("preemption-" + queue, "Queue " + queue + ": preemption figures", "GB",
                          ChartKind::kLine, o);
      for (size_t i = 0; i < kPreemptionMetrics.size(); ++i) {
        const MetricsTrack::QueueSeries& byQueue = t.queueMetric(kPreemptionMetrics[i].key);
        auto it = byQueue.find(queue);
        if (it == byQueue.end()) continue;
        c.series.push_back(
            {kPreemptionMetrics[i].name, it->second, paletteColour(i + 5), kDash[i]});
      }
      const MetricsTrack::QueueSeries& alloc = t.queueMetric("allocated.memory");
      if (auto it = alloc.find(queue); it != alloc.end() && !c.series.empty()) {
        c.series.push_back({"allocated", it->second, colourOf(colours, queue)});
      }
      keep(s, std::move(c));
    }
  }
  ChartSpec ideal =
      chart("preemption-ideal", "Ideal assignment per leaf queue", "GB", ChartKind::kLine, o);
  addQueues(ideal, t, "ideal.assigned.memory", colours);
  keep(s, std::move(ideal));
  ChartSpec counts =
      chart("preemption-containers", "Preemption rounds, containers marked and killed (totals)",
            "count", ChartKind::kLine, o);
  addGlobals(counts, t, kPreemptionCountKeys);
  keep(s, std::move(counts));
  return s;
}

}  // namespace

const std::set<std::string>& chartedGlobalKeys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> k = {
        "cluster.allocated.memory", "cluster.available.memory", "cluster.allocated.vcores",
        "cluster.available.vcores", "cluster.pending.memory",   "cluster.pending.vcores",
        "running.applications",     "running.containers",       "pending.applications",
        "completed.applications",
    };
    for (const NamedKey& n : kTimecostKeys) k.insert(n.key);
    for (const NamedKey& n : kThroughputKeys) k.insert(n.key);
    for (const NamedKey& n : kPreemptionCountKeys) k.insert(n.key);
    return k;
  }();
  return keys;
}

std::map<std::string, std::string> queueColours(const MetricsTrack& track, const JobSet& jobs) {
  std::map<std::string, std::string> colours;
  for (const std::string& q : track.queues()) colours[q];
  for (const JobRecord& j : jobs.jobs) colours[jobs.hasQueues ? queueLabel(j.queue) : "all jobs"];
  size_t i = 0;
  for (auto& [name, colour] : colours) colour = paletteColour(i++);
  return colours;
}

void useTrackQueueNames(JobSet& jobs, const MetricsTrack& track) {
  for (JobRecord& j : jobs.jobs) {
    if (j.queue.empty() || track.queues().count(j.queue)) continue;
    const auto dot = j.queue.rfind('.');
    if (dot == std::string::npos) continue;
    std::string leaf = j.queue.substr(dot + 1);
    if (track.queues().count(leaf)) j.queue = std::move(leaf);
  }
}

std::vector<ChartSection> buildChartSections(const MetricsTrack& track, const JobSet& jobs,
                                             const ReportOptions& options) {
  const Colours colours = queueColours(track, jobs);
  std::vector<ChartSection> out;
  out.push_back(clusterSection(track, options));
  out.push_back(queueSection(track, options, colours));
  out.push_back(pendingSection(track, options, colours));
  out.push_back(appsSection(track, options));
  out.push_back(jobsSection(jobs, track, options, colours));
  out.push_back(schedulerSection(track, options));
  ChartSection preemption = preemptionSection(track, options, colours);
  if (!preemption.charts.empty()) out.push_back(std::move(preemption));
  ChartSection extras = extraQueueSection(track, options, colours);
  if (!extras.charts.empty()) out.push_back(std::move(extras));
  ChartSection detail = queueDetailSection(track, options, colours);
  if (!detail.charts.empty() || !detail.notes.empty()) out.push_back(std::move(detail));
  return out;
}

}  // namespace spindle::report
