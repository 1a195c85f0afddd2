#include "cluster/node.h"

namespace spindle {

const std::string& Node::partition() const {
  static const std::string kDefault;
  return labels_.empty() ? kDefault : *labels_.begin();
}

void Node::addContainer(ContainerId id, const Resource& r) {
  containers_.insert(id);
  allocated_ += r;
}

bool Node::removeContainer(ContainerId id, const Resource& r) {
  if (containers_.erase(id) == 0) return false;
  allocated_ -= r;
  return true;
}

}  // namespace spindle
