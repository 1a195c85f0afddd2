#include "whatif/comparison.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "report/jobs.h"
#include "report/stats.h"
#include "whatif/plan_queues.h"

namespace spindle::whatif {

namespace {

Figures figuresOf(std::vector<int64_t> values) {
  Figures f;
  f.count = static_cast<int64_t>(values.size());
  if (values.empty()) return f;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (int64_t v : values) sum += static_cast<double>(v);
  f.mean = sum / static_cast<double>(values.size());
  auto at = [&](int percent) {
    return values[static_cast<size_t>(report::nearestRank(f.count, percent) - 1)];
  };
  f.p50 = at(50);
  f.p95 = at(95);
  f.p99 = at(99);
  return f;
}

GroupStats statsOf(const std::vector<const report::JobRecord*>& jobs) {
  GroupStats s;
  std::vector<int64_t> waits, runtimes;
  for (const report::JobRecord* j : jobs) {
    ++s.jobs;
    switch (report::outcomeOf(j->state)) {
      case report::JobOutcome::kFinished: ++s.finished; break;
      case report::JobOutcome::kFailed: ++s.failed; break;
      case report::JobOutcome::kKilled: ++s.killed; break;
      case report::JobOutcome::kRejected: ++s.rejected; break;
      case report::JobOutcome::kUnfinished: ++s.unfinished; break;
    }
    s.preemptionMarked += j->preemptionMarked;
    s.preemptionReleased += j->preemptionReleased;
    s.preempted += j->preempted;
    s.preemptedRunMs += j->preemptedRunMs;
    s.amRestarts += j->amRestarts;
    if (j->waitMs) waits.push_back(*j->waitMs);
    if (j->runtimeMs && j->state == report::JobState::kFinished) {
      runtimes.push_back(*j->runtimeMs);
    }
  }
  s.wait = figuresOf(std::move(waits));
  s.runtime = figuresOf(std::move(runtimes));
  return s;
}

Paired pairedOf(const report::JobSet& base, const report::JobSet& run) {
  std::unordered_map<std::string_view, const report::JobRecord*> byId;
  for (const report::JobRecord& j : base.jobs) byId.emplace(j.id, &j);
  std::vector<int64_t> diffs;
  for (const report::JobRecord& j : run.jobs) {
    auto it = byId.find(j.id);
    if (it == byId.end() || !j.waitMs || !it->second->waitMs) continue;
    diffs.push_back(*j.waitMs - *it->second->waitMs);
  }
  Paired p;
  p.pairs = static_cast<int64_t>(diffs.size());
  if (diffs.empty()) return p;
  int64_t longer = 0, shorter = 0;
  for (int64_t d : diffs) {
    if (d > kPairedToleranceMs) ++longer;
    if (-d > kPairedToleranceMs) ++shorter;
  }
  p.shareWaitLonger = static_cast<double>(longer) / static_cast<double>(p.pairs);
  p.shareWaitShorter = static_cast<double>(shorter) / static_cast<double>(p.pairs);
  p.medianWaitDiffMs = report::nearestRankPercentile(std::move(diffs), 50);
  return p;
}

// The headline candidates of one group: each run's figure against the baseline's.
void addChanges(const Group& g, const std::vector<std::string>& labels, std::vector<Change>& out) {
  const std::string group = g.kind == "all" ? "all" : g.kind + " " + g.name;
  for (const std::string& m : headlineMetrics()) {
    const std::optional<double> base = metricOf(g.perRun[0], m);
    if (!base) continue;
    for (size_t r = 1; r < g.perRun.size(); ++r) {
      const std::optional<double> v = metricOf(g.perRun[r], m);
      if (!v || *v == *base) continue;
      Change c{group, m, labels[r], *base, *v, std::nullopt, std::nullopt};
      if (*base != 0) c.relative = (*v - *base) / *base;
      if (!g.spread.empty()) {
        auto b = g.spread[0].find(m);
        auto x = g.spread[r].find(m);
        if (b != g.spread[0].end() && x != g.spread[r].end()) {
          c.beyondSpread = x->second.min > b->second.max || x->second.max < b->second.min;
        }
      }
      out.push_back(std::move(c));
    }
  }
}

}  // namespace

std::vector<std::string> headlineMetrics() {
  return {"wait p95", "wait mean", "runtime p95", "jobs finished"};
}

std::optional<double> metricOf(const GroupStats& s, std::string_view metric) {
  auto asDouble = [](const std::optional<int64_t>& v) {
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
  };
  if (metric == "wait p95") return asDouble(s.wait.p95);
  if (metric == "wait mean") return s.wait.mean;
  if (metric == "runtime p95") return asDouble(s.runtime.p95);
  if (metric == "jobs finished") return static_cast<double>(s.finished);
  return std::nullopt;
}

Result<Comparison> compareRuns(const std::vector<RunOutput>& runs) {
  if (runs.size() < 2)
    return invalidArgument("a comparison needs at least two runs, got {}", runs.size());
  Comparison c;
  c.seeds = runs[0].otherSeeds.size() + 1;
  std::set<std::string> seen;
  std::vector<report::JobSet> sets;               // per run, its first seed
  std::vector<std::vector<report::JobSet>> more;  // per run, its other seeds
  auto read = [](const RunOutput& r, const std::filesystem::path& dir) -> Result<report::JobSet> {
    Result<report::JobSet> jobs = report::readJobs(dir);
    if (!jobs) {
      return invalidArgument("run '{}' ({}): {}", r.label, dir.string(), jobs.status().message());
    }
    if (!jobs->hasQueues) {
      return invalidArgument("run '{}' ({}): no jobs.csv, so no queues or users to compare",
                             r.label, dir.string());
    }
    return jobs;
  };
  for (const RunOutput& r : runs) {
    if (!seen.insert(r.label).second) return invalidArgument("two runs are labelled '{}'", r.label);
    if (r.otherSeeds.size() + 1 != c.seeds) {
      return invalidArgument("run '{}' has {} seeds, run '{}' {}: every run needs as many", r.label,
                             r.otherSeeds.size() + 1, runs[0].label, c.seeds);
    }
    SPINDLE_ASSIGN_OR_RETURN(report::JobSet first, read(r, r.dir));
    Result<RunFigures> figures = readRunFigures(r.dir);
    if (!figures) {
      return invalidArgument("run '{}' ({}): {}", r.label, r.dir.string(),
                             figures.status().message());
    }
    c.runFigures.push_back(std::move(*figures));
    c.labels.push_back(r.label);
    sets.push_back(std::move(first));
    more.emplace_back();
    for (const std::filesystem::path& d : r.otherSeeds) {
      SPINDLE_ASSIGN_OR_RETURN(report::JobSet s, read(r, d));
      more.back().push_back(std::move(s));
    }
  }
  // Group members per run: "all", each queue, each user (names over every run).
  std::set<std::string> queues, users;
  for (const report::JobSet& s : sets) {
    for (const report::JobRecord& j : s.jobs) {
      queues.insert(jobsQueueGroup(j.queue));
      users.insert(j.user);
    }
  }
  auto group = [&](std::string kind, std::string name, auto member) {
    Group g{std::move(kind), std::move(name), {}, {}};
    auto stats = [&](const report::JobSet& s) {
      std::vector<const report::JobRecord*> jobs;
      for (const report::JobRecord& j : s.jobs) {
        if (member(j)) jobs.push_back(&j);
      }
      return statsOf(jobs);
    };
    for (size_t r = 0; r < sets.size(); ++r) {
      g.perRun.push_back(stats(sets[r]));
      if (c.seeds == 1) continue;
      std::map<std::string, Range> ranges;
      std::vector<GroupStats> all = {g.perRun.back()};
      for (const report::JobSet& s : more[r]) all.push_back(stats(s));
      for (const std::string& m : headlineMetrics()) {
        for (const GroupStats& st : all) {
          const std::optional<double> v = metricOf(st, m);
          if (!v) continue;
          auto [it, added] = ranges.try_emplace(m, Range{*v, *v});
          if (!added) {
            it->second.min = std::min(it->second.min, *v);
            it->second.max = std::max(it->second.max, *v);
          }
        }
      }
      g.spread.push_back(std::move(ranges));
    }
    c.groups.push_back(std::move(g));
  };
  group("all", "", [](const report::JobRecord&) { return true; });
  for (const std::string& q : queues) {
    group("queue", q, [&](const report::JobRecord& j) { return jobsQueueGroup(j.queue) == q; });
  }
  for (const std::string& u : users) {
    group("user", u, [&](const report::JobRecord& j) { return j.user == u; });
  }
  for (const report::JobSet& s : sets) c.paired.push_back(pairedOf(sets[0], s));
  std::vector<Change> changes;
  for (const Group& g : c.groups) addChanges(g, c.labels, changes);
  // Largest change first, measured against the baseline but never against less than a floor
  // (kTimeFloorMs for waits and runtimes, one job for counts), so 0.1 s -> 2 s does not outrank
  // 10 min -> 30 min; ties in group, metric and run order (stable).
  auto size = [](const Change& ch) {
    const double floor = ch.metric == "jobs finished" ? 1.0 : kTimeFloorMs;
    return std::fabs(ch.value - ch.baseline) / std::max(std::fabs(ch.baseline), floor);
  };
  std::stable_sort(changes.begin(), changes.end(),
                   [&](const Change& a, const Change& b) { return size(a) > size(b); });
  if (changes.size() > Comparison::kHeadlineSize) changes.resize(Comparison::kHeadlineSize);
  c.headline = std::move(changes);
  return c;
}

}  // namespace spindle::whatif
