// CPU capability detection for the kernel library's loops (see cpu_isa.hpp).
#include <cstdlib>
#include <cstring>

#include "cpu_isa.hpp"

#if IVY_AVX2
namespace ivy::cpu::isa {
namespace {
bool capability_allows(const char* level) noexcept {  // IVY_CPU_CAPABILITY: default < avx2 < (unset)
  const char* c = std::getenv("IVY_CPU_CAPABILITY");
  if (c == nullptr) return true;
  if (std::strcmp(c, "default") == 0) return false;
  return std::strcmp(level, "avx512") != 0 || std::strcmp(c, "avx2") != 0;
}
bool detect_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && capability_allows("avx2");
}
// (libgcc's __builtin_cpu_supports reports AVX-512 only where the OS saves the zmm state)
bool detect_avx512() noexcept {
  __builtin_cpu_init();
  return detect_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") && capability_allows("avx512");
}
}  // namespace
const bool kAvx2 = detect_avx2();
const bool kAvx512 = detect_avx512();
}  // namespace ivy::cpu::isa
#endif
