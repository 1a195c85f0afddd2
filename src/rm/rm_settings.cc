#include "rm/rm_settings.h"

#include "config/configuration_dir.h"
#include "protocol/http_server.h"

namespace spindle::rm {

Result<Address> readAddress(const Configuration& conf, const std::string& key,
                            const std::string& defaultHost, uint16_t defaultPort) {
  auto v = conf.get(key);
  if (!v) return Address{defaultHost, defaultPort};
  std::string where = conf.where(key);  // "file:line: property 'k': "
  where.resize(where.size() - 2);
  auto hp = protocol::parseHostPort(*v, where);
  if (!hp) return hp.status();
  return Address{hp->first, hp->second};
}

Result<RmSettings> RmSettings::fromConfiguration(const Configuration& conf) {
  RmSettings s;
  const std::string host = conf.get("yarn.resourcemanager.hostname", "127.0.0.1");
  SPINDLE_ASSIGN_OR_RETURN(s.webapp,
                           readAddress(conf, "yarn.resourcemanager.webapp.address", host, 8088));
  if (conf.contains("yarn.resourcemanager.resource-tracker.address")) {
    SPINDLE_ASSIGN_OR_RETURN(
        s.resourceTracker,
        readAddress(conf, "yarn.resourcemanager.resource-tracker.address", host, 8031));
  }
  if (conf.contains("yarn.resourcemanager.scheduler.address")) {
    SPINDLE_ASSIGN_OR_RETURN(
        s.scheduler, readAddress(conf, "yarn.resourcemanager.scheduler.address", host, 8030));
  }
  SPINDLE_ASSIGN_OR_RETURN(
      s.nmExpiryMs, conf.getTimeDurationMs("yarn.nm.liveness-monitor.expiry-interval-ms", 600'000));
  SPINDLE_ASSIGN_OR_RETURN(
      s.amExpiryMs, conf.getTimeDurationMs("yarn.am.liveness-monitor.expiry-interval-ms", 600'000));
  SPINDLE_ASSIGN_OR_RETURN(
      s.nmHeartbeatIntervalMs,
      conf.getTimeDurationMs("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 1000));
  SPINDLE_ASSIGN_OR_RETURN(s.maxAppAttempts,
                           conf.getInt("yarn.resourcemanager.am.max-attempts", 2));
  SPINDLE_ASSIGN_OR_RETURN(s.ioThreads, conf.getInt("spindle.resourcemanager.io-threads", 1));
  SPINDLE_ASSIGN_OR_RETURN(s.schedulerGatherUs,
                           conf.getLong("spindle.resourcemanager.scheduler.gather-us", 500));
  SPINDLE_ASSIGN_OR_RETURN(
      s.recoverySchedulingWaitMs,
      conf.getTimeDurationMs("yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms",
                             10'000));
  if (s.recoverySchedulingWaitMs < 0) {
    return invalidArgument(
        "{}must not be negative, got {}",
        conf.where("yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms"),
        s.recoverySchedulingWaitMs);
  }
  SPINDLE_ASSIGN_OR_RETURN(s.aclEnabled, conf.getBool("yarn.acl.enable", false));
  {
    auto acl = parseAccessControlList(conf.get("yarn.admin.acl", "*"));
    if (!acl) {
      return invalidArgument("{}{}", conf.where("yarn.admin.acl"), acl.status().message());
    }
    s.adminAcl = *acl;
  }
  s.staticUser = conf.get("hadoop.http.staticuser.user", "dr.who");
  if (s.staticUser.empty()) {
    return invalidArgument("{}must name a user", conf.where("hadoop.http.staticuser.user"));
  }
  s.nmRegistrationSecret = conf.get("spindle.nodemanager.registration.secret", "");
  {
    // YarnConfiguration.isDistributedNodeLabelConfiguration.
    const std::string type = conf.get("yarn.node-labels.configuration-type", "centralized");
    if (type != "centralized" && type != "delegated-centralized" && type != "distributed") {
      return invalidArgument(
          "{}'{}' is not a node label configuration type (centralized, delegated-centralized or "
          "distributed)",
          conf.where("yarn.node-labels.configuration-type"), type);
    }
    s.distributedNodeLabels = type == "distributed";
  }
  auto positive = [&](const char* key, int64_t v) -> Status {
    if (v <= 0) return invalidArgument("{}must be positive, got {}", conf.where(key), v);
    return Status::ok();
  };
  SPINDLE_RETURN_IF_ERROR(positive("yarn.nm.liveness-monitor.expiry-interval-ms", s.nmExpiryMs));
  SPINDLE_RETURN_IF_ERROR(positive("yarn.am.liveness-monitor.expiry-interval-ms", s.amExpiryMs));
  SPINDLE_RETURN_IF_ERROR(
      positive("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", s.nmHeartbeatIntervalMs));
  SPINDLE_RETURN_IF_ERROR(positive("yarn.resourcemanager.am.max-attempts", s.maxAppAttempts));
  SPINDLE_RETURN_IF_ERROR(positive("spindle.resourcemanager.io-threads", s.ioThreads));
  // At most 100 ms: a longer gather would hold every request back for as long.
  if (s.schedulerGatherUs < 0 || s.schedulerGatherUs > 100'000) {
    return invalidArgument("{}must be between 0 and 100000 microseconds, got {}",
                           conf.where("spindle.resourcemanager.scheduler.gather-us"),
                           s.schedulerGatherUs);
  }
  return s;
}

Result<Configuration> loadConfigurationDir(const std::string& dir) {
  // Hadoop's Configuration loads core-site.xml before YarnConfiguration's yarn-site.xml, so a
  // key set in both takes yarn-site.xml's value unless core-site.xml marks it final.
  return spindle::loadConfigurationDir(
      dir, {"core-site.xml", "yarn-site.xml", "capacity-scheduler.xml"});
}

}  // namespace spindle::rm
