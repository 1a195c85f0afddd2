// One asynchronous HTTP/1.1 keep-alive connection (Boost.Beast) for the daemon load generators
// (bench/rm_load, `spindle sls`):
// one call in flight at a time (a call made meanwhile waits its turn), a deadline per call,
// reconnecting on the next call after an error. Every simulated NM and AM owns one, and one or two
// threads running the io_context drive all of them.
//
//   AsyncConnection c(ioc, endpoint, std::chrono::seconds(10));
//   c.call(http::verb::post, "/rpc/v1/am/allocate", body, [](const HttpCall& r) {
//     if (!r.error.empty()) ...; else if (r.status == 200) use(r.body);
//   });
// Thread-compatible: used from the io_context's thread only.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace spindle::loadgen {

struct HttpCall {
  int status = 0;
  std::string body;
  std::string error;  // transport error (connect, timeout, reset); empty when answered
};

// "HTTP 400 <the body's first 300 characters>", or the transport error.
std::string describe(const HttpCall& r);

class AsyncConnection {
 public:
  using Done = std::function<void(const HttpCall&)>;
  AsyncConnection(boost::asio::io_context& ioc, boost::asio::ip::tcp::endpoint peer,
                  std::chrono::milliseconds timeout);

  // Sends one request, after those queued before it; `done` runs on the io_context's thread
  // with the answer or the error.
  void call(boost::beast::http::verb verb, std::string target, std::string body, Done done);
  bool busy() const { return busy_; }

 private:
  struct Queued {
    boost::beast::http::verb verb;
    std::string target, body;
    Done done;
  };
  void begin(Queued q);
  void send();
  void finish(HttpCall r);
  void fail(const std::string& what, boost::beast::error_code ec);

  boost::beast::tcp_stream stream_;
  boost::asio::ip::tcp::endpoint peer_;
  std::chrono::milliseconds timeout_;
  bool connected_ = false;
  bool busy_ = false;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::request<boost::beast::http::string_body> req_;
  std::optional<boost::beast::http::response_parser<boost::beast::http::string_body>> parser_;
  Done done_;
  std::deque<Queued> waiting_;
};

}  // namespace spindle::loadgen
