#include "protocol/failover_http_client.h"

#include <chrono>
#include <thread>

#include "base/strings.h"

namespace spindle::protocol {

Result<std::vector<HostPort>> parseHostPortList(std::string_view list, std::string_view what) {
  std::vector<HostPort> out;
  for (const std::string& item : splitTrimmed(list, ",")) {
    auto hp = parseHostPort(item, what);
    if (!hp) return hp.status();
    out.push_back(*hp);
  }
  if (out.empty()) return invalidArgument("{}: no host:port in '{}'", what, list);
  return out;
}

bool isStandbyAnswer(const HttpResponse& r) {
  return r.status == 307 ||
         (r.status == 503 && r.body.find("StandbyException") != std::string::npos);
}

FailoverHttpClient::FailoverHttpClient(std::vector<HostPort> rms, int64_t timeoutMs,
                                       int64_t maxWaitMs)
    : rms_(std::move(rms)), maxWaitMs_(maxWaitMs) {
  for (const HostPort& hp : rms_) {
    clients_.push_back(std::make_unique<HttpClient>(hp.first, hp.second, timeoutMs));
  }
}

FailoverHttpClient::~FailoverHttpClient() = default;

std::string FailoverHttpClient::peer() const { return clients_[current_]->peer(); }

std::string FailoverHttpClient::peers() const {
  std::string s;
  for (const auto& c : clients_) {
    if (!s.empty()) s += ',';
    s += c->peer();
  }
  return s;
}

Result<HttpResponse> FailoverHttpClient::request(std::string_view method, std::string_view target,
                                                 std::string_view body,
                                                 std::string_view contentType) {
  if (clients_.size() == 1) return clients_[0]->request(method, target, body, contentType);
  const auto start = std::chrono::steady_clock::now();
  int64_t sleepMs = 200;
  std::string lastError;
  for (;;) {
    for (size_t tried = 0; tried < clients_.size(); ++tried) {
      auto r = clients_[current_]->request(method, target, body, contentType);
      if (r && !isStandbyAnswer(*r)) return r;
      lastError = r ? clients_[current_]->peer() + " is standby" : r.status().message();
      current_ = (current_ + 1) % clients_.size();
    }
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    if (waited >= maxWaitMs_) {
      return failedPrecondition("no active ResourceManager among {} after {} ms (last: {})",
                                peers(), waited, lastError);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(sleepMs, maxWaitMs_ - waited)));
    sleepMs = std::min<int64_t>(sleepMs * 2, 2000);
  }
}

}  // namespace spindle::protocol
