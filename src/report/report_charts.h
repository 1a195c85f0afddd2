// The report's chart catalogue: which series from the inputs go into which chart.
//
//   std::vector<ChartSection> sections = buildChartSections(track, jobs, options);
//   for (const ChartSection& s : sections) for (const ChartSpec& c : s.charts) renderSvgChart(c);
//
// The first charts mirror SLS's web UI (sls/web/SLSWebApp.java: running apps and containers,
// cluster memory allocated vs available, per-queue allocated memory and vcores, scheduler
// operation time cost); pending resources, utilisation and the job charts are Spindle's.
//
// Each chart is data (a ChartSpec listing named series), so adding a chart for a new metric is
// a few lines here and no drawing code. A series whose key is absent from realtimetrack.json is
// left out; a chart with no series left is replaced by the section's note. Per-queue metrics the
// report does not know by name (e.g. added by later experiments) each get a generic chart in
// "Other per-queue metrics", and every per-queue memory metric also appears in its queue's chart
// under "Per-queue detail"; other unknown global keys are listed in an "Other series" table.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "report/jobs.h"
#include "report/svg_chart.h"
#include "report/track.h"

namespace spindle::report {

struct ChartSection {
  std::string id;     // anchor, e.g. "cluster"
  std::string title;  // heading, e.g. "Cluster resources"
  std::vector<ChartSpec> charts;
  std::vector<std::string> notes;  // plain text shown under the heading (escaped when written)
};

// The per-job timeline (one bar row per job) is drawn up to this many jobs.
inline constexpr size_t kMaxTimelineJobs = 200;
// "Per-queue detail" (one chart per queue) is drawn up to this many queues.
inline constexpr size_t kMaxQueueDetailCharts = 16;
// Timeline rows are labelled with their job ids up to this many jobs.
inline constexpr size_t kMaxTimelineLabels = 60;

struct ReportOptions {
  size_t maxPointsPerSeries = kDefaultMaxPoints;
  size_t maxPointsPerChart = kDefaultMaxChartPoints;
};

std::vector<ChartSection> buildChartSections(const MetricsTrack& track, const JobSet& jobs,
                                             const ReportOptions& options);

// One colour per queue across every chart and table: palette colours by position in the sorted
// union of the track's queues and the jobs' queues ("all jobs" without jobs.csv).
std::map<std::string, std::string> queueColours(const MetricsTrack& track, const JobSet& jobs);

// One queue naming across the report: a job whose queue is a path ("root.a") not in the track
// while its leaf ("a") is takes the leaf, the name the track's per-queue series use.
void useTrackQueueNames(JobSet& jobs, const MetricsTrack& track);

// Global keys the catalogue charts by name; the rest of track.globals() is "other".
const std::set<std::string>& chartedGlobalKeys();

}  // namespace spindle::report
