#include "report/csv.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <fstream>
#include <sstream>

namespace spindle::report {

size_t CsvTable::column(std::string_view name) const {
  auto it = std::find(header.begin(), header.end(), name);
  assert(it != header.end());
  return static_cast<size_t>(it - header.begin());
}

const std::string& CsvTable::field(const CsvRow& row, std::string_view name) const {
  return row.fields[column(name)];
}

Result<std::optional<int64_t>> CsvTable::optionalInt(const CsvRow& row,
                                                     std::string_view name) const {
  const std::string& s = field(row, name);
  if (s.empty()) return std::optional<int64_t>();
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) {
    return invalidArgument(
        "{}: line {}: column '{}': expected an integer or an empty field, got '{}'", fileName,
        row.line, name, s);
  }
  return std::optional<int64_t>(v);
}

Result<std::vector<std::string>> splitCsvLine(std::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  size_t i = 0;
  while (true) {
    cur.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            cur.push_back('"');
            i += 2;
            continue;
          }
          closed = true;
          ++i;
          break;
        }
        cur.push_back(line[i++]);
      }
      if (!closed) return invalidArgument("unterminated quoted field {}", out.size() + 1);
      if (i < line.size() && line[i] != ',') {
        return invalidArgument("text after the closing quote of field {}", out.size() + 1);
      }
    } else {
      while (i < line.size() && line[i] != ',') cur.push_back(line[i++]);
    }
    out.push_back(cur);
    if (i >= line.size()) break;
    ++i;  // skip ','
  }
  return out;
}

Result<CsvTable> parseCsv(std::string_view text, std::string fileName,
                          const std::vector<std::string>& required) {
  CsvTable table;
  table.fileName = std::move(fileName);
  // Spreadsheet tools save CSV with a UTF-8 byte order mark; it is not part of the header.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  bool haveHeader = false;
  int64_t lineNo = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    auto fields = splitCsvLine(line);
    if (!fields) {
      return invalidArgument("{}: line {}: {}", table.fileName, lineNo, fields.status().message());
    }
    if (!haveHeader) {
      table.header = *fields;
      haveHeader = true;
      for (const std::string& col : required) {
        if (std::find(table.header.begin(), table.header.end(), col) == table.header.end()) {
          return invalidArgument("{}: line {}: header lacks column '{}'", table.fileName, lineNo,
                                 col);
        }
      }
      continue;
    }
    if (fields->size() != table.header.size()) {
      return invalidArgument("{}: line {}: expected {} fields as in the header, got {}",
                             table.fileName, lineNo, table.header.size(), fields->size());
    }
    table.rows.push_back(CsvRow{lineNo, *fields});
  }
  if (!haveHeader) return invalidArgument("{}: empty file, expected a header line", table.fileName);
  return table;
}

Result<std::string> readTextFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return notFound("{}: no such file", path.string());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument("{}: cannot open for reading", path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return invalidArgument("{}: read error", path.string());
  return ss.str();
}

Result<CsvTable> readCsvFile(const std::filesystem::path& path,
                             const std::vector<std::string>& required) {
  // Kept in its Result: moving a std::string out trips GCC 12's -Wmaybe-uninitialized.
  Result<std::string> text = readTextFile(path);
  if (!text) return text.status();
  return parseCsv(*text, path.string(), required);
}

}  // namespace spindle::report
