// An HTTP client over a list of ResourceManagers that finds the active one (YARN's
// ConfiguredRMFailoverProxyProvider with RetryPolicies.failoverOnNetworkException): NMs, AMs and
// the CLI talk through it when RM HA lists several RMs.
//
//   FailoverHttpClient rm(*parseHostPortList("127.0.0.1:8088,127.0.0.1:8090", "--rm"));
//   auto r = rm.post("/rpc/v1/am/allocate", body);   // answered by whichever RM is active
//
// Algorithm: 1. send to the RM that answered last; 2. a transport error (refused, reset, timed
// out), an HTTP 503 StandbyException or a 307 redirect from a standby moves to the next RM
// in the list; 3. after a whole round without an answer, wait (200 ms doubling to 2 s, YARN's
// failover-sleep-base-ms / failover-sleep-max-ms idea) and go round again, until `maxWaitMs`
// has passed: then the last error is returned, naming every RM. With one RM it is a plain
// HttpClient (no retries: the caller decides, as before HA).
// A request that reached an RM that then died may be sent again to the next RM: the RM
// protocols carry responseId against duplicates (allocate, heartbeat) as YARN's do.
// Thread-compatible: one caller at a time.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "protocol/http_client.h"

namespace spindle::protocol {

using HostPort = std::pair<std::string, uint16_t>;

// "h1:p1,h2:p2" (one or more); `what` names the value in errors.
Result<std::vector<HostPort>> parseHostPortList(std::string_view list, std::string_view what);

class FailoverHttpClient {
 public:
  FailoverHttpClient(std::vector<HostPort> rms, int64_t timeoutMs = 10'000,
                     int64_t maxWaitMs = 30'000);
  ~FailoverHttpClient();

  Result<HttpResponse> request(std::string_view method, std::string_view target,
                               std::string_view body = {},
                               std::string_view contentType = "application/json");
  Result<HttpResponse> get(std::string_view target) { return request("GET", target); }
  Result<HttpResponse> post(std::string_view target, std::string_view body) {
    return request("POST", target, body);
  }
  Result<HttpResponse> put(std::string_view target, std::string_view body) {
    return request("PUT", target, body);
  }
  // The RM in use ("host:port").
  std::string peer() const;
  // Every RM, comma-separated.
  std::string peers() const;
  size_t size() const { return rms_.size(); }

 private:
  std::vector<HostPort> rms_;
  std::vector<std::unique_ptr<HttpClient>> clients_;
  size_t current_ = 0;
  int64_t maxWaitMs_;
};

// True for a standby RM's answer: 503 with a StandbyException, or a 307 redirect.
bool isStandbyAnswer(const HttpResponse& r);

}  // namespace spindle::protocol
