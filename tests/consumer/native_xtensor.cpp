// ivy::xtensor: ivy/backends/xtensor.hpp on xt::xarray, with the usage requirements of ivy::xtensor.
#include <cstdio>

#include "ivy/backends/xtensor.hpp"

bool check_xtensor() {
  xt::xarray<double> a = {1.0, 2.0, 3.0};
  xt::xarray<double> b = ivy::xtensor::add(a, a);           // xtensor's own expression
  const double s = ivy::sum(ivy::xtensor::wrap(b)).item<double>();  // through ivy's array API
  std::printf("ivy_consumer: ivy::xtensor::add, sum = %g\n", s);
  return s == 12.0;
}
