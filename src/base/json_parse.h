// JSON parsing for every reader of user input (scenario files, SLS / Rumen / SYNTH traces, nodes
// files, REST bodies): one document, nesting depth bounded, every parser exception turned into a
// located error, and short renderings of values for error messages.
//
//   nlohmann::json doc;
//   if (std::optional<JsonParseError> e = parseJson(text, doc)) {
//     return invalidArgument("{}: byte {}: {}", file, e->offset, e->message);
//   }
//   // a wrong-typed field: "expected an integer, got [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[..."
//   std::string shown = briefJson(doc["count"]);
//
// Why: nlohmann's parser throws parse_error for syntax, but out_of_range for a number that does
// not fit a double (1e999); its DOM is built iteratively, but dump(), copies and comparisons
// recurse, so a deeply nested value would overflow the stack later. parseJson refuses nesting
// beyond maxDepth before building anything, and briefJson renders at most maxChars characters
// without walking the rest of the value.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace spindle {

// Deeper nesting than any Spindle input needs (scenarios reach about 8 levels).
inline constexpr int kMaxJsonDepth = 64;

struct JsonParseError {
  size_t offset = 0;  // 0-based byte in the text where the problem is
  std::string message;
};

// Parses `text` as one JSON document into `out`. Returns the error instead: a syntax error, a
// number out of the double range, or arrays/objects nested deeper than `maxDepth`.
std::optional<JsonParseError> parseJson(std::string_view text, nlohmann::json& out,
                                        int maxDepth = kMaxJsonDepth);

// The first offset at which arrays/objects in `text` nest deeper than `maxDepth` (string
// literals skipped), or nullopt.
std::optional<size_t> findTooDeep(std::string_view text, int maxDepth = kMaxJsonDepth);

// j.dump(), cut to at most `maxChars` characters ("..." ending a longer one); never renders
// more of a large or deep value than it shows.
std::string briefJson(const nlohmann::json& j, size_t maxChars = 40);

// 1-based line and column of byte `offset` in `text`.
struct TextPosition {
  int line = 1;
  int column = 1;
};
TextPosition positionOf(std::string_view text, size_t offset);

}  // namespace spindle
