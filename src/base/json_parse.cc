#include "base/json_parse.h"

#include <type_traits>

#include <fmt/format.h>

namespace spindle {

using nlohmann::json;

namespace {

// nlohmann's message without its "[json.exception...] parse error at line L, column C: "
// prefix: the position it states is the caller's to give.
std::string cleanMessage(const std::string& what) {
  size_t col = what.find("column ");
  if (col != std::string::npos) {
    size_t colon = what.find(": ", col);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  size_t bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

// The DOM builder, keeping the position and message of the first error of any kind.
class LocatingSax : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit LocatingSax(json& out) : json_sax_dom_parser(out, /*allow_exceptions_=*/false) {}

  bool key(json::string_t& k) {
    lastKey_ = k;
    return json_sax_dom_parser::key(k);
  }

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& lastToken, const Exception& e) {
    if (!error_) {
      JsonParseError err;
      // A syntax error points at the character read last; a number that does not fit points
      // at the number's start.
      const bool syntax = std::is_same_v<Exception, nlohmann::detail::parse_error>;
      if (syntax) {
        err.offset = position > 0 ? position - 1 : 0;
      } else {
        err.offset = position >= lastToken.size() ? position - lastToken.size() : 0;
      }
      err.message = cleanMessage(e.what());
      if (!syntax && !lastKey_.empty()) err.message += fmt::format(" (field '{}')", lastKey_);
      error_ = std::move(err);
    }
    return false;
  }

  std::optional<JsonParseError> error_;

 private:
  std::string lastKey_;  // the member being read, named in a range error
};

// Appends j's compact dump to `out` until `out` is longer than `limit`.
void appendBrief(const json& j, std::string& out, size_t limit) {
  if (out.size() > limit) return;
  if (j.is_object()) {
    out += '{';
    bool first = true;
    for (auto it = j.begin(); it != j.end() && out.size() <= limit; ++it) {
      if (!first) out += ',';
      first = false;
      out += json(it.key()).dump();
      out += ':';
      appendBrief(it.value(), out, limit);
    }
    if (out.size() <= limit) out += '}';
  } else if (j.is_array()) {
    out += '[';
    bool first = true;
    for (auto it = j.begin(); it != j.end() && out.size() <= limit; ++it) {
      if (!first) out += ',';
      first = false;
      appendBrief(*it, out, limit);
    }
    if (out.size() <= limit) out += ']';
  } else {
    out += j.dump();
  }
}

}  // namespace

std::optional<size_t> findTooDeep(std::string_view text, int maxDepth) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
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
      if (++depth > maxDepth) return i;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::nullopt;
}

std::optional<JsonParseError> parseJson(std::string_view text, json& out, int maxDepth) {
  if (std::optional<size_t> deep = findTooDeep(text, maxDepth)) {
    return JsonParseError{*deep,
                          fmt::format("arrays and objects nested deeper than {} levels", maxDepth)};
  }
  json parsed;
  LocatingSax sax(parsed);
  const bool ok = json::sax_parse(text, &sax, json::input_format_t::json, /*strict=*/true);
  if (sax.error_) return sax.error_;
  if (!ok) return JsonParseError{text.size(), "malformed JSON"};
  out = std::move(parsed);
  return std::nullopt;
}

std::string briefJson(const json& j, size_t maxChars) {
  std::string s;
  appendBrief(j, s, maxChars);
  if (s.size() <= maxChars) return s;
  s.resize(maxChars >= 3 ? maxChars - 3 : 0);
  return s + "...";
}

TextPosition positionOf(std::string_view text, size_t offset) {
  TextPosition p;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace spindle
