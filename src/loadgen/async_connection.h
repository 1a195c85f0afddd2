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
// A request goes out as the bytes Beast's serializer writes for it (requestHead(), tested
// against Beast), written directly; the answer is read with a Beast parser that keeps only the
// status, Connection's keep-alive and the body (no header fields stored): the load generators
// make tens of thousands of calls a second.
// Thread-compatible: used from the io_context's thread only.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "protocol/http_server.h"

namespace spindle::loadgen {

struct HttpCall {
  int status = 0;
  std::string body;
  std::string error;  // transport error (connect, timeout, reset); empty when answered
};

// "HTTP 400 <the body's first 300 characters>", or the transport error.
std::string describe(const HttpCall& r);

// The request line and header fields of a call, as Beast writes a request<string_body> with
// Host 127.0.0.1, Content-Type application/json, keep-alive and prepare_payload().
void appendRequestHead(std::string& out, boost::beast::http::verb verb, std::string_view target,
                       size_t bodySize);

// An HTTP/1.1 response parser that keeps the status and the body only.
class AnswerParser : public boost::beast::http::basic_parser<false> {
 public:
  int status = 0;
  std::string body;

 private:
  void on_request_impl(boost::beast::http::verb, boost::beast::string_view,
                       boost::beast::string_view, int, boost::beast::error_code&) override {}
  void on_response_impl(int code, boost::beast::string_view, int,
                        boost::beast::error_code&) override {
    status = code;
  }
  void on_field_impl(boost::beast::http::field, boost::beast::string_view,
                     boost::beast::string_view, boost::beast::error_code&) override {}
  void on_header_impl(boost::beast::error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& length,
                         boost::beast::error_code&) override {
    // Room for simdjson's padding: decode<>() then reads the answer in place (codec.h).
    if (length) body.reserve(static_cast<size_t>(*length) + protocol::kBodyReadPadding);
  }
  size_t on_body_impl(boost::beast::string_view b, boost::beast::error_code&) override {
    body.append(b.data(), b.size());
    return b.size();
  }
  void on_chunk_header_impl(std::uint64_t, boost::beast::string_view,
                            boost::beast::error_code&) override {}
  size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view b,
                            boost::beast::error_code&) override {
    body.append(b.data(), b.size());
    return b.size();
  }
  void on_finish_impl(boost::beast::error_code&) override {}
};

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
  static constexpr size_t kSmallAnswerBytes = 4 * 1024;
  static constexpr size_t kLargeReadBytes = 64 * 1024;
  boost::beast::flat_buffer buffer_;
  size_t lastAnswerBytes_ = 0;  // the last answer's body: how much room the next read gets
  std::string head_, body_;     // the request being sent
  std::optional<AnswerParser> parser_;
  Done done_;
  std::deque<Queued> waiting_;
};

}  // namespace spindle::loadgen
