// The one public umbrella header of ivy.
#pragma once

#include "ivy/core.hpp"
#include "ivy/array.hpp"
#include "ivy/dispatch.hpp"
#include "ivy/functional.hpp"
#include "ivy/trace.hpp"
#include "ivy/compile.hpp"
#include "ivy/graph_io.hpp"
#include "ivy/log.hpp"
#include "ivy/autodiff.hpp"
