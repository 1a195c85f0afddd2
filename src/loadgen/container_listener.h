// The simulated NodeManagers' ContainerManagementProtocol (node_fleet.h): one HTTP listener on
// 127.0.0.1 that every simulated node gives the RM as its httpPort. The RM starts AM containers
// here (containers/start): each is accepted and handed to `onStart` on the io_context's thread;
// containers/stop is accepted and ignored (the RM's cleanup reaches the nodes in their
// heartbeats).
//
//   ContainerListener listener(ioc, [&](std::vector<std::string> ids) { ... });
//   SPINDLE_RETURN_IF_ERROR(listener.start());
//   NodeFleet fleet(ioc, rm, options, listener.port());
//   ...
//   listener.stop();
// Thread-safety: start() and stop() from the owner; onStart runs on the io_context's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio.hpp>

#include "base/status.h"
#include "loadgen/async_connection.h"
#include "protocol/http_server.h"

namespace spindle::loadgen {

class ContainerListener {
 public:
  using OnStart = std::function<void(std::vector<std::string> containerIds)>;
  ContainerListener(boost::asio::io_context& ioc, OnStart onStart);
  ~ContainerListener();

  Status start();  // binds 127.0.0.1 on a free port
  void stop();
  uint16_t port() const { return server_->port(); }

 private:
  void handle(protocol::HttpRequest req, protocol::Respond respond);

  boost::asio::io_context& ioc_;
  OnStart onStart_;
  std::unique_ptr<protocol::HttpServer> server_;
};

// The node the RM put AM container `containerId` on, read from an answer to
// `GET /ws/v1/cluster/apps/{id}/appattempts` (the attempt's nodeId); empty when the call
// failed or no attempt has that container.
std::string amContainerNode(const HttpCall& appAttempts, const std::string& containerId);

}  // namespace spindle::loadgen
