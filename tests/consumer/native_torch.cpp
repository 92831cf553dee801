// ivy::torch: ivy/backends/torch.hpp on at::Tensor, with the usage requirements of ivy::torch.
#include <cstdio>

#include "ivy/backends/torch.hpp"

bool check_torch() {
  at::Tensor a = at::arange(1, 4, at::kDouble);
  at::Tensor b = ivy::torch::add(a, a);
  const double s = ivy::sum(ivy::torch::wrap(b)).item<double>();
  std::printf("ivy_consumer: ivy::torch::add, sum = %g\n", s);
  return s == 12.0;
}
