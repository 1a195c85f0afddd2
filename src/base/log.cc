#include "base/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace spindle {

void initLogging(LogLevel level) {
  static const auto logger = [] {
    auto l = spdlog::stderr_color_mt("spindle");
    l->set_pattern("%^%l%$ %v");
    spdlog::set_default_logger(l);
    return l;
  }();
  switch (level) {
    case LogLevel::kTrace: logger->set_level(spdlog::level::trace); break;
    case LogLevel::kDebug: logger->set_level(spdlog::level::debug); break;
    case LogLevel::kInfo: logger->set_level(spdlog::level::info); break;
    case LogLevel::kWarn: logger->set_level(spdlog::level::warn); break;
    case LogLevel::kError: logger->set_level(spdlog::level::err); break;
    case LogLevel::kOff: logger->set_level(spdlog::level::off); break;
  }
}

}  // namespace spindle
