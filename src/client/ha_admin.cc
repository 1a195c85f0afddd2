#include "client/ha_admin.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "config/configuration.h"
#include "config/rm_ha.h"
#include "protocol/http_client.h"
#include "protocol/rest_records.h"

namespace spindle::client {

using nlohmann::json;

int runHaAdmin(const HaAdminArgs& a, std::ostream& out, std::ostream& err) {
  const int given = !a.getServiceState.empty() + !a.transitionToActive.empty() +
                    !a.transitionToStandby.empty() + !a.checkHealth.empty();
  if (given != 1) {
    err << "rmadmin: give one of -getServiceState, -transitionToActive, -transitionToStandby, "
           "-checkHealth, each with an RM id\n";
    return 2;
  }
  std::string cmd, id, call;
  if (!a.getServiceState.empty())
    cmd = "-getServiceState", id = a.getServiceState, call = "getServiceState";
  if (!a.transitionToActive.empty())
    cmd = "-transitionToActive", id = a.transitionToActive, call = "transitionToActive";
  if (!a.transitionToStandby.empty())
    cmd = "-transitionToStandby", id = a.transitionToStandby, call = "transitionToStandby";
  if (!a.checkHealth.empty()) cmd = "-checkHealth", id = a.checkHealth, call = "monitorHealth";

  Configuration conf;
  if (!a.conn.confDir.empty()) {
    const std::string site = a.conn.confDir + "/yarn-site.xml";
    if (!std::filesystem::exists(site)) {
      err << "rmadmin: --conf " << a.conn.confDir << ": no yarn-site.xml\n";
      return 2;
    }
    auto parsed = Configuration::parseFile(site);
    if (!parsed) {
      err << "rmadmin: " << parsed.status().message() << "\n";
      return 2;
    }
    conf = std::move(*parsed);
  }
  auto rms = rmHaAddresses(conf, "yarn.resourcemanager.webapp.address", 8088);
  if (!rms) {
    err << "rmadmin: " << rms.status().message() << "\n";
    return 2;
  }
  if (rms->empty()) {
    // RMAdminCLI's refusal.
    err << "Cannot run " << cmd << " when ResourceManager HA is not enabled\n";
    return 2;
  }
  std::string address;
  std::string ids;
  for (const auto& [rmId, rmAddress] : *rms) {
    if (rmId == id) address = rmAddress;
    ids += (ids.empty() ? "" : ",");
    ids += rmId;
  }
  if (address.empty()) {
    err << "rmadmin: " << cmd << ": '" << id << "' is not an RM id (" << kRmHaIdsKey << ": " << ids
        << ")\n";
    return 2;
  }
  auto hp = protocol::parseHostPort(address, "yarn.resourcemanager.webapp.address." + id);
  if (!hp) {
    err << "rmadmin: " << hp.status().message() << "\n";
    return 2;
  }
  protocol::HttpClient rm(hp->first, hp->second, 30'000);
  auto r = rm.post("/rpc/v1/ha/" + call, json{{"forcemanual", a.forceManual}}.dump());
  if (!r) {
    err << "rmadmin: " << cmd << " " << id << ": " << r.status().message() << "\n";
    return 1;
  }
  if (r->status != 200) {
    const std::string why = protocol::remoteExceptionMessage(r->body);
    if (call == "monitorHealth") {
      err << "Health check failed: " << why << "\n";
    } else {
      err << "rmadmin: " << cmd << " " << id << ": " << why << "\n";
    }
    return 1;
  }
  if (call == "getServiceState") {
    json j = json::parse(r->body, nullptr, false);
    std::string state = j.is_object() ? j.value("state", "") : "";
    // HAServiceState's names as HAAdmin prints them.
    for (char& c : state) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out << state << "\n";
  }
  return 0;
}

}  // namespace spindle::client
