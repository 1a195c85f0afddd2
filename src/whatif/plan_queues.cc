#include "whatif/plan_queues.h"

namespace spindle::whatif {

namespace {

constexpr std::string_view kReservation = "reservation_";
constexpr std::string_view kDefault = "-default";

}  // namespace

std::string jobsQueueGroup(const std::string& queue) {
  const size_t dot = queue.rfind('.');
  if (dot == std::string::npos) return queue;
  const std::string parent = queue.substr(0, dot);
  const std::string leaf = queue.substr(dot + 1);
  if (leaf.starts_with(kReservation)) return parent;
  const size_t parentDot = parent.rfind('.');
  const std::string parentLeaf =
      parentDot == std::string::npos ? parent : parent.substr(parentDot + 1);
  if (leaf == parentLeaf + std::string(kDefault)) return parent;
  return queue;
}

std::map<std::string, std::vector<std::string>> metricQueueGroups(
    const std::set<std::string>& leaves) {
  std::vector<std::string> plans;
  for (const std::string& l : leaves) {
    if (l.size() > kDefault.size() && l.ends_with(kDefault)) {
      plans.push_back(l.substr(0, l.size() - kDefault.size()));
    }
  }
  std::map<std::string, std::vector<std::string>> out;
  for (const std::string& l : leaves) {
    if (l.size() > kDefault.size() && l.ends_with(kDefault)) {
      out[l.substr(0, l.size() - kDefault.size())].push_back(l);
    } else if (l.starts_with(kReservation) && plans.size() == 1) {
      out[plans.front()].push_back(l);
    } else {
      out[l].push_back(l);
    }
  }
  return out;
}

}  // namespace spindle::whatif
