#include "rm/am_launcher.h"

#include "base/log.h"
#include "base/thread_name.h"
#include "protocol/codec.h"

namespace spindle::rm {

AmLauncher::AmLauncher(OnFailure onFailure) : onFailure_(std::move(onFailure)) {}

AmLauncher::~AmLauncher() { stop(); }

void AmLauncher::start() {
  thread_ = std::thread([this] {
    nameThisThread("am-launcher");
    run();
  });
}

void AmLauncher::launch(std::vector<AmLaunch> launches) {
  if (launches.empty()) return;
  {
    std::lock_guard lock(mu_);
    for (AmLaunch& l : launches) queue_.push_back(std::move(l));
  }
  cv_.notify_one();
}

void AmLauncher::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void AmLauncher::run() {
  while (true) {
    std::deque<AmLaunch> batch;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return !queue_.empty() || stopping_; });
      if (stopping_) return;
      // At most kMaxBatch per round, so one request stays well inside the client's timeout.
      constexpr size_t kMaxBatch = 100;
      while (!queue_.empty() && batch.size() < kMaxBatch) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    // The AMs queued for one node go in one StartContainersRequest (the protocol takes a list;
    // YARN's ApplicationMasterLauncher sends one per AM): one round trip per node and batch
    // instead of one per AM. Order within a node is kept.
    std::map<std::string, AmLaunch> byNode;
    std::vector<std::string> order;
    for (AmLaunch& l : batch) {
      auto [it, fresh] = byNode.try_emplace(l.nodeHttpAddress);
      if (fresh) {
        it->second.nodeHttpAddress = l.nodeHttpAddress;
        order.push_back(l.nodeHttpAddress);
      }
      for (auto& r : l.request.startContainerRequest) {
        it->second.request.startContainerRequest.push_back(std::move(r));
      }
    }
    for (const std::string& node : order) startOnNode(byNode[node]);
  }
}

void AmLauncher::startOnNode(const AmLaunch& l) {
  auto failAll = [&](const std::string& why) {
    for (const auto& r : l.request.startContainerRequest) {
      SPINDLE_LOG_WARN("AM container {} on {}: {}", r.containerId, l.nodeHttpAddress, why);
      onFailure_(r.containerId, why);
    }
  };
  auto hp = protocol::parseHostPort(l.nodeHttpAddress, "node http address");
  if (!hp) return failAll(hp.status().message());
  auto& client = clients_[l.nodeHttpAddress];
  if (!client) client = std::make_unique<protocol::HttpClient>(hp->first, hp->second, 10'000);
  auto r = client->post("/rpc/v1/containers/start", protocol::toJson(l.request).dump());
  if (!r) return failAll(r.status().message());
  if (r->status != 200) return failAll("HTTP " + std::to_string(r->status) + ": " + r->body);
  auto resp = protocol::decode<protocol::StartContainersResponse>(r->body);
  if (!resp) return failAll(resp.status().message());
  for (const protocol::FailedContainer& f : resp->failedRequests) {
    SPINDLE_LOG_WARN("AM container {} on {}: {}", f.containerId, l.nodeHttpAddress, f.message);
    onFailure_(f.containerId, f.message);
  }
  for (const std::string& cid : resp->succeededRequests) {
    SPINDLE_LOG_INFO("AM container {} started on {}", cid, l.nodeHttpAddress);
  }
}

}  // namespace spindle::rm
