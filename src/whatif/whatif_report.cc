#include "whatif/whatif_report.h"

#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "report/csv.h"
#include "report/format.h"
#include "report/svg_chart.h"
#include "whatif/plan_queues.h"
#include "whatif/share_chart.h"

namespace spindle::whatif {

namespace {

using report::escapeHtml;

std::string cell(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : ""; }
std::string cell(const std::optional<double>& v) { return v ? report::fixed(*v, 1) : ""; }

nlohmann::json figuresJson(const Figures& f) {
  auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"count", f.count},
          {"meanMs", opt(f.mean)},
          {"p50Ms", opt(f.p50)},
          {"p95Ms", opt(f.p95)},
          {"p99Ms", opt(f.p99)}};
}

// The memory share of a queue group: the run's figures name queues as the metrics files do
// (a leaf's name or its path); the group as jobs.csv does. "" (the "all" group): every queue.
std::optional<double> memoryShare(const RunFigures& f, const Group& g) {
  const auto& u = f.queueUtilisation;
  if (u.empty()) return std::nullopt;
  if (g.kind == "all") {
    double sum = 0;
    for (const auto& [q, share] : u) sum += share;
    return sum;
  }
  if (g.kind != "queue") return std::nullopt;
  if (auto it = u.find(g.name); it != u.end()) return it->second;
  const size_t dot = g.name.rfind('.');
  if (dot != std::string::npos) {
    if (auto it = u.find(g.name.substr(dot + 1)); it != u.end()) return it->second;
  }
  if (auto it = u.find("root." + g.name); it != u.end()) return it->second;
  return std::nullopt;
}

std::string reasonsCell(const std::map<std::string, int64_t>& reasons) {
  std::string out;
  for (const auto& [reason, jobs] : reasons) {
    out += fmt::format("{}{}={}", out.empty() ? "" : ";", reason, jobs);
  }
  return out;
}

std::string shareCell(const std::optional<double>& v) { return v ? report::fixed(*v, 4) : ""; }

// ---- charts ----

// The second column of a metrics CSV (t in seconds, value in MB) as GB; nullopt when the run has
// no such file (a queue another configuration does not have).
std::optional<report::Series> readMbSeries(const std::filesystem::path& file, std::string name) {
  if (!std::filesystem::exists(file)) return std::nullopt;
  Result<report::CsvTable> t = report::readCsvFile(file, {"t"});
  if (!t || t->header.size() < 2) return std::nullopt;
  report::Series s{std::move(name), {}};
  for (const report::CsvRow& row : t->rows) {
    try {
      s.points.push_back({std::stod(row.fields[0]), std::stod(row.fields[1]) / 1024.0});
    } catch (const std::exception&) {
      return std::nullopt;  // not a number: the run's own report says so; no chart line here
    }
  }
  return s;
}

// The queue names with per-queue metrics in any run (counter.queue.<q>.allocated.memory.csv).
std::set<std::string> metricLeaves(const std::vector<RunOutput>& runs) {
  constexpr std::string_view kPrefix = "counter.queue.";
  constexpr std::string_view kSuffix = ".allocated.memory.csv";
  std::set<std::string> out;
  for (const RunOutput& r : runs) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(r.dir / "metrics", ec)) {
      const std::string f = e.path().filename().string();
      if (f.size() > kPrefix.size() + kSuffix.size() && f.starts_with(kPrefix) &&
          f.ends_with(kSuffix)) {
        out.insert(f.substr(kPrefix.size(), f.size() - kPrefix.size() - kSuffix.size()));
      }
    }
  }
  return out;
}

// The sum of the files' series at each time (a plan queue: its reservation queues together);
// nullopt when the run has none of them.
std::optional<report::Series> readSummedSeries(const std::filesystem::path& metrics,
                                               const std::vector<std::string>& files,
                                               const std::string& name) {
  if (files.size() == 1) return readMbSeries(metrics / files.front(), name);
  std::map<double, double> sum;
  bool any = false;
  for (const std::string& f : files) {
    if (auto s = readMbSeries(metrics / f, name)) {
      any = true;
      for (const report::Point& p : s->points) sum[p.x] += p.y;
    }
  }
  if (!any) return std::nullopt;
  report::Series out{name, {}};
  for (const auto& [x, y] : sum) out.points.push_back({x, y});
  return out;
}

std::string chart(const std::string& id, const std::string& title,
                  const std::vector<RunOutput>& runs, const std::vector<std::string>& files) {
  report::ChartSpec spec;
  spec.id = id;
  spec.title = title;
  spec.yLabel = "GB";
  for (size_t i = 0; i < runs.size(); ++i) {
    if (auto s = readSummedSeries(runs[i].dir / "metrics", files, runs[i].label)) {
      s->colour = report::paletteColour(i);  // one colour per run on every chart
      spec.series.push_back(std::move(*s));
    }
  }
  if (spec.series.empty()) return "";
  return "<div class=\"chart\">" + report::renderSvgChart(spec).svg + "</div>\n";
}

// ---- tables ----

std::string containerHours(int64_t ms) { return report::fixed(static_cast<double>(ms) / 3.6e6, 2); }

std::string change(double base, double value) {
  if (base == value) return "";
  const char* cls = value > base ? "up" : "down";
  if (base == 0) return fmt::format(" <span class=\"{}\">(from 0)</span>", cls);
  return fmt::format(" <span class=\"{}\">({}{}%)</span>", cls, value > base ? "+" : "",
                     report::fixed((value - base) / base * 100.0, 1));
}

std::string msCell(const std::optional<double>& base, const std::optional<double>& v, bool first) {
  if (!v) return "<td>—</td>";
  std::string out = "<td>" + report::formatSeconds(*v);
  if (!first && base) out += change(*base, *v);
  return out + "</td>";
}

std::string groupTable(const Group& g, const std::vector<std::string>& labels) {
  std::string out = "<table><tr><th></th>";
  for (const std::string& l : labels) out += "<th>" + escapeHtml(l) + "</th>";
  out += "</tr>\n";
  auto countRow = [&](const char* name, int64_t GroupStats::*field) {
    out += fmt::format("<tr><td>{}</td>", name);
    for (size_t r = 0; r < g.perRun.size(); ++r) {
      const auto base = static_cast<double>(g.perRun[0].*field);
      const auto v = static_cast<double>(g.perRun[r].*field);
      out +=
          "<td>" + std::to_string(g.perRun[r].*field) + (r == 0 ? "" : change(base, v)) + "</td>";
    }
    out += "</tr>\n";
  };
  countRow("jobs", &GroupStats::jobs);
  countRow("finished", &GroupStats::finished);
  countRow("failed", &GroupStats::failed);
  countRow("killed", &GroupStats::killed);
  countRow("rejected", &GroupStats::rejected);
  countRow("unfinished at the end", &GroupStats::unfinished);
  bool preempted = false;
  for (const GroupStats& st : g.perRun) {
    preempted = preempted || st.preemptionMarked > 0 || st.preemptionReleased > 0 ||
                st.preempted > 0 || st.amRestarts > 0;
  }
  if (preempted) {
    countRow("containers marked for preemption", &GroupStats::preemptionMarked);
    countRow("running containers given back for preemption", &GroupStats::preemptionReleased);
    countRow("containers killed as preempted", &GroupStats::preempted);
    out += "<tr><td>their run time (container-h)</td>";
    for (size_t r = 0; r < g.perRun.size(); ++r) {
      out += "<td>" + containerHours(g.perRun[r].preemptedRunMs) +
             (r == 0 ? ""
                     : change(static_cast<double>(g.perRun[0].preemptedRunMs),
                              static_cast<double>(g.perRun[r].preemptedRunMs))) +
             "</td>";
    }
    out += "</tr>\n";
    countRow("AM restarts", &GroupStats::amRestarts);
  }
  auto figureRows = [&](const char* what, Figures GroupStats::*field) {
    struct Row {
      const char* name;
      std::optional<double> (*get)(const Figures&);
    };
    const Row rows[] = {
        {"mean", [](const Figures& f) { return f.mean; }},
        {"p50",
         [](const Figures& f) { return f.p50 ? std::optional<double>(*f.p50) : std::nullopt; }},
        {"p95",
         [](const Figures& f) { return f.p95 ? std::optional<double>(*f.p95) : std::nullopt; }},
        {"p99",
         [](const Figures& f) { return f.p99 ? std::optional<double>(*f.p99) : std::nullopt; }},
    };
    for (const Row& row : rows) {
      out += fmt::format("<tr><td>{} {}</td>", what, row.name);
      const std::optional<double> base = row.get(g.perRun[0].*field);
      for (size_t r = 0; r < g.perRun.size(); ++r) {
        out += msCell(base, row.get(g.perRun[r].*field), r == 0);
      }
      out += "</tr>\n";
    }
  };
  figureRows("wait", &GroupStats::wait);
  figureRows("runtime", &GroupStats::runtime);
  if (!g.spread.empty()) {
    for (const std::string& m : headlineMetrics()) {
      out += fmt::format("<tr><td>{} over the seeds</td>", m);
      const bool ms = m != "jobs finished";
      auto show = [&](double v) { return ms ? report::formatSeconds(v) : report::fixed(v, 0); };
      for (const auto& ranges : g.spread) {
        auto it = ranges.find(m);
        out += it == ranges.end()
                   ? std::string("<td>—</td>")
                   : "<td>" + show(it->second.min) + " – " + show(it->second.max) + "</td>";
      }
      out += "</tr>\n";
    }
  }
  return out + "</table>\n";
}

// Each run's run-wide figures side by side: queue memory shares, preemption, rejected jobs by
// reason, reservations.
std::string runFiguresTable(const Comparison& c) {
  if (c.runFigures.size() != c.labels.size() || c.groups.empty()) return "";
  std::set<std::string> queues, reasons;
  bool reservations = false;
  for (const RunFigures& f : c.runFigures) {
    for (const auto& [q, share] : f.queueUtilisation) queues.insert(q);
    for (const auto& [reason, n] : f.rejectedReasons) reasons.insert(reason);
    reservations = reservations || f.reservations.has_value();
  }
  const Group& all = c.groups.front();  // "all": every job
  std::string out =
      "<h2>Utilisation, preemption, rejections</h2>\n<p>Memory share: the queue's allocated "
      "memory over the cluster's, averaged over the metric samples. Preemption, under any "
      "scheduler, over the run: containers marked (the AM was told), running containers the AMs "
      "gave back in answer, containers killed as preempted, and the time the given-back and "
      "killed ones had run (the work lost, unless work-preserving preemption checkpoints it), "
      "and AM restarts (new attempts after an AM container was lost); per "
      "queue and user in the tables below.</p>\n<table id=\"run-figures\"><tr><th></th>";
  for (const std::string& l : c.labels) out += "<th>" + escapeHtml(l) + "</th>";
  out += "</tr>\n";
  auto row = [&](const std::string& name, auto get) {
    out += "<tr><td>" + escapeHtml(name) + "</td>";
    for (const RunFigures& f : c.runFigures) out += "<td>" + get(f) + "</td>";
    out += "</tr>\n";
  };
  for (const std::string& q : queues) {
    row("memory share " + q, [&](const RunFigures& f) {
      auto it = f.queueUtilisation.find(q);
      return it == f.queueUtilisation.end() ? std::string("—") : report::formatPercent(it->second);
    });
  }
  auto allRow = [&](const std::string& name, auto get) {
    out += "<tr><td>" + escapeHtml(name) + "</td>";
    for (size_t r = 0; r < c.labels.size(); ++r) {
      out += "<td>" + (r < all.perRun.size() ? get(all.perRun[r]) : std::string("—")) + "</td>";
    }
    out += "</tr>\n";
  };
  allRow("containers marked for preemption",
         [](const GroupStats& s) { return std::to_string(s.preemptionMarked); });
  allRow("running containers given back for preemption",
         [](const GroupStats& s) { return std::to_string(s.preemptionReleased); });
  allRow("containers killed as preempted",
         [](const GroupStats& s) { return std::to_string(s.preempted); });
  allRow("their run time (container-h)",
         [](const GroupStats& s) { return containerHours(s.preemptedRunMs); });
  allRow("AM restarts", [](const GroupStats& s) { return std::to_string(s.amRestarts); });
  for (const std::string& reason : reasons) {
    row("jobs rejected or killed: " + reason, [&](const RunFigures& f) {
      auto it = f.rejectedReasons.find(reason);
      return std::to_string(it == f.rejectedReasons.end() ? 0 : it->second);
    });
  }
  if (reservations) {
    row("reservations accepted / asked", [](const RunFigures& f) {
      return f.reservations
                 ? fmt::format("{} / {} ({})", f.reservations->accepted, f.reservations->asked,
                               report::formatPercent(f.reservations->acceptanceRatio))
                 : std::string("—");
    });
    row("accepted that met their deadline", [](const RunFigures& f) {
      return f.reservations ? report::formatPercent(f.reservations->deadlineShare)
                            : std::string("—");
    });
  }
  return out + "</table>\n";
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:2em;color:#222}"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}"
    ".up{color:#b2182b}.down{color:#2166ac}"
    ".chart{display:inline-block;margin:0 1em 1em 0}"
    "@media print{table,.chart{page-break-inside:avoid}}";

}  // namespace

std::string comparisonCsv(const Comparison& c) {
  std::string out =
      "group_kind,group,run,jobs,finished,failed,killed,rejected,unfinished,"
      "wait_mean_ms,wait_p50_ms,wait_p95_ms,wait_p99_ms,"
      "runtime_mean_ms,runtime_p50_ms,runtime_p95_ms,runtime_p99_ms,"
      "memory_share,preempted_marked,preempted_released,preempted_killed,preempted_run_ms,"
      "am_restarts,"
      "rejected_reasons,"
      "reservation_acceptance_ratio,reservation_deadline_share\n";
  auto quoted = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  for (const Group& g : c.groups) {
    for (size_t r = 0; r < g.perRun.size(); ++r) {
      const GroupStats& s = g.perRun[r];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", g.kind,
                         quoted(g.name), quoted(c.labels[r]), s.jobs, s.finished, s.failed,
                         s.killed, s.rejected, s.unfinished, cell(s.wait.mean), cell(s.wait.p50),
                         cell(s.wait.p95), cell(s.wait.p99), cell(s.runtime.mean),
                         cell(s.runtime.p50), cell(s.runtime.p95), cell(s.runtime.p99));
      // Run-wide figures: on the "all" row only (memory share on queue rows too).
      const RunFigures empty;
      const RunFigures& f = r < c.runFigures.size() ? c.runFigures[r] : empty;
      const bool all = g.kind == "all";
      const auto res = all && f.reservations ? f.reservations : std::nullopt;
      out += fmt::format(",{},{},{},{},{},{},{},{},{}\n", shareCell(memoryShare(f, g)),
                         s.preemptionMarked, s.preemptionReleased, s.preempted, s.preemptedRunMs,
                         s.amRestarts, all ? quoted(reasonsCell(f.rejectedReasons)) : "",
                         res ? report::fixed(res->acceptanceRatio, 4) : "",
                         res ? report::fixed(res->deadlineShare, 4) : "");
    }
  }
  return out;
}

nlohmann::json comparisonJson(const Comparison& c, const WhatifSettings& s) {
  nlohmann::json j;
  j["settings"] = {{"traceType", s.traceType}, {"trace", s.trace}, {"nodes", s.nodes},
                   {"seed", s.seed},           {"seeds", s.seeds}, {"until", s.until},
                   {"options", s.knobs},       {"confs", s.confs}};
  j["runs"] = c.labels;
  j["seeds"] = c.seeds;
  j["groups"] = nlohmann::json::array();
  for (const Group& g : c.groups) {
    nlohmann::json runs = nlohmann::json::object();
    for (size_t r = 0; r < g.perRun.size(); ++r) {
      const GroupStats& st = g.perRun[r];
      runs[c.labels[r]] = {{"jobs", st.jobs},
                           {"finished", st.finished},
                           {"failed", st.failed},
                           {"killed", st.killed},
                           {"rejected", st.rejected},
                           {"unfinished", st.unfinished},
                           {"wait", figuresJson(st.wait)},
                           {"runtime", figuresJson(st.runtime)},
                           {"preemptionMarked", st.preemptionMarked},
                           {"preemptionReleased", st.preemptionReleased},
                           {"preemptedKilled", st.preempted},
                           {"preemptedRunMs", st.preemptedRunMs},
                           {"amRestarts", st.amRestarts}};
      if (r < c.runFigures.size()) {
        if (auto share = memoryShare(c.runFigures[r], g)) runs[c.labels[r]]["memoryShare"] = *share;
      }
      if (r < g.spread.size()) {
        nlohmann::json spread = nlohmann::json::object();
        for (const auto& [metric, range] : g.spread[r]) spread[metric] = {range.min, range.max};
        runs[c.labels[r]]["spread"] = std::move(spread);
      }
    }
    j["groups"].push_back({{"kind", g.kind}, {"name", g.name}, {"runs", std::move(runs)}});
  }
  j["runFigures"] = nlohmann::json::object();
  for (size_t r = 0; r < c.runFigures.size() && r < c.labels.size(); ++r) {
    const RunFigures& f = c.runFigures[r];
    auto opt = [](const std::optional<int64_t>& v) {
      return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    nlohmann::json res(nullptr);
    if (f.reservations) {
      res = {{"asked", f.reservations->asked},
             {"accepted", f.reservations->accepted},
             {"acceptanceRatio", f.reservations->acceptanceRatio},
             {"acceptedMetDeadline", f.reservations->acceptedMetDeadline},
             {"deadlineShare", f.reservations->deadlineShare}};
    }
    j["runFigures"][c.labels[r]] = {{"queueMemoryShare", f.queueUtilisation},
                                    {"preemptedMarked", opt(f.preemptedMarked)},
                                    {"preemptedKilled", opt(f.preemptedKilled)},
                                    {"rejectedReasons", f.rejectedReasons},
                                    {"reservations", std::move(res)}};
  }
  j["paired"] = nlohmann::json::object();
  for (size_t r = 0; r < c.paired.size(); ++r) {
    const Paired& p = c.paired[r];
    j["paired"][c.labels[r]] = {
        {"pairs", p.pairs},
        {"medianWaitDiffMs",
         p.medianWaitDiffMs ? nlohmann::json(*p.medianWaitDiffMs) : nlohmann::json(nullptr)},
        {"shareWaitLonger", p.shareWaitLonger},
        {"shareWaitShorter", p.shareWaitShorter}};
  }
  j["headline"] = nlohmann::json::array();
  for (const Change& ch : c.headline) {
    j["headline"].push_back(
        {{"group", ch.group},
         {"metric", ch.metric},
         {"run", ch.run},
         {"baseline", ch.baseline},
         {"value", ch.value},
         {"relative", ch.relative ? nlohmann::json(*ch.relative) : nlohmann::json(nullptr)},
         {"beyondSpread",
          ch.beyondSpread ? nlohmann::json(*ch.beyondSpread) : nlohmann::json(nullptr)}});
  }
  return j;
}

std::string comparisonHtml(const Comparison& c, const WhatifSettings& s,
                           const std::vector<RunOutput>& runs) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>Spindle what-if comparison</title>\n<style>";
  out += kStyle;
  out += "</style>\n</head>\n<body>\n<h1>What-if comparison</h1>\n";
  out += "<h2>Runs</h2>\n<table><tr><th>run</th><th>configuration</th></tr>\n";
  for (size_t r = 0; r < c.labels.size(); ++r) {
    out +=
        fmt::format("<tr><td>{}{}</td><td>{}</td></tr>\n", escapeHtml(c.labels[r]),
                    r == 0 ? " (baseline)" : "", escapeHtml(r < s.confs.size() ? s.confs[r] : ""));
  }
  out += fmt::format(
      "</table>\n<p>Every run replays the same trace: {} trace {}{}, seed "
      "{}{}.</p>\n",
      escapeHtml(s.traceType), escapeHtml(s.trace),
      s.nodes.empty() ? std::string() : ", nodes " + escapeHtml(s.nodes),
      s.seeds == 1 ? std::to_string(s.seed)
                   : fmt::format("{} to {} (each configuration once per seed)", s.seed,
                                 s.seed + s.seeds - 1),
      s.until.empty() ? std::string() : ", until " + escapeHtml(s.until));
  if (!s.knobs.empty()) {
    std::string knobs;
    for (const std::string& k : s.knobs) knobs += (knobs.empty() ? "" : " ") + k;
    out += "<p>Every run had the same load and cluster options: <code>" + escapeHtml(knobs) +
           "</code>.</p>\n";
  }
  out += "<h2>Largest changes against the baseline</h2>\n";
  if (c.headline.empty()) {
    out += "<p>No figure differs from the baseline.</p>\n";
  } else {
    out +=
        "<table><tr><th>group</th><th>figure</th><th>run</th><th>baseline</th><th>run's</th>"
        "<th>change</th>";
    if (c.seeds > 1) out += fmt::format("<th>beyond the spread of {} seeds</th>", c.seeds);
    out += "</tr>\n";
    for (const Change& ch : c.headline) {
      const bool ms = ch.metric != "jobs finished";
      auto show = [&](double v) { return ms ? report::formatSeconds(v) : report::fixed(v, 0); };
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                         escapeHtml(ch.group), escapeHtml(ch.metric), escapeHtml(ch.run),
                         show(ch.baseline), show(ch.value), change(ch.baseline, ch.value));
      if (c.seeds > 1) {
        out += fmt::format("<td>{}</td>", !ch.beyondSpread ? "—" : *ch.beyondSpread ? "yes" : "no");
      }
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  out +=
      "<h2>Paired jobs</h2>\n<p>The same job under the baseline and under each run: the "
      "median of its wait's change, and the share of jobs that waited longer or shorter "
      "(by more than one second).</p>\n<table><tr><th>run</th><th>pairs</th>"
      "<th>median wait change</th><th>waited longer</th><th>waited shorter</th></tr>\n";
  for (size_t r = 1; r < c.paired.size(); ++r) {
    const Paired& p = c.paired[r];
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escapeHtml(c.labels[r]), p.pairs,
        p.medianWaitDiffMs ? report::formatSeconds(static_cast<double>(*p.medianWaitDiffMs))
                           : std::string("—"),
        report::formatPercent(p.shareWaitLonger), report::formatPercent(p.shareWaitShorter));
  }
  out += "</table>\n";
  out += runFiguresTable(c);
  if (Result<QueueShareRuns> shares = readQueueShares(runs); shares) {
    out += shareChartsHtml(*shares, c.labels);
  } else {
    out += "<p>No guaranteed and obtained share charts: " + escapeHtml(shares.status().message()) +
           "</p>\n";
  }
  out += "<h2>Over time</h2>\n";
  out += chart("cluster-allocated", "Cluster allocated memory", runs,
               {"variable.cluster.allocated.memory.csv"});
  for (const auto& [q, leaves] : metricQueueGroups(metricLeaves(runs))) {
    std::vector<std::string> allocated, pending;
    for (const std::string& l : leaves) {
      allocated.push_back("counter.queue." + l + ".allocated.memory.csv");
      pending.push_back("counter.queue." + l + ".pending.memory.csv");
    }
    out += chart("q-" + q + "-allocated", "Queue " + q + ": allocated memory", runs, allocated);
    out += chart("q-" + q + "-pending", "Queue " + q + ": pending memory", runs, pending);
  }
  out += "<h2>Per group</h2>\n";
  for (const Group& g : c.groups) {
    out += fmt::format("<h3>{}</h3>\n", g.kind == "all" ? std::string("All jobs")
                                                        : escapeHtml(g.kind + " " + g.name));
    out += groupTable(g, c.labels);
  }
  return out + "</body>\n</html>\n";
}

Status writeWhatifOutputs(const std::filesystem::path& dir, const Comparison& c,
                          const std::vector<RunOutput>& runs, const WhatifSettings& s) {
  auto write = [&](const char* name, const std::string& text) -> Status {
    std::ofstream f(dir / name, std::ios::binary);
    f << text;
    f.close();
    if (!f) return invalidArgument("cannot write {}", (dir / name).string());
    return Status::ok();
  };
  SPINDLE_RETURN_IF_ERROR(write("comparison.csv", comparisonCsv(c)));
  SPINDLE_RETURN_IF_ERROR(write("comparison.json", comparisonJson(c, s).dump(2) + "\n"));
  return write("report.html", comparisonHtml(c, s, runs));
}

}  // namespace spindle::whatif
