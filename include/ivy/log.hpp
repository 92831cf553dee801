// ivy's logging hook: the few things the library reports without failing (a compiled graph
// that falls back to slower loops, say) go to one handler. The default handler keeps quiet
// unless the environment variable IVY_LOG names a level (`warning`, or `info` for both), then
// it writes each message to standard error.
#pragma once

#include <functional>
#include <string>

namespace ivy {

enum class LogLevel { info, warning };

using LogHandler = std::function<void(LogLevel, const std::string&)>;

// Installs `handler` for every thread (nullptr: the default one) and returns the previous
// handler. Handlers may be called from any thread, one call at a time.
LogHandler set_log_handler(LogHandler handler);

// Passes `message` (it starts with "[component]") to the handler.
void log_message(LogLevel level, const std::string& message);

}  // namespace ivy
