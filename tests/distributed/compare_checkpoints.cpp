// compare_checkpoints A B TOL [PREFIX]: every leaf under PREFIX (default "model") of two
// safetensors checkpoints, the same structure, shapes and dtypes, and values within TOL
// (max absolute difference). Prints each leaf's difference; exit 0 when all are within TOL.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "ivy/container.hpp"
#include "ivy/ivy.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: compare_checkpoints A B TOL [PREFIX]\n");
    return 2;
  }
  try {
    const double tol = std::atof(argv[3]);
    const std::string prefix = argc > 4 ? argv[4] : "model";
    const ivy::Container a = ivy::Container::load(argv[1]).at(prefix), b = ivy::Container::load(argv[2]).at(prefix);
    if (!a.same_structure(b)) {
      std::fprintf(stderr, "the checkpoints' structures differ:\n%s\n%s\n", a.str().c_str(), b.str().c_str());
      return 1;
    }
    int bad = 0, leaves = 0;
    double worst = 0;
    for (const auto& [path, x] : a.flatten()) {
      const ivy::Array y = b.at(path).array();
      if (x.dtype() != y.dtype() || !(x.shape() == y.shape())) {
        std::printf("%s: %s%s vs %s%s\n", path.c_str(), ivy::dtype_name(x.dtype()), x.shape().str().c_str(),
                    ivy::dtype_name(y.dtype()), y.shape().str().c_str());
        ++bad;
        continue;
      }
      const double d = x.size() == 0 ? 0.0
                                     : ivy::max(ivy::abs(ivy::astype(x, ivy::float64) - ivy::astype(y, ivy::float64)))
                                           .item<double>();
      std::printf("%-40s max |a - b| = %.3g\n", path.c_str(), d);
      worst = d > worst ? d : worst;
      bad += !(d <= tol);
      ++leaves;
    }
    std::printf("%d leaves, largest difference %.3g (tolerance %.3g): %s\n", leaves, worst, tol, bad ? "DIFFER" : "equal");
    return bad || leaves == 0 ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_checkpoints: %s\n", e.what());
    return 1;
  }
}
