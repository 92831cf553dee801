// The dispatch layer's count of observed threads (internal to libivy): the functional layer
// above reads it to decide whether inputs may be passed as borrowed handles.
#pragma once

#include <atomic>

namespace ivy::detail {

// How many threads have a dispatch observer (tracer, tape, ...): while nonzero, inputs are
// passed as owning handles, since an observer may keep them.
extern std::atomic<int> g_observed_threads;

}  // namespace ivy::detail
