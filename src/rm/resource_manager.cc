#include "rm/resource_manager.h"

#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "ha/etcd_store.h"
#include "protocol/http_server.h"
#include "rm/am_launcher.h"
#include "rm/ha_service.h"
#include "rm/rm_core.h"
#include "rm/rm_service.h"
#include "rm/scheduler_loop.h"
#include "store/store_factory.h"

namespace spindle::rm {

namespace {

// How often the scheduler thread runs the liveness monitors and the scheduler's monitor tick.
constexpr int64_t kTickMs = 100;

int fail(const Status& s) {
  std::cerr << "spindle rm: " << s.message() << "\n";
  return 2;
}

// A failed store write (or, without HA, a fenced one) stops the process at once, before the call
// that needed it is answered: the RM does not run without durable state, and what was stored before
// stays in the store (a deposed HA leader's restart comes back as standby).
void stopOnStoreFailure(const store::StoreStatus& st) {
  std::cerr << "spindle rm: the state store failed (" << store::toString(st.code())
            << "): " << st.message() << "; stopping: the ResourceManager does not run "
            << "without durable state" << std::endl;
  std::_Exit(3);
}

// The RM's active services: the core on its scheduler thread, the AM launcher, the routing.
class ActiveRm final : public ActiveServices {
 public:
  // Built, not yet running: begin() starts the threads.
  // `store` (may be null: no recovery) is opened, loaded and its epoch bumped by the core.
  // `onStoreFailure`: what a failed or fenced write does (the RM does not run without
  // durable state).
  static Result<std::shared_ptr<ActiveRm>> create(
      const RmSettings& settings, const Configuration& conf, const Clock& clock,
      std::unique_ptr<store::StateStore> store,
      std::function<void(const store::StoreStatus&)> onStoreFailure, const std::string& confDir) {
    auto created = RmCore::create(settings, conf, clock, "", std::move(store));
    if (!created) return created.status();
    auto a = std::shared_ptr<ActiveRm>(new ActiveRm());
    a->core_ = std::move(*created);
    RmCore& core = *a->core_;
    core.setStoreFailureHandler(std::move(onStoreFailure));
    core.setConfDir(confDir);  // rmadmin -refreshQueues re-reads it
    if (const store::StateStore* st = core.stateStore()) {
      std::cout << "spindle rm: state store " << st->name() << ", epoch " << core.epoch() << ", "
                << core.recoveredApps() << " apps recovered" << std::endl;
    }
    ActiveRm* self = a.get();
    a->launcher_ = std::make_unique<AmLauncher>([self, &core](std::string cid, std::string why) {
      self->loop_->post([&core, cid, why] { core.amLaunchFailed(cid, why); });
    });
    a->loop_ = std::make_unique<SchedulerLoop>(
        kTickMs, [&core] { core.tick(); },
        [&core, self] {
          // After a failed store write nothing more starts: the attempt is not durable.
          if (!core.storeFailed()) self->launcher_->launch(core.takeLaunches());
        },
        settings.schedulerGatherUs);
    a->service_ = std::make_unique<RmService>(core, *a->loop_);
    return a;
  }
  // `schedulerAddress`: what AMs are told to call.
  void begin(const std::string& schedulerAddress) {
    core_->setSchedulerAddress(schedulerAddress);
    launcher_->start();
    loop_->start();
    started_ = true;
  }
  ~ActiveRm() override { stop(); }

  void handle(protocol::HttpRequest req, protocol::Respond respond) override {
    service_->handle(std::move(req), std::move(respond));
  }
  void stop() override {
    std::call_once(stopped_, [this] {
      if (!started_) return;
      loop_->stop();
      launcher_->stop();
    });
  }
  std::string storeName() const override {
    const store::StateStore* st = core_->stateStore();
    return st ? st->name()
              : "org.apache.hadoop.yarn.server.resourcemanager.recovery.NullRMStateStore";
  }

 private:
  ActiveRm() = default;
  std::unique_ptr<RmCore> core_;
  std::unique_ptr<AmLauncher> launcher_;
  std::unique_ptr<SchedulerLoop> loop_;
  std::unique_ptr<RmService> service_;
  bool started_ = false;
  std::once_flag stopped_;
};

// An EtcdStore that owns its client (one per term, used by the scheduler thread only).
class EtcdStoreOwner final : public ha::EtcdStore {
 public:
  EtcdStoreOwner(std::shared_ptr<ha::EtcdClient> etcd, std::string prefix)
      : ha::EtcdStore(*etcd, std::move(prefix)), etcd_(std::move(etcd)) {}

 private:
  std::shared_ptr<ha::EtcdClient> etcd_;
};

}  // namespace

int runResourceManager(const std::string& confDir) {
  // Every thread started below inherits the blocked signals; the main thread takes them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  auto conf = loadConfigurationDir(confDir);
  if (!conf) return fail(conf.status());
  auto settings = RmSettings::fromConfiguration(*conf);
  if (!settings) return fail(settings.status());
  // Checked here too so that an HA RM refuses a bad topology key at start, not when elected.
  if (auto topology = topology::TopologySettings::fromConfiguration(*conf); !topology) {
    return fail(topology.status());
  }
  // A full disk or a file size limit must fail a write (EFBIG), which the store reports, not
  // kill the process without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  auto ha = HaSettings::fromConfiguration(*conf);
  if (!ha) return fail(ha.status());
  if (ha->enabled) {
    // yarn.resourcemanager.webapp.address.<ha.id> is this RM's address.
    auto hp = protocol::parseHostPort(ha->selfAddress(),
                                      "yarn.resourcemanager.webapp.address." + ha->selfId);
    if (!hp) return fail(hp.status());
    settings->webapp = {hp->first, hp->second};
  }
  RealClock clock;
  std::unique_ptr<HaService> haService;
  std::shared_ptr<ActiveRm> single;
  if (!ha->enabled) {
    // Built (the configuration checked) before any port is bound.
    auto store = store::createStateStore(*conf);
    if (!store) return fail(store.status());
    auto a =
        ActiveRm::create(*settings, *conf, clock, std::move(*store), stopOnStoreFailure, confDir);
    if (!a) return fail(a.status());
    single = std::move(*a);
  }
  auto route = [&haService, &single](protocol::HttpRequest r, protocol::Respond d) {
    if (haService) return haService->handle(std::move(r), std::move(d));
    single->handle(std::move(r), std::move(d));
  };

  std::vector<Address> addresses{settings->webapp};
  for (const auto& a : {settings->resourceTracker, settings->scheduler}) {
    if (a && !(a->host == settings->webapp.host && a->port == settings->webapp.port)) {
      addresses.push_back(*a);
    }
  }
  std::vector<std::unique_ptr<protocol::HttpServer>> servers;
  std::vector<Address> bound;
  for (const Address& a : addresses) {
    auto server =
        std::make_unique<protocol::HttpServer>(a.host, a.port, route, settings->ioThreads);
    if (Status s = server->start(); !s.isOk()) return fail(s);
    bound.push_back({a.host, server->port()});
    servers.push_back(std::move(server));
  }
  // AMs call the scheduler address when one is configured, else the web address; with HA,
  // every RM's (they fail over to the active one).
  std::string schedulerAddress = (settings->scheduler ? bound.back() : bound.front()).toString();
  if (ha->enabled) {
    schedulerAddress.clear();
    for (const auto& [id, address] : ha->rms) {
      if (!schedulerAddress.empty()) schedulerAddress += ',';
      schedulerAddress += address;
    }
  }
  if (ha->enabled) {
    haService = std::make_unique<HaService>(
        *ha,
        [&settings, &conf, &clock, &ha, &confDir, &haService,
         schedulerAddress](int64_t token) -> Result<std::shared_ptr<ActiveServices>> {
          // The term's store: every write fenced by the token; open (schema checked), load,
          // bump the epoch (YARN's EPOCH_NODE) before serving.
          auto endpoints = ha::parseEtcdEndpoints(ha->etcdEndpoints);
          if (!endpoints) return endpoints.status();
          auto etcd = std::make_shared<ha::EtcdClient>(*endpoints);
          auto etcdStore = std::make_unique<EtcdStoreOwner>(etcd, ha->etcdPrefix());
          etcdStore->setFence({ha->leaderKey(), token});
          // A fenced write means another RM leads: stand by (the election thread stops these
          // services; the call that needed the write is refused). Any other failure stops
          // the process, as without HA.
          auto onStoreFailure = [&haService](const store::StoreStatus& st) {
            if (st.code() != store::StoreCode::kFenced || !haService) {
              stopOnStoreFailure(st);
              return;
            }
            std::cerr << "spindle rm: a state store write was fenced (" << st.message()
                      << "); another ResourceManager is active: standing by" << std::endl;
            haService->stepDown("a state store write was fenced: " + st.message());
          };
          auto a = ActiveRm::create(*settings, *conf, clock, std::move(etcdStore), onStoreFailure,
                                    confDir);
          if (!a) return a.status();
          (*a)->begin(schedulerAddress);
          return std::shared_ptr<ActiveServices>(std::move(*a));
        },
        clock);
    if (Status s = haService->start(); !s.isOk()) {
      for (auto& s2 : servers) s2->stop();
      return fail(s);
    }
  } else {
    single->begin(schedulerAddress);
  }
  for (const Address& a : bound) {
    SPINDLE_LOG_INFO("ResourceManager serving on http://{}", a.toString());
    std::cout << "spindle rm: serving on http://" << a.toString()
              << (ha->enabled ? " (HA id " + ha->selfId + ")" : "") << std::endl;
  }

  int sig = 0;
  sigwait(&signals, &sig);
  SPINDLE_LOG_INFO("ResourceManager stopping on signal {}", sig);
  for (auto& s : servers) s->stop();
  if (haService) haService->stop();
  if (single) single->stop();
  std::cout << "spindle rm: stopped" << std::endl;
  return 0;
}

}  // namespace spindle::rm
