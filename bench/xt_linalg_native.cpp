// The native calls of the xtensor linear-algebra rows of bench/overhead (see the header).
#include "xt_linalg_native.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <complex>

namespace ivybench::xtla {
namespace {
using XZ = xt::xarray<std::complex<float>>;
using RZMat = Eigen::Matrix<std::complex<float>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
auto vm(xt::xarray<T>& a) {
  return Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(a.data(), static_cast<Eigen::Index>(a.size()));
}
std::size_t side(const XA& a) { return a.shape()[0]; }
XA vec(std::size_t k) { return XA::from_shape({k}); }
template <class T>
void sink(T&& v) {
  benchmark::DoNotOptimize(v);
}
}  // namespace

void matmul(const XA& a, const XA& b) {
  auto k = static_cast<Eigen::Index>(a.shape()[0]);
  XA r = XA::from_shape(a.shape());
  Eigen::Map<RMat>(r.data(), k, k).noalias() = Eigen::Map<const RMat>(a.data(), k, k) * Eigen::Map<const RMat>(b.data(), k, k);
  sink(r.data());
}
void cholesky(const XA& a) {
  Eigen::LLT<CMat> llt(cm(a));
  XA r = mat(side(a));
  rm(r) = llt.matrixL();
  sink(r.data());
}
void det(const XA& a) { sink(Eigen::PartialPivLU<CMat>(cm(a)).determinant()); }
void slogdet(const XA& a) {
  Eigen::PartialPivLU<CMat> lu(cm(a));
  float sign = static_cast<float>(lu.permutationP().determinant()), logabs = 0;
  for (Eigen::Index k = 0; k < lu.matrixLU().rows(); ++k) {
    float d = lu.matrixLU()(k, k);
    sign *= d < 0 ? -1.f : 1.f;
    logabs += std::log(std::abs(d));
  }
  sink(sign), sink(logabs);
}
void inv(const XA& a) {
  XA r = mat(side(a));
  rm(r) = Eigen::PartialPivLU<CMat>(cm(a)).inverse();
  sink(r.data());
}
void solve(const XA& a, const XA& b) {
  XA r = mat(side(a));
  rm(r) = Eigen::PartialPivLU<CMat>(cm(a)).solve(cm(b));
  sink(r.data());
}
void eigh(const XA& a) {
  Eigen::SelfAdjointEigenSolver<CMat> es(cm(a), Eigen::ComputeEigenvectors);
  XA w = vec(side(a)), v = mat(side(a));
  vm(w) = es.eigenvalues();
  rm(v) = es.eigenvectors();
  sink(w.data()), sink(v.data());
}
void eigvalsh(const XA& a) {
  Eigen::SelfAdjointEigenSolver<CMat> es(cm(a), Eigen::EigenvaluesOnly);
  XA w = vec(side(a));
  vm(w) = es.eigenvalues();
  sink(w.data());
}
void eig(const XA& a) {
  const std::size_t s = side(a);
  Eigen::EigenSolver<CMat> es(cm(a), true);
  XZ w = XZ::from_shape({s}), v = XZ::from_shape({s, s});
  vm(w) = es.eigenvalues();
  Eigen::Map<RZMat>(v.data(), static_cast<Eigen::Index>(s), static_cast<Eigen::Index>(s)) = es.eigenvectors();
  sink(w.data()), sink(v.data());
}
void eigvals(const XA& a) {
  Eigen::EigenSolver<CMat> es(cm(a), false);
  XZ w = XZ::from_shape({side(a)});
  vm(w) = es.eigenvalues();
  sink(w.data());
}
void svd(const XA& a) {
  Eigen::JacobiSVD<CMat> svd(cm(a), Eigen::ComputeFullU | Eigen::ComputeFullV);
  XA u = mat(side(a)), s = vec(side(a)), vh = mat(side(a));
  rm(u) = svd.matrixU();
  vm(s) = svd.singularValues();
  rm(vh) = svd.matrixV().adjoint();
  sink(u.data()), sink(s.data()), sink(vh.data());
}
void svdvals(const XA& a) {
  Eigen::JacobiSVD<CMat> svd(cm(a));
  XA s = vec(side(a));
  vm(s) = svd.singularValues();
  sink(s.data());
}
void qr(const XA& a) {
  Eigen::HouseholderQR<CMat> qr(cm(a));
  CMat q = CMat::Identity(qr.rows(), qr.cols());
  q.applyOnTheLeft(qr.householderQ());
  XA Q = mat(side(a)), R = mat(side(a));
  rm(Q) = q;
  rm(R) = qr.matrixQR().triangularView<Eigen::Upper>();
  sink(Q.data()), sink(R.data());
}
}  // namespace ivybench::xtla
