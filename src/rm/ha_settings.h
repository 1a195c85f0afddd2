// The ResourceManager's HA settings (YARN's ResourceManagerHA keys, rest-cli-protocols.md 2.3)
// and Spindle's etcd keys.
//
//   auto ha = HaSettings::fromConfiguration(conf);
//   if (ha->enabled) ... ha->selfId, ha->rms, ha->etcdEndpoints
//
// Keys:
//   yarn.resourcemanager.ha.enabled                     false
//   yarn.resourcemanager.ha.rm-ids, .webapp.address.<id> the RMs (config/rm_ha.h)
//   yarn.resourcemanager.ha.id                          this RM's id (required with HA)
//   yarn.resourcemanager.ha.automatic-failover.enabled  true: the RMs elect the active one on
//       etcd; false: every RM starts standby and only `rmadmin -transitionToActive` makes one
//       active (it then holds the same fenced leader key)
//   yarn.resourcemanager.cluster-id                     "yarn-cluster": the election and the
//       store live under /spindle/<cluster-id>/ in etcd, so two clusters never share a leader
//   spindle.resourcemanager.ha.etcd.endpoints           the etcd endpoints (required with HA),
//       "http://127.0.0.1:2379,..."
//   spindle.resourcemanager.ha.etcd.lease-ttl-ms        5000: the leader's lease; a dead active
//       is replaced within about this long (rounded up to whole seconds, etcd's unit)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::rm {

struct HaSettings {
  bool enabled = false;
  std::string selfId;
  // (id, "host:port" of its web address), rm-ids order.
  std::vector<std::pair<std::string, std::string>> rms;
  bool automaticFailover = true;
  std::string clusterId = "yarn-cluster";
  std::string etcdEndpoints;
  int64_t leaseTtlSeconds = 5;

  // "/spindle/<cluster-id>": the etcd prefix of the election and the store.
  std::string etcdPrefix() const { return "/spindle/" + clusterId; }
  std::string leaderKey() const { return etcdPrefix() + "/leader"; }
  // This RM's web address ("host:port").
  std::string selfAddress() const;

  static Result<HaSettings> fromConfiguration(const Configuration& conf);
};

}  // namespace spindle::rm
