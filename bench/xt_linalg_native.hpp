// The native side of the xtensor backend's linear-algebra rows of bench/overhead: Eigen on
// column-major copies of row-major xarrays, as backends/xtensor/xt_linalg.cpp computes them.
// Defined in xt_linalg_native.cpp, which is compiled with the same code-placement flags as
// that kernel file (IVY_CODE_ALIGN_FLAGS, see the top-level CMakeLists.txt) and linked
// first, so that the Eigen instantiations the benchmark keeps are the ones placed that way.
#pragma once
#include <Eigen/Dense>
#include <xtensor/xarray.hpp>

namespace ivybench::xtla {
using XA = xt::xarray<float>;
using CMat = Eigen::MatrixXf;
using RMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// a column-major copy of a row-major matrix, a row-major matrix viewed in place, a new k x k one
inline CMat cm(const XA& a) {
  return Eigen::Map<const RMat>(a.data(), static_cast<Eigen::Index>(a.shape()[0]), static_cast<Eigen::Index>(a.shape()[1]));
}
inline Eigen::Map<RMat> rm(XA& a) {
  return Eigen::Map<RMat>(a.data(), static_cast<Eigen::Index>(a.shape()[0]), static_cast<Eigen::Index>(a.shape()[1]));
}
inline XA mat(std::size_t k) { return XA::from_shape({k, k}); }
// Each computes the function's results into new xarrays (as the ivy kernel allocates its
// outputs) and hands them to benchmark::DoNotOptimize.
void matmul(const XA& a, const XA& b);
void cholesky(const XA& a);
void det(const XA& a);
void slogdet(const XA& a);
void inv(const XA& a);
void solve(const XA& a, const XA& b);
void eigh(const XA& a);
void eigvalsh(const XA& a);
void eig(const XA& a);
void eigvals(const XA& a);
void svd(const XA& a);
void svdvals(const XA& a);
void qr(const XA& a);
}  // namespace ivybench::xtla
