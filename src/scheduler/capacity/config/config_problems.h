// Collects every error and warning found while reading capacity-scheduler.xml, so that one run
// reports all of them (each prefixed with file:line and the property, via Configuration::where).
//
//   Problems problems(conf);
//   problems.error(key, "Illegal capacity of {} for queue {}", javaFloat(v), path);
//   double f = problems.take(conf.getDouble(key, 1.0), 1.0);  // accessor errors recorded too
//   if (problems.hasErrors()) return problems.toStatus();
//
// Internal to spindle_capacity_config.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::capacity_config {

// Ok when `errors` is empty, else InvalidArgument with one error per line.
Status joinErrors(const std::vector<std::string>& errors);

class Problems {
 public:
  explicit Problems(const Configuration& conf) : conf_(conf) {}

  template <typename... Args>
  void error(std::string_view key, fmt::format_string<Args...> f, Args&&... args) {
    errors_.push_back(conf_.where(key) + fmt::format(f, std::forward<Args>(args)...));
  }
  // An error whose message already names the property (typed accessors do).
  void error(const Status& status) { errors_.push_back(status.message()); }

  template <typename... Args>
  void warn(std::string_view key, fmt::format_string<Args...> f, Args&&... args) {
    warnings_.push_back(conf_.where(key) + fmt::format(f, std::forward<Args>(args)...));
  }

  // The value of a typed read, or `fallback` after recording its error.
  template <typename T>
  T take(const Result<T>& read, T fallback) {
    if (read.isOk()) return read.value();
    error(read.status());
    return fallback;
  }

  bool hasErrors() const { return !errors_.empty(); }
  size_t errorCount() const { return errors_.size(); }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // InvalidArgument with one error per line.
  Status toStatus() const;

 private:
  const Configuration& conf_;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
};

}  // namespace spindle::capacity_config
