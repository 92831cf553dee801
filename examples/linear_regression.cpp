// The 2021 Ivy paper's first example: a linear model trained by gradient descent with
// ivy::execute_with_gradients, on the backend named on the command line (default xtensor).
#include <cstdio>
#include <string>

#include "ivy/ivy.hpp"

int main(int argc, char** argv) {
  const std::string backend = argc > 1 ? argv[1] : "xtensor";
  ivy::BackendScope scope(backend.c_str());
  ivy::seed(0);
  // data: y = 3 x - 1 plus a little noise
  ivy::Array x = ivy::random_uniform(-1.0, 1.0, {64, 1}, ivy::float32);
  ivy::Array y = 3.0 * x - 1.0 + 0.01 * ivy::random_normal(0.0, 1.0, {64, 1}, ivy::float32);
  ivy::ArrayMap variables{{"w", ivy::zeros({1, 1}, ivy::float32)}, {"b", ivy::zeros({1}, ivy::float32)}};
  auto loss_fn = [&](const ivy::ArrayMap& v) {
    ivy::Array pred = ivy::matmul(x, v.at("w")) + v.at("b");
    return ivy::mean(ivy::square(pred - y));
  };
  ivy::ValueAndGrads step;
  for (int i = 0; i < 200; ++i) {
    step = ivy::execute_with_gradients(loss_fn, variables);
    for (auto& [name, v] : variables) v = v - 0.1 * step.grads.at(name);
  }
  std::printf("backend %s: loss %.5f, w %.3f, b %.3f\n", backend.c_str(),
              ivy::astype(step.value, ivy::float64).item<double>(),
              ivy::astype(variables.at("w"), ivy::float64).to_vector<double>()[0],
              ivy::astype(variables.at("b"), ivy::float64).to_vector<double>()[0]);
  return 0;
}
