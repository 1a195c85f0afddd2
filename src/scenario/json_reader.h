// Typed, located access to a JSON document: every error names the JSON path.
//
//   JsonReader step(doc["steps"][3], "steps[3]");
//   SPINDLE_ASSIGN_OR_RETURN(int64_t count, step.child("ask").getInt("count", 1));
//   // error text: "steps[3].ask.count: expected an integer, got \"x\""
//
// Used by the scenario parser and its steps (src/scenario/) so users see where a value is wrong;
// the trace readers have their own located helpers (src/trace/json_fields.h).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace spindle {

class JsonReader {
 public:
  JsonReader(const nlohmann::json& j, std::string path) : j_(&j), path_(std::move(path)) {}

  const nlohmann::json& json() const { return *j_; }
  const std::string& path() const { return path_; }
  bool has(std::string_view key) const;
  // The member `key`; an error when this is not an object or `key` is absent.
  Result<JsonReader> child(std::string_view key) const;
  // Element i of an array.
  JsonReader at(size_t i) const;
  std::string pathOf(std::string_view key) const;

  Status expectObject() const;
  Status expectArray() const;
  // Errors on members not in `allowed` (typos must not silently disable a check).
  Status onlyKeys(const std::set<std::string>& allowed) const;

  Result<std::string> getString(std::string_view key) const;  // required
  Result<std::string> getString(std::string_view key, std::string_view def) const;
  Result<int64_t> getInt(std::string_view key) const;
  Result<int64_t> getInt(std::string_view key, int64_t def) const;
  Result<double> getDouble(std::string_view key, double def) const;
  Result<bool> getBool(std::string_view key, bool def) const;
  Result<std::vector<std::string>> getStrings(std::string_view key) const;  // absent: empty

  template <typename... Args>
  Status error(fmt::format_string<Args...> f, Args&&... args) const {
    return invalidArgument("{}: {}", path_.empty() ? std::string_view("top level") : path_,
                           fmt::format(f, std::forward<Args>(args)...));
  }

 private:
  const nlohmann::json* j_;
  std::string path_;
};

// A duration: an integer number of ms, or a string with a suffix ms, s, m, h, d.
Result<int64_t> parseDurationMs(const nlohmann::json& j, std::string_view path);

}  // namespace spindle
