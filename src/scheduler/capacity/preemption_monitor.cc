#include "scheduler/capacity/preemption_monitor.h"

#include <string>

namespace spindle {

namespace {

constexpr std::string_view kProportionalPolicySimpleName = "ProportionalCapacityPreemptionPolicy";

}  // namespace

Result<MonitorConfig> parseMonitorConfig(const Configuration& conf) {
  MonitorConfig m;
  SPINDLE_ASSIGN_OR_RETURN(m.policy, preemption::parsePreemptionSettings(conf));
  m.enabled = m.policy.monitorEnabled;
  if (conf.contains(kMonitorPoliciesKey)) {
    m.proportionalPolicy = false;
    for (const std::string& name : conf.getStrings(kMonitorPoliciesKey)) {
      if (name == kProportionalPolicyClass || name == kProportionalPolicySimpleName) {
        m.proportionalPolicy = true;
        continue;
      }
      return invalidArgument(
          "{}: unknown scheduling monitor policy '{}' (the Capacity Scheduler runs {} only)",
          kMonitorPoliciesKey, name, kProportionalPolicyClass);
    }
  }
  return m;
}

}  // namespace spindle
