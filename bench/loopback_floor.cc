// loopback_floor: what one request-response over a loopback TCP connection costs on this
// machine with no protocol work at all, the floor under any daemon's heartbeat or allocate
// call. A server process (one thread, epoll, non-blocking sockets) answers every fixed-size
// request on each of N keep-alive connections with a fixed-size response; a client process
// (one thread, epoll) keeps one request outstanding per connection (closed loop), or sends one
// per connection every --interval-ms (open loop, as NMs heartbeat). Neither parses anything: a
// message is its byte count. After --warmup-s it measures for --seconds and prints round trips
// per second and each side's CPU per round trip (user + system, from /proc/<pid>/stat).
//
//   loopback_floor --connections 10000 --seconds 10 --request-bytes 700 --response-bytes 300
//
// Exit status: 0 after a measured run, 1 when a socket fails, 2 for bad arguments.
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace {

struct Options {
  int connections = 10'000;
  double seconds = 10;
  double warmupS = 3;
  int requestBytes = 700;
  int responseBytes = 300;
  int intervalMs = 0;  // 0: closed loop
};

double nowS() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpuSeconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  std::istringstream in(line.substr(line.rfind(')') + 2));
  std::string f;
  double ticks = 0;
  for (int i = 3; i <= 15 && in >> f; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(f);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

void nonBlocking(int fd) {
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) die("fcntl");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Reads what is there; returns the bytes read (0 when none), -1 when the peer closed.
ssize_t drain(int fd, std::vector<char>& buf) {
  ssize_t total = 0;
  for (;;) {
    ssize_t n = read(fd, buf.data(), buf.size());
    if (n > 0) {
      total += n;
      if (static_cast<size_t>(n) < buf.size()) return total;
      continue;
    }
    if (n == 0) return -1;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return total;
    if (errno == EINTR) continue;
    return -1;
  }
}

[[noreturn]] void serve(int listener, const Options& o) {
  int ep = epoll_create1(0);
  epoll_event ev{.events = EPOLLIN, .data = {.fd = listener}};
  epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
  std::vector<int64_t> pendingBytes(1 << 20, 0);  // by fd: request bytes not yet answered
  std::vector<char> buf(64 * 1024);
  const std::string response(static_cast<size_t>(o.responseBytes), 'r');
  std::vector<epoll_event> events(1024);
  for (;;) {
    int n = epoll_wait(ep, events.data(), static_cast<int>(events.size()), -1);
    for (int i = 0; i < n; ++i) {
      int fd = events[i].data.fd;
      if (fd == listener) {
        for (int c; (c = accept(listener, nullptr, nullptr)) >= 0;) {
          nonBlocking(c);
          epoll_event cev{.events = EPOLLIN, .data = {.fd = c}};
          epoll_ctl(ep, EPOLL_CTL_ADD, c, &cev);
        }
        continue;
      }
      ssize_t got = drain(fd, buf);
      if (got < 0) {
        close(fd);
        continue;
      }
      pendingBytes[static_cast<size_t>(fd)] += got;
      while (pendingBytes[static_cast<size_t>(fd)] >= o.requestBytes) {
        pendingBytes[static_cast<size_t>(fd)] -= o.requestBytes;
        if (write(fd, response.data(), response.size()) < 0 && errno != EAGAIN) close(fd);
      }
    }
  }
}

struct Conn {
  int fd = -1;
  int awaiting = 0;   // 1 while a request is unanswered
  double sendAt = 0;  // open loop: when the next request is due
};

void sendRequest(Conn& c, const std::string& request) {
  if (write(c.fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    die("write");
  }
  c.awaiting = 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"loopback request-response floor"};
  app.add_option("--connections", o.connections)->check(CLI::Range(1, 60'000));
  app.add_option("--seconds", o.seconds)->check(CLI::Range(0.1, 600.0));
  app.add_option("--warmup-s", o.warmupS)->check(CLI::Range(0.0, 600.0));
  app.add_option("--request-bytes", o.requestBytes)->check(CLI::Range(1, 60'000));
  app.add_option("--response-bytes", o.responseBytes)->check(CLI::Range(1, 60'000));
  app.add_option("--interval-ms", o.intervalMs, "0: closed loop")->check(CLI::Range(0, 60'000));
  CLI11_PARSE(app, argc, argv);
  rlimit nofile{};
  getrlimit(RLIMIT_NOFILE, &nofile);
  nofile.rlim_cur = nofile.rlim_max;
  setrlimit(RLIMIT_NOFILE, &nofile);
  if (nofile.rlim_cur < static_cast<rlim_t>(o.connections) + 64) {
    std::fprintf(stderr, "loopback_floor: the open-file limit %llu is too low for %d connections\n",
                 static_cast<unsigned long long>(nofile.rlim_cur), o.connections);
    return 2;
  }

  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) die("bind");
  if (listen(listener, 4096) < 0) die("listen");
  socklen_t len = sizeof addr;
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  pid_t server = fork();
  if (server == 0) serve(listener, o);
  close(listener);

  int ep = epoll_create1(0);
  std::vector<Conn> conns(static_cast<size_t>(o.connections));
  std::vector<int> byFd(1 << 20, -1);
  for (size_t i = 0; i < conns.size(); ++i) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) die("connect");
    nonBlocking(fd);
    conns[i].fd = fd;
    byFd[static_cast<size_t>(fd)] = static_cast<int>(i);
    epoll_event ev{.events = EPOLLIN, .data = {.fd = fd}};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  }
  const std::string request(static_cast<size_t>(o.requestBytes), 'q');
  const double start = nowS();
  // Open loop: spread the first requests over one interval, as NMs' heartbeats are.
  for (size_t i = 0; i < conns.size(); ++i) {
    conns[i].sendAt = start + (o.intervalMs / 1000.0) * static_cast<double>(i) /
                                  static_cast<double>(conns.size());
  }
  std::vector<char> buf(64 * 1024);
  std::vector<epoll_event> events(1024);
  int64_t roundTrips = 0, measuredTrips = 0;
  double measureFrom = start + o.warmupS, measureTo = measureFrom + o.seconds;
  double serverCpu0 = 0, clientCpu0 = 0;
  bool measuring = false;
  std::vector<int64_t> received(conns.size(), 0);
  size_t nextDue = 0;  // open loop: round-robin over connections whose time has come
  for (Conn& c : conns) {
    if (o.intervalMs == 0) sendRequest(c, request);
  }
  for (double t = nowS(); t < measureTo; t = nowS()) {
    if (!measuring && t >= measureFrom) {
      measuring = true;
      serverCpu0 = cpuSeconds(server);
      clientCpu0 = cpuSeconds(getpid());
      measuredTrips = roundTrips;
    }
    if (o.intervalMs > 0) {
      for (size_t k = 0; k < conns.size(); ++k, nextDue = (nextDue + 1) % conns.size()) {
        Conn& c = conns[nextDue];
        if (c.sendAt > t) break;
        if (c.awaiting == 0) sendRequest(c, request);
        c.sendAt += o.intervalMs / 1000.0;
      }
    }
    int n = epoll_wait(ep, events.data(), static_cast<int>(events.size()), o.intervalMs ? 1 : 100);
    for (int i = 0; i < n; ++i) {
      const int idx = byFd[static_cast<size_t>(events[i].data.fd)];
      Conn& c = conns[static_cast<size_t>(idx)];
      ssize_t got = drain(c.fd, buf);
      if (got < 0) die("server closed a connection");
      received[static_cast<size_t>(idx)] += got;
      while (received[static_cast<size_t>(idx)] >= o.responseBytes) {
        received[static_cast<size_t>(idx)] -= o.responseBytes;
        c.awaiting = 0;
        ++roundTrips;
        if (o.intervalMs == 0) sendRequest(c, request);
      }
    }
  }
  const double serverCpu = cpuSeconds(server) - serverCpu0;
  const double clientCpu = cpuSeconds(getpid()) - clientCpu0;
  const int64_t trips = roundTrips - measuredTrips;
  kill(server, SIGTERM);
  waitpid(server, nullptr, 0);
  const double perS = static_cast<double>(trips) / o.seconds;
  std::printf(
      "round_trips_per_s: %.0f (%lld in %.1f s, %d connections, %s)\n", perS,
      static_cast<long long>(trips), o.seconds, o.connections,
      o.intervalMs ? ("every " + std::to_string(o.intervalMs) + " ms").c_str() : "closed loop");
  std::printf("server_cpu_s: %.2f (%.0f %% of one core, %.1f us per round trip)\n", serverCpu,
              100 * serverCpu / o.seconds, 1e6 * serverCpu / static_cast<double>(trips));
  std::printf("client_cpu_s: %.2f (%.0f %% of one core, %.1f us per round trip)\n", clientCpu,
              100 * clientCpu / o.seconds, 1e6 * clientCpu / static_cast<double>(trips));
  return 0;
}
