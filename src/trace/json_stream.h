// Streams of concatenated JSON objects, the shape of every SLS input file: an SLS trace, a nodes
// file and a Rumen trace are `{...}{...}...` (whitespace between), not one JSON document.
//
//   Result<std::vector<JsonObject>> objs = readJsonObjects("jobs.json");
//   for (const JsonObject& o : *objs) use(o.value, o.line);   // line where the object starts
//   // or one object at a time, so a large trace is never held parsed in full:
//   Status s = forEachJsonObject(text, "jobs.json",
//                                [&](const JsonObject& o) { ...; return Status::ok(); });
//
// Algorithm: one pass finds each top-level `{` and its matching `}` (skipping string literals
// and escapes), then nlohmann parses that slice. Errors name the file, line, column and byte
// offset (0-based from the start of the file): a syntax error inside an object, text between
// objects, or an object that is still open at the end of the file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace spindle {

struct JsonObject {
  nlohmann::json value;
  int64_t offset = 0;  // byte offset of its `{` in the file
  int line = 1;        // 1-based line of its `{`
};

// Parses `text` and calls `fn` on each object in order; stops at the first syntax error or
// the first error `fn` returns. `source` (a file name) prefixes syntax errors.
Status forEachJsonObject(std::string_view text, std::string_view source,
                         const std::function<Status(const JsonObject&)>& fn);
// Parses `text`; `source` (a file name) prefixes every error message.
Result<std::vector<JsonObject>> parseJsonObjects(std::string_view text, std::string_view source);
// Reads and parses a file; an unreadable file is an error naming it.
Result<std::vector<JsonObject>> readJsonObjects(const std::string& path);
// The whole file as a string, or an error naming it.
Result<std::string> readTextFile(const std::string& path);

}  // namespace spindle
