// Names the calling thread (at most 15 characters are kept), so `top -H`, perf and
// /proc/<pid>/task/<tid>/comm tell the daemon's threads apart.
//
//   nameThisThread("rm-scheduler");
#pragma once

#include <pthread.h>

namespace spindle {

inline void nameThisThread(const char* name) { pthread_setname_np(pthread_self(), name); }

}  // namespace spindle
