#include "rm/am_launcher.h"

#include "base/log.h"
#include "protocol/codec.h"

namespace spindle::rm {

AmLauncher::AmLauncher(OnFailure onFailure) : onFailure_(std::move(onFailure)) {}

AmLauncher::~AmLauncher() { stop(); }

void AmLauncher::start() {
  thread_ = std::thread([this] { run(); });
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
    AmLaunch l;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return !queue_.empty() || stopping_; });
      if (stopping_) return;
      l = std::move(queue_.front());
      queue_.pop_front();
    }
    startOne(l);
  }
}

void AmLauncher::startOne(const AmLaunch& l) {
  const std::string cid = l.request.startContainerRequest.front().containerId;
  auto fail = [&](const std::string& why) {
    SPINDLE_LOG_WARN("AM container {} on {}: {}", cid, l.nodeHttpAddress, why);
    onFailure_(cid, why);
  };
  auto hp = protocol::parseHostPort(l.nodeHttpAddress, "node http address");
  if (!hp) return fail(hp.status().message());
  auto& client = clients_[l.nodeHttpAddress];
  if (!client) client = std::make_unique<protocol::HttpClient>(hp->first, hp->second, 10'000);
  auto r = client->post("/rpc/v1/containers/start", protocol::toJson(l.request).dump());
  if (!r) return fail(r.status().message());
  if (r->status != 200) return fail("HTTP " + std::to_string(r->status) + ": " + r->body);
  auto resp = protocol::decode<protocol::StartContainersResponse>(r->body);
  if (!resp) return fail(resp.status().message());
  if (!resp->failedRequests.empty()) return fail(resp->failedRequests.front().message);
  SPINDLE_LOG_INFO("AM container {} started on {}", cid, l.nodeHttpAddress);
}

}  // namespace spindle::rm
