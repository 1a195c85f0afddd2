#include "client/rm_client.h"

#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "config/configuration.h"
#include "config/rm_ha.h"
#include "protocol/codec.h"

namespace spindle::client {

using nlohmann::json;

Result<std::vector<protocol::HostPort>> resolveRmAddress(const std::string& override,
                                                         const std::string& confDir) {
  using List = std::vector<protocol::HostPort>;
  if (!override.empty()) return protocol::parseHostPortList(override, "--rm");
  if (!confDir.empty()) {
    const std::string site = confDir + "/yarn-site.xml";
    if (!std::filesystem::exists(site))
      return invalidArgument("--conf {}: no yarn-site.xml", confDir);
    auto conf = Configuration::parseFile(site);
    if (!conf) return conf.status();
    auto ha = rmHaAddresses(*conf, "yarn.resourcemanager.webapp.address", 8088);
    if (!ha) return ha.status();
    if (!ha->empty()) {
      List rms;
      for (const auto& [id, address] : *ha) {
        auto hp = protocol::parseHostPort(address, "yarn.resourcemanager.webapp.address." + id);
        if (!hp) return hp.status();
        rms.push_back(*hp);
      }
      return rms;
    }
    const std::string host = conf->get("yarn.resourcemanager.hostname", "127.0.0.1");
    if (auto v = conf->get("yarn.resourcemanager.webapp.address")) {
      auto hp = protocol::parseHostPort(*v, "yarn.resourcemanager.webapp.address");
      if (!hp) return hp.status();
      if (hp->first == "0.0.0.0") hp->first = "127.0.0.1";
      return List{*hp};
    }
    return List{{host == "0.0.0.0" ? "127.0.0.1" : host, 8088}};
  }
  return List{{"127.0.0.1", 8088}};
}

std::string loginUser() {
  if (const char* u = std::getenv("HADOOP_USER_NAME"); u != nullptr && *u != '\0') return u;
  if (const passwd* pw = getpwuid(geteuid()); pw != nullptr && pw->pw_name != nullptr) {
    return pw->pw_name;
  }
  if (const char* u = std::getenv("USER"); u != nullptr && *u != '\0') return u;
  return "dr.who";
}

Result<json> RmRestClient::call(const std::string& method, const std::string& path,
                                const std::string& body) {
  std::string target = path;
  if (method != "GET") {
    // Hadoop's simple authentication: writes name their user.
    std::string user;
    for (unsigned char c : loginUser()) {
      if (std::isalnum(c) || c == '.' || c == '_' || c == '-' || c == '@') {
        user += static_cast<char>(c);
      } else {
        user += fmt::format("%{:02X}", c);
      }
    }
    target += (path.find('?') == std::string::npos ? "?" : "&") + std::string("user.name=") + user;
  }
  auto r = http_.request(method, target, body);
  if (!r) return r.status();
  json j = r->body.empty() ? json::object() : json::parse(r->body, nullptr, false);
  if (r->status >= 200 && r->status < 300) {
    if (j.is_discarded()) return invalidArgument("{} {}: the answer is not JSON", method, path);
    return j;
  }
  std::string message = r->body;
  if (!j.is_discarded() && j.contains("RemoteException")) {
    message = j["RemoteException"].value("message", r->body);
  }
  const Status s(r->status == 404 ? StatusCode::kNotFound : StatusCode::kInvalidArgument,
                 fmt::format("{} (HTTP {})", message, r->status));
  return s;
}

Result<json> RmRestClient::get(const std::string& path) { return call("GET", path, ""); }
Result<json> RmRestClient::post(const std::string& path, const json& body) {
  return call("POST", path, body.dump());
}
Result<json> RmRestClient::put(const std::string& path, const json& body) {
  return call("PUT", path, body.dump());
}

template <typename Resp>
Result<Resp> AmRmClient::rpc(const std::string& path, const std::string& body) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    auto r = rpcOnce<Resp>(path, body);
    // FailedPrecondition is the transport (no answer); an answer is never retried here.
    if (r || r.status().code() != StatusCode::kFailedPrecondition ||
        std::chrono::steady_clock::now() - start > std::chrono::milliseconds(retryMs_)) {
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

template <typename Resp>
Result<Resp> AmRmClient::rpcOnce(const std::string& path, const std::string& body) {
  auto r = http_.post(path, body);
  if (!r) return r.status();
  if (r->status != 200) {
    json j = json::parse(r->body, nullptr, false);
    std::string message = !j.is_discarded() && j.contains("RemoteException")
                              ? j["RemoteException"].value("message", r->body)
                              : r->body;
    return invalidArgument("{}: {} (HTTP {})", path, message, r->status);
  }
  return protocol::decode<Resp>(r->body);
}

Result<protocol::RegisterApplicationMasterResponse> AmRmClient::registerAm(
    const std::string& host, const std::string& trackingUrl,
    std::vector<protocol::PlacementConstraintEntry> placementConstraints) {
  protocol::RegisterApplicationMasterRequest req;
  req.applicationAttemptId = attemptId_;
  req.host = host;
  req.trackingUrl = trackingUrl;
  req.placementConstraints = std::move(placementConstraints);
  registration_ = req;
  return rpc<protocol::RegisterApplicationMasterResponse>("/rpc/v1/am/register",
                                                          protocol::toJson(req).dump());
}

Result<protocol::AllocateResponse> AmRmClient::allocate(
    std::vector<protocol::ResourceRequest> asks, std::vector<std::string> releases, double progress,
    std::vector<protocol::SchedulingRequestRecord> schedulingRequests) {
  protocol::AllocateRequest req;
  req.applicationAttemptId = attemptId_;
  req.responseId = responseId_;
  req.progress = progress;
  req.ask = std::move(asks);
  req.release = std::move(releases);
  req.schedulingRequests = std::move(schedulingRequests);
  // A call whose answer was lost is sent again with the same responseId (rpc's retries): the
  // RM answers it from its copy without applying it twice.
  auto r = rpc<protocol::AllocateResponse>("/rpc/v1/am/allocate", protocol::toJson(req).dump());
  if (r && r->amCommand == protocol::AMCommand::AM_RESYNC) {
    ++resyncs_;
    auto reg = rpc<protocol::RegisterApplicationMasterResponse>(
        "/rpc/v1/am/register", protocol::toJson(registration_).dump());
    if (!reg) return reg.status().withContext("re-registering after AM_RESYNC");
    req.responseId = 0;
    r = rpc<protocol::AllocateResponse>("/rpc/v1/am/allocate", protocol::toJson(req).dump());
  }
  if (r) responseId_ = r->responseId;
  return r;
}

Result<protocol::FinishApplicationMasterResponse> AmRmClient::finish(
    protocol::FinalApplicationStatus status, const std::string& diagnostics) {
  protocol::FinishApplicationMasterRequest req;
  req.applicationAttemptId = attemptId_;
  req.finalApplicationStatus = status;
  req.diagnostics = diagnostics;
  return rpc<protocol::FinishApplicationMasterResponse>("/rpc/v1/am/finish",
                                                        protocol::toJson(req).dump());
}

Status NmClient::startContainer(const std::string& nodeHttpAddress,
                                const protocol::StartContainerRequest& request) {
  auto& client = clients_[nodeHttpAddress];
  if (!client) {
    auto hp = protocol::parseHostPort(nodeHttpAddress, "nodeHttpAddress");
    if (!hp) return hp.status();
    client = std::make_unique<protocol::HttpClient>(hp->first, hp->second, 30'000);
  }
  protocol::StartContainersRequest req;
  req.startContainerRequest.push_back(request);
  auto r = client->post("/rpc/v1/containers/start", protocol::toJson(req).dump());
  if (!r) return r.status();
  if (r->status != 200) {
    return failedPrecondition("start {} on {}: HTTP {}: {}", request.containerId, nodeHttpAddress,
                              r->status, r->body);
  }
  auto resp = protocol::decode<protocol::StartContainersResponse>(r->body);
  if (!resp) return resp.status();
  if (!resp->failedRequests.empty()) {
    return failedPrecondition("start {} on {}: {}", request.containerId, nodeHttpAddress,
                              resp->failedRequests.front().message);
  }
  return Status::ok();
}

}  // namespace spindle::client
