#include "nm/script_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "base/thread_name.h"

namespace spindle::nm {

Result<ScriptRun> runScript(const std::string& path, const std::vector<std::string>& opts,
                            int64_t timeoutMs, const std::atomic<bool>* cancel) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return internalError("pipe: {}", std::strerror(errno));
  std::vector<std::string> args{path};
  args.insert(args.end(), opts.begin(), opts.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return internalError("fork: {}", std::strerror(errno));
  }
  if (pid == 0) {
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    dup2(out[1], STDOUT_FILENO);
    const int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  std::string output;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  bool timedOut = false;
  bool cancelled = false;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    if (cancel != nullptr && cancel->load()) {
      cancelled = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 100))) <= 0) continue;
    char buf[4096];
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    output.append(buf, static_cast<size_t>(n));
  }
  close(out[0]);
  if (timedOut || cancelled) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);  // in case it had not made its process group yet
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ScriptRun run;
  run.output = std::move(output);
  run.timedOut = timedOut;
  run.cancelled = cancelled;
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  if (WIFEXITED(status)) run.exitCode = WEXITSTATUS(status);
  return run;
}

Result<std::string> runProviderScript(const std::string& path, const std::vector<std::string>& opts,
                                      int64_t timeoutMs, const std::atomic<bool>* cancel) {
  SPINDLE_ASSIGN_OR_RETURN(ScriptRun run, runScript(path, opts, timeoutMs, cancel));
  if (run.timedOut) return failedPrecondition("script {} timed out after {} ms", path, timeoutMs);
  if (run.cancelled) {
    return failedPrecondition("script {} stopped: the NodeManager is stopping", path);
  }
  if (run.signal != 0) {
    return failedPrecondition("script {} was killed by signal {}", path, run.signal);
  }
  if (run.exitCode != 0) return failedPrecondition("script {} exited with {}", path, run.exitCode);
  return std::move(run.output);
}

Status readFetchTimes(const Configuration& conf, const std::string& provider, int64_t& intervalMs,
                      int64_t& timeoutMs) {
  const std::string pre = provider + ".";
  SPINDLE_ASSIGN_OR_RETURN(intervalMs, conf.getLong(pre + "fetch-interval-ms", intervalMs));
  SPINDLE_ASSIGN_OR_RETURN(timeoutMs, conf.getLong(pre + "fetch-timeout-ms", timeoutMs));
  if (intervalMs == 0 || intervalMs < -1) {
    return invalidArgument("{}fetch-interval-ms: must be positive or -1, got {}", pre, intervalMs);
  }
  if (timeoutMs <= 0) {
    return invalidArgument("{}fetch-timeout-ms: must be positive, got {}", pre, timeoutMs);
  }
  return Status::ok();
}

PeriodicScript::PeriodicScript(ScriptFetchSettings settings, std::string provider,
                               OnOutput onOutput)
    : settings_(std::move(settings)),
      provider_(std::move(provider)),
      onOutput_(std::move(onOutput)) {}

PeriodicScript::~PeriodicScript() { stop(); }

Status PeriodicScript::start() {
  const std::string& path = settings_.path;
  if (path.empty()) {
    return invalidArgument("{}.script.path: the script provider needs a script", provider_);
  }
  if (access(path.c_str(), X_OK) != 0) {
    return invalidArgument("{}.script.path: {} does not exist or is not executable", provider_,
                           path);
  }
  fetchOnce();
  if (settings_.intervalMs > 0) {
    thread_ = std::thread([this] {
      nameThisThread("nm-script");
      fetchLoop();
    });
  }
  return Status::ok();
}

void PeriodicScript::stop() {
  cancel_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PeriodicScript::fetchOnce() {
  onOutput_(runProviderScript(settings_.path, settings_.opts, settings_.timeoutMs, &cancel_));
}

void PeriodicScript::fetchLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(settings_.intervalMs),
                         [this] { return stopping_; })) {
    lock.unlock();
    fetchOnce();
    lock.lock();
  }
}

}  // namespace spindle::nm
