#include "nm/node_attributes_provider.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <set>

#include "base/log.h"
#include "base/strings.h"
#include "placement/node_attributes.h"

namespace spindle::nm {

namespace {

constexpr std::string_view kProvider = "yarn.nodemanager.node-attributes.provider";
constexpr std::string_view kConfigured =
    "yarn.nodemanager.node-attributes.provider.configured-node-attributes";
constexpr std::string_view kScriptLine = "NODE_ATTRIBUTE:";

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.push_back(
        s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// One `name,type,value` (fields already split): the checks both providers make.
Result<protocol::NodeAttributeRecord> attributeOf(const std::vector<std::string_view>& fields,
                                                  std::set<std::string>& seen) {
  protocol::NodeAttributeRecord a;
  a.attributePrefix = std::string(placement::kDistributedPrefix);
  a.attributeName = std::string(fields[0]);
  a.attributeValue = std::string(fields[2]);
  // The provider sets the prefix itself; a configured one would overwrite it.
  if (a.attributeName.find('/') != std::string::npos) {
    return invalidArgument("attribute '{}' must not carry a prefix (nm.yarn.io is added)",
                           a.attributeName);
  }
  if (fields[1] != "STRING") {
    return invalidArgument(
        "attribute '{}': invalid node attribute type: {}, valid values are "
        "[STRING]",
        a.attributeName, fields[1]);
  }
  SPINDLE_RETURN_IF_ERROR(placement::validateNodeAttribute(
      {a.attributePrefix, a.attributeName, placement::NodeAttributeType::kString, a.attributeValue},
      placement::kDistributedPrefix));
  if (!seen.insert(a.attributeName).second) {
    return invalidArgument("attribute '{}' is given more than once", a.attributeName);
  }
  return a;
}

}  // namespace

Result<std::vector<protocol::NodeAttributeRecord>> parseConfiguredNodeAttributes(
    std::string_view value) {
  std::vector<protocol::NodeAttributeRecord> out;
  if (trimmed(value).empty()) return out;
  std::set<std::string> seen;
  for (std::string_view item : split(value, ':')) {
    const std::vector<std::string_view> fields = split(item, ',');
    if (fields.size() != 3) {
      return invalidArgument("{}: '{}' is not name,type,value (attributes are separated by ':')",
                             kConfigured, item);
    }
    auto a = attributeOf(fields, seen);
    if (!a) return a.status().withContext(kConfigured);
    out.push_back(std::move(*a));
  }
  return out;
}

Result<std::vector<protocol::NodeAttributeRecord>> parseScriptNodeAttributes(
    std::string_view output) {
  std::vector<protocol::NodeAttributeRecord> out;
  std::set<std::string> seen;
  int lineNo = 0;
  for (std::string_view line : split(output, '\n')) {
    ++lineNo;
    line = trimmed(line);
    if (!line.starts_with(kScriptLine)) continue;
    std::vector<std::string_view> fields = split(line.substr(kScriptLine.size()), ',');
    if (fields.size() != 3) {
      return invalidArgument(
          "script output line {}: malformed output, expecting format "
          "NODE_ATTRIBUTE:ATTRIBUTE_NAME,ATTRIBUTE_TYPE,ATTRIBUTE_VALUE; but got {}",
          lineNo, line);
    }
    for (std::string_view& f : fields) f = trimmed(f);
    auto a = attributeOf(fields, seen);
    if (!a) return a.status().withContext(fmt::format("script output line {}", lineNo));
    out.push_back(std::move(*a));
  }
  return out;
}

Result<NodeAttributesSettings> readNodeAttributesSettings(const Configuration& conf) {
  NodeAttributesSettings s;
  const std::string kind = conf.get(std::string(kProvider), "");
  const std::string pre = std::string(kProvider) + ".";
  if (kind.empty()) return s;
  if (kind == "config") {
    s.kind = NodeAttributesSettings::Kind::kConfig;
    s.configured = conf.get(std::string(kConfigured), "");
  } else if (kind == "script") {
    s.kind = NodeAttributesSettings::Kind::kScript;
    s.scriptPath = conf.get(pre + "script.path", "");
    const std::string opts = conf.get(pre + "script.opts", "");
    for (std::string_view o : splitNonEmpty(opts, ' ')) s.scriptOpts.emplace_back(o);
  } else {
    return invalidArgument("{}: '{}' is not a provider Spindle has (config or script)", kProvider,
                           kind);
  }
  SPINDLE_ASSIGN_OR_RETURN(s.fetchIntervalMs,
                           conf.getLong(pre + "fetch-interval-ms", s.fetchIntervalMs));
  SPINDLE_ASSIGN_OR_RETURN(s.fetchTimeoutMs,
                           conf.getLong(pre + "fetch-timeout-ms", s.fetchTimeoutMs));
  if (s.fetchIntervalMs == 0 || s.fetchIntervalMs < -1) {
    return invalidArgument("{}fetch-interval-ms: must be positive or -1, got {}", pre,
                           s.fetchIntervalMs);
  }
  if (s.fetchTimeoutMs <= 0) {
    return invalidArgument("{}fetch-timeout-ms: must be positive, got {}", pre, s.fetchTimeoutMs);
  }
  return s;
}

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

Result<std::string> runAttributeScript(const std::string& path,
                                       const std::vector<std::string>& opts, int64_t timeoutMs,
                                       const std::atomic<bool>* cancel) {
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

NodeAttributesProvider::NodeAttributesProvider(NodeAttributesSettings settings)
    : settings_(std::move(settings)) {}

NodeAttributesProvider::~NodeAttributesProvider() { stop(); }

Status NodeAttributesProvider::start() {
  using Kind = NodeAttributesSettings::Kind;
  if (settings_.kind == Kind::kNone) return Status::ok();
  if (settings_.kind == Kind::kConfig) {
    SPINDLE_ASSIGN_OR_RETURN(current_, parseConfiguredNodeAttributes(settings_.configured));
    return Status::ok();
  }
  // ScriptBasedNodeAttributesProvider.verifyConfiguredScript.
  const std::string& path = settings_.scriptPath;
  if (path.empty()) {
    return invalidArgument("{}.script.path: the script provider needs a script", kProvider);
  }
  if (access(path.c_str(), X_OK) != 0) {
    return invalidArgument("{}.script.path: {} does not exist or is not executable", kProvider,
                           path);
  }
  fetchOnce();
  changed_ = false;
  if (settings_.fetchIntervalMs > 0) thread_ = std::thread([this] { fetchLoop(); });
  return Status::ok();
}

void NodeAttributesProvider::stop() {
  cancel_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void NodeAttributesProvider::fetchOnce() {
  auto output = runAttributeScript(settings_.scriptPath, settings_.scriptOpts,
                                   settings_.fetchTimeoutMs, &cancel_);
  auto parsed = output ? parseScriptNodeAttributes(*output)
                       : Result<std::vector<protocol::NodeAttributeRecord>>(output.status());
  if (!parsed) {
    SPINDLE_LOG_WARN("node attribute script: {}; the previous attributes stay",
                     parsed.status().message());
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (*parsed != current_) {
    current_ = std::move(*parsed);
    changed_ = true;
  }
}

void NodeAttributesProvider::fetchLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(settings_.fetchIntervalMs),
                         [this] { return stopping_; })) {
    lock.unlock();
    fetchOnce();
    lock.lock();
  }
}

std::vector<protocol::NodeAttributeRecord> NodeAttributesProvider::current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_;
}

std::optional<std::vector<protocol::NodeAttributeRecord>> NodeAttributesProvider::takeChanged() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!changed_) return std::nullopt;
  changed_ = false;
  return current_;
}

}  // namespace spindle::nm
