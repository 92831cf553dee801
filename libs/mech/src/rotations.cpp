#include "ivy/mech.hpp"
