// Clients of the daemons: the REST client the CLI commands use (RmRestClient), the AM's
// ApplicationMasterProtocol client (AmRmClient, YARN's AMRMClient: responseId kept, a lost
// answer retried with the same id) and the ContainerManagementProtocol client (NmClient).
//
//   auto rm = RmRestClient::connect(rmAddress);
//   Result<nlohmann::json> apps = rm->get("/ws/v1/cluster/apps?states=RUNNING");
//   // an error carries the RemoteException's message and the HTTP status
//
//   AmRmClient am(rmAddress, attemptId);
//   am.registerAm(host);
//   auto resp = am.allocate(asks, releases, progress);
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "protocol/failover_http_client.h"
#include "protocol/http_client.h"
#include "protocol/records.h"

namespace spindle::client {

// The RM's web address: `override` (--rm, "host:port" or a comma-separated list of RMs) when
// given, else from `confDir`/yarn-site.xml every RM's webapp address with RM HA
// (yarn.resourcemanager.ha.rm-ids, config/rm_ha.h) or yarn.resourcemanager.webapp.address,
// else 127.0.0.1:8088. With several RMs the clients fail over to the active one.
Result<std::vector<protocol::HostPort>> resolveRmAddress(const std::string& override,
                                                         const std::string& confDir);

// The user a write names (user.name): HADOOP_USER_NAME, else the effective user's login name,
// as Hadoop's UserGroupInformation finds the current user under simple authentication.
std::string loginUser();

class RmRestClient {
 public:
  explicit RmRestClient(std::vector<protocol::HostPort> rms) : http_(std::move(rms), 30'000) {}
  // 2xx with a JSON body (or none) -> the body; otherwise an error with the server's message.
  // POST and PUT carry user.name=loginUser().
  Result<nlohmann::json> get(const std::string& path);
  Result<nlohmann::json> post(const std::string& path, const nlohmann::json& body);
  Result<nlohmann::json> put(const std::string& path, const nlohmann::json& body);
  std::string peer() const { return http_.peer(); }

 private:
  Result<nlohmann::json> call(const std::string& method, const std::string& path,
                              const std::string& body);
  protocol::FailoverHttpClient http_;
};

// Transport failures (the RM restarting, a failover) are retried every 250 ms for up to
// `retryMs` (YARN's yarn.resourcemanager.connect.max-wait.ms idea). An allocate answered with
// AMCommand.AM_RESYNC (the RM restarted and lost the registration) re-registers with the same
// arguments and sends the call again from responseId 0, as AMRMClientImpl does; the AM's asks
// are absolute, so re-sending them is the re-send of outstanding asks YARN-556 asks for.
class AmRmClient {
 public:
  // `rms`: SPINDLE_RM_ADDRESS, every RM with HA (allocate fails over to the active one).
  AmRmClient(std::vector<protocol::HostPort> rms, std::string attemptId)
      : http_(std::move(rms), 30'000), attemptId_(std::move(attemptId)) {}
  // `placementConstraints`: the AM's constraints per source tags (placement constraints).
  Result<protocol::RegisterApplicationMasterResponse> registerAm(
      const std::string& host, const std::string& trackingUrl,
      std::vector<protocol::PlacementConstraintEntry> placementConstraints = {});
  Result<protocol::AllocateResponse> allocate(
      std::vector<protocol::ResourceRequest> asks, std::vector<std::string> releases,
      double progress, std::vector<protocol::SchedulingRequestRecord> schedulingRequests = {});
  Result<protocol::FinishApplicationMasterResponse> finish(protocol::FinalApplicationStatus status,
                                                           const std::string& diagnostics);
  void setRetryMs(int64_t ms) { retryMs_ = ms; }
  // How many times the RM asked this AM to resynchronise.
  int resyncs() const { return resyncs_; }

 private:
  template <typename Resp>
  Result<Resp> rpc(const std::string& path, const std::string& body);
  template <typename Resp>
  Result<Resp> rpcOnce(const std::string& path, const std::string& body);
  protocol::FailoverHttpClient http_;
  std::string attemptId_;
  int32_t responseId_ = 0;
  int64_t retryMs_ = 120'000;
  int resyncs_ = 0;
  protocol::RegisterApplicationMasterRequest registration_;
};

class NmClient {
 public:
  // Starts one container on the node at `nodeHttpAddress` (host:port).
  Status startContainer(const std::string& nodeHttpAddress,
                        const protocol::StartContainerRequest& request);

 private:
  std::map<std::string, std::unique_ptr<protocol::HttpClient>> clients_;
};

}  // namespace spindle::client
