#include "protocol/http_server.h"

#include <charconv>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "base/log.h"

namespace spindle::protocol {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

// How long a connection may sit idle between requests (an NM heartbeats every second; a
// silent peer's socket is closed after this).
constexpr auto kIdleTimeout = std::chrono::minutes(10);

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decodeComponent(std::string_view s, bool plusIsSpace) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hexValue(s[i + 1]), lo = hexValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plusIsSpace && s[i] == '+' ? ' ' : s[i]);
  }
  return out;
}

void splitTarget(std::string_view target, HttpRequest& r) {
  const size_t q = target.find('?');
  r.path = decodeComponent(target.substr(0, q), false);
  if (q == std::string_view::npos) return;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    const size_t eq = pair.find('=');
    std::string key = decodeComponent(pair.substr(0, eq), true);
    std::string value =
        eq == std::string_view::npos ? "" : decodeComponent(pair.substr(eq + 1), true);
    if (!key.empty()) r.query[std::move(key)] = std::move(value);
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
}

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, const HttpHandler& handler)
      : stream_(std::move(socket)), handler_(handler) {}

  void run() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(kMaxBodyBytes);
    stream_.expires_after(kIdleTimeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->onRead(ec); });
  }

  void onRead(beast::error_code ec) {
    if (ec) {
      if (ec != http::error::end_of_stream && ec != beast::error::timeout &&
          ec != asio::error::connection_reset && ec != asio::error::operation_aborted) {
        // A malformed request line or header, or a body over the limit: answer and close.
        HttpResponse bad{400, R"({"RemoteException":{"exception":"BadRequestException",)"
                              R"("message":"malformed HTTP request: )" +
                                  ec.message() +
                                  R"(","javaClassName":"org.apache.hadoop.yarn.webapp.)"
                                  R"(BadRequestException"}})"};
        keepAlive_ = false;
        version_ = 11;
        write(std::move(bad));
        return;
      }
      close();
      return;
    }
    http::request<http::string_body> req = parser_->release();
    keepAlive_ = req.keep_alive();
    version_ = req.version();
    HttpRequest r;
    r.method = std::string(req.method_string());
    splitTarget(std::string_view(req.target().data(), req.target().size()), r);
    r.body = std::move(req.body());
    r.contentType = std::string(req[http::field::content_type]);
    r.accept = std::string(req[http::field::accept]);
    auto self = shared_from_this();
    handler_(std::move(r), [self](HttpResponse resp) {
      asio::post(self->stream_.get_executor(),
                 [self, resp = std::move(resp)]() mutable { self->write(std::move(resp)); });
    });
  }

  void write(HttpResponse r) {
    if (r.renderBody) r.body = r.renderBody();
    auto res = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(r.status), version_);
    res->set(http::field::server, "spindle");
    res->set(http::field::content_type, r.contentType);
    for (const auto& [k, v] : r.headers) res->set(k, v);
    res->keep_alive(keepAlive_);
    res->body() = std::move(r.body);
    res->prepare_payload();
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res](beast::error_code ec, size_t) {
                        if (ec || !self->keepAlive_) {
                          self->close();
                          return;
                        }
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  const HttpHandler& handler_;
  bool keepAlive_ = true;
  unsigned version_ = 11;
};

}  // namespace

struct HttpServer::Impl {
  std::string host;
  uint16_t port = 0;
  HttpHandler handler;
  int threads = 1;
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::vector<std::thread> workers;
  bool started = false;

  void accept() {
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket s) {
      if (ec) {
        if (ec == asio::error::operation_aborted) return;
        SPINDLE_LOG_WARN("http: accept failed: {}", ec.message());
      } else {
        s.set_option(tcp::no_delay(true), ec);
        std::make_shared<Session>(std::move(s), handler)->run();
      }
      accept();
    });
  }
};

HttpServer::HttpServer(std::string host, uint16_t port, HttpHandler handler, int ioThreads)
    : impl_(std::make_unique<Impl>()) {
  impl_->host = std::move(host);
  impl_->port = port;
  impl_->handler = std::move(handler);
  impl_->threads = std::max(1, ioThreads);
}

HttpServer::~HttpServer() { stop(); }

Status HttpServer::start() {
  beast::error_code ec;
  const auto addr = asio::ip::make_address(impl_->host, ec);
  if (ec) return invalidArgument("bind address '{}': {}", impl_->host, ec.message());
  const tcp::endpoint ep(addr, impl_->port);
  tcp::acceptor& a = impl_->acceptor;
  a.open(ep.protocol(), ec);
  if (!ec) a.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(ep, ec);
  if (!ec) a.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return failedPrecondition("cannot listen on {}:{}: {}", impl_->host, impl_->port, ec.message());
  }
  port_ = a.local_endpoint().port();
  impl_->accept();
  impl_->started = true;
  for (int i = 0; i < impl_->threads; ++i) {
    impl_->workers.emplace_back([this] { impl_->ioc.run(); });
  }
  return Status::ok();
}

void HttpServer::stop() {
  if (!impl_ || !impl_->started) return;
  impl_->started = false;
  // The acceptor closes on its own thread, then the loop stops; open connections close when
  // the context goes.
  asio::post(impl_->ioc, [this] {
    beast::error_code ignored;
    impl_->acceptor.close(ignored);
    impl_->ioc.stop();
  });
  for (std::thread& t : impl_->workers) t.join();
  impl_->workers.clear();
}

Result<std::pair<std::string, uint16_t>> parseHostPort(std::string_view s, std::string_view what) {
  const size_t colon = s.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return invalidArgument("{}: expected host:port, got '{}'", what, s);
  }
  const std::string_view p = s.substr(colon + 1);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), port);
  if (ec != std::errc() || end != p.data() + p.size() || port > 65535) {
    return invalidArgument("{}: '{}' is not a port number", what, p);
  }
  return std::pair<std::string, uint16_t>(std::string(s.substr(0, colon)),
                                          static_cast<uint16_t>(port));
}

std::string urlDecode(std::string_view s) { return decodeComponent(s, false); }

}  // namespace spindle::protocol
