#include "protocol/http_server.h"

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "base/log.h"
#include "base/thread_name.h"
#include "protocol/wire_text.h"

namespace spindle::protocol {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

namespace {

thread_local bool sendAnswersHere = true;

// How long a connection may sit idle between requests (an NM heartbeats every second; a
// silent peer's socket is closed after this).
constexpr auto kIdleTimeout = std::chrono::minutes(10);
// Room in a connection's read buffer before each request, once the connection has carried a
// body larger than kSmallBodyBytes. Beast reads at most the buffer's free capacity per recv (and
// 512 bytes when it has none): a heartbeat carrying a dozen container statuses took six recv
// calls with the buffer Beast grows by itself, one with this. The buffer keeps its capacity
// between requests. A connection of small requests (a REST call, an empty heartbeat) keeps
// Beast's small buffer: 16 KiB for each new connection cost a job's REST calls fresh pages.
constexpr size_t kReadRoomBytes = 16 * 1024;
constexpr size_t kSmallBodyBytes = 256;

// Beast's string body whose reader reserves kBodyReadPadding bytes past a body of known length
// (Content-Length), so that a reader that reads past the text's end (simdjson's, for the NM
// heartbeat) reads the body in place. A chunked body grows as Beast's does.
struct PaddedStringBody : http::string_body {
  class reader : public http::string_body::reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>& h, std::string& b)
        : http::string_body::reader(h, b), body_(b) {}
    void init(const boost::optional<std::uint64_t>& length, beast::error_code& ec) {
      ec = {};
      // The parser refused a length over its body_limit (kMaxBodyBytes) before this.
      if (length) body_.reserve(std::min<std::uint64_t>(*length, kMaxBodyBytes) + kBodyReadPadding);
    }

   private:
    std::string& body_;
  };
};

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

// One connection. Executor is the io_context's own executor when the server has one I/O thread,
// a strand of it otherwise: a concrete type either way, so no handler goes through Asio's
// type-erased executor. The socket is a plain one: instead of a deadline armed and cancelled
// around every read and write (Beast's tcp_stream), one timer per connection checks every
// kIdleTimeout whether the connection has been idle that long.
//
// While a request is with the handler nothing else touches the socket (the next read starts
// only after the answer is written), so the thread that answers writes the answer itself with
// a non-blocking send and starts the next read: the I/O thread is not woken to write it, which
// saves a wake-up and a context switch per request (the RM answers from its scheduler thread).
// Only what cannot be sent at once (a full socket buffer), a body rendered by renderBody, and
// closing go through the I/O thread.
template <class Executor>
class Session : public std::enable_shared_from_this<Session<Executor>> {
 public:
  using Socket = asio::basic_stream_socket<tcp, Executor>;
  Session(Socket socket, const HttpHandler& handler)
      : socket_(std::move(socket)), idle_(socket_.get_executor()), handler_(handler) {}

  void run() {
    touch();
    waitIdle(kIdleTimeout);
    read();
  }

 private:
  using Clock = std::chrono::steady_clock;

  void touch() { lastActive_.store(Clock::now().time_since_epoch().count()); }

  void read() {
    parser_.emplace();
    parser_->body_limit(kMaxBodyBytes);
    if (lastBodyBytes_ > kSmallBodyBytes) buffer_.reserve(kReadRoomBytes);
    http::async_read(
        socket_, buffer_, *parser_,
        [self = this->shared_from_this()](beast::error_code ec, size_t) { self->onRead(ec); });
  }

  // Closes the connection once no request has been read or answered for kIdleTimeout.
  void waitIdle(Clock::duration after) {
    idle_.expires_after(after);
    idle_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
      if (ec || self->closed_) return;
      const auto idleFor = Clock::now() - Clock::time_point(Clock::duration(self->lastActive_));
      const bool busy = self->busy_.load();
      if (!busy && idleFor >= kIdleTimeout) {
        self->close();
        return;
      }
      self->waitIdle(busy ? kIdleTimeout : kIdleTimeout - idleFor);
    });
  }

  void onRead(beast::error_code ec) {
    if (ec) {
      if (ec != http::error::end_of_stream && ec != asio::error::connection_reset &&
          ec != asio::error::operation_aborted) {
        // A malformed request line or header, or a body over the limit: answer and close.
        HttpResponse bad{400, R"({"RemoteException":{"exception":"BadRequestException",)"
                              R"("message":"malformed HTTP request: )" +
                                  ec.message() +
                                  R"(","javaClassName":"org.apache.hadoop.yarn.webapp.)"
                                  R"(BadRequestException"}})"};
        keepAlive_ = false;
        version_ = 11;
        busy_ = true;
        writeOnIoThread(std::move(bad));
        return;
      }
      close();
      return;
    }
    busy_ = true;
    http::request<PaddedStringBody> req = parser_->release();
    keepAlive_ = req.keep_alive();
    version_ = req.version();
    HttpRequest r;
    r.method = std::string(req.method_string());
    splitTarget(std::string_view(req.target().data(), req.target().size()), r);
    r.body = std::move(req.body());
    lastBodyBytes_ = r.body.size();
    r.contentType = std::string(req[http::field::content_type]);
    r.accept = std::string(req[http::field::accept]);
    r.receivedUs = receivedUs_ = steadyNowUs();
    handler_(std::move(r), [self = this->shared_from_this()](HttpResponse resp) {
      self->answer(std::move(resp));
    });
  }

  // Runs on whichever thread answers.
  void answer(HttpResponse r) {
    sentLatency_ = r.sentLatency;
    if (r.renderBody || !keepAlive_ || (!sendAnswersHere && !r.sendNow)) {
      asio::post(socket_.get_executor(),
                 [self = this->shared_from_this(), r = std::move(r)]() mutable {
                   self->writeOnIoThread(std::move(r));
                 });
      return;
    }
    serialize(std::move(r));
    const ssize_t sent =
        ::send(socket_.native_handle(), wire_.data(), wire_.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (sent == static_cast<ssize_t>(wire_.size())) {
      written();
      return;
    }
    // A full socket buffer or an error: the I/O thread writes the rest (and sees the error).
    const size_t done = sent > 0 ? static_cast<size_t>(sent) : 0;
    asio::post(socket_.get_executor(),
               [self = this->shared_from_this(), done] { self->writeRest(done); });
  }

  void writeOnIoThread(HttpResponse r) {
    if (r.renderBody) r.body = r.renderBody();
    serialize(std::move(r));
    writeRest(0);
  }

  void writeRest(size_t from) {
    asio::async_write(socket_, asio::buffer(wire_.data() + from, wire_.size() - from),
                      [self = this->shared_from_this()](beast::error_code ec, size_t) {
                        if (ec || !self->keepAlive_) {
                          self->busy_ = false;
                          self->close();
                          return;
                        }
                        self->written();
                      });
  }

  // The answer is out: wait for the next request (on the thread that wrote it, see above).
  void written() {
    if (sentLatency_ != nullptr) {
      sentLatency_->record(steadyNowUs() - receivedUs_);
      sentLatency_ = nullptr;
    }
    touch();
    busy_ = false;
    read();
  }

  // The response's bytes into wire_, as Beast writes them.
  void serialize(HttpResponse r) {
    // One request is in flight per connection, so one response object serves them all.
    res_ = {};
    res_.result(static_cast<http::status>(r.status));
    res_.version(version_);
    res_.set(http::field::server, "spindle");
    res_.set(http::field::content_type, r.contentType);
    for (const auto& [k, v] : r.headers) res_.set(k, v);
    res_.keep_alive(keepAlive_);
    res_.body() = std::move(r.body);
    res_.prepare_payload();
    wire_.clear();
    appendWireText(res_, wire_);
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ignored;
    idle_.cancel();
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    socket_.close(ignored);
  }

  Socket socket_;
  asio::basic_waitable_timer<Clock, asio::wait_traits<Clock>, Executor> idle_;
  beast::flat_buffer buffer_;
  size_t lastBodyBytes_ = 0;  // the last request's body: whether the next read gets room
  int64_t receivedUs_ = 0;    // the request in flight's HttpRequest::receivedUs
  LatencyHistogram* sentLatency_ = nullptr;  // its answer's HttpResponse::sentLatency
  std::optional<http::request_parser<PaddedStringBody>> parser_;
  http::response<http::string_body> res_;
  std::string wire_;
  const HttpHandler& handler_;
  // Read by the idle timer on the I/O thread while an answering thread may write them.
  std::atomic<Clock::rep> lastActive_{0};
  std::atomic<bool> busy_{false};  // a request is being handled or answered
  bool closed_ = false;            // the I/O thread's own
  bool keepAlive_ = true;
  unsigned version_ = 11;
};

}  // namespace

void sendAnswersFromThisThread(bool yes) { sendAnswersHere = yes; }
bool answersSentFromThisThread() { return sendAnswersHere; }

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
    if (threads == 1) {
      acceptOn(ioc.get_executor());
    } else {
      acceptOn(asio::make_strand(ioc));
    }
  }

  // Accepts the next connection onto `ex` (see Session for why the executor's type matters).
  template <class Executor>
  void acceptOn(Executor ex) {
    using Socket = typename tcp::socket::template rebind_executor<Executor>::other;
    acceptor.async_accept(ex, [this](beast::error_code ec, Socket socket) {
      if (ec) {
        if (ec == asio::error::operation_aborted) return;
        SPINDLE_LOG_WARN("http: accept failed: {}", ec.message());
      } else {
        socket.set_option(tcp::no_delay(true), ec);
        std::make_shared<Session<Executor>>(std::move(socket), handler)->run();
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
    impl_->workers.emplace_back([this] {
      nameThisThread("http-server");
      impl_->ioc.run();
    });
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
