#include "scenario/scheduler_views.h"

#include <charconv>

#include "dao/queue_metrics_view.h"
#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {

using nlohmann::json;

namespace {

std::string join(const std::vector<std::string>& parts, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out.push_back('.');
    out.append(parts[i]);
  }
  return out;
}

std::string_view orderPolicyName(preemption::IntraQueueOrderPolicy p) {
  return p == preemption::IntraQueueOrderPolicy::kPriorityFirst ? "priority_first"
                                                                : "userlimit_first";
}

}  // namespace

Result<json> queueMetricsStatePath(const std::vector<std::string>& parts, const std::string& path,
                                   const ExpectContext& ctx) {
  // Queue paths contain dots: the longest prefix naming a queue, then one field.
  for (size_t k = parts.size(); k >= 1; --k) {
    std::optional<json> m = queueMetricsView(ctx.scheduler, join(parts, 0, k));
    if (!m) continue;
    if (k == parts.size()) return *m;
    const std::string field = join(parts, k, parts.size());
    if (!m->contains(field)) {
      return notFound("no queue metric '{}' (in {}); metrics: {}", field, path, [&] {
        std::string names;
        for (const auto& [name, v] : m->items()) names += names.empty() ? name : ", " + name;
        return names;
      }());
    }
    return (*m)[field];
  }
  return notFound("no queue of {} is named in {}", ctx.scheduler.typeName(), path);
}

Result<json> reReservationsStatePath(AppId app, const std::vector<std::string>& parts,
                                     const std::string& path, const ExpectContext& ctx) {
  const auto* cs = dynamic_cast<const CapacityScheduler*>(&ctx.scheduler);
  if (cs == nullptr) {
    return failedPrecondition("{} keeps no re-reservation counts ({})", ctx.scheduler.typeName(),
                              path);
  }
  if (parts.size() != 1) {
    return invalidArgument("expected app:<handle>.reReservations.<priority> or .total in {}", path);
  }
  const CsApp* s = cs->csApp(app);
  if (s == nullptr) return json(nullptr);  // finished: the attempt and its counts are gone
  if (parts[0] == "total") {
    int64_t total = 0;
    for (const auto& [key, n] : s->reReservations) total += n;
    return json(total);
  }
  int32_t priority = 0;
  const std::string& p = parts[0];
  auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), priority);
  if (ec != std::errc() || end != p.data() + p.size()) {
    return invalidArgument("'{}' is neither a priority nor 'total' in {}", p, path);
  }
  auto it = s->reReservations.find(SchedulerKey{priority, 0});
  return json(it == s->reReservations.end() ? int64_t{0} : it->second);
}

std::optional<json> preemptionSettingsView(const Scheduler& sched) {
  const auto* cs = dynamic_cast<const CapacityScheduler*>(&sched);
  if (cs == nullptr) return std::nullopt;
  const MonitorConfig& m = cs->monitorConfig();
  const preemption::PreemptionSettings& s = m.policy;
  json j = json::object();
  auto p = [&](std::string_view suffix, json v) {
    j[std::string(preemption::kPreemptionPrefix) + std::string(suffix)] = std::move(v);
  };
  j[std::string(kMonitorEnableKey)] = m.enabled;
  j[std::string(kMonitorPoliciesKey)] =
      m.proportionalPolicy ? std::string(kProportionalPolicyClass) : std::string();
  p("observe_only", s.observeOnly);
  p("monitoring_interval", s.monitoringIntervalMs);
  p("max_wait_before_kill", s.maxWaitBeforeKillMs);
  p("total_preemption_per_round", s.totalPreemptionPerRound);
  p("max_ignored_over_capacity", s.maxIgnoredOverCapacity);
  p("natural_termination_factor", s.naturalTerminationFactor);
  p("select_based_on_reserved_containers", s.selectBasedOnReservedContainers);
  p("additional_res_balance_based_on_reserved_containers",
    s.additionalResBalanceBasedOnReservedContainers);
  p("conservative-drf", s.crossQueueConservativeDrf);
  p("preemption-to-balance-queue-after-satisfied.enabled", s.preemptToBalanceEnabled);
  p("preemption-to-balance-queue-after-satisfied.max-wait-before-kill",
    s.preemptToBalanceMaxWaitBeforeKillMs);
  p("intra-queue-preemption.enabled", s.intraQueueEnabled);
  p("intra-queue-preemption.minimum-threshold", s.intraQueueMinimumThreshold);
  p("intra-queue-preemption.max-allowable-limit", s.intraQueueMaxAllowableLimit);
  p("intra-queue-preemption.preemption-order-policy", orderPolicyName(s.intraQueueOrderPolicy));
  p("intra-queue-preemption.conservative-drf", s.intraQueueConservativeDrf);
  j["yarn.scheduler.capacity.lazy-preemption-enabled"] = s.lazyPreemptionEnabled;
  const std::string under =
      "yarn.scheduler.capacity.ordering-policy.priority-utilization.underutilized-preemption.";
  j[under + "enabled"] = s.underutilizedPreemptionEnabled;
  j[under + "reserved-container-delay-ms"] = s.underutilizedReservedContainerDelayMs;
  j[under + "allow-move-reservation"] = s.underutilizedAllowMoveReservation;
  return j;
}

Result<json> preemptionSettingsStatePath(const std::string& key, const std::string& path,
                                         const ExpectContext& ctx) {
  std::optional<json> v = preemptionSettingsView(ctx.scheduler);
  if (!v) {
    return failedPrecondition("{} has no capacity preemption policy ({})", ctx.scheduler.typeName(),
                              path);
  }
  if (key.empty()) return *v;
  if (v->contains(key)) return (*v)[key];
  const std::string full = std::string(preemption::kPreemptionPrefix) + key;
  if (v->contains(full)) return (*v)[full];
  return notFound("no capacity preemption setting '{}' (in {})", key, path);
}

}  // namespace spindle
