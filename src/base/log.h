// Logging through spdlog. The core logs sparingly (decisions go to the decision log, not here).
//
//   initLogging(LogLevel::kInfo);
//   SPINDLE_LOG_WARN("monitor: policy failed: {}", status.toString());
#pragma once

#include <spdlog/spdlog.h>

namespace spindle {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError, kOff };

// Logs to stderr with a short pattern; safe to call more than once.
void initLogging(LogLevel level);

}  // namespace spindle

#define SPINDLE_LOG_DEBUG(...) ::spdlog::debug(__VA_ARGS__)
#define SPINDLE_LOG_INFO(...) ::spdlog::info(__VA_ARGS__)
#define SPINDLE_LOG_WARN(...) ::spdlog::warn(__VA_ARGS__)
#define SPINDLE_LOG_ERROR(...) ::spdlog::error(__VA_ARGS__)
