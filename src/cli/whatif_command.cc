#include "cli/whatif_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "cli/conf_dir.h"
#include "whatif/comparison.h"
#include "whatif/whatif_report.h"

extern char** environ;

namespace spindle::cli {

namespace fs = std::filesystem;

void addWhatifCommand(CLI::App& app, WhatifOptions& o) {
  auto* w = app.add_subcommand(
      "whatif", "Replay one trace under several configurations and compare the runs");
  w->add_option("--tracetype", o.traceType, "SLS, RUMEN or SYNTH")->required();
  w->add_option("--tracelocation", o.traceLocation, "Trace file(s), comma separated")->required();
  w->add_option("--nodes", o.nodesFile, "Nodes file (SLS nodes JSON), the same for every run");
  w->add_option("--conf", o.confs,
                "A configuration folder (as `spindle sim --conf`); give two or more, the first "
                "is the baseline")
      ->required();
  w->add_option("--label", o.labels,
                "A run's label, one per --conf in the same order (default: the folder's name)");
  w->add_option("--output-dir", o.outputDir, "Output directory")->required();
  w->add_option("--seed", o.seed, "Random seed, the same for every run (default 1)")
      ->check(CLI::Validator(
          [](std::string& s) {
            return s.find('-') != std::string::npos
                       ? "must be a non-negative integer (0 to 18446744073709551615), got " + s
                       : std::string();
          },
          ""));
  w->add_option("--seeds", o.seeds,
                "Run each configuration with K seeds (--seed, --seed+1, ...) and report the "
                "spread, to tell a change from noise (default 1)")
      ->check(CLI::Range(1, 100));
  w->add_option("--until", o.until, "Stop every run at this simulated time (e.g. 2h)");
  w->add_option("--parallel", o.parallel, "Runs at a time (default: the machine's cores)");
  w->add_option("--queue-map", o.queueMap,
                "Every run: a trace queue under another name, OLD=NEW (repeatable)");
  w->add_option("--scale-load", o.scaleLoad, "Every run: the number of jobs scaled by F (> 0)");
  w->add_option("--scale-nodes", o.scaleNodes, "Every run: N nodes (the trace's cut or copied)");
  w->add_flag("--overwrite", o.overwrite,
              "Reuse a non-empty output directory: its runs/ and comparison files are replaced");
  w->add_flag("-q,--quiet", o.quiet, "Print nothing but errors");
  w->callback([&o] { o.selected = true; });
}

namespace {

int fail(const std::string& message) {
  std::cerr << "error: " << message << '\n';
  return 2;
}

bool plainLabel(const std::string& l) {
  if (l.empty() || l == "." || l == "..") return false;
  for (char ch : l) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

std::string folderName(const std::string& path) {
  fs::path p = fs::path(path).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

// The last lines of a run's log, for the error message.
std::string tail(const fs::path& log, size_t lines) {
  std::ifstream in(log);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) {
    out += "  " + all[i] + "\n";
  }
  return out;
}

struct Run {
  std::string label;
  std::string conf;
  uint64_t seed = 0;
  std::string name;  // label, or label/seed-<n> with several seeds
  fs::path dir, log;
  pid_t pid = -1;
  int status = 0;
  double seconds = 0;
  std::chrono::steady_clock::time_point started;
};

// The options every run shares beyond trace, configuration and seed, as `spindle sim` takes them.
std::vector<std::string> knobArgs(const WhatifOptions& o) {
  std::vector<std::string> out;
  if (!o.until.empty()) out.insert(out.end(), {"--until", o.until});
  for (const std::string& m : o.queueMap) out.insert(out.end(), {"--queue-map", m});
  if (o.scaleLoad) out.insert(out.end(), {"--scale-load", fmt::format("{}", *o.scaleLoad)});
  if (o.scaleNodes) out.insert(out.end(), {"--scale-nodes", std::to_string(*o.scaleNodes)});
  return out;
}

// Starts `spindle sim` for one run, its stdout and stderr into the run's log.
Status spawnRun(const WhatifOptions& o, Run& r) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return invalidArgument("cannot find the spindle executable: {}", ec.message());
  std::vector<std::string> args = {
      self.string(),     "sim",           "--tracetype", o.traceType,
      "--tracelocation", o.traceLocation, "--conf",      r.conf,
      "--output-dir",    r.dir.string(),  "--seed",      std::to_string(r.seed),
      "--quiet",         "--no-timings"};
  if (!o.nodesFile.empty()) args.insert(args.end(), {"--nodes", o.nodesFile});
  for (const std::string& k : knobArgs(o)) args.push_back(k);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = r.log.string();
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const int rc = posix_spawn(&r.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return invalidArgument("cannot start the run '{}': {}", r.label, std::strerror(rc));
  r.started = std::chrono::steady_clock::now();
  return Status::ok();
}

// A guess at a run's cost, to start the slowest first: the Fair Scheduler's allocation walks
// its leaves' runnable apps (slower per container than Capacity's, bench/README.md), and the
// preemption monitor adds a round every monitoring interval. 2: Fair, 1: preemption monitor on,
// 0: the rest. A folder that does not load ranks 0 (its run reports the error).
int costRank(const std::string& conf) {
  Result<Configuration> c = loadConf(conf);
  if (!c) return 0;
  std::string scheduler = c->get("yarn.resourcemanager.scheduler.class", "");
  for (char& ch : scheduler) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (scheduler.find("fair") != std::string::npos) return 2;  // "fair", "...FairScheduler"
  Result<bool> monitor = c->getBool("yarn.resourcemanager.scheduler.monitor.enable", false);
  return monitor && *monitor ? 1 : 0;
}

// Refuses a non-empty output folder unless --overwrite, which removes only what whatif writes.
Status prepareOutput(const WhatifOptions& o) {
  const fs::path out(o.outputDir);
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
    if (!o.overwrite) {
      return invalidArgument(
          "--output-dir {} is not empty (add --overwrite to replace a previous "
          "comparison there)",
          o.outputDir);
    }
    for (const char* name : {"runs", "comparison.csv", "comparison.json", "report.html"}) {
      fs::remove_all(out / name, ec);
    }
  }
  fs::create_directories(out / "runs", ec);
  if (ec) return invalidArgument("cannot create {}: {}", (out / "runs").string(), ec.message());
  return Status::ok();
}

}  // namespace

int runWhatifCommand(const WhatifOptions& o) {
  if (o.confs.size() < 2) return fail("whatif needs at least two --conf folders to compare");
  if (!o.labels.empty() && o.labels.size() != o.confs.size()) {
    return fail(fmt::format("{} --label for {} --conf: give one label per configuration, or none",
                            o.labels.size(), o.confs.size()));
  }
  std::vector<Run> runs;
  std::set<std::string> labels;
  for (size_t i = 0; i < o.confs.size(); ++i) {
    Run r;
    r.conf = o.confs[i];
    r.label = o.labels.empty() ? folderName(o.confs[i]) : o.labels[i];
    if (!fs::is_directory(r.conf)) {
      return fail(fmt::format("--conf {}: not a folder", r.conf));
    }
    if (!plainLabel(r.label)) {
      return fail(fmt::format("run label '{}' (of --conf {}): use letters, digits, '-', '_', '.'",
                              r.label, r.conf));
    }
    if (!labels.insert(r.label).second) {
      return fail(fmt::format("two runs are labelled '{}': name them with --label", r.label));
    }
    for (uint64_t k = 0; k < o.seeds; ++k) {
      Run s = r;
      s.seed = o.seed + k;
      s.name = o.seeds == 1 ? r.label : fmt::format("{}/seed-{}", r.label, s.seed);
      s.dir = fs::path(o.outputDir) / "runs" / s.name;
      s.log = fs::path(o.outputDir) / "runs" / (s.name + ".log");
      runs.push_back(std::move(s));
    }
  }
  if (Status s = prepareOutput(o); !s.isOk()) return fail(s.message());
  for (const Run& r : runs) {
    std::error_code ec;
    fs::create_directories(r.dir.parent_path(), ec);
    if (ec)
      return fail(fmt::format("cannot create {}: {}", r.dir.parent_path().string(), ec.message()));
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t parallel = o.parallel > 0 ? o.parallel : cores;
  // Likely slowest first (longest-processing-time-first): with more runs than cores, the slowest
  // does not start last, and the others share the remaining cores while it runs. Ties keep the
  // --conf order.
  std::vector<size_t> order(runs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::map<std::string, int> ranks;
  for (const Run& r : runs) ranks.try_emplace(r.conf, costRank(r.conf));
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return ranks[runs[a].conf] > ranks[runs[b].conf]; });
  const auto started = std::chrono::steady_clock::now();
  size_t next = 0, running = 0;
  bool failed = false;
  while (next < runs.size() || running > 0) {
    while (!failed && next < runs.size() && running < parallel) {
      if (Status s = spawnRun(o, runs[order[next]]); !s.isOk()) {
        failed = true;
        std::cerr << "error: " << s.message() << '\n';
        break;
      }
      ++next;
      ++running;
    }
    if (running == 0) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) return fail(fmt::format("waiting for the runs: {}", std::strerror(errno)));
    for (Run& r : runs) {
      if (r.pid != pid) continue;
      --running;
      r.status = status;
      r.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - r.started).count();
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        if (!o.quiet) std::cerr << fmt::format("run {} done in {:.1f} s\n", r.name, r.seconds);
      } else {
        failed = true;
        std::cerr << fmt::format("error: run '{}' (--conf {}) {} {}; its log {} ends with:\n{}",
                                 r.name, r.conf,
                                 WIFEXITED(status) ? "exited with" : "was stopped by signal",
                                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                                 r.log.string(), tail(r.log, 5));
      }
    }
  }
  if (failed) return 2;
  std::vector<whatif::RunOutput> outputs;
  whatif::WhatifSettings settings{o.traceType, o.traceLocation, o.nodesFile, o.seed, o.until, {}};
  for (const Run& r : runs) {
    if (r.seed != o.seed) {
      outputs.back().otherSeeds.push_back(r.dir);
      continue;
    }
    outputs.push_back({r.label, r.dir});
    settings.confs.push_back(r.conf);
  }
  settings.seeds = o.seeds;
  settings.knobs = knobArgs(o);
  Result<whatif::Comparison> c = whatif::compareRuns(outputs);
  if (!c) return fail(c.status().message());
  if (Status s = whatif::writeWhatifOutputs(o.outputDir, *c, outputs, settings); !s.isOk()) {
    return fail(s.message());
  }
  if (!o.quiet) {
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    double slowest = 0;
    for (const Run& r : runs) slowest = std::max(slowest, r.seconds);
    std::cerr << fmt::format(
        "compared {} runs in {:.1f} s (slowest run {:.1f} s): {}/report.html, comparison.csv, "
        "comparison.json\n",
        runs.size(), wall, slowest, o.outputDir);
  }
  return 0;
}

}  // namespace spindle::cli
