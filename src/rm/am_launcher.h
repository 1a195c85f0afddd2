// Starts AM containers on their node managers (YARN's ApplicationMasterLauncher): one thread
// with a blocking HTTP client per node, fed by the scheduler thread, so a slow or dead node
// never stalls scheduling. A failed start is reported back through `onFailure` (the attempt
// then fails, RmCore::amLaunchFailed).
//
//   AmLauncher launcher([&](std::string cid, std::string why) {
//     loop.post([&, cid, why] { core->amLaunchFailed(cid, why); });
//   });
//   launcher.start();
//   launcher.launch(core->takeLaunches());
//   launcher.stop();
// Thread-safety: launch() from any thread; start() and stop() from the owner.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "protocol/http_client.h"
#include "rm/rm_core.h"

namespace spindle::rm {

class AmLauncher {
 public:
  using OnFailure = std::function<void(std::string containerId, std::string why)>;
  explicit AmLauncher(OnFailure onFailure);
  ~AmLauncher();

  void start();
  void launch(std::vector<AmLaunch> launches);
  void stop();

 private:
  void run();
  // Starts every container of `l.request` on `l.nodeHttpAddress`; each one refused, or all when
  // the node cannot be reached, is reported through onFailure_.
  void startOnNode(const AmLaunch& l);

  OnFailure onFailure_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<AmLaunch> queue_;
  bool stopping_ = false;
  std::thread thread_;
  std::map<std::string, std::unique_ptr<protocol::HttpClient>> clients_;  // by node address
};

}  // namespace spindle::rm
