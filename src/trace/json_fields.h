// Typed access to the fields of one trace object (an SLS job or task, a nodes-file entry, a
// Rumen job, a SYNTH class) with SLS's lenient number rules, and errors that name the field.
//
//   JsonFields task(taskJson, "job.tasks[2].");
//   SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> d, task.optInt("container.duration.ms"));
//   // error text: "field job.tasks[2].container.duration.ms: expected an integer, got \"x\""
//
// SLS reads numbers with Long.parseLong(value.toString()), so "1024" (a string) is accepted as
// well as 1024 and 1024.0; a JSON null counts as absent, as Jackson's Map.get would give null.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/json_parse.h"  // briefJson: a short rendering of a value for error messages
#include "base/status.h"

namespace spindle {

class JsonFields {
 public:
  JsonFields(const nlohmann::json& obj, std::string prefix)
      : j_(&obj), prefix_(std::move(prefix)) {}

  const nlohmann::json& json() const { return *j_; }
  // Present and not null.
  bool has(std::string_view key) const;
  const nlohmann::json& at(std::string_view key) const { return j_->at(std::string(key)); }

  Result<std::optional<int64_t>> optInt(std::string_view key) const;
  Result<int64_t> requiredInt(std::string_view key) const;
  Result<int64_t> intOr(std::string_view key, int64_t def) const;
  Result<std::optional<double>> optDouble(std::string_view key) const;
  Result<double> doubleOr(std::string_view key, double def) const;
  // Strings; numbers are accepted and printed as SLS's toString() would.
  Result<std::optional<std::string>> optString(std::string_view key) const;
  Result<std::string> requiredString(std::string_view key) const;
  Result<std::string> stringOr(std::string_view key, std::string_view def) const;

  std::string fieldName(std::string_view key) const { return prefix_ + std::string(key); }
  // "field <prefix><key>: <message>".
  template <typename... Args>
  Status error(std::string_view key, fmt::format_string<Args...> f, Args&&... args) const {
    return invalidArgument("field {}: {}", fieldName(key),
                           fmt::format(f, std::forward<Args>(args)...));
  }

 private:
  const nlohmann::json* j_;
  std::string prefix_;
};

// Copies a read string into `out`, or returns its error. A copy, not a move: GCC 12 at -O3 warns
// (-Wmaybe-uninitialized) on moving a std::string out of a Result.
//
//   SPINDLE_RETURN_IF_ERROR(copyString(f.stringOr("user", "default"), job.user));
inline Status copyString(const Result<std::string>& read, std::string& out) {
  if (!read) return read.status();
  out = *read;
  return Status::ok();
}

// An integer from a JSON number or numeric string; nullopt when it is neither.
std::optional<int64_t> jsonToInt(const nlohmann::json& j);

}  // namespace spindle
