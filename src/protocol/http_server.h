// The asynchronous HTTP/1.1 server every Spindle daemon serves from (Boost.Beast on
// Boost.Asio): persistent keep-alive connections, one I/O thread by default, and handlers that
// may answer later from another thread (the RM answers from its scheduler thread).
//
//   HttpServer server("127.0.0.1", 0, [](HttpRequest req, Respond respond) {
//     respond({200, R"({"ok":true})"});                  // now, or later from any thread
//   });
//   SPINDLE_RETURN_IF_ERROR(server.start());
//   uint16_t port = server.port();                        // the bound port (0 picks a free one)
//   ...
//   server.stop();
//
// Algorithm per connection: 1. read one request (body limit kMaxBodyBytes); 2. hand it to the
// handler with a Respond callback; 3. the callback sends the response from the thread that
// calls it (a non-blocking send: nothing else uses the socket meanwhile) and starts the next
// read, so the I/O thread is not woken to write it; what does not fit in the socket buffer, a
// renderBody response, a last answer before closing and answers from a thread that said
// sendAnswersFromThisThread(false) (unless the answer is marked sendNow) go through the
// connection's I/O executor; 4. read the next
// request unless the client asked to close. One request is in flight per
// connection (HTTP/1.1 without pipelining), so answers keep request order. Thread-safety: start()
// and stop() from one owner thread; Respond from any thread, exactly once per request.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/latency_histogram.h"
#include "base/status.h"

namespace spindle::protocol {

struct HttpRequest {
  std::string method;                        // "GET", "POST", "PUT", "DELETE"
  std::string path;                          // the target without its query, percent-decoded
  std::map<std::string, std::string> query;  // decoded; a repeated name keeps the last value
  std::string body;  // room for kBodyReadPadding more bytes when Content-Length was given
  std::string contentType;
  std::string accept;
  int64_t receivedUs = 0;  // steadyNowUs() when the whole request had been read
};

struct HttpResponse {
  HttpResponse() = default;
  HttpResponse(int s, std::string b) : status(s), body(std::move(b)) {}

  int status = 200;
  std::string body;
  std::string contentType = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  // When set, the body is this function's result, computed on the I/O thread that writes the
  // response (so a handler running on another thread hands over a record, not its JSON; the
  // answer then costs the I/O thread a wake-up).
  std::function<std::string()> renderBody;
  // When set, the time from the request's receivedUs until this answer's last byte was handed
  // to the socket is recorded here (on the thread that wrote it).
  LatencyHistogram* sentLatency = nullptr;
  // Sent by the answering thread even when it hands its answers to the I/O thread
  // (sendAnswersFromThisThread(false)): for an answer a client is waiting on, which would
  // otherwise wait behind the I/O thread's work. Not with renderBody.
  bool sendNow = false;
};

using Respond = std::function<void(HttpResponse)>;

// Whether answers given on the calling thread are sent by that thread (the default) or handed
// to the connection's I/O thread. A busy scheduler thread hands them over: the I/O thread is
// awake anyway under load, and the scheduler thread then only schedules.
void sendAnswersFromThisThread(bool yes);
bool answersSentFromThisThread();
using HttpHandler = std::function<void(HttpRequest, Respond)>;

inline constexpr size_t kMaxBodyBytes = 8 * 1024 * 1024;
// Bytes reserved past a request body of known length in HttpRequest::body's capacity: simdjson
// reads up to 64 past a text's end (SIMDJSON_PADDING), and decode() then reads the body in place.
inline constexpr size_t kBodyReadPadding = 64;

class HttpServer {
 public:
  HttpServer(std::string host, uint16_t port, HttpHandler handler, int ioThreads = 1);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds, listens and starts the I/O threads. Errors: a bad address, a port in use.
  Status start();
  // The bound port (after start()).
  uint16_t port() const { return port_; }
  // Stops accepting and closes every connection; idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  uint16_t port_ = 0;
};

// Splits "host:port"; `what` names the value in the error ("yarn.resourcemanager.address").
Result<std::pair<std::string, uint16_t>> parseHostPort(std::string_view s, std::string_view what);

// Percent-decodes a URL component ('+' stays '+', as in paths).
std::string urlDecode(std::string_view s);

}  // namespace spindle::protocol
