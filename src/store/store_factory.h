// Which state store the RM uses, from its configuration (YARN's yarn.resourcemanager.store.class
// and yarn.resourcemanager.recovery.enabled), and making it.
//
//   auto store = createStateStore(conf);            // nullptr: recovery disabled
//   auto store = createStateStore(conf, {{"etcd", makeEtcdStore}});   // with the HA backend
//
// Keys:
//   yarn.resourcemanager.recovery.enabled   false (YARN's default): no store, nothing survives
//   yarn.resourcemanager.store.class        short names memory, sqlite (default), etcd; YARN's
//       class names map onto them: MemoryRMStateStore -> memory; FileSystemRMStateStore and
//       LeveldbRMStateStore (local durable stores) -> sqlite; ZKRMStateStore (the fenced HA
//       store) -> etcd. NullRMStateStore is refused: it would accept writes and keep nothing.
//   spindle.resourcemanager.store.sqlite.path         the SQLite file (required for sqlite)
//   spindle.resourcemanager.store.sqlite.synchronous  NORMAL (default) or FULL
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "base/status.h"
#include "config/configuration.h"
#include "store/state_store.h"

namespace spindle::store {

inline constexpr const char* kRecoveryEnabledKey = "yarn.resourcemanager.recovery.enabled";
inline constexpr const char* kStoreClassKey = "yarn.resourcemanager.store.class";
inline constexpr const char* kSqlitePathKey = "spindle.resourcemanager.store.sqlite.path";
inline constexpr const char* kSqliteSyncKey = "spindle.resourcemanager.store.sqlite.synchronous";

// "memory", "sqlite" or "etcd" for the configured class; InvalidArgument naming the key and
// value for another.
Result<std::string> storeKind(const Configuration& conf);

using StoreMaker = std::function<Result<std::unique_ptr<StateStore>>(const Configuration&)>;

// The configured store, not yet opened; nullptr when recovery is disabled. `extra` adds
// backends by kind (etcd, provided by the HA code); a kind without a maker is InvalidArgument.
Result<std::unique_ptr<StateStore>> createStateStore(
    const Configuration& conf, const std::map<std::string, StoreMaker>& extra = {});

}  // namespace spindle::store
