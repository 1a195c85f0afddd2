// The ResourceManager daemon's own settings, read from the same files the simulator reads
// (yarn-site.xml, capacity-scheduler.xml, fair-scheduler.xml in a --conf folder) with YARN's
// keys and defaults; the scheduler reads its own keys from the same Configuration.
//
//   auto conf = loadConfigurationDir("conf/");
//   auto s = RmSettings::fromConfiguration(*conf);
//   s->webapp;                       // {"127.0.0.1", 8088}
//
// Addresses: everything is served over HTTP. yarn.resourcemanager.webapp.address (default
// <yarn.resourcemanager.hostname>:8088) is always served; yarn.resourcemanager.resource-tracker
// .address (8031) and yarn.resourcemanager.scheduler.address (8030) are served too when set,
// each port answering every path. yarn.resourcemanager.hostname defaults to 127.0.0.1 (YARN's
// is 0.0.0.0): a daemon is reachable from other hosts only when configured so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "config/access_control_list.h"
#include "config/configuration.h"

namespace spindle::rm {

struct Address {
  std::string host;
  uint16_t port = 0;
  std::string toString() const { return host + ":" + std::to_string(port); }
};

struct RmSettings {
  Address webapp;
  std::optional<Address> resourceTracker;  // only when configured
  std::optional<Address> scheduler;        // only when configured
  // yarn.nm.liveness-monitor.expiry-interval-ms: a node silent this long is LOST.
  int64_t nmExpiryMs = 600'000;
  // yarn.am.liveness-monitor.expiry-interval-ms: an AM silent this long fails its attempt.
  int64_t amExpiryMs = 600'000;
  // yarn.resourcemanager.nodemanagers.heartbeat-interval-ms, returned to every NM.
  int64_t nmHeartbeatIntervalMs = 1000;
  // yarn.resourcemanager.am.max-attempts.
  int32_t maxAppAttempts = 2;
  // spindle.resourcemanager.io-threads: HTTP I/O threads.
  int32_t ioThreads = 1;
  // spindle.resourcemanager.scheduler.gather-us: after the scheduler thread has run a batch of
  // requests, how long later requests gather before it takes them (SchedulerLoop, step 5).
  int64_t schedulerGatherUs = 500;
  // yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms: after a recovery, how
  // long nothing new is allocated while NMs report their containers (YARN's default 10 s).
  int64_t recoverySchedulingWaitMs = 10'000;

  // Security (rm_access.cc). yarn.acl.enable: queue ACLs and yarn.admin.acl are checked on
  // every write call.
  bool aclEnabled = false;
  // yarn.admin.acl (Hadoop's default "*": everyone is an administrator).
  AccessControlList adminAcl{.everyone = true, .users = {}, .groups = {}};
  // hadoop.http.staticuser.user: the caller of a REST call without user.name (Hadoop's
  // StaticUserWebFilter).
  std::string staticUser = "dr.who";
  // spindle.nodemanager.registration.secret: a NodeManager registers only when its request
  // carries this value; empty = any NodeManager may register.
  std::string nmRegistrationSecret;
  // yarn.node-labels.configuration-type: `distributed` accepts the labels NodeManagers report
  // (registration and heartbeat, YARN's ResourceTrackerService.isDistributedNodeLabelsConf);
  // `centralized` (the default) and `delegated-centralized` refuse them.
  bool distributedNodeLabels = false;

  static Result<RmSettings> fromConfiguration(const Configuration& conf);
};

// Reads core-site.xml, yarn-site.xml and capacity-scheduler.xml from `dir`, in that order (absent
// files keep the defaults; a later file wins unless an earlier one marked the key final)
// and passes fair-scheduler.xml on as yarn.scheduler.fair.allocation.file, as `spindle sim`
// does. An empty `dir` gives an empty Configuration.
Result<Configuration> loadConfigurationDir(const std::string& dir);

// Reads an address key: absent gives `host:defaultPort`; "${...}" expansion as Hadoop's.
Result<Address> readAddress(const Configuration& conf, const std::string& key,
                            const std::string& defaultHost, uint16_t defaultPort);

}  // namespace spindle::rm
