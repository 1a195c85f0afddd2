// A small reader for the simulator's CSV outputs (jobruntime.csv, jobs.csv): a header line, then
// one record per line. Errors name the file, the 1-based line and the column.
//
//   SPINDLE_ASSIGN_OR_RETURN(CsvTable t, readCsvFile(dir / "jobs.csv", {"JobID", "queue"}));
//   for (const CsvRow& row : t.rows) {
//     std::string_view id = row.field(t.column("JobID"));
//     SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> ms, t.optionalInt(row, "submit_ms"));
//   }
//
// Format: RFC 4180 as far as the simulator needs it: comma separated, fields may be quoted with
// '"' (a doubled '"' inside quotes is one quote), CRLF or LF line ends, blank lines skipped, a
// leading UTF-8 byte order mark ignored.
// Quoted fields may not span lines (the simulator never writes such fields).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace spindle::report {

struct CsvRow {
  int64_t line = 0;  // 1-based line number in the file
  std::vector<std::string> fields;
};

struct CsvTable {
  std::string fileName;  // as used in messages, e.g. "jobs.csv"
  std::vector<std::string> header;
  std::vector<CsvRow> rows;

  // Index of a header column; the header was checked to contain every required column.
  size_t column(std::string_view name) const;
  const std::string& field(const CsvRow& row, std::string_view name) const;
  // The named field as an integer; empty means unknown (nullopt). Error names file, line, column.
  Result<std::optional<int64_t>> optionalInt(const CsvRow& row, std::string_view name) const;
};

// Splits one CSV line into fields; errors on an unterminated quote or text after a closing quote.
Result<std::vector<std::string>> splitCsvLine(std::string_view line);

// Parses `text` (the content of `fileName`). The header must contain every `required` column
// (any order; extra columns are kept and ignored by callers); every row must have as many
// fields as the header.
Result<CsvTable> parseCsv(std::string_view text, std::string fileName,
                          const std::vector<std::string>& required);

// Reads and parses a file; a missing file is NotFound naming the path.
Result<CsvTable> readCsvFile(const std::filesystem::path& path,
                             const std::vector<std::string>& required);

// The whole content of a file, or NotFound / InvalidArgument naming the path.
Result<std::string> readTextFile(const std::filesystem::path& path);

}  // namespace spindle::report
