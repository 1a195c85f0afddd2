#include "protocol/http_client.h"

#include <optional>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace spindle::protocol {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

beast::string_view bsv(std::string_view s) { return {s.data(), s.size()}; }

}  // namespace

struct HttpClient::Impl {
  std::string host;
  uint16_t port;
  std::chrono::milliseconds timeout;
  asio::io_context ioc;
  std::optional<beast::tcp_stream> stream;
  beast::flat_buffer buffer;

  // Runs the queued asynchronous operations to completion (tcp_stream enforces the deadline).
  void run() {
    ioc.restart();
    ioc.run();
  }

  beast::error_code connect() {
    stream.emplace(ioc);
    buffer.clear();
    beast::error_code result;
    tcp::resolver resolver(ioc);
    beast::error_code ec;
    auto endpoints = resolver.resolve(host, std::to_string(port), ec);
    if (ec) return ec;
    stream->expires_after(timeout);
    stream->async_connect(endpoints,
                          [&](beast::error_code e, const tcp::endpoint&) { result = e; });
    run();
    if (!result) stream->socket().set_option(tcp::no_delay(true), result);
    return result;
  }

  beast::error_code exchange(const http::request<http::string_body>& req,
                             http::response<http::string_body>& res) {
    beast::error_code result;
    stream->expires_after(timeout);
    http::async_write(*stream, req, [&](beast::error_code e, size_t) { result = e; });
    run();
    if (result) return result;
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxBodyBytes);
    stream->expires_after(timeout);
    http::async_read(*stream, buffer, parser, [&](beast::error_code e, size_t) { result = e; });
    run();
    if (!result) res = parser.release();
    return result;
  }
};

HttpClient::HttpClient(std::string host, uint16_t port, int64_t timeoutMs)
    : impl_(std::make_unique<Impl>()) {
  impl_->host = std::move(host);
  impl_->port = port;
  impl_->timeout = std::chrono::milliseconds(timeoutMs);
}

HttpClient::~HttpClient() = default;

std::string HttpClient::peer() const { return impl_->host + ":" + std::to_string(impl_->port); }

Result<HttpResponse> HttpClient::request(std::string_view method, std::string_view target,
                                         std::string_view body, std::string_view contentType) {
  http::request<http::string_body> req;
  req.method(http::string_to_verb(bsv(method)));
  if (req.method() == http::verb::unknown) {
    return invalidArgument("HTTP method '{}' is not known", method);
  }
  req.target(bsv(target));
  req.version(11);
  req.set(http::field::host, peer());
  req.set(http::field::accept, "application/json");
  req.keep_alive(true);
  if (!body.empty() || method != "GET") {
    req.set(http::field::content_type, bsv(contentType));
    req.body() = std::string(body);
  }
  req.prepare_payload();
  http::response<http::string_body> res;
  beast::error_code ec;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool reused = impl_->stream.has_value();
    if (!reused) {
      ec = impl_->connect();
      if (ec) {
        impl_->stream.reset();
        return failedPrecondition("cannot connect to {}: {}", peer(), ec.message());
      }
    }
    ec = impl_->exchange(req, res);
    if (!ec) break;
    impl_->stream.reset();
    const bool stale =
        reused && (ec == http::error::end_of_stream || ec == asio::error::connection_reset ||
                   ec == asio::error::broken_pipe || ec == asio::error::eof);
    if (!stale) break;
  }
  if (ec) {
    return failedPrecondition("{} {} on {}: {}", method, target, peer(),
                              ec == beast::error::timeout ? "timed out" : ec.message());
  }
  HttpResponse out;
  out.status = static_cast<int>(res.result_int());
  out.contentType = std::string(res[http::field::content_type]);
  out.body = std::move(res.body());
  if (!res.keep_alive()) impl_->stream.reset();
  return out;
}

}  // namespace spindle::protocol
