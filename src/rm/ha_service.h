// ResourceManager high availability in the daemon (YARN's RMHAProtocolService with the
// embedded elector, rest-cli-protocols.md 2.3): the election thread on etcd, the switch between
// standby and active, what a standby answers, and the HA admin calls rmadmin makes.
//
//   HaService ha(haSettings, [&](int64_t token) { return startActive(token); }, clock);
//   if (Status s = ha.start(); !s.isOk()) ...   // etcd unreachable: refuse to start
//   server handler: ha.handle(std::move(req), std::move(respond));
//   ha.stop();                                  // resigns when active
//
// Algorithm (the election thread):
//  1. Standby, wanting to lead (automatic failover, or a pending transitionToActive):
//     campaign() every ttl/3. On a win, the ActiveMaker builds the active services with the
//     fencing token (the state store loaded through the restart path, the scheduler thread,
//     the AM launcher); then requests go to them. A maker failure resigns and stays standby.
//  2. Active: maintain() the lease every ttl/3. A lost lease (etcd says so, or no confirmation
//     within the TTL: a paused process, etcd gone), a fenced store write (stepDown()) or
//     transitionToStandby make the RM standby: requests stop reaching the active services
//     first, then they are stopped and dropped. Nothing more is written: the store's writes
//     were fenced by the token all along.
//  3. Standby answers (YARN's RMWebAppFilter and StandbyException): /ws/v1/cluster and /info
//     with haState STANDBY; other REST paths 307 to the active RM when one is known, 503
//     StandbyException otherwise; the NM and AM protocols 503 StandbyException naming the
//     active RM, so clients fail over (protocol/failover_http_client.h).
// HA admin calls (POST, every state), YARN's HAServiceProtocol: /rpc/v1/ha/getServiceState,
// /monitorHealth, /transitionToActive, /transitionToStandby ({"forcemanual": true} to
// override automatic failover, as `yarn rmadmin --forcemanual`).
// Thread-safety: handle() and stepDown() from any thread; start() and stop() from the owner.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/clock.h"
#include "ha/leader_elector.h"
#include "protocol/http_server.h"
#include "rm/ha_settings.h"

namespace spindle::rm {

// What runs only while this RM is active.
class ActiveServices {
 public:
  virtual ~ActiveServices() = default;
  // On an I/O thread.
  virtual void handle(protocol::HttpRequest req, protocol::Respond respond) = 0;
  // Stops the scheduler thread and the launcher; requests queued after are dropped.
  virtual void stop() = 0;
  // rmStateStoreName in /ws/v1/cluster/info.
  virtual std::string storeName() const = 0;
};

// Builds the active services for a term whose fencing token is `token`.
using ActiveMaker = std::function<Result<std::shared_ptr<ActiveServices>>(int64_t token)>;

enum class HaState { kStandby, kActive, kStopping };
const char* toString(HaState s);  // "STANDBY", "ACTIVE", "STOPPING" (YARN's HAServiceState)

class HaService {
 public:
  HaService(HaSettings ha, ActiveMaker makeActive, const Clock& clock);
  ~HaService();

  // Checks that etcd answers (it refuses to start otherwise: no election, no store) and starts
  // the election thread.
  Status start();
  void stop();
  void handle(protocol::HttpRequest req, protocol::Respond respond);
  // A fenced store write: another RM leads; stand by.
  void stepDown(std::string reason);
  HaState state() const;

 private:
  void run();
  void becomeActive();
  void becomeStandby(const std::string& reason);
  protocol::HttpResponse standbyAnswer(const protocol::HttpRequest& req);
  protocol::HttpResponse admin(const protocol::HttpRequest& req, std::string_view call);
  nlohmann::json info(const std::string& storeName);
  std::string activeAddressLocked() const;

  HaSettings ha_;
  ActiveMaker makeActive_;
  const Clock& clock_;
  int64_t startedOn_;
  std::unique_ptr<ha::EtcdClient> etcd_;
  std::unique_ptr<ha::LeaderElector> elector_;
  std::thread thread_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  // Under mu_:
  std::shared_ptr<ActiveServices> active_;
  HaState state_ = HaState::kStandby;
  bool stopping_ = false;
  bool wantActive_;             // campaign when standby
  std::string stepDownReason_;  // non-empty: leave the active state
  std::string leader_;          // the leader key's value as last seen ("rm2 127.0.0.1:8090")
  std::string etcdState_ = "CONNECTING";
  std::string lastTransitionError_;
  uint64_t transitions_ = 0;  // counts state changes, for callers waiting on one
};

}  // namespace spindle::rm
