#include "cli/sim_command.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/conf_dir.h"
#include "cli/serve_command.h"
#include "cli/sim_outputs.h"
#include "cli/trace_input.h"
#include "config/configuration.h"
#include "dao/decision_json.h"
#include "report/html_report.h"
#include "resource/resource_config.h"
#include "sim/config_warnings.h"
#include "sim/engine.h"
#include "sim/job_outputs.h"
#include "sim/known_queues.h"
#include "trace/readers.h"
#include "trace/trace_transform.h"
#include "webui/snapshot_service.h"

namespace spindle::cli {

void addSimCommand(CLI::App& app, SimOptions& o) {
  auto* sim = app.add_subcommand("sim", "Replay an SLS, Rumen or SYNTH trace in simulated time");
  sim->add_option("--tracetype", o.traceType, "SLS, RUMEN or SYNTH");
  sim->add_option("--tracelocation", o.traceLocation, "Trace file(s), comma separated");
  sim->add_option("--input-rumen", o.inputRumen, "Deprecated: --tracetype RUMEN --tracelocation");
  sim->add_option("--input-sls", o.inputSls, "Deprecated: --tracetype SLS --tracelocation");
  sim->add_option("--output-dir", o.outputDir, "Output directory")->required();
  sim->add_option("--nodes", o.nodesFile, "Nodes file (SLS nodes JSON)");
  sim->add_option("--conf", o.confDir,
                  "Folder with yarn-site.xml, capacity-scheduler.xml, fair-scheduler.xml, "
                  "sls-runner.xml");
  sim->add_option("--track-jobs", o.trackJobs, "Job ids to track, comma separated");
  sim->add_flag("--print-simulation", o.printSimulation, "Print a summary at the end");
  sim->add_option("--seed", o.seed,
                  "Random seed (NM heartbeat offsets, scheduler, SYNTH; default 1)")
      ->check(CLI::Validator(
          [](std::string& s) {
            return s.find('-') != std::string::npos
                       ? "must be a non-negative integer (0 to 18446744073709551615), got " + s
                       : std::string();
          },
          ""));
  sim->add_option("--until", o.until, "Stop at this simulated time (e.g. 3600000, 90s, 2h)");
  sim->add_flag("--skip-bad-jobs", o.skipBadJobs, "Skip jobs the trace reader rejects");
  sim->add_flag("-q,--quiet", o.quiet, "No progress bar, no summary and notes on stderr");
  sim->add_flag("--overwrite", o.overwrite,
                "Reuse a non-empty --output-dir: remove the outputs of a previous run there "
                "first (other files are kept)");
  sim->add_flag("--fail-on-rejected", o.failOnRejected,
                "Exit 1 when any job was rejected (the outputs are still written)");
  sim->add_flag("--no-timings", o.noTimings,
                "Omit wall-clock timings so every output file is reproducible byte for byte");
  sim->add_flag("--decision-log", o.decisionLog, "Write decisions.jsonl");
  sim->add_flag("--serve", o.serve,
                "After the run, serve the web UI over the outputs (as `spindle serve DIR`)");
  sim->add_option("--serve-host", o.serveHost, "--serve's address (default 127.0.0.1)");
  sim->add_option("--port", o.servePort, "--serve's port (default 8088; 0 picks a free one)");
  sim->add_flag("--progress", o.progress, "Show the progress bar even if stderr is not a terminal");
  sim->add_flag("--no-heartbeat-skip", o.noHeartbeatSkip,
                "Process every node heartbeat (slower; outputs are identical)");
  sim->add_option("--check-invariants", o.checkInvariants,
                  "Check the scheduler's invariants after every N scheduler events; a broken "
                  "invariant stops the run with an error (slow for small N; outputs unchanged)")
      ->check(CLI::NonNegativeNumber);
  sim->add_option("--queue-map", o.queueMap,
                  "Run a trace queue under another name: OLD=NEW (repeatable; exact names)");
  sim->add_option("--scale-load", o.scaleLoad,
                  "Scale the number of jobs by F (> 0): copies of jobs, or fewer jobs, drawn with "
                  "the seed at the trace's arrival times");
  sim->add_option("--scale-nodes", o.scaleNodes,
                  "Run on N nodes: the first N of the trace's, or its nodes copied until N");
  sim->callback([&o] { o.selected = true; });
}

namespace {

int fail(const std::string& message) {
  std::cerr << "error: " << message << '\n';
  return 2;
}

// "3600000" (ms), or a number with ms, s, m, h or d.
Result<TimeMs> parseDuration(const std::string& s) {
  size_t pos = 0;
  while (pos < s.size() && isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
  if (pos == 0 || pos > 15) return invalidArgument("--until '{}' is not a duration", s);
  const int64_t n = std::stoll(s.substr(0, pos));
  const std::string unit = s.substr(pos);
  const std::pair<const char*, int64_t> units[] = {
      {"", 1}, {"ms", 1}, {"s", 1000}, {"m", 60'000}, {"h", 3'600'000}, {"d", 86'400'000}};
  for (const auto& [name, scale] : units) {
    if (unit != name) continue;
    if (n > kMaxTraceTimeMs / scale) {
      return invalidArgument("--until '{}' is beyond the largest simulated time ({} ms)", s,
                             kMaxTraceTimeMs);
    }
    return n * scale;
  }
  return invalidArgument("--until '{}': unknown unit '{}' (ms, s, m, h, d)", s, unit);
}

// decisions.jsonl: names resolve through the scheduler, which exists only once the engine does,
// so decisions made while the engine sets up (nodes registering) wait in a buffer.
class DecisionFile final : public DecisionSink {
 public:
  explicit DecisionFile(const std::string& path) : out_(path) {}
  bool ok() const { return static_cast<bool>(out_); }
  void attach(const Scheduler* s) {
    sched_ = s;
    for (const Decision& d : buffered_) write(d.view());
    buffered_.clear();
  }
  void record(const DecisionRecord& d) override {
    if (sched_ == nullptr) {
      buffered_.push_back(Decision::of(d));
    } else {
      write(d);
    }
  }
  int64_t count() const { return seq_; }

 private:
  void write(const DecisionRecord& d) { out_ << decisionToJson(*sched_, d, seq_++).dump() << '\n'; }
  std::ofstream out_;
  const Scheduler* sched_ = nullptr;
  std::vector<Decision> buffered_;
  int64_t seq_ = 0;
};

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled, TimeMs totalMs)
      : enabled_(enabled), totalMs_(totalMs), start_(std::chrono::steady_clock::now()) {}
  void update(const sim::Progress& p) {
    if (!enabled_) return;
    const double wall = seconds();
    if (wall < 2.0) return;  // short runs print nothing
    shown_ = true;
    const double pct =
        totalMs_ > 0 ? 100.0 * static_cast<double>(p.simMs) / static_cast<double>(totalMs_) : 0;
    std::cerr << fmt::format(
        "\rsim {:>9.0f} s / {:.0f} s ({:5.1f}%)  jobs {}/{}  {:.2g} steps/s   ",
        static_cast<double>(p.simMs) / 1000.0, static_cast<double>(totalMs_) / 1000.0,
        std::min(pct, 100.0), p.jobsDone, p.jobsTotal, static_cast<double>(p.steps) / wall);
  }
  void finish() {
    if (shown_) std::cerr << '\n';
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool enabled_;
  TimeMs totalMs_;
  std::chrono::steady_clock::time_point start_;
  bool shown_ = false;
};

// Estimated end for the progress bar: --until, else the last trace end or submission.
TimeMs estimatedEnd(const Trace& t, std::optional<TimeMs> until) {
  if (until) return *until;
  TimeMs end = 0;
  for (const TraceJob& j : t.jobs) {
    TimeMs longest = 0;
    for (const TraceTask& task : j.tasks) longest = std::max(longest, task.durationMs);
    end = std::max(end, j.endMs.value_or(j.startMs + longest));
  }
  return end;
}

// Metric records above this are worth a warning: each is a line of realtimetrack.json and of
// every metrics/*.csv (a few hundred bytes to kilobytes per record in all).
constexpr int64_t kManyMetricRecords = 1'000'000;

// yarn.sls.metrics.record.interval.ms small against the run's length writes huge outputs
// (2 ms over an hour: 1.8 million records, about a gigabyte): say so before the run.
void warnHugeMetrics(const Trace& trace, std::optional<TimeMs> until, const SlsSettings& sls) {
  const int64_t records = estimatedEnd(trace, until) / sls.metricsRecordIntervalMs + 1;
  if (records <= kManyMetricRecords) return;
  std::cerr << fmt::format(
      "warning: yarn.sls.metrics.record.interval.ms={} over about {} s simulated writes about {} "
      "metric records (at least {} MB in realtimetrack.json and metrics/); raise the interval "
      "or set yarn.sls.metrics.switch OFF\n",
      sls.metricsRecordIntervalMs, estimatedEnd(trace, until) / 1000, records,
      records * 500 / 1'000'000);
}

void printSummary(const sim::Engine& e, const Trace& trace) {
  const sim::RunStats& s = e.stats();
  std::map<std::string, int> states;
  for (const sim::JobResult& j : e.jobs()) ++states[j.state];
  std::string byState;
  for (const auto& [state, n] : states) byState += fmt::format(" {} {}", state, n);
  const double simS = static_cast<double>(s.endMs) / 1000.0;
  std::cout << fmt::format("jobs:            {} ({})\n", e.jobs().size(), byState.substr(1));
  if (trace.skippedJobs > 0) std::cout << fmt::format("skipped jobs:    {}\n", trace.skippedJobs);
  std::cout << fmt::format("nodes:           {}\n", trace.nodes.size());
  std::cout << fmt::format("makespan:        {:.3f} s simulated\n", simS);
  // Every container once: allocated = AM + task = completed + released + killed + running.
  std::cout << fmt::format(
      "containers:      {} allocated ({} AM, {} task) = {} completed + {} released + {} killed "
      "({} preempted) + {} running at the end\n",
      s.allocations, s.amAllocations, s.allocations - s.amAllocations, s.endedCompleted,
      s.endedReleased, s.endedKilled, s.endedPreempted, s.runningAtEnd);
  std::cout << fmt::format("AM restarts:     {}\n", s.amRestarts);
  if (const sim::PlacementTracker* p = e.placement()) {
    std::map<std::string, int64_t> reasons;
    int64_t rejected = 0;
    for (const sim::JobResult& j : e.jobs()) {
      for (const auto& [reason, n] : j.rejections) {
        reasons[reason] += n;
        rejected += n;
      }
    }
    std::string byReason;
    for (const auto& [reason, n] : reasons) byReason += fmt::format(", {} {}", reason, n);
    std::cout << fmt::format("placement:       {} tagged containers placed, {} rejected{}\n",
                             p->placed(), rejected,
                             byReason.empty() ? "" : " (" + byReason.substr(2) + ")");
  }
  std::cout << fmt::format("events:          {} timed, {} NM heartbeats processed, {} skipped\n",
                           s.heapEvents, s.heartbeats, s.heartbeatsSkipped);
  std::cout << fmt::format("wall time:       {:.3f} s\n", s.wallSeconds);
  std::cout << fmt::format("sim/real ratio:  {:.1f}\n",
                           s.wallSeconds > 0 ? simS / s.wallSeconds : 0.0);
}

}  // namespace

TraceInputOptions traceInputOptions(const SimOptions& o) {
  TraceInputOptions in;
  in.traceType = o.traceType;
  in.traceLocation = o.traceLocation;
  in.inputRumen = o.inputRumen;
  in.inputSls = o.inputSls;
  in.nodesFile = o.nodesFile;
  in.confDir = o.confDir;
  in.seed = o.seed;
  in.skipBadJobs = o.skipBadJobs;
  in.queueMap = o.queueMap;
  in.scaleLoad = o.scaleLoad;
  in.scaleNodes = o.scaleNodes;
  return in;
}

int runSimCommand(const SimOptions& o) {
  const TraceInputOptions inOpts = traceInputOptions(o);
  auto input = loadTraceSettings(inOpts);
  if (!input) return fail(input.status().message());
  const std::string& type = input->type;
  const std::string& location = input->location;
  std::optional<TimeMs> until;
  if (!o.until.empty()) {
    auto u = parseDuration(o.until);
    if (!u) return fail(u.status().message());
    until = *u;
  }
  const Configuration* conf = &input->conf;
  const SlsSettings* sls = &input->sls;

  // Refused before any work: a reused folder would mix two runs' files.
  if (Status dir = prepareOutputDir(o.outputDir, o.overwrite); !dir.isOk()) {
    return fail(dir.message());
  }
  std::vector<std::string> confWarnings;
  Status read = readTraceInput(inOpts, *input, &confWarnings);
  if (!o.quiet) {
    for (const std::string& w : confWarnings) std::cerr << "warning: " << w << '\n';
  }
  if (!read.isOk()) return fail(read.message());
  Trace* trace = &input->trace;
  if (trace->skippedJobs > 0)
    std::cerr << fmt::format("skipped {} bad job(s)\n", trace->skippedJobs);
  for (const std::string& w : trace->warnings) std::cerr << "note: " << w << '\n';
  if (!o.quiet && sls->metricsOn) warnHugeMetrics(*trace, until, *sls);

  std::unique_ptr<DecisionFile> decisions;
  if (o.decisionLog) {
    decisions = std::make_unique<DecisionFile>(o.outputDir + "/decisions.jsonl");
    if (!decisions->ok()) return fail(fmt::format("cannot write {}/decisions.jsonl", o.outputDir));
  }

  sim::EngineOptions eo;
  eo.sls = *sls;
  eo.conf = *conf;
  eo.seed = o.seed.value_or(1);
  eo.untilMs = until;
  eo.heartbeatSkip = !o.noHeartbeatSkip;
  eo.timings = !o.noTimings;
  eo.outputDir = o.outputDir;
  eo.trackJobs = splitCommas(o.trackJobs);
  eo.decisionLog = decisions.get();
  eo.checkInvariantsEvery = o.checkInvariants;
  const bool showProgress = !o.quiet && (o.progress || isatty(STDERR_FILENO));
  ProgressBar bar(showProgress, estimatedEnd(*trace, until));
  eo.progress = [&bar](const sim::Progress& p) { bar.update(p); };
  auto engine = sim::Engine::create(*trace, eo);
  if (!engine) return fail(engine.status().message());
  if (decisions) decisions->attach(&(*engine)->scheduler());
  Status run = (*engine)->run();
  bar.finish();
  if (!run.isOk()) return fail(run.message());
  if ((*engine)->stats().stalled) {
    int waiting = 0;
    for (const sim::JobResult& j : (*engine)->jobs()) {
      waiting += j.state == "ACCEPTED" || j.state == "RUNNING" ? 1 : 0;
    }
    std::cerr << fmt::format(
        "warning: stopped at {} ms: nothing left can change; {} job(s) can never be served "
        "(asks no node can hold?)\n",
        (*engine)->stats().endMs, waiting);
  }
  Status w = sim::writeJobRuntimeCsv(o.outputDir + "/jobruntime.csv", (*engine)->jobs());
  const sim::PlacementTracker* placement = (*engine)->placement();
  if (w.isOk()) {
    w = sim::writeJobsCsv(o.outputDir + "/jobs.csv", (*engine)->jobs(), placement != nullptr);
  }
  // The spread of tagged containers, when the trace has placement keys.
  if (w.isOk() && placement != nullptr) {
    std::vector<std::string> ids;
    for (const sim::JobResult& j : (*engine)->jobs()) ids.push_back(j.id);
    w = placement->writeCsv(o.outputDir + "/placement.csv", ids);
  }
  // The Rayon metrics, when the run had a reservation system and jobs that asked for one.
  const bool reserved = std::any_of((*engine)->jobs().begin(), (*engine)->jobs().end(),
                                    [](const sim::JobResult& j) { return j.reservationAsked; });
  if (w.isOk() && reserved) {
    w = sim::writeReservationsCsv(o.outputDir + "/reservations.csv", (*engine)->jobs());
    if (w.isOk()) {
      w = sim::writeReservationMetrics(
          o.outputDir + "/reservation-metrics.json",
          sim::reservationMetrics((*engine)->jobs(), (*engine)->stats()));
    }
  }
  if (w.isOk()) {
    std::string scheduler = (*engine)->scheduler().typeName();  // "capacityScheduler"
    if (!scheduler.empty()) scheduler[0] = static_cast<char>(std::toupper(scheduler[0]));
    RunInfo info{scheduler, o.confDir, location, type, o.nodesFile, o.seed.value_or(1)};
    w = writeRunJson(o.outputDir + "/run.json", info, (*engine)->stats());
  }
  // The RM's REST views at the end, for `spindle serve` and the web UI.
  if (w.isOk()) {
    w = webui::writeSnapshot(o.outputDir + "/snapshot.json", (*engine)->scheduler(),
                             (*engine)->stats().endMs);
  }
  if (!w.isOk()) return fail(w.message());
  // report.html reads realtimetrack.json, which exists only with yarn.sls.metrics.switch ON.
  if (sls->metricsOn) {
    Status r = writeHtmlReport(o.outputDir);
    if (!r.isOk()) return fail(r.message());
  }
  if (o.printSimulation) printSummary(**engine, *trace);
  const std::vector<sim::JobResult>& jobs = (*engine)->jobs();
  if (!o.quiet) {
    std::vector<std::string> written;
    for (const std::string& name : kSimOutputFiles) {
      if (std::filesystem::exists(std::filesystem::path(o.outputDir) / name)) {
        written.push_back(name);
      }
    }
    if (std::filesystem::is_directory(std::filesystem::path(o.outputDir) / "metrics")) {
      written.push_back("metrics/");
    }
    std::cerr << runSummary(jobs, (*engine)->stats(), o.outputDir, written,
                            sls->metricsOn ? "" : "yarn.sls.metrics.switch is OFF (no metrics)");
  }
  if (o.failOnRejected && rejectedJobs(jobs) > 0) {
    std::cerr << fmt::format("error: {} job(s) rejected (--fail-on-rejected)\n",
                             rejectedJobs(jobs));
    return 1;
  }
  if (o.serve) {
    ServeOptions serve;
    serve.dir = o.outputDir;
    serve.host = o.serveHost;
    serve.port = o.servePort;
    return runServeCommand(serve);
  }
  return 0;
}

}  // namespace spindle::cli
