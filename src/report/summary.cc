#include "report/summary.h"

#include <algorithm>

namespace spindle::report {

namespace {

struct Collector {
  JobGroupStats stats;
  std::vector<int64_t> waits, runtimes, turnarounds;

  void add(const JobRecord& j) {
    ++stats.jobs;
    switch (outcomeOf(j.state)) {
      case JobOutcome::kFinished: ++stats.finished; break;
      case JobOutcome::kFailed: ++stats.failed; break;
      case JobOutcome::kKilled: ++stats.killed; break;
      case JobOutcome::kRejected: ++stats.rejected; break;
      case JobOutcome::kUnfinished: ++stats.unfinished; break;
    }
    if (j.waitMs) waits.push_back(*j.waitMs);
    if (j.runtimeMs) runtimes.push_back(*j.runtimeMs);
    if (auto t = j.turnaroundMs()) turnarounds.push_back(*t);
  }

  JobGroupStats finish() {
    stats.wait = summarize(waits);
    stats.runtime = summarize(runtimes);
    stats.turnaround = summarize(turnarounds);
    return stats;
  }
};

std::optional<double> peak(const std::vector<Point>* pts) {
  if (!pts || pts->empty()) return std::nullopt;
  double m = pts->front().y;
  for (const Point& p : *pts) m = std::max(m, p.y);
  return m;
}

std::optional<double> meanOf(const std::vector<Point>* pts) {
  if (!pts) return std::nullopt;
  std::vector<double> ys;
  ys.reserve(pts->size());
  for (const Point& p : *pts) ys.push_back(p.y);
  return mean(ys);
}

const std::vector<Point>* queueSeries(const MetricsTrack& t, std::string_view metric,
                                      const std::string& queue) {
  const MetricsTrack::QueueSeries& byQueue = t.queueMetric(metric);
  auto it = byQueue.find(queue);
  return it == byQueue.end() ? nullptr : &it->second;
}

std::vector<QueueUsage> queueUsage(const MetricsTrack& t) {
  std::vector<QueueUsage> out;
  const std::vector<Point>* clusterAlloc = t.global("cluster.allocated.memory");
  const std::vector<Point>* clusterAvail = t.global("cluster.available.memory");
  for (const std::string& q : t.queues()) {
    QueueUsage u;
    u.queue = q;
    const std::vector<Point>* mem = queueSeries(t, "allocated.memory", q);
    const std::vector<Point>* vc = queueSeries(t, "allocated.vcores", q);
    const std::vector<Point>* pend = queueSeries(t, "pending.memory", q);
    u.meanAllocatedMemory = meanOf(mem);
    u.peakAllocatedMemory = peak(mem);
    u.meanAllocatedVcores = meanOf(vc);
    u.peakAllocatedVcores = peak(vc);
    u.meanPendingMemory = meanOf(pend);
    u.peakPendingMemory = peak(pend);
    if (mem && clusterAlloc && clusterAvail) {
      std::map<double, double> size;
      std::map<double, double> avail;
      for (const Point& p : *clusterAvail) avail[p.x] = p.y;
      for (const Point& p : *clusterAlloc) {
        auto it = avail.find(p.x);
        if (it != avail.end() && p.y + it->second > 0) size[p.x] = p.y + it->second;
      }
      std::vector<Point> share;
      for (const Point& p : *mem) {
        auto it = size.find(p.x);
        if (it != size.end()) share.push_back({p.x, p.y / it->second});
      }
      if (!share.empty()) {
        u.meanShare = meanOf(&share);
        u.peakShare = peak(&share);
      }
    }
    auto last = [&](std::string_view metric) -> std::optional<double> {
      const std::vector<Point>* pts = queueSeries(t, metric, q);
      if (!pts || pts->empty()) return std::nullopt;
      return pts->back().y;
    };
    u.guaranteeMemory = last("guarantee.memory");
    u.maximumMemory = last("maximum.memory");
    u.containersMarked = last("containers.marked");
    u.containersPreempted = last("containers.preempted");
    out.push_back(std::move(u));
  }
  return out;
}

std::optional<double> meanUtilisation(const MetricsTrack& track, const char* allocated,
                                      const char* available) {
  const std::vector<Point>* a = track.global(allocated);
  const std::vector<Point>* b = track.global(available);
  if (!a || !b) return std::nullopt;
  std::vector<double> ratios;
  for (const Point& p : utilisationSeries(*a, *b)) ratios.push_back(p.y);
  return mean(ratios);
}

}  // namespace

std::vector<Point> utilisationSeries(const std::vector<Point>& allocated,
                                     const std::vector<Point>& available) {
  std::vector<Point> out;
  size_t i = 0, j = 0;
  while (i < allocated.size() && j < available.size()) {
    double ta = allocated[i].x, tb = available[j].x;
    if (ta < tb) {
      ++i;
    } else if (tb < ta) {
      ++j;
    } else {
      double sum = allocated[i].y + available[j].y;
      if (sum > 0) out.push_back(Point{ta, allocated[i].y / sum});
      ++i;
      ++j;
    }
  }
  return out;
}

ReportSummary computeSummary(const MetricsTrack& track, const JobSet& jobs) {
  ReportSummary s;
  s.hasQueues = jobs.hasQueues;
  Collector all;
  std::map<std::string, Collector> byQueue;
  for (const JobRecord& j : jobs.jobs) {
    all.add(j);
    if (jobs.hasQueues) byQueue[j.queue].add(j);
    if (j.submitMs) s.firstSubmitMs = std::min(s.firstSubmitMs.value_or(*j.submitMs), *j.submitMs);
    if (j.endMs) s.lastEndMs = std::max(s.lastEndMs.value_or(*j.endMs), *j.endMs);
  }
  s.overall = all.finish();
  for (auto& [queue, c] : byQueue) {
    c.stats.queue = queue;
    s.perQueue.push_back(c.finish());
  }
  if (s.firstSubmitMs && s.lastEndMs) {
    s.makespanMs = *s.lastEndMs - *s.firstSubmitMs;
    s.makespanIsLowerBound = s.overall.unfinished > 0;
  }

  s.samples = track.sampleCount();
  s.firstSampleTime = track.firstTime();
  s.lastSampleTime = track.lastTime();
  s.meanMemoryUtilisation =
      meanUtilisation(track, "cluster.allocated.memory", "cluster.available.memory");
  s.meanVcoresUtilisation =
      meanUtilisation(track, "cluster.allocated.vcores", "cluster.available.vcores");
  s.peakRunningContainers = peak(track.global("running.containers"));
  s.peakRunningApplications = peak(track.global("running.applications"));
  s.queueUsage = queueUsage(track);
  return s;
}

}  // namespace spindle::report
