#include "cli/sls_command.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "cli/sim_outputs.h"
#include "cli/trace_input.h"
#include "placement/spec_parser.h"
#include "protocol/http_server.h"
#include "scheduler/scheduling_request.h"
#include "sim/job_outputs.h"
#include "sls/compare.h"
#include "sls/sls_run.h"
#include "topology/topology_mapping.h"
#include "trace/nodes_reader.h"

namespace spindle::cli {

void addSlsCommand(CLI::App& app, SlsOptions& o) {
  auto* sls = app.add_subcommand(
      "sls", "Replay an SLS, Rumen or SYNTH trace against a running spindle rm, in real time");
  // --rm and --output-dir are required unless --write-topology is given (runSlsCommand).
  sls->add_option("--rm", o.rm, "The RM's address, HOST:PORT (its REST and RPC port)");
  sls->add_option("--tracetype", o.trace.traceType, "SLS, RUMEN or SYNTH");
  sls->add_option("--tracelocation", o.trace.traceLocation, "Trace file(s), comma separated");
  sls->add_option("--nodes", o.trace.nodesFile, "Nodes file (SLS nodes JSON)");
  sls->add_option("--conf", o.trace.confDir,
                  "Folder with sls-runner.xml and the RM's scheduler configuration (queues, "
                  "placement handler)");
  sls->add_option("--output-dir", o.outputDir, "Output directory");
  sls->add_option("--write-topology", o.writeTopology,
                  "Write the trace's nodes as a TableMapping file (\"host rack\" lines) for the "
                  "RM's net.topology.table.file.name, then exit without running");
  sls->add_option("--speed", o.speed,
                  "Simulated ms per wall ms (default 1: real time; 10 runs ten times faster)")
      ->check(CLI::Range(0.001, 1000.0));
  sls->add_option("--timeout-s", o.timeoutS, "Stop after this many wall seconds (default 3600)")
      ->check(CLI::Range(int64_t{1}, int64_t{604'800}));
  sls->add_option("--compare", o.compareDir,
                  "A `spindle sim` output folder of the same trace: print both runs' per-job "
                  "times side by side (also written to compare.txt)");
  sls->add_option("--seed", o.trace.seed, "Random seed (SYNTH, --scale-load; default 1)");
  sls->add_flag("--skip-bad-jobs", o.trace.skipBadJobs, "Skip jobs the trace reader rejects");
  sls->add_flag("--overwrite", o.overwrite, "Reuse a non-empty --output-dir");
  sls->add_flag("-q,--quiet", o.quiet, "No warnings or notes on stderr");
  sls->add_option("--queue-map", o.trace.queueMap, "Run a trace queue under another name: OLD=NEW");
  sls->add_option("--scale-load", o.trace.scaleLoad, "Scale the number of jobs by F (> 0)");
  sls->add_option("--scale-nodes", o.trace.scaleNodes, "Run on N nodes");
  sls->add_option("--first-node-port", o.firstNodePort,
                  "Node ids are <host>:<port + i> (default 20000)")
      ->check(CLI::Range(1, 25'535));
  sls->callback([&o] { o.selected = true; });
}

namespace {

int fail(const std::string& message) {
  std::cerr << "error: " << message << '\n';
  return 2;
}

// The constraint of every placement spec in the trace, and the RM's counting rule for
// SchedulingRequests, as the simulator's engine sets them up.
Result<std::unique_ptr<sim::PlacementAsks>> placementAsks(const Trace& trace,
                                                          const Configuration& conf) {
  std::unique_ptr<sim::PlacementAsks> pa;
  for (const TraceJob& job : trace.jobs) {
    for (const TraceTask& t : job.tasks) {
      if (!t.usesPlacement()) continue;
      if (!pa) {
        SPINDLE_ASSIGN_OR_RETURN(PlacementSettings ps, placementSettingsFromConfig(conf));
        pa = std::make_unique<sim::PlacementAsks>();
        pa->absoluteCounts = ps.handler != PlacementHandler::kPlacementProcessor;
      }
      if (t.placementSpec.empty() || pa->constraints.count(t.placementSpec)) continue;
      auto c = placement::parseExpression(t.placementSpec);
      if (!c) {
        return invalidArgument("job '{}': placement spec '{}': {}", job.id, t.placementSpec,
                               c.status().message());
      }
      pa->constraints.emplace(t.placementSpec, *c);
    }
  }
  return pa;
}

// The trace's hosts and racks as Hadoop's TableMapping file (topology_mapping.h).
int writeTopologyFile(const std::string& path, const Trace& trace) {
  std::vector<std::pair<std::string, std::string>> racks;
  std::set<std::string> distinct;
  for (const TraceNode& n : trace.nodes) {
    const std::string rack = n.rack.empty() ? std::string(kDefaultRack) : n.rack;
    racks.emplace_back(n.name, rack);
    distinct.insert(rack);
  }
  std::ofstream f(path);
  if (f) f << topology::formatTopologyTable(racks);
  f.close();
  if (!f) {
    return fail(
        fmt::format("--write-topology {}: cannot write the file ({})", path, std::strerror(errno)));
  }
  std::cout << fmt::format("wrote {} host(s) on {} rack(s) to {}\n", racks.size(), distinct.size(),
                           path);
  return 0;
}

Status writeSlsJobs(const std::string& path, const sls::SlsRun& run) {
  std::ofstream f(path);
  if (!f) return invalidArgument("cannot write {}", path);
  f << "JobID,app_id,tasks,containers,tasks_done,rejected_tasks,state\n";
  for (size_t i = 0; i < run.jobs().size(); ++i) {
    const sim::JobResult& j = run.jobs()[i];
    const sls::SlsJobCounts& c = run.counts()[i];
    f << fmt::format("{},{},{},{},{},{},{}\n", j.id, c.appId, j.tasks, c.containers,
                     c.tasksDone - c.rejectedTasks, c.rejectedTasks, j.state);
  }
  f.close();
  if (!f) return internalError("writing {} failed", path);
  return Status::ok();
}

void printSummary(const sls::SlsRun& run, double speed) {
  const sls::SlsStats& s = run.stats();
  std::map<std::string, int> states;
  int64_t tasks = 0, containers = 0;
  for (size_t i = 0; i < run.jobs().size(); ++i) {
    ++states[run.jobs()[i].state];
    tasks += run.jobs()[i].tasks;
    containers += run.counts()[i].containers;
  }
  std::string byState;
  for (const auto& [state, n] : states) byState += fmt::format(" {} {}", state, n);
  const double wall = s.wallSeconds > 0 ? s.wallSeconds : 1e-9;
  std::cout << fmt::format("jobs:            {} ({})\n", run.jobs().size(),
                           byState.empty() ? "none" : byState.substr(1));
  std::cout << fmt::format("nodes:           {}\n", s.nodes);
  std::cout << fmt::format("makespan:        {:.3f} s simulated ({:.3f} s wall at speed {})\n",
                           static_cast<double>(s.makespanMs) / 1000.0, wall, speed);
  std::cout << fmt::format(
      "containers:      {} allocated ({} AM, {} task; the trace has {} tasks), {} completed "
      "returned to the AMs\n",
      s.amContainers + containers, s.amContainers, containers, tasks, s.completedReturned);
  int64_t rejected = 0;
  for (const sls::SlsJobCounts& c : run.counts()) rejected += c.rejectedTasks;
  if (rejected > 0) {
    std::cout << fmt::format(
        "placement:       {} task(s) given up after rejected "
        "SchedulingRequests (sls-jobs.csv)\n",
        rejected);
  }
  std::cout << fmt::format("heartbeats/s:    {:.1f} ({} NM heartbeats)\n",
                           static_cast<double>(s.heartbeats) / wall, s.heartbeats);
  std::cout << fmt::format("allocations/s:   {:.1f} ({} allocate calls)\n",
                           static_cast<double>(s.allocations) / wall, s.allocateCalls);
  std::cout << fmt::format("errors:          {}{}\n", s.errors,
                           s.firstError.empty() ? "" : " (first: " + s.firstError + ")");
}

}  // namespace

int runSlsCommand(const SlsOptions& o) {
  if (!o.writeTopology.empty()) {
    auto input = loadTraceSettings(o.trace);
    if (!input) return fail(input.status().message());
    Status read = readTraceInput(o.trace, *input, nullptr);
    if (!read.isOk()) return fail(read.message());
    if (input->trace.nodes.empty()) {
      return fail(fmt::format("{}: the trace has no nodes (give --nodes, or tasks with hosts)",
                              input->location));
    }
    return writeTopologyFile(o.writeTopology, input->trace);
  }
  if (o.rm.empty()) return fail("--rm is required");
  if (o.outputDir.empty()) return fail("--output-dir is required");
  auto hp = protocol::parseHostPort(o.rm, "--rm");
  if (!hp) return fail(hp.status().message());
  auto input = loadTraceSettings(o.trace);
  if (!input) return fail(input.status().message());
  std::string simRuntimes;
  if (!o.compareDir.empty()) {
    simRuntimes = (std::filesystem::path(o.compareDir) / "jobruntime.csv").string();
    auto rows = sls::readRuntimes(simRuntimes);
    if (!rows) return fail("--compare: " + rows.status().message());
  }
  if (Status dir = prepareOutputDir(o.outputDir, o.overwrite); !dir.isOk()) {
    return fail(dir.message());
  }
  std::vector<std::string> confWarnings;
  Status read = readTraceInput(o.trace, *input, &confWarnings);
  if (!read.isOk()) return fail(read.message());
  const Trace& trace = input->trace;
  if (trace.nodes.empty()) {
    return fail(fmt::format("{}: the trace has no nodes (give --nodes, or tasks with hosts)",
                            input->location));
  }
  if (trace.skippedJobs > 0) {
    std::cerr << fmt::format("skipped {} bad job(s)\n", trace.skippedJobs);
  }
  if (!o.quiet) {
    for (const std::string& w : confWarnings) std::cerr << "warning: " << w << '\n';
    for (const std::string& w : trace.warnings) std::cerr << "note: " << w << '\n';
  }
  for (size_t i = 0; i < trace.jobs.size(); ++i) {
    auto kind = sim::amKindFor(trace.jobs[i].amType, input->sls);
    if (!kind) {
      return fail(
          kind.status().withContext(fmt::format("job {} ('{}')", i, trace.jobs[i].id)).message());
    }
  }
  auto placement = placementAsks(trace, input->conf);
  if (!placement) return fail(placement.status().message());

  sls::SlsRunOptions ro;
  ro.rmHost = hp->first;
  ro.rmPort = hp->second;
  ro.speed = o.speed;
  ro.timeoutMs = o.timeoutS * 1000;
  ro.sls = input->sls;
  ro.placement = placement->get();
  ro.firstNodePort = o.firstNodePort;
  sls::SlsRun run(trace, ro);
  const size_t before = run.warnings().size();
  if (!o.quiet) {
    for (const std::string& w : run.warnings()) std::cerr << "warning: " << w << '\n';
  }
  Status st = run.run();
  if (!o.quiet) {
    for (size_t i = before; i < run.warnings().size(); ++i) {
      std::cerr << "warning: " << run.warnings()[i] << '\n';
    }
  }
  if (!st.isOk()) {
    std::cerr << "error: " << st.message() << '\n';
    return 1;
  }
  const std::string dir = o.outputDir;
  Status w = sim::writeJobRuntimeCsv(dir + "/jobruntime.csv", run.jobs());
  if (w.isOk()) w = sim::writeJobsCsv(dir + "/jobs.csv", run.jobs(), placement->get() != nullptr);
  if (w.isOk()) w = writeSlsJobs(dir + "/sls-jobs.csv", run);
  if (!w.isOk()) return fail(w.message());
  printSummary(run, o.speed);
  if (!simRuntimes.empty()) {
    auto sim = sls::readRuntimes(simRuntimes);
    auto ours = sls::readRuntimes(dir + "/jobruntime.csv");
    if (!sim || !ours) return fail(!sim ? sim.status().message() : ours.status().message());
    const std::string table = sls::formatComparison(sls::compareRuns(*sim, *ours));
    std::cout << "\n" << table;
    std::ofstream(dir + "/compare.txt") << table;
  }
  const sls::SlsStats& s = run.stats();
  size_t unfinished = 0;
  for (const sim::JobResult& j : run.jobs()) unfinished += j.state == "FINISHED" ? 0 : 1;
  if (s.timedOut) {
    std::cerr << fmt::format("error: timed out after {} s with {} of {} job(s) unfinished\n",
                             o.timeoutS, unfinished, run.jobs().size());
    return 1;
  }
  if (s.errors > 0) {
    std::cerr << fmt::format("error: the RM answered {} error(s); the first: {}\n", s.errors,
                             s.firstError);
    return 1;
  }
  if (unfinished > 0) {
    std::cerr << fmt::format("error: {} of {} job(s) did not finish (see jobs.csv)\n", unfinished,
                             run.jobs().size());
    return 1;
  }
  return 0;
}

}  // namespace spindle::cli
