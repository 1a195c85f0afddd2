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

// Exit code: 0 after a clean stop, 2 bad configuration, an address that cannot be bound or a
// state store that cannot be used (corrupt, truncated, another schema version: the message
// names the file), 3 a state store write failed while running (disk full, I/O error).
int runResourceManager(const std::string& confDir);

}  // namespace spindle::rm
