// ivy::mech: rotations, poses and coordinates over ivy:: functions.
#pragma once

#include "ivy/ivy.hpp"

namespace ivy::mech {}
