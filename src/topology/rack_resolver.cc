#include "topology/rack_resolver.h"

#include <fmt/format.h>

#include "base/log.h"

namespace spindle::topology {

RackResolver::RackResolver(std::unique_ptr<DnsToSwitchMapping> mapping, Warn warn)
    : mapping_(std::move(mapping)), warn_(std::move(warn)) {}

std::shared_ptr<RackResolver> RackResolver::defaultRackOnly() {
  auto warn = [](const std::string& w) { SPINDLE_LOG_WARN("{}", w); };
  return std::make_shared<RackResolver>(std::make_unique<ScriptMapping>("", 100, 1, warn), warn);
}

std::optional<std::string> RackResolver::cached(const std::string& host) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(host);
  if (it == cache_.end()) return std::nullopt;
  return it->second;
}

int64_t RackResolver::mappingCalls() const {
  std::lock_guard<std::mutex> lock(mu_);
  return calls_;
}

std::string RackResolver::resolve(const std::string& host) {
  if (auto rack = cached(host)) return *rack;
  std::optional<std::vector<std::string>> answer;
  {
    std::lock_guard<std::mutex> lock(mappingMu_);
    // Another thread may have resolved it while this one waited.
    if (auto rack = cached(host)) return *rack;
    answer = mapping_->resolve({host});
    std::lock_guard<std::mutex> count(mu_);
    ++calls_;
  }
  if (!answer || answer->size() != 1) {
    warn_(fmt::format("could not resolve the rack of host {} with the {}: it is on {}", host,
                      mapping_->describe(), kDefaultRack));
    return std::string(kDefaultRack);
  }
  std::string rack = (*answer)[0];
  // NodeBase.normalize: a trailing separator is dropped; the path must start with '/'.
  if (rack.size() > 1 && rack.back() == '/') rack.pop_back();
  if (rack.empty() || rack.front() != '/' || rack == "/") {
    warn_(fmt::format(
        "the {} put host {} on rack '{}', which is not a rack path starting with '/' (Hadoop's "
        "NodeBase.normalize refuses it): it is on {}",
        mapping_->describe(), host, (*answer)[0], kDefaultRack));
    return std::string(kDefaultRack);
  }
  std::lock_guard<std::mutex> lock(mu_);
  cache_[host] = rack;
  return rack;
}

}  // namespace spindle::topology
