#include "loadgen/async_connection.h"

#include <array>

namespace spindle::loadgen {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

std::string describe(const HttpCall& r) {
  if (!r.error.empty()) return r.error;
  return "HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 300);
}

void appendRequestHead(std::string& out, http::verb verb, std::string_view target,
                       size_t bodySize) {
  const beast::string_view method = http::to_string(verb);
  out.append(method.data(), method.size());
  out += ' ';
  out += target;
  out += " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
  // prepare_payload(): a body states its length; an empty one only for OPTIONS, PUT and POST.
  if (bodySize > 0 || verb == http::verb::options || verb == http::verb::put ||
      verb == http::verb::post) {
    out += "Content-Length: ";
    out += std::to_string(bodySize);
    out += "\r\n";
  }
  out += "\r\n";
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
  head_.clear();
  appendRequestHead(head_, q.verb, q.target, q.body.size());
  body_ = std::move(q.body);
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
  const std::array<asio::const_buffer, 2> bytes{asio::buffer(head_), asio::buffer(body_)};
  asio::async_write(stream_, bytes, [this](beast::error_code ec, size_t) {
    if (ec) return fail("write", ec);
    parser_.emplace();
    parser_->body_limit(64 * 1024 * 1024);
    // Beast reads at most the buffer's free capacity per recv (512 bytes when it has none): an
    // allocate answer with a thousand containers took hundreds of reads. Room for a small answer
    // in one read, and for a large one in a few after the first.
    buffer_.reserve(lastAnswerBytes_ > kSmallAnswerBytes ? kLargeReadBytes : kSmallAnswerBytes);
    http::async_read(stream_, buffer_, *parser_, [this](beast::error_code ec2, size_t) {
      if (ec2) return fail("read", ec2);
      if (!parser_->keep_alive()) {
        beast::error_code ignored;
        stream_.socket().close(ignored);
        connected_ = false;
      }
      HttpCall r;
      r.status = parser_->status;
      r.body = std::move(parser_->body);
      lastAnswerBytes_ = r.body.size();
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
