#include "scenario/starvation_view.h"

#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

using nlohmann::json;

namespace {

std::string joined(const std::vector<std::string>& parts, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out.push_back('.');
    out.append(parts[i]);
  }
  return out;
}

// FIELD.<type>: one resource type of r.
Result<json> typed(const Resource& r, const std::vector<std::string>& p, size_t from,
                   const std::string& path, const ResourceTypes& types) {
  if (from >= p.size())
    return invalidArgument("expected a resource type after '{}' in {}", p[from - 1], path);
  const std::string type = joined(p, from, p.size());
  auto idx = types.indexOf(type);
  if (!idx) return notFound("unknown resource type '{}' in {}", type, path);
  return json(r.get(*idx));
}

const fair::FsQueue* findQueue(const FairScheduler& fs, const std::string& name) {
  if (const fair::FsQueue* q = fs.queues().find(name)) return q;
  if (name != "root") return fs.queues().find("root." + name);
  return nullptr;
}

}  // namespace

Result<json> starvationStatePath(const std::vector<std::string>& p, const std::string& path,
                                 const ExpectContext& ctx) {
  const auto* fs = dynamic_cast<const FairScheduler*>(&ctx.scheduler);
  if (fs == nullptr) {
    return invalidArgument("{}: the starvation: view needs the Fair Scheduler", path);
  }
  const ResourceTypes& types = fs->cluster().types();
  if (p.size() < 2)
    return invalidArgument("expected starvation:<app or queue>.<field> in {}", path);
  if (auto app = ctx.apps.find(p[0]); app != ctx.apps.end()) {
    const fair::FsApp* fa = fs->fsApp(app->second);
    if (fa == nullptr) return json(nullptr);  // finished
    if (p[1] == "starved" && p.size() == 2) {
      return json(!(fa->fairshareStarvation + fa->minshareStarvation).isZero());
    }
    if (p[1] == "fairshare") return typed(fa->fairshareStarvation, p, 2, path, types);
    if (p[1] == "minshare") return typed(fa->minshareStarvation, p, 2, path, types);
    return notFound("no field '{}' of an app in {} (starved, fairshare, minshare)", p[1], path);
  }
  // The longest queue name.
  for (size_t k = p.size() - 1; k >= 1; --k) {
    const fair::FsQueue* q = findQueue(*fs, joined(p, 0, k));
    if (q == nullptr) continue;
    const std::string& field = p[k];
    if (field == "starved" && k + 1 == p.size()) return json(fs->queueStarved(*q));
    if (field == "deficit") return typed(fs->resourceDeficit(*q), p, k + 1, path, types);
    if (field == "toPreempt" && q->parent() == nullptr) {
      return typed(fs->lastToPreempt(), p, k + 1, path, types);
    }
    return notFound("no field '{}' of queue {} in {} (starved, deficit; root: toPreempt)", field,
                    q->path(), path);
  }
  return notFound("no app handle or queue named in {}", path);
}

}  // namespace spindle
