// (being written)
#include <vector>

#include "onnx_ops.hpp"

namespace ivy::onnx::detail {

void add_training_ops(std::vector<OpEntry>& table) { (void)table; }

}  // namespace ivy::onnx::detail
