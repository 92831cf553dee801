// ivy from another project: an array on the default backend, ivy::add and ivy::sum.
#include <cstdio>

#include "ivy/ivy.hpp"

#ifdef IVY_CONSUMER_XTENSOR
bool check_xtensor();
#endif
#ifdef IVY_CONSUMER_TORCH
bool check_torch();
#endif
#ifdef IVY_CONSUMER_MECH
bool check_mech();
#endif

int main() {
  ivy::Array x = ivy::asarray({1.0f, 2.0f, 3.0f});
  const float s = ivy::sum(ivy::add(x, x)).item<float>();
  std::printf("ivy_consumer: backend %s, sum(x + x) = %g\n", x.backend().name(), static_cast<double>(s));
  bool ok = s == 12.0f;
#ifdef IVY_CONSUMER_XTENSOR
  ok = check_xtensor() && ok;
#endif
#ifdef IVY_CONSUMER_TORCH
  ok = check_torch() && ok;
#endif
#ifdef IVY_CONSUMER_MECH
  ok = check_mech() && ok;
#endif
  std::printf("ivy_consumer: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
