#include "scheduler/capacity/preemption/preemption_settings.h"

#include <fmt/format.h>

namespace spindle::preemption {
namespace {

std::string key(std::string_view suffix) {
  std::string k(kPreemptionPrefix);
  k.append(suffix);
  return k;
}

constexpr std::string_view kUnderutilizedPrefix =
    "yarn.scheduler.capacity.ordering-policy.priority-utilization.underutilized-preemption.";

std::string underKey(std::string_view suffix) {
  std::string k(kUnderutilizedPrefix);
  k.append(suffix);
  return k;
}

Status checkFraction(const std::string& name, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi)) {
    return invalidArgument("{}: value {} is outside [{}, {}]", name, v, lo, hi);
  }
  return Status::ok();
}

Result<double> fraction(const Configuration& conf, const std::string& name, double def, double lo,
                        double hi) {
  SPINDLE_ASSIGN_OR_RETURN(double v, conf.getDouble(name, def));
  SPINDLE_RETURN_IF_ERROR(checkFraction(name, v, lo, hi));
  return v;
}

Result<int64_t> duration(const Configuration& conf, const std::string& name, int64_t def) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t v, conf.getLong(name, def));
  if (v < 0) return invalidArgument("{}: value {} must not be negative", name, v);
  return v;
}

}  // namespace

Result<PreemptionSettings> parsePreemptionSettings(const Configuration& conf) {
  PreemptionSettings s;
  SPINDLE_ASSIGN_OR_RETURN(s.monitorEnabled,
                           conf.getBool("yarn.resourcemanager.scheduler.monitor.enable", false));
  SPINDLE_ASSIGN_OR_RETURN(s.observeOnly, conf.getBool(key("observe_only"), false));
  SPINDLE_ASSIGN_OR_RETURN(s.monitoringIntervalMs,
                           duration(conf, key("monitoring_interval"), 3000));
  if (s.monitoringIntervalMs == 0) {
    return invalidArgument("{}: value 0 must be positive", key("monitoring_interval"));
  }
  SPINDLE_ASSIGN_OR_RETURN(s.maxWaitBeforeKillMs,
                           duration(conf, key("max_wait_before_kill"), 15000));
  SPINDLE_ASSIGN_OR_RETURN(s.totalPreemptionPerRound,
                           fraction(conf, key("total_preemption_per_round"), 0.1, 0.0, 1.0));
  // YARN accepts any non-negative dead zone; > 1 simply means "more than double the guarantee".
  SPINDLE_ASSIGN_OR_RETURN(s.maxIgnoredOverCapacity,
                           fraction(conf, key("max_ignored_over_capacity"), 0.1, 0.0, 1e9));
  SPINDLE_ASSIGN_OR_RETURN(s.naturalTerminationFactor,
                           fraction(conf, key("natural_termination_factor"), 0.2, 0.0, 1.0));
  SPINDLE_ASSIGN_OR_RETURN(s.selectBasedOnReservedContainers,
                           conf.getBool(key("select_based_on_reserved_containers"), false));
  SPINDLE_ASSIGN_OR_RETURN(
      s.additionalResBalanceBasedOnReservedContainers,
      conf.getBool(key("additional_res_balance_based_on_reserved_containers"), false));
  SPINDLE_ASSIGN_OR_RETURN(s.crossQueueConservativeDrf,
                           conf.getBool(key("conservative-drf"), false));
  SPINDLE_ASSIGN_OR_RETURN(
      s.preemptToBalanceEnabled,
      conf.getBool(key("preemption-to-balance-queue-after-satisfied.enabled"), false));
  SPINDLE_ASSIGN_OR_RETURN(
      s.preemptToBalanceMaxWaitBeforeKillMs,
      duration(conf, key("preemption-to-balance-queue-after-satisfied.max-wait-before-kill"),
               300000));
  SPINDLE_ASSIGN_OR_RETURN(s.intraQueueEnabled,
                           conf.getBool(key("intra-queue-preemption.enabled"), false));
  SPINDLE_ASSIGN_OR_RETURN(
      s.intraQueueMinimumThreshold,
      fraction(conf, key("intra-queue-preemption.minimum-threshold"), 0.5, 0.0, 1e9));
  SPINDLE_ASSIGN_OR_RETURN(
      s.intraQueueMaxAllowableLimit,
      fraction(conf, key("intra-queue-preemption.max-allowable-limit"), 0.2, 0.0, 1.0));
  const std::string orderKey = key("intra-queue-preemption.preemption-order-policy");
  std::string order = conf.get(orderKey, "userlimit_first");
  if (order == "userlimit_first") {
    s.intraQueueOrderPolicy = IntraQueueOrderPolicy::kUserLimitFirst;
  } else if (order == "priority_first") {
    s.intraQueueOrderPolicy = IntraQueueOrderPolicy::kPriorityFirst;
  } else {
    return invalidArgument("{}: unknown value '{}' (expected userlimit_first or priority_first)",
                           orderKey, order);
  }
  SPINDLE_ASSIGN_OR_RETURN(s.intraQueueConservativeDrf,
                           conf.getBool(key("intra-queue-preemption.conservative-drf"), true));
  SPINDLE_ASSIGN_OR_RETURN(s.lazyPreemptionEnabled,
                           conf.getBool("yarn.scheduler.capacity.lazy-preemption-enabled", false));
  SPINDLE_ASSIGN_OR_RETURN(s.underutilizedPreemptionEnabled,
                           conf.getBool(underKey("enabled"), false));
  SPINDLE_ASSIGN_OR_RETURN(s.underutilizedReservedContainerDelayMs,
                           duration(conf, underKey("reserved-container-delay-ms"), 60000));
  SPINDLE_ASSIGN_OR_RETURN(s.underutilizedAllowMoveReservation,
                           conf.getBool(underKey("allow-move-reservation"), false));
  return s;
}

}  // namespace spindle::preemption
