#include "loadgen/async_connection.h"

namespace spindle::loadgen {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

std::string describe(const HttpCall& r) {
  if (!r.error.empty()) return r.error;
  return "HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 300);
}

AsyncConnection::AsyncConnection(asio::io_context& ioc, asio::ip::tcp::endpoint peer,
                                 std::chrono::milliseconds timeout)
    : stream_(ioc), peer_(peer), timeout_(timeout) {}

void AsyncConnection::call(http::verb verb, std::string target, std::string body, Done done) {
  Queued q{verb, std::move(target), std::move(body), std::move(done)};
  if (busy_) {
    waiting_.push_back(std::move(q));
    return;
  }
  begin(std::move(q));
}

void AsyncConnection::begin(Queued q) {
  busy_ = true;
  done_ = std::move(q.done);
  req_ = {};
  req_.method(q.verb);
  req_.target(q.target);
  req_.version(11);
  req_.set(http::field::host, "127.0.0.1");
  req_.set(http::field::content_type, "application/json");
  req_.keep_alive(true);
  req_.body() = std::move(q.body);
  req_.prepare_payload();
  if (connected_) return send();
  stream_.expires_after(timeout_);
  stream_.async_connect(peer_, [this](beast::error_code ec) {
    if (ec) return fail("connect", ec);
    connected_ = true;
    beast::error_code ignored;
    stream_.socket().set_option(asio::ip::tcp::no_delay(true), ignored);
    send();
  });
}

void AsyncConnection::send() {
  stream_.expires_after(timeout_);
  http::async_write(stream_, req_, [this](beast::error_code ec, size_t) {
    if (ec) return fail("write", ec);
    parser_.emplace();
    parser_->body_limit(64 * 1024 * 1024);
    http::async_read(stream_, buffer_, *parser_, [this](beast::error_code ec2, size_t) {
      if (ec2) return fail("read", ec2);
      auto res = parser_->release();
      if (!res.keep_alive()) {
        beast::error_code ignored;
        stream_.socket().close(ignored);
        connected_ = false;
      }
      HttpCall r;
      r.status = static_cast<int>(res.result_int());
      r.body = std::move(res.body());
      finish(std::move(r));
    });
  });
}

void AsyncConnection::fail(const std::string& what, beast::error_code ec) {
  beast::error_code ignored;
  stream_.socket().close(ignored);
  connected_ = false;
  buffer_.clear();
  HttpCall r;
  r.error = what + ": " + ec.message();
  finish(std::move(r));
}

void AsyncConnection::finish(HttpCall r) {
  busy_ = false;
  Done done = std::move(done_);
  done_ = nullptr;
  done(r);
  if (!busy_ && !waiting_.empty()) {
    Queued next = std::move(waiting_.front());
    waiting_.pop_front();
    begin(std::move(next));
  }
}

}  // namespace spindle::loadgen
