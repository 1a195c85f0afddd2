#include "nm/nm_service.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/container_state.h"
#include "protocol/codec.h"
#include "protocol/rest_records.h"
#include "protocol/yarn_ids.h"

namespace spindle::nm {

using nlohmann::json;
using protocol::HttpRequest;
using protocol::HttpResponse;
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kNode = "/ws/v1/node";

HttpResponse error(const Status& s) {
  return {protocol::httpStatusFor(s), protocol::remoteException(s).dump()};
}

// Hadoop's Times.format: "EEE MMM dd HH:mm:ss Z yyyy", here in UTC.
std::string javaDate(fs::file_time_type t) {
  const auto sys = std::chrono::time_point_cast<std::chrono::seconds>(
      t - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
  const std::time_t tt = std::chrono::system_clock::to_time_t(sys);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S +0000 %Y", &tm);
  return buf;
}

// The log files of a container's folder, sorted by name.
std::vector<fs::directory_entry> logFiles(const std::string& folder) {
  std::vector<fs::directory_entry> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.is_regular_file(ec)) out.push_back(e);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  return out;
}

}  // namespace

NmService::NmService(ContainerLauncher& launcher, std::string nodeId, std::string logDir,
                     bool allowRoot, std::function<protocol::NodeHealthStatus()> health)
    : launcher_(launcher),
      nodeId_(std::move(nodeId)),
      logDir_(std::move(logDir)),
      allowRoot_(allowRoot),
      health_(std::move(health)) {}

HttpResponse NmService::handle(const HttpRequest& r) {
  if (r.method == "POST" && r.path == "/rpc/v1/containers/start") return start(r.body);
  if (r.method == "POST" && r.path == "/rpc/v1/containers/stop") return stop(r.body);
  if (r.method != "GET" || !r.path.starts_with(kNode)) {
    return error(notFound("no such resource: {} {}", r.method, r.path));
  }
  std::string_view rest = std::string_view(r.path).substr(kNode.size());
  while (rest.ends_with('/')) rest.remove_suffix(1);
  if (rest.empty() || rest == "/info") {
    const protocol::NodeHealthStatus h = health_();
    return {200, json{{"nodeInfo",
                       {{"id", nodeId_},
                        {"nodeHostName", nodeId_.substr(0, nodeId_.rfind(':'))},
                        {"nodeManagerVersion", SPINDLE_VERSION},
                        {"nodeHealthy", h.isNodeHealthy},
                        {"healthReport", h.healthReport},
                        {"lastNodeUpdateTime", h.lastHealthReportTime},
                        {"numContainers", launcher_.running()}}}}
                     .dump()};
  }
  if (rest == "/containers" || rest.starts_with("/containers/")) return containerView(rest);
  if (rest.starts_with("/containerlogs/")) return containerLog(rest.substr(15));
  if (rest == "/apps" || rest.starts_with("/apps/")) return appView(rest);
  return error(notFound("no such resource: {} {}", r.method, r.path));
}

HttpResponse NmService::containerView(std::string_view rest) {
  auto info = [this](const std::string& id, const std::optional<protocol::ContainerStatus>& s,
                     const std::string& folder) {
    json files = json::array();
    for (const auto& f : logFiles(folder)) files.push_back(f.path().filename().string());
    json j = {
        {"id", id},
        {"nodeId", nodeId_},
        {"state", s && s->state == protocol::ContainerState::RUNNING ? "RUNNING" : "COMPLETE"},
        {"exitCode", s ? s->exitStatus : protocol::kInvalidExitStatus},
        {"diagnostics", s ? s->diagnostics : ""},
        {"containerLogsLink", "http://" + nodeId_ + "/ws/v1/node/containers/" + id + "/logs"},
        {"containerLogFiles", files}};
    return j;
  };
  if (rest == "/containers") {
    json list = json::array();
    for (const auto& s : launcher_.statuses()) {
      list.push_back(info(s.containerId, s, launcher_.logFolder(s.containerId).value_or("")));
    }
    return {200, json{{"containers", {{"container", list}}}}.dump()};
  }
  std::string_view tail = rest.substr(12);
  const size_t slash = tail.find('/');
  const std::string id(tail.substr(0, slash));
  const std::string_view sub = slash == std::string_view::npos ? "" : tail.substr(slash);
  auto attempt = protocol::attemptOfContainer(id);
  if (!attempt) return error(invalidArgument("Invalid container id {}", id));
  const std::string folder = logDir_ + "/" + protocol::toString(attempt->app) + "/" + id;
  const auto status = launcher_.status(id);
  std::error_code ec;
  if (!status && !fs::is_directory(folder, ec)) {
    return error(notFound("container with id, {}, not found", id));
  }
  if (sub.empty()) return {200, json{{"container", info(id, status, folder)}}.dump()};
  if (sub != "/logs") return error(notFound("no such resource: {}", rest));
  // YARN's ContainerLogsInfo (NMWebServices.getContainerLogsInfo).
  json files = json::array();
  for (const auto& f : logFiles(folder)) {
    files.push_back({{"fileName", f.path().filename().string()},
                     {"fileSize", std::to_string(f.file_size(ec))},
                     {"lastModifiedTime", javaDate(f.last_write_time(ec))}});
  }
  json entry = {{"containerLogInfo", files},
                {"logAggregationType", "LOCAL"},
                {"containerId", id},
                {"nodeId", nodeId_}};
  json list = json::array();
  list.push_back(std::move(entry));
  return {200, list.dump()};
}

HttpResponse NmService::containerLog(std::string_view rest) {
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) {
    return error(
        invalidArgument("containerlogs: expecting /containerlogs/{{containerid}}/{{filename}}"));
  }
  const std::string id(rest.substr(0, slash));
  const std::string file(rest.substr(slash + 1));
  auto attempt = protocol::attemptOfContainer(id);
  if (!attempt) return error(invalidArgument("Invalid container id {}", id));
  if (file.empty() || file == "." || file == ".." || file.find('/') != std::string::npos) {
    return error(invalidArgument("Invalid log file name {}", file));
  }
  const std::string path = logDir_ + "/" + protocol::toString(attempt->app) + "/" + id + "/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return error(notFound("Cannot find this log on the local disk: {} of container {}", file, id));
  }
  std::stringstream s;
  s << in.rdbuf();
  HttpResponse r(200, s.str());
  r.contentType = "text/plain; charset=utf-8";
  return r;
}

HttpResponse NmService::appView(std::string_view rest) {
  // YARN's AppInfo: id, state, user, containerids (the containers with a log folder here).
  auto info = [this](const std::string& app) {
    json ids = json::array();
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(logDir_ + "/" + app, ec)) {
      if (e.is_directory(ec)) names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    bool running = false;
    for (const std::string& c : names) {
      ids.push_back(c);
      auto s = launcher_.status(c);
      running = running || (s && s->state == protocol::ContainerState::RUNNING);
    }
    return json{{"id", app}, {"state", running ? "RUNNING" : "FINISHED"}, {"containerids", ids}};
  };
  if (rest == "/apps") {
    json list = json::array();
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(logDir_, ec)) {
      if (e.is_directory(ec)) names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    for (const std::string& a : names) {
      if (protocol::parseApplicationId(a)) list.push_back(info(a));
    }
    return {200, json{{"apps", {{"app", list}}}}.dump()};
  }
  const std::string app(rest.substr(6));
  if (!protocol::parseApplicationId(app))
    return error(invalidArgument("Invalid ApplicationId: {}", app));
  std::error_code ec;
  if (!fs::is_directory(logDir_ + "/" + app, ec)) {
    return error(notFound("app with id {} not found", app));
  }
  return {200, json{{"app", info(app)}}.dump()};
}

HttpResponse NmService::start(const std::string& body) {
  auto req = protocol::decode<protocol::StartContainersRequest>(body);
  if (!req) return error(req.status());
  protocol::StartContainersResponse resp;
  for (const protocol::StartContainerRequest& s : req->startContainerRequest) {
    auto attempt = protocol::attemptOfContainer(s.containerId);
    Status st = attempt.status();
    if (st.isOk()) st = launchUserAllowed(s.containerId, geteuid(), allowRoot_);
    if (st.isOk()) {
      st = launcher_.start({s.containerId, protocol::toString(attempt->app),
                            s.containerLaunchContext.commands, s.containerLaunchContext.environment,
                            s.resource});
    }
    if (st.isOk()) {
      resp.succeededRequests.push_back(s.containerId);
    } else {
      resp.failedRequests.push_back({s.containerId, st.message()});
    }
  }
  return {200, protocol::toJson(resp).dump()};
}

HttpResponse NmService::stop(const std::string& body) {
  auto req = protocol::decode<protocol::StopContainersRequest>(body);
  if (!req) return error(req.status());
  protocol::StopContainersResponse resp;
  for (const std::string& id : req->containerIds) {
    Status st = launcher_.stop(id, ContainerExitStatus::KILLED_BY_APPMASTER,
                               "Container killed by the ApplicationMaster.");
    if (st.isOk()) {
      resp.succeededRequests.push_back(id);
    } else {
      resp.failedRequests.push_back({id, st.message()});
    }
  }
  return {200, protocol::toJson(resp).dump()};
}

}  // namespace spindle::nm
