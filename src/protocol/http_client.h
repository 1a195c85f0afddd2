// A blocking HTTP/1.1 client over one persistent connection (Boost.Beast), with a deadline per
// call. NMs heartbeat through it, AMs allocate through it, the CLI reads the REST API with it.
//
//   HttpClient rm("127.0.0.1", 8088);
//   Result<HttpResponse> r = rm.post("/rpc/v1/resource-tracker/heartbeat", body);
//   if (!r) log(r.status());               // connection refused, timeout: names the peer
//   else if (r->status != 200) ...         // the peer's answer, RemoteException body
//
// A call made on a reused connection that the peer closed meanwhile is retried once on a new
// connection (a stale keep-alive socket); no other call is retried: the protocols carry
// responseId against duplicates, and the caller decides.
// Thread-compatible: one caller at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "protocol/http_server.h"

namespace spindle::protocol {

class HttpClient {
 public:
  HttpClient(std::string host, uint16_t port, int64_t timeoutMs = 10'000);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

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
  // "host:port", for messages.
  std::string peer() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace spindle::protocol
