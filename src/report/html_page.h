// Assembles report.html from computed parts: summary tables, chart sections, other series.
// Pure: no file access; byte-identical output for equal inputs.
//
//   ReportPage page{summary, sections, track, jobs};
//   std::string html = renderReportPage(page);  // "<!DOCTYPE html>..."
//
// The page is self-contained: inline CSS and inline SVG, no script, no external resource, and a
// print stylesheet that keeps each chart and table on one page.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/jobs.h"
#include "report/report_charts.h"
#include "report/summary.h"
#include "report/track.h"

namespace spindle::report {

struct ReportPage {
  const ReportSummary& summary;
  const std::vector<ChartSection>& sections;
  const MetricsTrack& track;
  const JobSet& jobs;
  // reservation-metrics.json of a run with reservations (the Rayon metrics), or nullptr.
  const nlohmann::json* reservations = nullptr;
  // The Placement section (placement_section.h) of a run with placement keys, or nullptr.
  const std::string* placement = nullptr;
  // run.json (the simulator's run metadata and container totals), or nullptr.
  const nlohmann::json* run = nullptr;
};

std::string renderReportPage(const ReportPage& page);

}  // namespace spindle::report
