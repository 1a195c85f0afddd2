#include "trace/json_stream.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/json_parse.h"

namespace spindle {
namespace {

Status syntaxError(std::string_view source, std::string_view text, size_t offset,
                   std::string_view what) {
  TextPosition p = positionOf(text, offset);
  return invalidArgument("{}:{}:{}: JSON syntax error at byte {}: {}", source, p.line, p.column,
                         offset, what);
}

bool isJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The offset one past the `}` that closes the object opened at `start`, or npos when the text
// ends first.
size_t findObjectEnd(std::string_view text, size_t start) {
  int depth = 0;
  bool inString = false;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        inString = false;
      }
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

}  // namespace

Status forEachJsonObject(std::string_view text, std::string_view source,
                         const std::function<Status(const JsonObject&)>& fn) {
  size_t i = 0;
  // A UTF-8 byte-order mark is not JSON but editors write it; skip it.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  // Lines are counted incrementally so a large trace is scanned once.
  size_t lineCursor = 0;
  int line = 1;
  while (true) {
    while (i < text.size() && isJsonSpace(text[i])) ++i;
    if (i >= text.size()) break;
    if (text[i] != '{') {
      return syntaxError(
          source, text, i,
          fmt::format("expected '{{' starting a JSON object, got '{}'{}", text[i],
                      text[i] == '[' ? " (the file is a stream of concatenated objects, not an "
                                       "array)"
                                     : ""));
    }
    size_t end = findObjectEnd(text, i);
    if (end == std::string_view::npos) {
      TextPosition p = positionOf(text, i);
      return syntaxError(source, text, text.size(),
                         fmt::format("unexpected end of file: the object opened at line {} "
                                     "column {} is not closed",
                                     p.line, p.column));
    }
    JsonObject obj;
    obj.offset = static_cast<int64_t>(i);
    for (; lineCursor < i; ++lineCursor) line += text[lineCursor] == '\n' ? 1 : 0;
    obj.line = line;
    if (std::optional<JsonParseError> e = parseJson(text.substr(i, end - i), obj.value)) {
      return syntaxError(source, text, i + e->offset, e->message);
    }
    // The readers check each field's type; this turns a value one missed into an error that
    // names the object instead of an abort.
    try {
      SPINDLE_RETURN_IF_ERROR(fn(obj));
    } catch (const nlohmann::json::exception& e) {
      return invalidArgument("{}:{}: the object starting on this line: unexpected value: {}",
                             source, obj.line, e.what());
    }
    i = end;
  }
  return Status::ok();
}

Result<std::vector<JsonObject>> parseJsonObjects(std::string_view text, std::string_view source) {
  std::vector<JsonObject> out;
  SPINDLE_RETURN_IF_ERROR(forEachJsonObject(text, source, [&](const JsonObject& o) {
    out.push_back(o);
    return Status::ok();
  }));
  return out;
}

Result<std::string> readTextFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return invalidArgument("{}: is a directory", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument("{}: cannot read file", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return invalidArgument("{}: error while reading file", path);
  return ss.str();
}

Result<std::vector<JsonObject>> readJsonObjects(const std::string& path) {
  Result<std::string> text = readTextFile(path);
  if (!text) return text.status();
  return parseJsonObjects(*text, path);
}

}  // namespace spindle
