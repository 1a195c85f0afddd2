// sls-runner.xml keys as SLSConfiguration (hadoop-sls conf/SLSConfiguration.java) defines them.
#include "trace/sls_settings.h"

#include <algorithm>
#include <cctype>

#include "base/strings.h"
#include "trace/trace.h"

namespace spindle {
namespace {

constexpr std::string_view kAmTypePrefix = "yarn.sls.am.type.";

Status mustBePositive(const Configuration& conf, std::string_view key, int64_t v) {
  if (v > 0) return Status::ok();
  return invalidArgument("{}must be positive, got {}", conf.where(key), v);
}

// conf.getLong / getInt of `key`, refused unless positive.
Result<int64_t> positiveLong(const Configuration& conf, std::string_view key, int64_t def) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t v, conf.getLong(key, def));
  SPINDLE_RETURN_IF_ERROR(mustBePositive(conf, key, v));
  return v;
}

// An interval in ms: positive and at most kMaxTraceTimeMs (trace.h), so the simulator's time
// sums cannot overflow.
Result<int64_t> intervalMs(const Configuration& conf, std::string_view key, int64_t def) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t v, positiveLong(conf, key, def));
  if (v > kMaxTraceTimeMs) {
    return invalidArgument("{}must be at most {} ms, got {}", conf.where(key), kMaxTraceTimeMs, v);
  }
  return v;
}

Result<int32_t> positiveInt(const Configuration& conf, std::string_view key, int32_t def) {
  SPINDLE_ASSIGN_OR_RETURN(int32_t v, conf.getInt(key, def));
  SPINDLE_RETURN_IF_ERROR(mustBePositive(conf, key, v));
  return v;
}

// memory and vcores from two keys, extras from `<extraPrefix><type>`.
Result<Resource> readResource(const Configuration& conf, const ResourceTypes& types,
                              std::string_view memoryKey, int64_t memoryDefault,
                              std::string_view vcoresKey, int64_t vcoresDefault,
                              std::string_view extraPrefix) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t memory, positiveLong(conf, memoryKey, memoryDefault));
  SPINDLE_ASSIGN_OR_RETURN(int64_t vcores, positiveLong(conf, vcoresKey, vcoresDefault));
  Resource r = Resource::of(memory, vcores);
  for (int i = kVcoresIndex + 1; i < types.count(); ++i) {
    const std::string key = fmt::format("{}{}", extraPrefix, types.info(i).name);
    SPINDLE_ASSIGN_OR_RETURN(int64_t v, conf.getLong(key, 0));
    if (v < 0) return invalidArgument("{}must not be negative, got {}", conf.where(key), v);
    r.set(i, v);
  }
  return r;
}

Result<bool> readSwitch(const Configuration& conf, std::string_view key, bool def) {
  if (!conf.contains(key)) return def;
  std::string v = conf.get(key, "");
  std::string upper;
  for (char c : v) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      upper += static_cast<char>(std::toupper(c));
  }
  if (upper == "ON") return true;
  if (upper == "OFF") return false;
  return invalidArgument("{}expected ON or OFF, got '{}'", conf.where(key), v);
}

Status readAmTypes(const Configuration& conf, SlsSettings& s) {
  // SLS's defaults (SlsSettings' initial value), overridden or extended by
  // yarn.sls.am.type.<name>.
  for (const std::string& key : conf.namesWithPrefix(kAmTypePrefix)) {
    std::string name = key.substr(kAmTypePrefix.size());
    std::optional<std::string> value = conf.get(key);
    std::string v(trimView(value ? *value : ""));
    if (name.empty()) return invalidArgument("{}empty AM type name", conf.where(key));
    s.amTypes[name] = v;
  }
  s.amKinds.clear();
  for (const auto& [name, value] : s.amTypes) {
    std::optional<std::string> kind = amKindForClass(value);
    if (!kind) {
      std::string key = fmt::format("{}{}", kAmTypePrefix, name);
      return invalidArgument(
          "{}unknown AM simulator '{}' (expected MRAMSimulator, StreamAMSimulator or "
          "DAGAMSimulator, full or simple class name, or mapreduce, stream or dag)",
          conf.where(key), value);
    }
    s.amKinds[name] = *kind;
  }
  return Status::ok();
}

}  // namespace

std::optional<std::string> amKindForClass(std::string_view value) {
  std::string_view simple = value;
  if (size_t dot = simple.rfind('.'); dot != std::string_view::npos) simple.remove_prefix(dot + 1);
  if (value == "mapreduce" || simple == "MRAMSimulator") return "mapreduce";
  if (value == "stream" || simple == "StreamAMSimulator") return "stream";
  if (value == "dag" || simple == "DAGAMSimulator") return "dag";
  return std::nullopt;
}

Result<SlsSettings> slsSettingsFromConfig(const Configuration& conf, const ResourceTypes& types) {
  SlsSettings s;
  SPINDLE_ASSIGN_OR_RETURN(s.nodeResource, readResource(conf, types, "yarn.sls.nm.memory.mb", 10240,
                                                        "yarn.sls.nm.vcores", 10, "yarn.sls.nm."));
  SPINDLE_ASSIGN_OR_RETURN(
      s.amResource, readResource(conf, types, "yarn.sls.am.container.memory", 1024,
                                 "yarn.sls.am.container.vcores", 1, "yarn.sls.am.container."));
  SPINDLE_ASSIGN_OR_RETURN(s.containerResource,
                           readResource(conf, types, "yarn.sls.container.memory.mb", 1024,
                                        "yarn.sls.container.vcores", 1, "yarn.sls.container."));

  SPINDLE_ASSIGN_OR_RETURN(s.nmHeartbeatMs,
                           intervalMs(conf, "yarn.sls.nm.heartbeat.interval.ms", 1000));
  SPINDLE_ASSIGN_OR_RETURN(s.amHeartbeatMs,
                           intervalMs(conf, "yarn.sls.am.heartbeat.interval.ms", 1000));

  // NMSimulator reports utilisation only for a ratio in (0, 1]; -1 (the default) and any other
  // value <= 0 switch it off. Above 1 is refused: a node cannot use more than it has.
  const char* ratioKey = "yarn.sls.nm.resource.utilization.ratio";
  SPINDLE_ASSIGN_OR_RETURN(s.nmUtilizationRatio, conf.getDouble(ratioKey, -1));
  if (s.nmUtilizationRatio > 1) {
    return invalidArgument("{}must be at most 1 (or <= 0 for off), got {}", conf.where(ratioKey),
                           s.nmUtilizationRatio);
  }

  SPINDLE_RETURN_IF_ERROR(readAmTypes(conf, s));

  SPINDLE_ASSIGN_OR_RETURN(s.metricsOn, readSwitch(conf, "yarn.sls.metrics.switch", true));
  SPINDLE_ASSIGN_OR_RETURN(s.metricsRecordIntervalMs,
                           intervalMs(conf, "yarn.sls.metrics.record.interval.ms", 1000));
  SPINDLE_ASSIGN_OR_RETURN(s.metricsTimerWindow,
                           positiveInt(conf, "yarn.sls.metrics.timer.window.size", 100));
  SPINDLE_ASSIGN_OR_RETURN(s.runnerPoolSize, positiveInt(conf, "yarn.sls.runner.pool.size", 10));
  SPINDLE_ASSIGN_OR_RETURN(s.metricsWebPort,
                           conf.getInt("yarn.sls.metrics.web.address.port", 10001));
  if (s.metricsWebPort < 0 || s.metricsWebPort > 65535) {
    return invalidArgument("{}must be a port in 0..65535, got {}",
                           conf.where("yarn.sls.metrics.web.address.port"), s.metricsWebPort);
  }
  SPINDLE_ASSIGN_OR_RETURN(s.amHonoursPreemption,
                           conf.getBool("spindle.sls.am.honour-preemption", true));
  SPINDLE_ASSIGN_OR_RETURN(s.amWorkPreservingPreemption,
                           conf.getBool("spindle.sls.am.preemption.work-preserving", false));
  SPINDLE_ASSIGN_OR_RETURN(s.maxContainersPerJob,
                           positiveLong(conf, "spindle.sls.max-containers-per-job", 1'000'000));
  SPINDLE_ASSIGN_OR_RETURN(s.maxContainers,
                           positiveLong(conf, "spindle.sls.max-containers", 20'000'000));
  SPINDLE_ASSIGN_OR_RETURN(s.maxNodes, positiveLong(conf, "spindle.sls.max-nodes", 1'000'000));
  return s;
}

}  // namespace spindle
