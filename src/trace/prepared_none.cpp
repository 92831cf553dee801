// Builds without oneDNN: no prepared kernels (compiled graphs run the eager ones).
#include "trace/prepared.hpp"

namespace ivy::prepared {
bool available() { return false; }
std::unique_ptr<Kernel> make_conv(const ConvSpec&) { return nullptr; }
std::unique_ptr<Kernel> make_max_pool(const MaxPoolSpec&) { return nullptr; }
std::unique_ptr<Kernel> make_matmul(const MatmulSpec&) { return nullptr; }
std::unique_ptr<ToRowMajor> make_to_row_major(const Shape&) { return nullptr; }
}  // namespace ivy::prepared
