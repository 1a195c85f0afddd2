#include "report/placement_section.h"

#include <fmt/format.h>

#include "report/csv.h"
#include "report/format.h"

namespace spindle::report {

namespace {

Result<std::string> spreadTable(const CsvTable& t) {
  std::string out =
      "<table id=\"placement-spread\">\n<caption>Spread of tagged containers</caption>\n"
      "<thead><tr><th>Job</th><th>Tag</th><th>Rack</th><th>Placed</th><th>Peak live</th>"
      "<th>Peak per node</th></tr></thead>\n<tbody>\n";
  for (const CsvRow& row : t.rows) {
    std::string cells;
    for (const char* col : {"placed", "peak_live", "peak_per_node"}) {
      SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> v, t.optionalInt(row, col));
      if (!v)
        return invalidArgument("{}: line {}: column '{}' is empty", t.fileName, row.line, col);
      cells += fmt::format("<td>{}</td>", *v);
    }
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td>{}</tr>\n",
                       escapeHtml(t.field(row, "job")), escapeHtml(t.field(row, "tag")),
                       escapeHtml(t.field(row, "rack")), cells);
  }
  return out + "</tbody>\n</table>\n";
}

Result<std::string> rejectionTable(const CsvTable& t) {
  std::string rows;
  int64_t total = 0;
  for (const CsvRow& row : t.rows) {
    SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> n, t.optionalInt(row, "rejected"));
    if (!n || *n == 0) continue;
    total += *n;
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        escapeHtml(t.field(row, "JobID")), *n,
                        escapeHtml(t.field(row, "rejection_reasons")));
  }
  if (rows.empty())
    return std::string("<p class=\"note\">No SchedulingRequest was rejected.</p>\n");
  return fmt::format(
      "<table id=\"placement-rejections\">\n<caption>Rejected allocations</caption>\n"
      "<thead><tr><th>Job</th><th>Rejected</th><th>Reasons</th></tr></thead>\n<tbody>\n{}"
      "<tr class=\"total\"><td>Total</td><td>{}</td><td></td></tr>\n</tbody>\n</table>\n",
      rows, total);
}

}  // namespace

Result<std::optional<std::string>> placementSection(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir / "placement.csv", ec)) return std::optional<std::string>();
  SPINDLE_ASSIGN_OR_RETURN(
      CsvTable spread, readCsvFile(dir / "placement.csv",
                                   {"job", "tag", "rack", "placed", "peak_live", "peak_per_node"}));
  SPINDLE_ASSIGN_OR_RETURN(
      CsvTable jobs, readCsvFile(dir / "jobs.csv", {"JobID", "rejected", "rejection_reasons"}));
  std::string out = "<section id=\"placement\">\n<h2>Placement</h2>\n";
  SPINDLE_ASSIGN_OR_RETURN(std::string a, spreadTable(spread));
  SPINDLE_ASSIGN_OR_RETURN(std::string b, rejectionTable(jobs));
  out += a + b;
  out +=
      "<p class=\"note\">Placed = containers allocated in the rack over the run; peak live = "
      "the most live there at once; peak per node = the most live on one of its nodes at once. "
      "See docs/simulator.md.</p>\n</section>\n";
  return std::optional<std::string>(std::move(out));
}

}  // namespace spindle::report
