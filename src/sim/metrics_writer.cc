#include "sim/metrics_writer.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace spindle::sim {

namespace {

constexpr const char* kCounter = "t,count";
constexpr const char* kGauge = "t,value";
constexpr const char* kHistogram = "t,count,max,mean,min,stddev,p50,p75,p95,p98,p99,p999";

double gb(int64_t mb) { return static_cast<double>(mb) / 1024.0; }

std::string num(double v) { return fmt::format("{}", v); }

std::string histogramRow(const TimerStats& s) {
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{}", s.count, s.max, s.mean, s.min, s.stddev,
                     s.p50, s.p75, s.p95, s.p98, s.p99, s.p999);
}

// Per-queue preemption figures: realtimetrack.json key stem and the figure.
struct PreemptionFigure {
  const char* metric;
  Resource QueuePreemptionSample::*field;
};
constexpr PreemptionFigure kPreemptionFigures[] = {
    {"guaranteed", &QueuePreemptionSample::guaranteed},
    {"ideal.assigned", &QueuePreemptionSample::idealAssigned},
    {"ideal.preemption", &QueuePreemptionSample::toBePreempted},
    {"actual.preemption", &QueuePreemptionSample::actuallyToBePreempted},
    {"preemption.selected", &QueuePreemptionSample::selected},
};

// SLS's FairSchedulerMetrics gauges (variable.queue.<q>.<metric>.memory|vcores).
struct FairFigure {
  const char* metric;
  Resource QueueShares::*field;
};
constexpr FairFigure kFairFigures[] = {
    {"demand", &QueueShares::demand},       {"usage", &QueueShares::usage},
    {"minshare", &QueueShares::minShare},   {"maxshare", &QueueShares::maxShare},
    {"fairshare", &QueueShares::fairShare},
};

constexpr const char* kRoundQueuesHeader =
    "t,queue,partition,guaranteed_mb,guaranteed_vcores,maximum_mb,maximum_vcores,used_mb,"
    "used_vcores,pending_mb,pending_vcores,ideal_assigned_mb,ideal_assigned_vcores,"
    "ideal_preemption_mb,ideal_preemption_vcores,actual_preemption_mb,actual_preemption_vcores,"
    "selected_mb,selected_vcores";
constexpr const char* kRoundsHeader =
    "t,observe_only,selected_mb,selected_vcores,containers_marked,containers_killed";

std::string mbVcores(const Resource& r) { return fmt::format("{},{}", r.memoryMb(), r.vcores()); }

}  // namespace

bool isLeafOfRound(const PreemptionRoundReport& r, const std::string& queue) {
  return std::none_of(r.queues.begin(), r.queues.end(), [&](const QueuePreemptionFigures& o) {
    return o.queue.size() > queue.size() && o.queue.starts_with(queue) &&
           o.queue[queue.size()] == '.';
  });
}

MetricsWriter::MetricsWriter() = default;
MetricsWriter::~MetricsWriter() = default;

Status MetricsWriter::open(const std::string& outputDir, MetricsWriterOptions options) {
  dir_ = outputDir;
  options_ = options;
  std::error_code ec;
  std::filesystem::create_directories(outputDir + "/metrics", ec);
  if (ec) return invalidArgument("cannot create {}/metrics: {}", outputDir, ec.message());
  track_.open(outputDir + "/realtimetrack.json");
  if (!track_) return invalidArgument("cannot write {}/realtimetrack.json", outputDir);
  track_ << "[";
  return Status::ok();
}

std::ofstream& MetricsWriter::csv(const std::string& name, const char* header) {
  auto it = files_.find(name);
  if (it == files_.end()) {
    auto f = std::make_unique<std::ofstream>(dir_ + "/metrics/" + name + ".csv");
    *f << header << '\n';
    it = files_.emplace(name, std::move(f)).first;
  }
  return *it->second;
}

void MetricsWriter::row(const std::string& name, const char* header, double t,
                        const std::string& value) {
  csv(name, header) << num(t) << ',' << value << '\n';
}

void MetricsWriter::write(const MetricsSample& s) {
  const double t = static_cast<double>(s.timeMs) / 1000.0;
  std::string j = first_ ? "\n" : ",\n";
  first_ = false;
  auto key = [&j](std::string_view k, const std::string& v) {
    j += fmt::format(",\"{}\":{}", k, v);
  };
  j += fmt::format("{{\"time\":{}", num(t));
  key("running.applications", std::to_string(s.runningApps));
  key("running.containers", std::to_string(s.runningContainers));
  key("cluster.allocated.memory", num(gb(s.allocatedMb)));
  key("cluster.allocated.vcores", std::to_string(s.allocatedVcores));
  key("cluster.available.memory", num(gb(s.availableMb)));
  key("cluster.available.vcores", std::to_string(s.availableVcores));
  for (const auto& [q, v] : s.queues) {
    key(fmt::format("queue.{}.allocated.memory", q), num(gb(v.allocatedMb)));
    key(fmt::format("queue.{}.allocated.vcores", q), std::to_string(v.allocatedVcores));
  }
  if (options_.timings) {
    key("scheduler.allocate.timecost", num(s.allocateTimer.mean));
    key("scheduler.commit.success.timecost", num(s.allocateTimer.mean));
    key("scheduler.commit.failure.timecost", "0");
    key("scheduler.handle.timecost", num(s.handleTimer.mean));
  }
  key("scheduler.commit.success.throughput", num(s.commitsPerSecond));
  key("scheduler.commit.failure.throughput", "0");
  // Spindle extras.
  for (const auto& [q, v] : s.queues) {
    key(fmt::format("queue.{}.pending.memory", q), num(gb(v.pendingMb)));
    key(fmt::format("queue.{}.pending.vcores", q), std::to_string(v.pendingVcores));
  }
  for (const auto& [q, mb] : s.fairShareMb) {
    key(fmt::format("queue.{}.fairshare.memory", q), num(gb(mb)));
  }
  for (const auto& [q, v] : s.queues) {
    if (v.limits) {
      key(fmt::format("queue.{}.guarantee.memory", q), num(gb(v.limits->guarantee.memoryMb())));
      key(fmt::format("queue.{}.guarantee.vcores", q),
          std::to_string(v.limits->guarantee.vcores()));
      key(fmt::format("queue.{}.maximum.memory", q), num(gb(v.limits->maximum.memoryMb())));
      key(fmt::format("queue.{}.maximum.vcores", q), std::to_string(v.limits->maximum.vcores()));
    }
    // From a queue's first preemption mark or kill on.
    if (v.containersMarked > 0 || v.containersPreempted > 0) {
      key(fmt::format("queue.{}.containers.marked", q), std::to_string(v.containersMarked));
      key(fmt::format("queue.{}.containers.preempted", q), std::to_string(v.containersPreempted));
    }
  }
  key("cluster.pending.memory", num(gb(s.pendingMb)));
  key("cluster.pending.vcores", std::to_string(s.pendingVcores));
  key("pending.applications", std::to_string(s.pendingApps));
  key("completed.applications", std::to_string(s.completedApps));
  if (s.preemption) {
    for (const auto& [q, v] : s.preemption->queues) {
      for (const PreemptionFigure& f : kPreemptionFigures) {
        const Resource& r = v.*f.field;
        key(fmt::format("queue.{}.{}.memory", q, f.metric), num(gb(r.memoryMb())));
        key(fmt::format("queue.{}.{}.vcores", q, f.metric), std::to_string(r.vcores()));
      }
    }
    key("preemption.rounds", std::to_string(s.preemption->rounds));
    key("preemption.containers.marked", std::to_string(s.preemption->containersMarked));
    key("preemption.containers.killed", std::to_string(s.preemption->containersKilled));
  }
  if (s.utilization) {
    key("cluster.utilization.memory", num(gb(static_cast<int64_t>(s.utilizationMb))));
    key("cluster.utilization.vcores", num(s.utilizationVcores));
  }
  j += "}";
  track_ << j;

  for (const auto& [q, v] : s.queues) {
    const std::string p = "counter.queue." + q;
    row(p + ".pending.memory", kCounter, t, std::to_string(v.pendingMb));
    row(p + ".pending.cores", kCounter, t, std::to_string(v.pendingVcores));
    row(p + ".allocated.memory", kCounter, t, std::to_string(v.allocatedMb));
    row(p + ".allocated.cores", kCounter, t, std::to_string(v.allocatedVcores));
    if (v.containersMarked > 0 || v.containersPreempted > 0) {
      row(p + ".containers.marked", kCounter, t, std::to_string(v.containersMarked));
      row(p + ".containers.preempted", kCounter, t, std::to_string(v.containersPreempted));
    }
  }
  if (options_.timings) {
    // Scheduler calls made: engine work, which the heartbeat-skip rules change, so they go with
    // the timings rather than with the simulated outcome.
    row("counter.scheduler.operation.allocate", kCounter, t, std::to_string(s.allocateOps));
    row("counter.scheduler.operation.handle", kCounter, t, std::to_string(s.handleOps));
  }
  row("variable.cluster.allocated.memory", kGauge, t, std::to_string(s.allocatedMb));
  row("variable.cluster.allocated.vcores", kGauge, t, std::to_string(s.allocatedVcores));
  row("variable.cluster.available.memory", kGauge, t, std::to_string(s.availableMb));
  row("variable.cluster.available.vcores", kGauge, t, std::to_string(s.availableVcores));
  row("variable.cluster.pending.memory", kGauge, t, std::to_string(s.pendingMb));
  row("variable.cluster.pending.vcores", kGauge, t, std::to_string(s.pendingVcores));
  row("variable.running.application", kGauge, t, std::to_string(s.runningApps));
  row("variable.running.container", kGauge, t, std::to_string(s.runningContainers));
  if (s.utilization) {
    row("variable.cluster.utilization.memory", kGauge, t, num(s.utilizationMb));
    row("variable.cluster.utilization.vcores", kGauge, t, num(s.utilizationVcores));
  }
  for (const auto& [id, v] : s.trackedJobs) {
    row("variable.app." + id + ".live.containers", kGauge, t, std::to_string(v.first));
    row("variable.app." + id + ".reserved.containers", kGauge, t, std::to_string(v.second));
  }
  for (const auto& [q, v] : s.fairQueues) {
    for (const FairFigure& f : kFairFigures) {
      const Resource& r = v.*f.field;
      const std::string p = fmt::format("variable.queue.{}.{}", q, f.metric);
      row(p + ".memory", kGauge, t, std::to_string(r.memoryMb()));
      row(p + ".vcores", kGauge, t, std::to_string(r.vcores()));
    }
  }
  if (s.preemption) {
    for (const auto& [q, v] : s.preemption->queues) {
      for (const PreemptionFigure& f : kPreemptionFigures) {
        const Resource& r = v.*f.field;
        const std::string p = fmt::format("variable.queue.{}.{}", q, f.metric);
        row(p + ".memory", kGauge, t, std::to_string(r.memoryMb()));
        row(p + ".vcores", kGauge, t, std::to_string(r.vcores()));
      }
    }
    row("counter.preemption.rounds", kCounter, t, std::to_string(s.preemption->rounds));
    row("counter.preemption.containers.marked", kCounter, t,
        std::to_string(s.preemption->containersMarked));
    row("counter.preemption.containers.killed", kCounter, t,
        std::to_string(s.preemption->containersKilled));
  }
  for (int b = 0; b < kNodeUsageBuckets; ++b) {
    row(fmt::format("nodes.memory.{}-{}", b * 10, b * 10 + 10), kGauge, t,
        std::to_string(s.nodeMemoryUsage[b]));
  }
  if (options_.timings) {
    row("sampler.scheduler.operation.allocate.timecost", kHistogram, t,
        histogramRow(s.allocateTimer));
    row("sampler.scheduler.operation.handle.timecost", kHistogram, t, histogramRow(s.handleTimer));
  }
}

void MetricsWriter::writeRound(const PreemptionRoundReport& r) {
  if (!rounds_) {
    rounds_ = std::make_unique<std::ofstream>(dir_ + "/preemption-rounds.csv");
    *rounds_ << kRoundsHeader << '\n';
    roundQueues_ = std::make_unique<std::ofstream>(dir_ + "/preemption.csv");
    *roundQueues_ << kRoundQueuesHeader << '\n';
  }
  const std::string t = num(static_cast<double>(r.timeMs) / 1000.0);
  Resource selected;
  for (const QueuePreemptionFigures& q : r.queues) {
    *roundQueues_ << t << ',' << q.queue << ',' << q.partition << ',' << mbVcores(q.guaranteed)
                  << ',' << mbVcores(q.maximum) << ',' << mbVcores(q.used) << ','
                  << mbVcores(q.pending) << ',' << mbVcores(q.idealAssigned) << ','
                  << mbVcores(q.toBePreempted) << ',' << mbVcores(q.actuallyToBePreempted) << ','
                  << mbVcores(q.selected) << '\n';
  }
  for (const QueuePreemptionFigures& q : r.queues) {
    // Leaves only: a parent's selected is its children's.
    if (isLeafOfRound(r, q.queue)) selected += q.selected;
  }
  *rounds_ << t << ',' << (r.observeOnly ? "true" : "false") << ',' << mbVcores(selected) << ','
           << r.containersMarked << ',' << r.containersKilled << '\n';
}

Status MetricsWriter::close() {
  if (rounds_) {
    rounds_->close();
    roundQueues_->close();
    if (!*rounds_) return internalError("writing {}/preemption-rounds.csv failed", dir_);
    if (!*roundQueues_) return internalError("writing {}/preemption.csv failed", dir_);
    rounds_.reset();
    roundQueues_.reset();
  }
  if (!track_.is_open()) return Status::ok();
  track_ << (first_ ? "]\n" : "\n]\n");
  track_.close();
  if (!track_) return internalError("writing {}/realtimetrack.json failed", dir_);
  for (auto& [name, f] : files_) {
    f->close();
    if (!*f) return internalError("writing {}/metrics/{}.csv failed", dir_, name);
  }
  return Status::ok();
}

}  // namespace spindle::sim
