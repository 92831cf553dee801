// The logging hook (ivy/log.hpp): one handler behind a mutex.
#include "ivy/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ivy {
namespace {

// The level IVY_LOG asks the default handler to write from, or -1 for none.
int default_threshold() {
  const char* v = std::getenv("IVY_LOG");
  if (!v) return -1;
  if (std::strcmp(v, "info") == 0) return static_cast<int>(LogLevel::info);
  if (std::strcmp(v, "warning") == 0 || std::strcmp(v, "1") == 0) return static_cast<int>(LogLevel::warning);
  return -1;
}

void default_handler(LogLevel level, const std::string& message) {
  static const int threshold = default_threshold();
  if (threshold < 0 || static_cast<int>(level) < threshold) return;
  std::fprintf(stderr, "ivy %s: %s\n", level == LogLevel::warning ? "warning" : "info", message.c_str());
}

struct Hook {
  std::mutex mutex;
  LogHandler handler = default_handler;
};
Hook& hook() {
  static Hook* h = new Hook;  // never destroyed: a message during static destruction still has a handler
  return *h;
}

}  // namespace

LogHandler set_log_handler(LogHandler handler) {
  Hook& h = hook();
  std::lock_guard<std::mutex> lock(h.mutex);
  LogHandler previous = std::move(h.handler);
  h.handler = handler ? std::move(handler) : LogHandler(default_handler);
  return previous;
}

void log_message(LogLevel level, const std::string& message) {
  Hook& h = hook();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.handler(level, message);
}

}  // namespace ivy
