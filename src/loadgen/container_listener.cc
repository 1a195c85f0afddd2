#include "loadgen/container_listener.h"

#include <nlohmann/json.hpp>

#include "protocol/codec.h"

namespace spindle::loadgen {

namespace p = spindle::protocol;

ContainerListener::ContainerListener(boost::asio::io_context& ioc, OnStart onStart)
    : ioc_(ioc), onStart_(std::move(onStart)) {
  server_ = std::make_unique<p::HttpServer>("127.0.0.1", 0,
                                            [this](p::HttpRequest req, p::Respond respond) {
                                              handle(std::move(req), std::move(respond));
                                            });
}

ContainerListener::~ContainerListener() { stop(); }

Status ContainerListener::start() { return server_->start(); }

void ContainerListener::stop() { server_->stop(); }

void ContainerListener::handle(p::HttpRequest req, p::Respond respond) {
  if (req.path == "/rpc/v1/containers/start") {
    auto r = p::decode<p::StartContainersRequest>(req.body);
    if (!r) return respond(p::HttpResponse(400, r.status().message()));
    p::StartContainersResponse resp;
    for (const auto& s : r->startContainerRequest) resp.succeededRequests.push_back(s.containerId);
    boost::asio::post(ioc_, [this, ids = resp.succeededRequests] { onStart_(ids); });
    return respond(p::HttpResponse(200, p::toJson(resp).dump()));
  }
  if (req.path == "/rpc/v1/containers/stop") {
    auto r = p::decode<p::StopContainersRequest>(req.body);
    if (!r) return respond(p::HttpResponse(400, r.status().message()));
    p::StopContainersResponse resp;
    resp.succeededRequests = r->containerIds;
    return respond(p::HttpResponse(200, p::toJson(resp).dump()));
  }
  respond(p::HttpResponse(404, "no such path: " + req.path));
}

std::string amContainerNode(const HttpCall& appAttempts, const std::string& containerId) {
  if (!appAttempts.error.empty() || appAttempts.status != 200) return "";
  auto j = nlohmann::json::parse(appAttempts.body, nullptr, false);
  std::string node;
  if (j.is_object()) {
    for (const auto& a : j["appAttempts"]["appAttempt"]) {
      if (a.value("containerId", "") == containerId) node = a.value("nodeId", "");
    }
  }
  return node;
}

}  // namespace spindle::loadgen
