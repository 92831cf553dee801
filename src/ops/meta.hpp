// Shape/dtype inference and validation for every primitive (named in ops.def).
#pragma once

#include "ivy/dispatch.hpp"

namespace ivy::meta {

[[noreturn]] void bad_dtype(const char* op, const Array& x, std::uint8_t kinds, const BackendImpl* be);

#define IVY_OP(name, nin, nout, m, kinds, props, attrs) int m(const char* op, const Array* in, int n, AttrsRef a, OutSpec* out);
#include "ivy/ops.def"
#undef IVY_OP

}  // namespace ivy::meta
