#include "report/html_report.h"

#include <filesystem>
#include <fstream>

#include "report/html_page.h"
#include "report/jobs.h"
#include "report/summary.h"
#include "report/track.h"

namespace spindle {

Result<std::string> renderHtmlReport(const std::string& outputDir,
                                     const report::ReportOptions& options) {
  namespace fs = std::filesystem;
  using namespace report;
  fs::path dir(outputDir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return notFound("{}: no such output folder", outputDir);
  SPINDLE_ASSIGN_OR_RETURN(MetricsTrack track, readTrackFile(dir / "realtimetrack.json"));
  SPINDLE_ASSIGN_OR_RETURN(JobSet jobs, readJobs(dir));
  ReportSummary summary = computeSummary(track, jobs);
  std::vector<ChartSection> sections = buildChartSections(track, jobs, options);
  return renderReportPage(ReportPage{summary, sections, track, jobs});
}

Status writeHtmlReport(const std::string& outputDir, const report::ReportOptions& options) {
  Result<std::string> html = renderHtmlReport(outputDir, options);
  if (!html) return html.status();
  std::filesystem::path path = std::filesystem::path(outputDir) / "report.html";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return invalidArgument("{}: cannot open for writing", path.string());
  out.write(html->data(), static_cast<std::streamsize>(html->size()));
  out.close();
  if (!out) return invalidArgument("{}: write failed", path.string());
  return Status::ok();
}

Status writeHtmlReport(const std::string& outputDir) {
  return writeHtmlReport(outputDir, report::ReportOptions{});
}

}  // namespace spindle
