#include "whatif/share_chart.h"

#include <set>

#include <fmt/format.h>

#include "report/format.h"
#include "report/svg_chart.h"
#include "report/track.h"
#include "whatif/plan_queues.h"

namespace spindle::whatif {

namespace {

using Points = std::vector<report::Point>;

std::map<double, double> byTime(const std::vector<report::Point>* points) {
  std::map<double, double> out;
  if (points == nullptr) return out;
  for (const report::Point& p : *points) out[p.x] = p.y;
  return out;
}

// The sum over the queue's leaves of a per-queue metric at each sample time; empty when none of
// them has it.
std::map<double, double> summed(const report::MetricsTrack& t, std::string_view metric,
                                const std::vector<std::string>& leaves) {
  std::map<double, double> out;
  const report::MetricsTrack::QueueSeries& s = t.queueMetric(metric);
  for (const std::string& l : leaves) {
    auto it = s.find(l);
    if (it == s.end()) continue;
    for (const report::Point& p : it->second) out[p.x] += p.y;
  }
  return out;
}

// One run's share series of one queue (its leaves together), and their means.
QueueShare shareOf(const report::MetricsTrack& t, const std::map<double, double>& total,
                   const std::vector<std::string>& leaves) {
  QueueShare s;
  std::map<double, double> guaranteed = summed(t, "fairshare.memory", leaves);
  if (!guaranteed.empty()) {
    s.guaranteeSource = "fair share";
  } else {
    guaranteed = summed(t, "guarantee.memory", leaves);
    if (!guaranteed.empty()) s.guaranteeSource = "configured guarantee";
  }
  const std::map<double, double> allocated = summed(t, "allocated.memory", leaves);
  const std::map<double, double> pending = summed(t, "pending.memory", leaves);
  double obtainedSum = 0, guaranteedSum = 0;
  int64_t samples = 0, withGuarantee = 0, below = 0;
  for (const auto& [x, gb] : allocated) {
    auto c = total.find(x);
    if (c == total.end() || c->second <= 0) continue;
    const double obtained = gb / c->second;
    s.obtained.push_back({x, obtained});
    obtainedSum += obtained;
    ++samples;
    auto g = guaranteed.find(x);
    if (g == guaranteed.end()) continue;
    const double share = g->second / c->second;
    s.guaranteed.push_back({x, share});
    guaranteedSum += share;
    ++withGuarantee;
    auto q = pending.find(x);
    if (q != pending.end() && q->second > 0 && obtained < share) ++below;
  }
  if (samples > 0) s.meanObtained = obtainedSum / static_cast<double>(samples);
  if (withGuarantee > 0) {
    s.meanGuaranteed = guaranteedSum / static_cast<double>(withGuarantee);
    s.belowWhilePending = static_cast<double>(below) / static_cast<double>(withGuarantee);
  }
  return s;
}

Points percent(const Points& in) {
  Points out = in;
  for (report::Point& p : out) p.y *= 100.0;
  return out;
}

}  // namespace

Result<QueueShareRuns> readQueueShares(const std::vector<RunOutput>& runs) {
  QueueShareRuns out;
  for (size_t r = 0; r < runs.size(); ++r) {
    const std::filesystem::path file = runs[r].dir / "realtimetrack.json";
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) continue;
    Result<report::MetricsTrack> t = report::readTrackFile(file);
    if (!t) {
      return invalidArgument("run '{}': {}", runs[r].label, t.status().message());
    }
    std::map<double, double> total = byTime(t->global("cluster.allocated.memory"));
    for (const auto& [time, gb] : byTime(t->global("cluster.available.memory"))) {
      total[time] += gb;
    }
    std::set<std::string> leaves;
    for (const auto& [queue, points] : t->queueMetric("allocated.memory")) leaves.insert(queue);
    for (const auto& [queue, members] : metricQueueGroups(leaves)) {
      QueueShare s = shareOf(*t, total, members);
      s.run = r;
      if (!s.obtained.empty()) out[queue].push_back(std::move(s));
    }
  }
  return out;
}

std::string shareChartsHtml(const QueueShareRuns& shares, const std::vector<std::string>& labels) {
  if (shares.empty()) return "";
  std::string out =
      "<h2>Guaranteed and obtained share</h2>\n<p>Per queue, each run's share of the cluster's "
      "memory over time: what the queue held (solid) and what it was guaranteed (dashed, the "
      "same colour): the Fair Scheduler's fair share, or the Capacity Scheduler's configured "
      "capacity. The table gives their means over the samples and the share of samples in which "
      "the queue had pending memory yet held less than its guarantee.</p>\n";
  std::string table =
      "<table id=\"shares\"><tr><th>queue</th><th>run</th><th>guarantee</th><th>mean "
      "obtained</th><th>mean guaranteed</th><th>below the guarantee while pending</th></tr>\n";
  for (const auto& [queue, runs] : shares) {
    report::ChartSpec spec;
    spec.id = "share-" + queue;
    spec.title = "Queue " + queue + ": obtained (solid) and guaranteed (dashed) share";
    spec.yLabel = "% of cluster memory";
    for (const QueueShare& s : runs) {
      const std::string label = s.run < labels.size() ? labels[s.run] : "?";
      const std::string colour = report::paletteColour(s.run);
      spec.series.push_back({label + " obtained", percent(s.obtained), colour, "none"});
      const bool hasGuarantee = !s.guaranteed.empty();
      if (hasGuarantee) {
        spec.series.push_back({label + " guaranteed (" + s.guaranteeSource + ")",
                               percent(s.guaranteed), colour, "6 3"});
      }
      table += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
          report::escapeHtml(queue), report::escapeHtml(label),
          hasGuarantee ? s.guaranteeSource : "none", report::formatPercent(s.meanObtained),
          hasGuarantee ? report::formatPercent(s.meanGuaranteed) : "—",
          hasGuarantee ? report::formatPercent(s.belowWhilePending) : "—");
    }
    out += "<div class=\"chart\">" + report::renderSvgChart(spec).svg + "</div>\n";
  }
  return out + table + "</table>\n";
}

}  // namespace spindle::whatif
