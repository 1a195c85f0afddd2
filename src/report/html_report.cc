#include "report/html_report.h"

#include <filesystem>
#include <fstream>
#include <optional>

#include "report/html_page.h"
#include "report/jobs.h"
#include "report/placement_section.h"
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
  useTrackQueueNames(jobs, track);
  ReportSummary summary = computeSummary(track, jobs);
  std::vector<ChartSection> sections = buildChartSections(track, jobs, options);
  // A run with reservations wrote its Rayon metrics beside the other outputs.
  std::optional<nlohmann::json> reservations;
  if (fs::path rm = dir / "reservation-metrics.json"; fs::exists(rm, ec)) {
    std::ifstream in(rm);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
      return invalidArgument("{}: not a JSON object", rm.string());
    reservations = std::move(j);
  }
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> placement, placementSection(dir));
  // run.json: the run's metadata and container totals (spindle sim writes it; optional).
  std::optional<nlohmann::json> run;
  if (fs::path rj = dir / "run.json"; fs::exists(rj, ec)) {
    std::ifstream in(rj);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
      return invalidArgument("{}: not a JSON object", rj.string());
    run = std::move(j);
  }
  return renderReportPage(ReportPage{summary, sections, track, jobs,
                                     reservations ? &*reservations : nullptr,
                                     placement ? &*placement : nullptr, run ? &*run : nullptr});
}

Status writeHtmlReport(const std::string& outputDir, const report::ReportOptions& options) {
  namespace fs = std::filesystem;
  Result<std::string> html = renderHtmlReport(outputDir, options);
  if (!html) return html.status();
  // Written beside and renamed over, so a reader never sees half a page and a failed write
  // leaves any earlier report.html intact.
  fs::path path = fs::path(outputDir) / "report.html";
  fs::path tmp = fs::path(outputDir) / "report.html.tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return invalidArgument("{}: cannot open for writing", tmp.string());
    out.write(html->data(), static_cast<std::streamsize>(html->size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      return invalidArgument("{}: write failed", tmp.string());
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec)
    return invalidArgument("{}: cannot rename to report.html: {}", tmp.string(), ec.message());
  return Status::ok();
}

Status writeHtmlReport(const std::string& outputDir) {
  return writeHtmlReport(outputDir, report::ReportOptions{});
}

}  // namespace spindle
