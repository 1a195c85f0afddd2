// The NodeManager's HTTP endpoints, on the I/O thread: the ContainerManagementProtocol
// (/rpc/v1/containers/start, /stop) and YARN's NM REST API (NMWebServices, /ws/v1/node):
//
//   GET /ws/v1/node/info                             NodeInfo (with nodeHealthy, healthReport)
//   GET /ws/v1/node/apps, /apps/{appid}              AppInfo {id, state, containerids}
//   GET /ws/v1/node/containers, /containers/{id}     ContainerInfo (containerLogFiles included)
//   GET /ws/v1/node/containers/{id}/logs             ContainerLogsInfo (name, size, modified)
//   GET /ws/v1/node/containerlogs/{id}/{filename}    the log file itself, text/plain
//
// Log files are read from <log-dir>/<app>/<container>/, so a finished container's logs stay
// served (Spindle has no log aggregation; they stay until the folder is removed). A container
// id that does not parse, or a file name with '/' or "..", is 400; an unknown one 404.
//
//   NmService svc(launcher, nodeId, logDir, allowRoot, [&] { return health.status(); });
//   HttpResponse r = svc.handle(request);
// Thread-safety: handle() may run on any thread (the launcher locks).
#pragma once

#include <functional>
#include <string>

#include "nm/container_launcher.h"
#include "protocol/http_server.h"
#include "protocol/records.h"

namespace spindle::nm {

class NmService {
 public:
  NmService(ContainerLauncher& launcher, std::string nodeId, std::string logDir, bool allowRoot,
            std::function<protocol::NodeHealthStatus()> health);
  protocol::HttpResponse handle(const protocol::HttpRequest& r);

 private:
  protocol::HttpResponse start(const std::string& body);
  protocol::HttpResponse stop(const std::string& body);
  protocol::HttpResponse containerView(std::string_view rest);
  protocol::HttpResponse containerLog(std::string_view rest);
  protocol::HttpResponse appView(std::string_view rest);

  ContainerLauncher& launcher_;
  std::string nodeId_;
  std::string logDir_;
  bool allowRoot_;
  std::function<protocol::NodeHealthStatus()> health_;
};

}  // namespace spindle::nm
