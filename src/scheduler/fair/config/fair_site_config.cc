#include "scheduler/fair/config/fair_site_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace spindle::fair {
namespace {

// Reads typed keys, collecting every error.
class SiteReader {
 public:
  explicit SiteReader(const Configuration& conf) : conf_(conf) {}

  template <typename T>
  T take(const Result<T>& read, T fallback) {
    if (read.isOk()) return read.value();
    errors_.push_back(read.status().message());
    return fallback;
  }
  bool flag(const std::string& key, bool def) { return take(conf_.getBool(key, def), def); }
  int32_t integer(const std::string& key, int32_t def) { return take(conf_.getInt(key, def), def); }
  int64_t longValue(const std::string& key, int64_t def) {
    return take(conf_.getLong(key, def), def);
  }
  float floatValue(const std::string& key, float def) {
    return static_cast<float>(take(conf_.getDouble(key, def), static_cast<double>(def)));
  }
  // kPreemptionDesignKey: "3.x" (default) or "2.x".
  PreemptionDesign design(const std::string& key, PreemptionDesign def) {
    std::optional<std::string> v = conf_.get(key);
    if (!v) return def;
    const size_t b = v->find_first_not_of(" \t\r\n");
    const std::string t = b == std::string::npos
                              ? std::string()
                              : v->substr(b, v->find_last_not_of(" \t\r\n") - b + 1);
    if (t == "3.x") return PreemptionDesign::k3x;
    if (t == "2.x") return PreemptionDesign::k2x;
    errors_.push_back(conf_.where(key) + fmt::format("expected 3.x or 2.x, got '{}'", t));
    return def;
  }
  Status status() const {
    if (errors_.empty()) return Status::ok();
    return invalidArgument("{}", fmt::join(errors_, "\n"));
  }

 private:
  const Configuration& conf_;
  std::vector<std::string> errors_;
};

std::string key(const char* suffix) {
  std::string k(kFairPrefix);
  k += suffix;
  return k;
}

}  // namespace

Result<FairSiteConfig> parseFairSiteConfig(const Configuration& conf) {
  SiteReader r(conf);
  FairSiteConfig s;
  const std::string fileKey = key("allocation.file");
  s.allocationFileSet = conf.contains(fileKey);
  s.allocationFile = conf.get(fileKey, s.allocationFile);
  s.userAsDefaultQueue = r.flag(key("user-as-default-queue"), s.userAsDefaultQueue);
  s.allowUndeclaredPools = r.flag(key("allow-undeclared-pools"), s.allowUndeclaredPools);
  s.preemption = r.flag(key("preemption"), s.preemption);
  s.preemptionUtilizationThreshold = r.floatValue(key("preemption.cluster-utilization-threshold"),
                                                  s.preemptionUtilizationThreshold);
  s.sizeBasedWeight = r.flag(key("sizebasedweight"), s.sizeBasedWeight);
  s.assignMultiple = r.flag(key("assignmultiple"), s.assignMultiple);
  s.dynamicMaxAssign = r.flag(key("dynamic.max.assign"), s.dynamicMaxAssign);
  s.maxAssign = r.integer(key("max.assign"), s.maxAssign);
  s.localityThresholdNode = r.floatValue(key("locality.threshold.node"), s.localityThresholdNode);
  s.localityThresholdRack = r.floatValue(key("locality.threshold.rack"), s.localityThresholdRack);
  s.continuousSchedulingEnabled =
      r.flag(key("continuous-scheduling-enabled"), s.continuousSchedulingEnabled);
  s.continuousSchedulingSleepMs =
      r.integer(key("continuous-scheduling-sleep-ms"), s.continuousSchedulingSleepMs);
  s.localityDelayNodeMs = r.longValue(key("locality-delay-node-ms"), s.localityDelayNodeMs);
  s.localityDelayRackMs = r.longValue(key("locality-delay-rack-ms"), s.localityDelayRackMs);
  s.updateIntervalMs = r.longValue(key("update-interval-ms"), s.updateIntervalMs);
  if (s.updateIntervalMs < 0) {
    s.warnings.push_back(
        conf.where(key("update-interval-ms")) +
        fmt::format("{} is invalid, so using default value 500 ms instead", s.updateIntervalMs));
    s.updateIntervalMs = 500;
  }
  s.waitTimeBeforeKillMs = r.longValue(key("waitTimeBeforeKill"), s.waitTimeBeforeKillMs);
  s.waitTimeBeforeNextStarvationCheckMs =
      r.longValue(key("waitTimeBeforeNextStarvationCheck"), s.waitTimeBeforeNextStarvationCheckMs);
  s.preemptionIntervalMs = r.longValue(key("preemptionInterval"), s.preemptionIntervalMs);
  s.amPreemption = r.flag(key("am.preemption"), s.amPreemption);
  s.preemptionDesign = r.design(kPreemptionDesignKey, s.preemptionDesign);
  s.reservableNodes = r.floatValue(key("reservable-nodes"), s.reservableNodes);
  s.reservationThresholdIncrementMultiple =
      r.floatValue("yarn.scheduler.reservation-threshold.increment-multiple",
                   s.reservationThresholdIncrementMultiple);
  s.eventLogEnabled = r.flag(key("event-log-enabled"), s.eventLogEnabled);
  SPINDLE_RETURN_IF_ERROR(r.status());
  return s;
}

}  // namespace spindle::fair
