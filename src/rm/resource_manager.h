// `spindle resourcemanager` (alias `spindle rm`): the daemon. Reads --conf, serves the REST
// API and the NM and AM protocols over HTTP, and runs until SIGTERM or SIGINT, which stop it
// cleanly (the listeners close, queued work finishes, the threads join).
//
//   spindle rm --conf conf/        # yarn-site.xml, capacity-scheduler.xml, fair-scheduler.xml
//
// Threads: the HTTP I/O thread(s) (spindle.resourcemanager.io-threads), the scheduler thread
// (SchedulerLoop, owns RmCore), the AM launcher, and the main thread waiting for a signal.
#pragma once

#include <string>

namespace spindle::rm {

// Exit code: 0 after a clean stop, 2 bad configuration or an address that cannot be bound.
int runResourceManager(const std::string& confDir);

}  // namespace spindle::rm
