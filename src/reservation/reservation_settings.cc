#include "reservation/reservation_settings.h"

#include <cctype>
#include <charconv>

namespace spindle::reservation {

namespace {

constexpr std::string_view kSys = "yarn.resourcemanager.reservation-system.";
constexpr std::string_view kReservationPackage =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.";

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

Status readBool(const PropertyLookup& props, const std::string& key, bool& out) {
  auto v = props(key);
  if (!v) return Status::ok();
  std::string s = trim(*v);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "true") {
    out = true;
  } else if (s == "false") {
    out = false;
  } else {
    return invalidArgument("{}: '{}' is not a boolean", key, *v);
  }
  return Status::ok();
}

Status readLong(const PropertyLookup& props, const std::string& key, int64_t& out) {
  auto v = props(key);
  if (!v) return Status::ok();
  std::string s = trim(*v);
  int64_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size()) {
    return invalidArgument("{}: '{}' is not an integer", key, *v);
  }
  out = n;
  return Status::ok();
}

Status readFloat(const PropertyLookup& props, const std::string& key, float& out) {
  auto v = props(key);
  if (!v) return Status::ok();
  std::string s = trim(*v);
  try {
    size_t used = 0;
    float f = std::stof(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    out = f;
  } catch (const std::exception&) {
    return invalidArgument("{}: '{}' is not a number", key, *v);
  }
  return Status::ok();
}

// Hadoop's getTimeDuration in ms: a number with an optional ns/us/ms/s/m/h/d suffix.
Status readDurationMs(const PropertyLookup& props, const std::string& key, int64_t& out) {
  auto v = props(key);
  if (!v) return Status::ok();
  std::string s = trim(*v);
  size_t digits = 0;
  if (digits < s.size() && s[digits] == '-') ++digits;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  int64_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + digits, n);
  std::string unit = trim(s.substr(digits));
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ec != std::errc() || p != s.data() + digits) {
    return invalidArgument("{}: '{}' is not a time duration", key, *v);
  }
  if (unit.empty() || unit == "ms") {
    out = n;
  } else if (unit == "ns") {
    out = n / 1000000;
  } else if (unit == "us") {
    out = n / 1000;
  } else if (unit == "s") {
    out = n * 1000;
  } else if (unit == "m") {
    out = n * 60000;
  } else if (unit == "h") {
    out = n * 3600000;
  } else if (unit == "d") {
    out = n * 86400000;
  } else {
    return invalidArgument("{}: '{}' has an unknown time unit '{}'", key, *v, unit);
  }
  return Status::ok();
}

void readString(const PropertyLookup& props, const std::string& key, std::string& out) {
  if (auto v = props(key)) out = trim(*v);
}

std::string sysKey(std::string_view suffix) { return std::string(kSys) + std::string(suffix); }

}  // namespace

Result<ReservationSystemSettings> readReservationSystemSettings(const PropertyLookup& props) {
  ReservationSystemSettings s;
  SPINDLE_RETURN_IF_ERROR(readBool(props, sysKey("enable"), s.enabled));
  readString(props, sysKey("class"), s.systemClass);
  readString(props, sysKey("plan.follower"), s.planFollowerClass);
  SPINDLE_RETURN_IF_ERROR(
      readDurationMs(props, sysKey("planfollower.time-step"), s.planFollowerTimeStepMs));
  if (s.planFollowerTimeStepMs < 0) s.planFollowerTimeStepMs = 1000;
  SPINDLE_RETURN_IF_ERROR(readLong(props, sysKey("max-periodicity"), s.maxPeriodicityMs));
  SPINDLE_RETURN_IF_ERROR(
      readBool(props, sysKey("favor-early-allocation"), s.agent.favorEarlyAllocation));
  int64_t smoothness = s.agent.smoothnessFactor;
  SPINDLE_RETURN_IF_ERROR(readLong(props, sysKey("smoothness-factor"), smoothness));
  s.agent.smoothnessFactor = static_cast<int>(smoothness);
  return s;
}

Result<ReservableQueueSettings> readCapacityQueueReservationSettings(const PropertyLookup& props,
                                                                     std::string_view queuePath) {
  ReservableQueueSettings q;
  q.queuePath = std::string(queuePath);
  const std::string prefix = "yarn.scheduler.capacity." + q.queuePath + ".";
  SPINDLE_RETURN_IF_ERROR(readBool(props, prefix + "reservable", q.reservable));
  readString(props, prefix + "reservation-agent", q.agentClass);
  readString(props, prefix + "reservation-policy", q.policyClass);
  SPINDLE_RETURN_IF_ERROR(readLong(props, prefix + "reservation-window", q.reservationWindowMs));
  SPINDLE_RETURN_IF_ERROR(
      readFloat(props, prefix + "instantaneous-max-capacity", q.instantaneousMaxCapacity));
  SPINDLE_RETURN_IF_ERROR(readFloat(props, prefix + "average-capacity", q.averageCapacity));
  readString(props, prefix + "reservation-planner", q.plannerClass);
  SPINDLE_RETURN_IF_ERROR(readBool(props, prefix + "reservation-move-on-expiry", q.moveOnExpiry));
  SPINDLE_RETURN_IF_ERROR(
      readLong(props, prefix + "reservation-enforcement-window", q.enforcementWindowMs));
  SPINDLE_RETURN_IF_ERROR(
      readBool(props, prefix + "show-reservations-as-queues", q.showReservationsAsQueues));
  return q;
}

Result<std::unique_ptr<SharingPolicy>> makeSharingPolicy(std::string_view className,
                                                         const ReservableQueueSettings& queue) {
  std::string_view name = className;
  if (name.starts_with(kReservationPackage)) name.remove_prefix(kReservationPackage.size());
  if (name == "NoOverCommitPolicy") {
    return std::unique_ptr<SharingPolicy>(std::make_unique<NoOverCommitPolicy>());
  }
  if (name == "CapacityOverTimePolicy") {
    return std::unique_ptr<SharingPolicy>(std::make_unique<CapacityOverTimePolicy>(
        CapacityOverTimePolicy::Settings{.validWindowMs = queue.reservationWindowMs,
                                         .instantaneousMaxPercent = queue.instantaneousMaxCapacity,
                                         .averagePercent = queue.averageCapacity}));
  }
  return invalidArgument("{}: unknown reservation-policy '{}': expected {} or {}", queue.queuePath,
                         className, kCapacityOverTimePolicyClass, kNoOverCommitPolicyClass);
}

Result<ReservationPlan> makeReservationPlan(const ReservationSystemSettings& system,
                                            const ReservableQueueSettings& queue,
                                            const ResourceCalculator& calc, const Clock& clock,
                                            const Resource& planCapacity,
                                            const Resource& minimumAllocation,
                                            const Resource& maximumAllocation) {
  SPINDLE_ASSIGN_OR_RETURN(std::unique_ptr<SharingPolicy> policy,
                           makeSharingPolicy(queue.policyClass, queue));
  SPINDLE_ASSIGN_OR_RETURN(std::unique_ptr<ReservationAgent> agent,
                           makeReservationAgent(queue.agentClass, system.agent));
  SPINDLE_ASSIGN_OR_RETURN(std::unique_ptr<Planner> replanner,
                           makeReplanner(queue.plannerClass, queue.enforcementWindowMs));
  std::string name = queue.queuePath;
  if (size_t dot = name.rfind('.'); dot != std::string::npos) name = name.substr(dot + 1);
  ReservationPlan rp;
  rp.plan = std::make_unique<InMemoryPlan>(
      PlanSettings{
          .queueName = name,
          .totalCapacity = planCapacity,
          .stepMs = system.planFollowerTimeStepMs > 0 ? system.planFollowerTimeStepMs : 1000,
          .minimumAllocation = minimumAllocation,
          .maximumAllocation = maximumAllocation,
          .moveOnExpiry = queue.moveOnExpiry,
          .maxPeriodicity = system.maxPeriodicityMs},
      calc, std::move(policy), clock);
  rp.agent = std::move(agent);
  rp.replanner = std::move(replanner);
  return rp;
}

}  // namespace spindle::reservation
