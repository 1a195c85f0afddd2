#include "rm/ha_settings.h"

#include "config/rm_ha.h"

namespace spindle::rm {

std::string HaSettings::selfAddress() const {
  for (const auto& [id, address] : rms) {
    if (id == selfId) return address;
  }
  return {};
}

Result<HaSettings> HaSettings::fromConfiguration(const Configuration& conf) {
  HaSettings s;
  SPINDLE_ASSIGN_OR_RETURN(s.rms, rmHaAddresses(conf, "yarn.resourcemanager.webapp.address", 8088));
  s.enabled = !s.rms.empty();
  if (!s.enabled) return s;
  s.selfId = conf.get(kRmHaIdKey, "");
  if (s.selfAddress().empty()) {
    return invalidArgument("{}{} must name one of {} ({}), got '{}'", conf.where(kRmHaIdKey),
                           kRmHaIdKey, kRmHaIdsKey, conf.get(kRmHaIdsKey, ""), s.selfId);
  }
  SPINDLE_ASSIGN_OR_RETURN(
      s.automaticFailover,
      conf.getBool("yarn.resourcemanager.ha.automatic-failover.enabled", true));
  s.clusterId = conf.get("yarn.resourcemanager.cluster-id", "yarn-cluster");
  if (s.clusterId.empty() || s.clusterId.find('/') != std::string::npos) {
    return invalidArgument("{}must be a non-empty name without '/', got '{}'",
                           conf.where("yarn.resourcemanager.cluster-id"), s.clusterId);
  }
  s.etcdEndpoints = conf.get("spindle.resourcemanager.ha.etcd.endpoints", "");
  if (s.etcdEndpoints.empty()) {
    return invalidArgument(
        "RM HA ({} is true) needs spindle.resourcemanager.ha.etcd.endpoints: the etcd that "
        "elects the active RM and holds the state store",
        kRmHaEnabledKey);
  }
  SPINDLE_ASSIGN_OR_RETURN(
      int64_t ttlMs, conf.getTimeDurationMs("spindle.resourcemanager.ha.etcd.lease-ttl-ms", 5000));
  if (ttlMs < 1000) {
    return invalidArgument("{}must be at least 1000 (etcd leases count whole seconds), got {}",
                           conf.where("spindle.resourcemanager.ha.etcd.lease-ttl-ms"), ttlMs);
  }
  s.leaseTtlSeconds = (ttlMs + 999) / 1000;
  return s;
}

}  // namespace spindle::rm
