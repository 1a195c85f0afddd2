#include "nm/node_attributes_provider.h"

#include <cctype>
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
  SPINDLE_RETURN_IF_ERROR(
      readFetchTimes(conf, std::string(kProvider), s.fetchIntervalMs, s.fetchTimeoutMs));
  return s;
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
  // ScriptBasedNodeAttributesProvider.verifyConfiguredScript, then a fetch on the interval.
  script_ = std::make_unique<PeriodicScript>(
      ScriptFetchSettings{settings_.scriptPath, settings_.scriptOpts, settings_.fetchIntervalMs,
                          settings_.fetchTimeoutMs},
      std::string(kProvider), [this](const Result<std::string>& output) { fetched(output); });
  return script_->start();
}

void NodeAttributesProvider::stop() {
  if (script_) script_->stop();
}

void NodeAttributesProvider::fetched(const Result<std::string>& output) {
  const bool first = !fetchedOnce_.exchange(true);  // registration carries the first set
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
    changed_ = !first;
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
