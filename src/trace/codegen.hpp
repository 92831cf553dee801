// Generated fused kernels: C++ source for each fused elementwise program (fusion.hpp), compiled
// by the system compiler into a shared library, cached on disk and loaded with dlopen
// (internal to libivy; docs/compile.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trace/fusion.hpp"

namespace ivy::codegen {

// What a generated kernel calls back into libivy for: the float32 functions of vec_math.hpp
// (so that fused and eager results are the same bits) and the gather of broadcast inputs
// read element by element. The generated prelude declares the same struct (kPrelude in
// codegen.cpp); kAbi changes with either.
struct Runtime {
  const void* program;  // the fusion::Program the kernel was generated from
  void (*gather)(const void* program, int input, const void* base, std::int64_t start, std::int64_t n, void* dst);
  void (*unary_f32)(int op, float* o, const float* x, std::int64_t n);  // cpu::vmath::Op
  void (*log1p_f32)(float* o, const float* x, std::int64_t n);
  // op: 0 pow, 1 atan2, 2 hypot, 3 logaddexp; which: cpu::loops::OneElement
  void (*binary_f32)(int op, float* o, const float* a, const float* b, std::int64_t n, int which);
};
constexpr int kAbi = 1;

// The kernel of one program: output elements [begin, end), inputs and outputs as fusion::run
// takes them (contiguous host memory; an output may be an input's buffer).
using KernelFn = void (*)(const void* const* in, void* const* out, std::int64_t begin, std::int64_t end,
                          const Runtime* rt);

// The C++ source of program p's kernel, a function named `name` (without the prelude).
std::string kernel_source(const fusion::Program& p, const std::string& name);

// Generates, compiles (or finds in the cache) and loads the kernels of `programs`, all in one
// shared library, and sets each program's `kernel`. Returns false, leaving the programs to the
// interpreter, when generation is off (IVY_COMPILE_CODEGEN=0), no compiler runs, the cache
// directory is unusable or compiling fails; the first such failure in a process is logged
// once as a warning (ivy/log.hpp), never thrown.
struct Outcome {
  int kernels = 0;      // programs given a generated kernel
  bool cached = false;  // the library came from the cache (disk or this process)
  double ms = 0;        // time spent generating, compiling and loading
};
Outcome prepare(const std::vector<fusion::Program*>& programs);

// Whether generated kernels are on: IVY_COMPILE_CODEGEN is not 0.
bool enabled();
// The cache directory in use (created 0700 if missing), or "" when none is usable.
std::string cache_directory();

}  // namespace ivy::codegen
