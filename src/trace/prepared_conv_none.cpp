// Builds without oneDNN: no prepared convolutions (compiled graphs run the eager kernel).
#include "trace/prepared_conv.hpp"

namespace ivy::prepared {
bool available() { return false; }
std::unique_ptr<Conv> make_conv(const ConvSpec&) { return nullptr; }
std::unique_ptr<ToRowMajor> make_to_row_major(const Shape&) { return nullptr; }
}  // namespace ivy::prepared
