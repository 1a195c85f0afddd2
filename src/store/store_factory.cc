#include "store/store_factory.h"

#include "store/memory_store.h"
#include "store/sqlite_store.h"

namespace spindle::store {

Result<std::string> storeKind(const Configuration& conf) {
  std::string cls = conf.get(kStoreClassKey, "sqlite");
  std::string simple = cls.substr(cls.rfind('.') == std::string::npos ? 0 : cls.rfind('.') + 1);
  // YARN's implementations (rest-cli-protocols.md 2.1) onto Spindle's three.
  static const std::map<std::string, std::string> kNames = {
      {"memory", "memory"},
      {"sqlite", "sqlite"},
      {"etcd", "etcd"},
      {"MemoryRMStateStore", "memory"},
      {"FileSystemRMStateStore", "sqlite"},
      {"LeveldbRMStateStore", "sqlite"},
      {"ZKRMStateStore", "etcd"},
  };
  if (auto it = kNames.find(simple); it != kNames.end()) return it->second;
  if (simple == "NullRMStateStore") {
    return invalidArgument(
        "{}NullRMStateStore keeps nothing; with {}=true use memory, sqlite "
        "or etcd (or disable recovery)",
        conf.where(kStoreClassKey), kRecoveryEnabledKey);
  }
  return invalidArgument(
      "{}unknown state store '{}' (memory, sqlite, etcd, or YARN's "
      "MemoryRMStateStore, FileSystemRMStateStore, LeveldbRMStateStore, "
      "ZKRMStateStore)",
      conf.where(kStoreClassKey), cls);
}

Result<std::unique_ptr<StateStore>> createStateStore(
    const Configuration& conf, const std::map<std::string, StoreMaker>& extra) {
  SPINDLE_ASSIGN_OR_RETURN(bool enabled, conf.getBool(kRecoveryEnabledKey, false));
  if (!enabled) return std::unique_ptr<StateStore>();
  SPINDLE_ASSIGN_OR_RETURN(std::string kind, storeKind(conf));
  if (auto it = extra.find(kind); it != extra.end()) return it->second(conf);
  if (kind == "memory") return std::unique_ptr<StateStore>(std::make_unique<MemoryStore>());
  if (kind == "sqlite") {
    auto path = conf.get(kSqlitePathKey);
    if (!path || path->empty()) {
      return invalidArgument("{} is required with the sqlite state store ({}=true)", kSqlitePathKey,
                             kRecoveryEnabledKey);
    }
    return std::unique_ptr<StateStore>(
        std::make_unique<SqliteStore>(*path, conf.get(kSqliteSyncKey, "NORMAL")));
  }
  return invalidArgument("{}the '{}' state store is not available in this build",
                         conf.where(kStoreClassKey), kind);
}

}  // namespace spindle::store
