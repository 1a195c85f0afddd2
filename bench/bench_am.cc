// The ApplicationMaster of bench/slurm_side_by_side.sh: the smallest real AM. It registers
// (RegisterApplicationMasterRequest), runs /bin/true as a child process, and unregisters
// (FinishApplicationMasterRequest) with SUCCEEDED when the child exited 0, FAILED otherwise.
// Only libc, linked statically when it can be, so that starting it costs about what starting
// /bin/true costs: the benchmark measures the cluster, not the AM's start-up.
//
// It finds its attempt from CONTAINER_ID and the RM from SPINDLE_RM_ADDRESS (the first of a
// comma-separated list), as every AM the NodeManager starts does (docs/daemon.md). It prints
// `am-start <epoch seconds>` first, which the benchmark reads as the moment the AM process ran.
// Exit status: 0 after a finish answered 200, 1 otherwise (the reason on stderr).
//
// With --no-rm it only prints `am-start`, runs /bin/true and exits with 0 when that exited 0:
// the job's processes without the cluster, for bench/process_floor.cc.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

extern char** environ;

namespace {

int connectTo(const char* host, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host, &addr.sin_addr) != 1 ||
      connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// POSTs `body` to `path` over the kept-alive connection `fd`; reads the whole response (headers,
// then Content-Length bytes) and returns the HTTP status, or -1.
int post(int fd, const char* host, int port, const char* path, const char* body) {
  char req[2048];
  const int n =
      std::snprintf(req, sizeof req,
                    "POST %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                    "Content-Length: %zu\r\n\r\n%s",
                    path, host, port, std::strlen(body), body);
  if (n <= 0 || n >= static_cast<int>(sizeof req)) return -1;
  for (int sent = 0; sent < n;) {
    const ssize_t w = write(fd, req + sent, static_cast<size_t>(n - sent));
    if (w <= 0) return -1;
    sent += static_cast<int>(w);
  }
  char resp[8192];
  size_t got = 0;
  const char* bodyStart = nullptr;
  size_t length = 0;
  while (got < sizeof resp - 1) {
    const ssize_t r = read(fd, resp + got, sizeof resp - 1 - got);
    if (r <= 0) return -1;
    got += static_cast<size_t>(r);
    resp[got] = 0;
    if (!bodyStart) {
      const char* end = std::strstr(resp, "\r\n\r\n");
      if (!end) continue;
      bodyStart = end + 4;
      const char* cl = strcasestr(resp, "\r\ncontent-length:");
      if (cl && cl < end) length = std::strtoul(cl + 17, nullptr, 10);
    }
    if (static_cast<size_t>(resp + got - bodyStart) >= length) break;
  }
  int status = -1;
  if (std::sscanf(resp, "HTTP/1.%*d %d", &status) != 1) return -1;
  if (status != 200) std::fprintf(stderr, "bench AM: POST %s: %s\n", path, resp);
  return status;
}

// Runs /bin/true as a child; true when it exited 0.
bool runTrue() {
  pid_t pid = 0;
  char truePath[] = "/bin/true";
  char* argv[] = {truePath, nullptr};
  int status = 0;
  const bool ran = posix_spawn(&pid, truePath, nullptr, nullptr, argv, environ) == 0 &&
                   waitpid(pid, &status, 0) == pid;
  return ran && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  std::printf("am-start %lld.%06ld\n", static_cast<long long>(now.tv_sec), now.tv_nsec / 1000);
  std::fflush(stdout);  // the NM may stop the container right after the finish
  if (argc == 2 && std::strcmp(argv[1], "--no-rm") == 0) return runTrue() ? 0 : 1;
  if (argc > 1) {
    std::fprintf(stderr, "usage: spindle_bench_am [--no-rm]\n");
    return 2;
  }
  const char* container = std::getenv("CONTAINER_ID");
  const char* rmList = std::getenv("SPINDLE_RM_ADDRESS");
  const char* nmHost = std::getenv("NM_HOST");
  if (!container || !rmList) {
    std::fprintf(stderr, "bench AM: CONTAINER_ID and SPINDLE_RM_ADDRESS must be set\n");
    return 1;
  }
  // container_[e<epoch>_]<cluster timestamp>_<app>_<attempt>_<container>
  char ts[32], app[32];
  int attempt = 0;
  const char* rest = container + std::strlen("container_");
  if (std::strncmp(container, "container_", 10) != 0) rest = "";
  if (rest[0] == 'e') rest = std::strchr(rest, '_') ? std::strchr(rest, '_') + 1 : "";
  if (std::sscanf(rest, "%31[0-9]_%31[0-9]_%d_", ts, app, &attempt) != 3) {
    std::fprintf(stderr, "bench AM: CONTAINER_ID '%s' is not a container id\n", container);
    return 1;
  }
  char host[64];
  int port = 0;
  if (std::sscanf(rmList, "%63[^:,]:%d", host, &port) != 2) {
    std::fprintf(stderr, "bench AM: SPINDLE_RM_ADDRESS '%s' is not host:port\n", rmList);
    return 1;
  }
  char attemptId[128];
  std::snprintf(attemptId, sizeof attemptId, "appattempt_%s_%s_%06d", ts, app, attempt);
  char body[512];
  std::snprintf(body, sizeof body,
                "{\"applicationAttemptId\":\"%s\",\"host\":\"%s\",\"rpcPort\":-1}", attemptId,
                nmHost ? nmHost : "");
  // One connection for both calls (HTTP/1.1 keep-alive).
  const int fd = connectTo(host, port);
  if (fd < 0 || post(fd, host, port, "/rpc/v1/am/register", body) != 200) {
    std::fprintf(stderr, "bench AM: register failed\n");
    return 1;
  }
  const bool ok = runTrue();
  std::printf("true exited %s\n", ok ? "0" : "non-zero");
  std::snprintf(body, sizeof body,
                "{\"applicationAttemptId\":\"%s\",\"finalApplicationStatus\":\"%s\","
                "\"diagnostics\":\"/bin/true %s\"}",
                attemptId, ok ? "SUCCEEDED" : "FAILED", ok ? "exited 0" : "failed");
  if (post(fd, host, port, "/rpc/v1/am/finish", body) != 200) {
    std::fprintf(stderr, "bench AM: finish failed\n");
    return 1;
  }
  close(fd);
  return 0;
}
