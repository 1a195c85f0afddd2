#include "report/html_page.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "report/format.h"
#include "report/job_list.h"
#include "report/stats.h"

#ifndef SPINDLE_VERSION
#define SPINDLE_VERSION "dev"
#endif

namespace spindle::report {

namespace {

constexpr const char* kNone = "\u2014";  // em dash for "no value"

constexpr const char* kStyle =
    R"(body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;max-width:760px;margin:24px auto;padding:0 12px;line-height:1.4}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ccc;padding-bottom:2px}
p.meta,p.note,figcaption{color:#555;font-size:13px}p.warn{color:#8a5a00}
table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}
th,td{padding:3px 8px;border-bottom:1px solid #e2e2e2;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}thead th{border-bottom:1px solid #999}
tr.total td{font-weight:600;border-top:1px solid #999}
table.kv td:first-child{color:#555}caption{text-align:left;font-weight:600;padding:4px 0}
figure{margin:10px 0 18px}svg.chart{max-width:100%;height:auto}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.title{font-size:13px;font-weight:600;fill:#222}.tick{font-size:10px;fill:#555}.label{font-size:11px;fill:#333}
.legend{font-size:11px;fill:#222}.nodata{font-size:12px;fill:#888}.row-label{font-size:8px;fill:#333}
.grid{stroke:#e8e8e8;stroke-width:1}.axis{stroke:#777;stroke-width:1}.line{stroke-width:1.5}.area{fill-opacity:.12;stroke:none}
nav{font-size:13px}nav a{margin-right:10px}
@media print{body{max-width:none;margin:0}nav{display:none}figure,table,h2,tr{break-inside:avoid}h2{break-after:avoid}#job-table{break-inside:auto}}
)";

std::string ms3(std::optional<double> ms) {
  return ms ? fixed(*ms / 1000.0, 3) : std::string(kNone);
}
std::string ms3(std::optional<int64_t> ms) {
  return ms ? fixed(static_cast<double>(*ms) / 1000.0, 3) : std::string(kNone);
}

// "12.345 s", or the no-value dash alone.
template <typename T>
std::string secondsOrNone(std::optional<T> ms) {
  return ms ? formatSeconds(static_cast<double>(*ms)) : std::string(kNone);
}

std::string kvRow(std::string_view key, const std::string& valueHtml) {
  return fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", key, valueHtml);
}

std::string summaryTable(const ReportSummary& s) {
  std::string out = "<table class=\"kv\" id=\"summary-table\">\n";
  const JobGroupStats& o = s.overall;
  out += kvRow("Jobs",
               fmt::format("{} (finished {}, unfinished {}, failed {}, killed {}, rejected {})",
                           o.jobs, o.finished, o.unfinished, o.failed, o.killed, o.rejected));
  std::string makespan = kNone;
  if (s.makespanMs) {
    makespan = fmt::format("<span id=\"makespan\">{}</span> ({})", secondsOrNone(s.makespanMs),
                           formatDuration(*s.makespanMs));
    if (s.makespanIsLowerBound) makespan += "; a lower bound: some jobs had not finished";
  }
  out += kvRow("Makespan (first submit to last job end)", makespan);
  out += kvRow("First submit / last job end",
               fmt::format("{} / {}", secondsOrNone(s.firstSubmitMs), secondsOrNone(s.lastEndMs)));
  auto stats = [](const Distribution& d) {
    return fmt::format("{} / {} / {}", secondsOrNone(d.mean), secondsOrNone(d.p95),
                       secondsOrNone(d.max));
  };
  if (s.hasQueues) {
    out += kvRow("Wait: mean / p95 / max", stats(o.wait));
    out += kvRow("Runtime: mean / p95 / max", stats(o.runtime));
  } else {
    out += kvRow("Turnaround: mean / p95 / max", stats(o.turnaround));
  }
  auto pct = [](std::optional<double> r) { return r ? formatPercent(*r) : std::string(kNone); };
  out +=
      kvRow("Mean cluster utilisation: memory / vcores",
            fmt::format("<span id=\"util-memory\">{}</span> / <span id=\"util-vcores\">{}</span>",
                        pct(s.meanMemoryUtilisation), pct(s.meanVcoresUtilisation)));
  auto count = [](std::optional<double> v) { return v ? fixed(*v, 0) : std::string(kNone); };
  out += kvRow("Peak running containers / applications",
               fmt::format("<span id=\"peak-containers\">{}</span> / {}",
                           count(s.peakRunningContainers), count(s.peakRunningApplications)));
  out +=
      kvRow("Samples in realtimetrack.json",
            s.samples == 0 ? std::string("0")
                           : fmt::format("{} (simulated time {} s to {} s)", s.samples,
                                         fixed(s.firstSampleTime, 3), fixed(s.lastSampleTime, 3)));
  out += "</table>\n";
  return out;
}

std::string queueRow(const JobGroupStats& g, const std::string& label, bool total, bool hasQueues) {
  std::string cells = fmt::format(
      "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
      escapeHtml(label), g.jobs, g.finished, g.unfinished, g.failed, g.killed, g.rejected);
  if (hasQueues) {
    cells += fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td>", ms3(g.wait.mean),
                         ms3(g.wait.p95), ms3(g.runtime.mean), ms3(g.runtime.p95));
  } else {
    cells += fmt::format("<td>{}</td><td>{}</td>", ms3(g.turnaround.mean), ms3(g.turnaround.p95));
  }
  return fmt::format("<tr{}>{}</tr>\n", total ? " class=\"total\"" : "", cells);
}

std::string queueTable(const ReportSummary& s) {
  std::string out = fmt::format(
      "<table id=\"queue-table\">\n<caption>Jobs per queue (from {})</caption>\n"
      "<thead><tr><th>queue</th><th>jobs</th><th>finished</th><th>unfinished</th><th>failed</th>"
      "<th>killed</th><th>rejected</th>",
      s.hasQueues ? "jobs.csv" : "jobruntime.csv");
  if (s.hasQueues) {
    out +=
        "<th>mean wait (s)</th><th>p95 wait (s)</th><th>mean runtime (s)</th>"
        "<th>p95 runtime (s)</th>";
  } else {
    out += "<th>mean turnaround (s)</th><th>p95 turnaround (s)</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const JobGroupStats& g : s.perQueue) {
    out += queueRow(g, g.queue.empty() ? "(unknown queue)" : g.queue, false, s.hasQueues);
  }
  out += queueRow(s.overall, s.hasQueues ? "all queues" : "all jobs", true, s.hasQueues);
  out += "</tbody></table>\n";
  return out;
}

std::string queueUsageTable(const ReportSummary& s) {
  if (s.queueUsage.empty()) return "";
  auto v = [](std::optional<double> x, int decimals) {
    return x ? fixed(*x, decimals) : std::string(kNone);
  };
  auto pct = [](std::optional<double> x) { return x ? formatPercent(*x) : std::string(kNone); };
  std::string out =
      "<table id=\"queue-usage\">\n<caption>Queue usage over the run (from "
      "realtimetrack.json)</caption>\n<thead><tr><th>queue</th><th>guarantee (GB)</th>"
      "<th>maximum (GB)</th><th>mean allocated memory (GB)</th>"
      "<th>peak allocated memory (GB)</th><th>mean share of cluster</th>"
      "<th>peak share of cluster</th><th>mean allocated vcores</th>"
      "<th>peak allocated vcores</th><th>mean pending memory (GB)</th>"
      "<th>peak pending memory (GB)</th></tr></thead>\n<tbody>\n";
  for (const QueueUsage& u : s.queueUsage) {
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escapeHtml(u.queue), v(u.guaranteeMemory, 3), v(u.maximumMemory, 3),
        v(u.meanAllocatedMemory, 3), v(u.peakAllocatedMemory, 3), pct(u.meanShare),
        pct(u.peakShare), v(u.meanAllocatedVcores, 3), v(u.peakAllocatedVcores, 0),
        v(u.meanPendingMemory, 3), v(u.peakPendingMemory, 3));
  }
  out += "</tbody></table>\n";
  return out;
}

// Containers marked for preemption and killed as preempted per queue, under either scheduler
// (queue.<q>.containers.marked / .preempted); empty when no queue was preempted from.
std::string preemptionByQueueTable(const ReportSummary& s) {
  std::string rows;
  double marked = 0, killed = 0;
  for (const QueueUsage& u : s.queueUsage) {
    if (!u.containersMarked && !u.containersPreempted) continue;
    marked += u.containersMarked.value_or(0);
    killed += u.containersPreempted.value_or(0);
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", escapeHtml(u.queue),
                        fixed(u.containersMarked.value_or(0), 0),
                        fixed(u.containersPreempted.value_or(0), 0));
  }
  if (rows.empty()) return "";
  return "<table id=\"preemption-by-queue\">\n<caption>Preemption per queue (containers taken "
         "from the queue)</caption>\n<thead><tr><th>queue</th><th>marked (the AM is told)</th>"
         "<th>killed as preempted</th></tr></thead>\n<tbody>\n" +
         rows +
         fmt::format("<tr class=\"total\"><td>all queues</td><td>{}</td><td>{}</td></tr>\n",
                     fixed(marked, 0), fixed(killed, 0)) +
         "</tbody></table>\n";
}

// run.json: what ran (scheduler, configuration, trace, seed, version) and the container
// totals, which add up: allocated = AM + task = completed + released + killed + running at end.
std::string runTable(const nlohmann::json& r) {
  auto str = [&](const char* k) -> std::string {
    if (!r.contains(k)) return kNone;
    const nlohmann::json& v = r[k];
    return escapeHtml(v.is_string() ? v.get<std::string>() : v.dump());
  };
  std::string out = "<table class=\"kv\" id=\"run-table\">\n<caption>Run</caption>\n";
  out += kvRow("Scheduler", str("scheduler"));
  out += kvRow("Configuration folder", str("configuration"));
  out += kvRow("Trace", fmt::format("{} ({})", str("trace"), str("trace_type")));
  if (r.contains("nodes")) out += kvRow("Nodes file", str("nodes"));
  out += kvRow("Seed", str("seed"));
  out += kvRow("Spindle version", str("version"));
  if (r.contains("containers") && r["containers"].is_object()) {
    const nlohmann::json& c = r["containers"];
    auto n = [&](const char* k) -> int64_t {
      return c.contains(k) && c[k].is_number_integer() ? c[k].get<int64_t>() : 0;
    };
    out += kvRow("Containers allocated",
                 fmt::format("<span id=\"containers-allocated\">{}</span> = {} AM + {} task",
                             n("allocated"), n("am"), n("allocated") - n("am")));
    out += kvRow("Containers by end",
                 fmt::format("{} completed + {} released by their AM + {} killed ({} of them "
                             "preempted) + {} still running when the run stopped",
                             n("completed"), n("released"), n("killed"), n("preempted"),
                             n("running_at_end")));
  }
  out += "</table>\n";
  return out;
}

std::string chartFigure(const ChartSpec& spec) {
  RenderedChart r = renderSvgChart(spec);
  std::string out = "<figure>\n" + r.svg;
  if (r.downsampled) {
    out += fmt::format(
        "<figcaption>Drawn with {} of {} points (per-series min/max buckets, at most {} points "
        "per series); summary numbers use every point.</figcaption>\n",
        r.pointsDrawn, r.pointsIn, r.limitPerSeries);
  }
  out += "</figure>\n";
  return out;
}

std::string sectionHtml(const ChartSection& s) {
  std::string out =
      fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", escapeHtml(s.id), escapeHtml(s.title));
  for (const std::string& note : s.notes) {
    out += fmt::format("<p class=\"note\">{}</p>\n", escapeHtml(note));
  }
  for (const ChartSpec& c : s.charts) out += chartFigure(c);
  out += "</section>\n";
  return out;
}

std::string otherSeriesSection(const MetricsTrack& t) {
  std::string rows;
  const std::set<std::string>& charted = chartedGlobalKeys();
  for (const auto& [key, pts] : t.globals()) {
    if (charted.count(key) || pts.empty()) continue;
    double lo = pts.front().y, hi = pts.front().y;
    std::vector<double> ys;
    for (const Point& p : pts) {
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
      ys.push_back(p.y);
    }
    rows +=
        fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                    escapeHtml(key), pts.size(), fixed(lo, 3), fixed(*mean(ys), 3), fixed(hi, 3));
  }
  if (rows.empty()) return "";
  return "<section id=\"other-series\">\n<h2>Other series</h2>\n"
         "<p class=\"note\">Keys of realtimetrack.json that no chart above draws.</p>\n"
         "<table><thead><tr><th>key</th><th>samples</th><th>min</th><th>mean</th><th>max</th>"
         "</tr></thead>\n<tbody>\n" +
         rows + "</tbody></table>\n</section>\n";
}

std::string inputsLine(const ReportPage& p) {
  return fmt::format(
      "<p class=\"meta\">Inputs: realtimetrack.json ({} samples), jobruntime.csv, {}. Times are "
      "simulated time; memory is in GB as in SLS's realtimetrack.json.</p>\n",
      p.track.sampleCount(),
      p.jobs.hasQueues ? fmt::format("jobs.csv ({} jobs)", p.jobs.jobs.size())
                       : fmt::format("no jobs.csv ({} jobs from jobruntime.csv, queues unknown)",
                                     p.jobs.jobs.size()));
}

std::string navLinks(const std::vector<ChartSection>& sections, bool jobList, bool other) {
  std::string out = "<nav><a href=\"#summary\">Summary</a>";
  for (const ChartSection& s : sections) {
    out += fmt::format("<a href=\"#{}\">{}</a>", escapeHtml(s.id), escapeHtml(s.title));
  }
  if (jobList) out += "<a href=\"#job-list\">Job list</a>";
  if (other) out += "<a href=\"#other-series\">Other series</a>";
  out += "</nav>\n";
  return out;
}

}  // namespace

// The Rayon paper's measures of a run with reservations (reservation-metrics.json).
std::string reservationSection(const nlohmann::json& m) {
  auto num = [&](const char* k) { return m.contains(k) ? m[k].get<double>() : 0.0; };
  std::string out = "<section id=\"reservations\">\n<h2>Reservations</h2>\n";
  out += "<table class=\"kv\" id=\"reservation-table\">\n";
  out += kvRow("Reservations asked / accepted",
               fmt::format("{:.0f} / {:.0f} (acceptance ratio {})", num("reservationsAsked"),
                           num("reservationsAccepted"), formatPercent(num("acceptanceRatio"))));
  out += kvRow(
      "Accepted jobs finished by their deadline",
      fmt::format("{:.0f} ({})", num("acceptedMetDeadline"), formatPercent(num("deadlineShare"))));
  out += kvRow("Jobs with a deadline finished by it (reserved or not)",
               fmt::format("{:.0f} ({})", num("askedMetDeadline"),
                           formatPercent(num("askedDeadlineShare"))));
  out += kvRow("Cluster utilisation (allocated memory over the run)",
               formatPercent(num("clusterUtilisation")));
  out +=
      kvRow("Best-effort job latency: mean / p95",
            fmt::format("{:.1f} s / {:.1f} s ({:.0f} jobs)", num("bestEffortMeanLatencyMs") / 1000,
                        num("bestEffortP95LatencyMs") / 1000, num("bestEffortJobs")));
  out +=
      "</table>\n<p class=\"note\">Best-effort jobs are the finished jobs without an "
      "accepted reservation; latency = end - submit. See docs/simulator.md.</p>\n";
  out += "</section>\n";
  return out;
}

std::string renderReportPage(const ReportPage& p) {
  std::string jobList = renderJobList(p.jobs);
  std::string other = otherSeriesSection(p.track);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>Spindle simulation report</title>\n<style>\n";
  out += kStyle;
  out += "</style>\n</head>\n<body>\n<h1>Spindle simulation report</h1>\n";
  out += inputsLine(p);
  out += navLinks(p.sections, !jobList.empty(), !other.empty());
  out += "<section id=\"summary\">\n<h2>Summary</h2>\n";
  for (const std::string& note : p.jobs.notes) {
    out += fmt::format("<p class=\"note warn\">{}</p>\n", escapeHtml(note));
  }
  if (p.run != nullptr) out += runTable(*p.run);
  out += summaryTable(p.summary);
  out += queueTable(p.summary);
  out += queueUsageTable(p.summary);
  out += preemptionByQueueTable(p.summary);
  out += fmt::format(
      "<p class=\"note\">Wait = AM container start - submit; runtime = end - AM start; "
      "turnaround = end - submit. Means are arithmetic; p95 is the nearest-rank 95th percentile "
      "(the k-th smallest value, k = ceil(0.95 n)). Utilisation = allocated / (allocated + "
      "available) per sample, averaged over samples; queue usage is the mean and peak over "
      "samples, a queue's share of cluster its allocated memory over the cluster's memory per "
      "sample; guarantee and maximum are the queue's configured ones at the last sample. See "
      "docs/report.md.</p>\n");
  out += "</section>\n";
  if (p.reservations != nullptr) out += reservationSection(*p.reservations);
  if (p.placement != nullptr) out += *p.placement;
  for (const ChartSection& s : p.sections) out += sectionHtml(s);
  out += jobList;
  out += other;
  out += fmt::format("<p class=\"meta\">Generated by Spindle {}.</p>\n</body>\n</html>\n",
                     SPINDLE_VERSION);
  return out;
}

}  // namespace spindle::report
