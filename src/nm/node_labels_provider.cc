#include "nm/node_labels_provider.h"

#include <cctype>

#include "base/log.h"
#include "base/strings.h"

namespace spindle::nm {

namespace {

constexpr std::string_view kProvider = "yarn.nodemanager.node-labels.provider";
constexpr std::string_view kConfigured =
    "yarn.nodemanager.node-labels.provider.configured-node-partition";
constexpr std::string_view kResync = "yarn.nodemanager.node-labels.resync-interval-ms";
constexpr std::string_view kScriptLine = "NODE_PARTITION:";

std::string_view trimmed(std::string_view s) { return trimView(s, kJavaSpace); }

// NodeLabelUtil.checkAndThrowLabelName: ^[0-9a-zA-Z][0-9a-zA-Z-_]*, at most 255 characters.
Status checkLabelName(std::string_view name) {
  bool valid =
      !name.empty() && name.size() <= 255 && std::isalnum(static_cast<unsigned char>(name.front()));
  for (char ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') valid = false;
  }
  if (!valid) {
    return invalidArgument(
        "label name should only contains {{0-9, a-z, A-Z, -, _}} and should not started with "
        "{{-,_}}, and at most 255 characters: '{}'",
        name);
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<std::string>> parseScriptNodeLabels(std::string_view output) {
  std::optional<std::string_view> partition;
  int lineNo = 0;
  int partitionLine = 0;
  while (!output.empty()) {
    const size_t end = output.find('\n');
    std::string_view line = trimmed(output.substr(0, end));
    output.remove_prefix(end == std::string_view::npos ? output.size() : end + 1);
    ++lineNo;
    if (!line.starts_with(kScriptLine)) continue;
    partition = trimmed(line.substr(kScriptLine.size()));  // the last one wins
    partitionLine = lineNo;
  }
  std::vector<std::string> out;
  if (!partition || partition->empty()) return out;
  if (Status st = checkLabelName(*partition); !st.isOk()) {
    return st.withContext(fmt::format("script output line {}", partitionLine));
  }
  out.emplace_back(*partition);
  return out;
}

Result<NodeLabelsSettings> readNodeLabelsSettings(const Configuration& conf) {
  NodeLabelsSettings s;
  const std::string kind = conf.get(std::string(kProvider), "");
  const std::string pre = std::string(kProvider) + ".";
  if (kind.empty() || kind == "config") {
    s.configured = std::string(trimmed(conf.get(std::string(kConfigured), "")));
    if (!s.configured.empty()) {
      if (Status st = checkLabelName(s.configured); !st.isOk()) return st.withContext(kConfigured);
    }
  } else if (kind == "script") {
    s.kind = NodeLabelsSettings::Kind::kScript;
    s.script.path = conf.get(pre + "script.path", "");
    const std::string opts = conf.get(pre + "script.opts", "");
    for (std::string_view o : splitNonEmpty(opts, ' ')) s.script.opts.emplace_back(o);
  } else {
    return invalidArgument("{}: '{}' is not a provider Spindle has (config or script)", kProvider,
                           kind);
  }
  SPINDLE_RETURN_IF_ERROR(
      readFetchTimes(conf, std::string(kProvider), s.script.intervalMs, s.script.timeoutMs));
  SPINDLE_ASSIGN_OR_RETURN(s.resyncIntervalMs,
                           conf.getLong(std::string(kResync), s.resyncIntervalMs));
  if (s.resyncIntervalMs <= 0) {
    return invalidArgument("{}: must be positive, got {}", kResync, s.resyncIntervalMs);
  }
  return s;
}

NodeLabelsProvider::NodeLabelsProvider(NodeLabelsSettings settings)
    : settings_(std::move(settings)) {}

NodeLabelsProvider::~NodeLabelsProvider() { stop(); }

Status NodeLabelsProvider::start() {
  if (settings_.kind == NodeLabelsSettings::Kind::kConfig) {
    std::lock_guard<std::mutex> lock(mu_);
    current_.clear();
    if (!settings_.configured.empty()) current_.push_back(settings_.configured);
    return Status::ok();
  }
  // ScriptBasedNodeLabelsProvider: verifyConfiguredScript, then a fetch on the interval.
  auto onOutput = [this](const Result<std::string>& output) { update(output); };
  script_ = std::make_unique<PeriodicScript>(settings_.script, std::string(kProvider), onOutput);
  return script_->start();
}

void NodeLabelsProvider::stop() {
  if (script_) script_->stop();
}

void NodeLabelsProvider::update(const Result<std::string>& output) {
  auto parsed =
      output ? parseScriptNodeLabels(*output) : Result<std::vector<std::string>>(output.status());
  if (!parsed) {
    SPINDLE_LOG_WARN("node label script: {}; the previous labels stay", parsed.status().message());
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (*parsed != current_) {
    SPINDLE_LOG_INFO("node label script: partition '{}'",
                     parsed->empty() ? std::string() : parsed->front());
  }
  current_ = std::move(*parsed);
}

std::vector<std::string> NodeLabelsProvider::current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_;
}

void NodeLabelsReporter::registered(std::vector<std::string> labels, int64_t nowMs) {
  sent_ = std::move(labels);
  sentAt_ = nowMs;
}

std::optional<std::vector<std::string>> NodeLabelsReporter::forHeartbeat(
    const std::vector<std::string>& labels, int64_t nowMs) {
  // NMDistributedNodeLabelsHandler.getNodeLabelsForHeartbeat: on a change or once
  // resync-interval-ms passed since the labels were last sent.
  if (labels == sent_ && nowMs - sentAt_ <= resyncMs_) return std::nullopt;
  registered(labels, nowMs);
  return labels;
}

}  // namespace spindle::nm
