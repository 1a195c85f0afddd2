#include "app/application.h"

namespace spindle {

void Application::addContainer(ContainerId c, const Resource& r, bool isAm, uint32_t slot) {
  live_.insert(c, slot);
  used_ += r;
  ++accounting_.containersAllocated;
  if (isAm) {
    amContainer_ = c;
    amUsed_ += r;
  }
}

void Application::removeContainer(ContainerId c, const Resource& r, bool isAm) {
  if (live_.erase(c) == 0) return;
  used_ -= r;
  if (isAm) {
    amContainer_.reset();
    amUsed_ -= r;
  }
}

int64_t Application::schedulingOpportunities(const SchedulerKey& k) const {
  auto it = opportunities_.find(k);
  return it == opportunities_.end() ? 0 : it->second;
}

void Application::updateBlacklist(const std::vector<std::string>& add,
                                  const std::vector<std::string>& remove) {
  for (const auto& r : remove) blacklist_.erase(r);
  for (const auto& a : add) blacklist_.insert(a);
}

}  // namespace spindle
