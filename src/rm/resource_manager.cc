#include "rm/resource_manager.h"

#include <csignal>
#include <iostream>
#include <memory>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "protocol/http_server.h"
#include "rm/am_launcher.h"
#include "rm/rm_core.h"
#include "rm/rm_service.h"
#include "rm/scheduler_loop.h"

namespace spindle::rm {

namespace {

// How often the scheduler thread runs the liveness monitors and the scheduler's monitor tick.
constexpr int64_t kTickMs = 100;

int fail(const Status& s) {
  std::cerr << "spindle rm: " << s.message() << "\n";
  return 2;
}

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
  RealClock clock;
  auto created = RmCore::create(*settings, *conf, clock, "");
  if (!created) return fail(created.status());
  RmCore& core = **created;
  core.setConfDir(confDir);

  std::unique_ptr<SchedulerLoop> loop;
  AmLauncher launcher([&loop, &core](std::string cid, std::string why) {
    loop->post([&core, cid, why] { core.amLaunchFailed(cid, why); });
  });
  loop = std::make_unique<SchedulerLoop>(
      kTickMs, [&core] { core.tick(); },
      [&core, &launcher] { launcher.launch(core.takeLaunches()); });
  RmService service(core, *loop);

  std::vector<Address> addresses{settings->webapp};
  for (const auto& a : {settings->resourceTracker, settings->scheduler}) {
    if (a && !(a->host == settings->webapp.host && a->port == settings->webapp.port)) {
      addresses.push_back(*a);
    }
  }
  std::vector<std::unique_ptr<protocol::HttpServer>> servers;
  std::vector<Address> bound;
  for (const Address& a : addresses) {
    auto server = std::make_unique<protocol::HttpServer>(
        a.host, a.port,
        [&service](protocol::HttpRequest r, protocol::Respond d) {
          service.handle(std::move(r), std::move(d));
        },
        settings->ioThreads);
    if (Status s = server->start(); !s.isOk()) return fail(s);
    bound.push_back({a.host, server->port()});
    servers.push_back(std::move(server));
  }
  // AMs call the scheduler address when one is configured, else the web address.
  core.setSchedulerAddress((settings->scheduler ? bound.back() : bound.front()).toString());
  launcher.start();
  loop->start();
  for (const Address& a : bound) {
    SPINDLE_LOG_INFO("ResourceManager serving on http://{}", a.toString());
    std::cout << "spindle rm: serving on http://" << a.toString() << std::endl;
  }

  int sig = 0;
  sigwait(&signals, &sig);
  SPINDLE_LOG_INFO("ResourceManager stopping on signal {}", sig);
  for (auto& s : servers) s->stop();
  loop->stop();
  launcher.stop();
  std::cout << "spindle rm: stopped" << std::endl;
  return 0;
}

}  // namespace spindle::rm
