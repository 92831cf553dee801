// xtensor backend: linear algebra kernels (matmul, diagonal and the decompositions).
// Arrays are contiguous row-major buffers: each matrix of a batch is viewed through an
// Eigen::Map (row-major); decompositions run on a column-major copy and write back.
// Semantics follow the Array API standard (numpy.linalg): leading axes are batch axes.
#include <Eigen/Dense>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "xt_common.hpp"

namespace ivy::xtensor_backend {
namespace {

using Eigen::Dynamic;
using Index = std::int64_t;

template <class T> using RMat = Eigen::Matrix<T, Dynamic, Dynamic, Eigen::RowMajor>;
template <class T> using CMat = Eigen::Matrix<T, Dynamic, Dynamic>;
template <class T> using RMap = Eigen::Map<RMat<T>>;
template <class T> using CRMap = Eigen::Map<const RMat<T>>;
// A row-major buffer read column-major: the transpose of its matrix, without a copy (det and
// slogdet factorize A^T, det(A^T) = det(A): the factorization's copy is then a plain copy
// instead of a transposing one. inv keeps A itself: inv of A^T written column-major would be
// inv(A) row-major, but Eigen's inverse is slower into a column-major result.)
template <class T> using CTMap = Eigen::Map<const CMat<T>>;
template <class T> using VMap = Eigen::Map<Eigen::Matrix<T, Dynamic, 1>>;
template <class T> using Cplx = std::complex<real_t<T>>;

// ---- messages
std::string P(const char* op) { return std::string("[") + op + "] "; }
std::string desc(const Array& x) {
  return "shape " + x.shape().str() + ", dtype " + dtype_name(x.dtype());
}
std::string item(Index b, Index nb) {
  return nb > 1 ? "matrix " + std::to_string(b) + " of the batch" : std::string("the matrix");
}
[[noreturn]] void value_fail(const char* op, const std::string& msg, const Array& x) {
  throw ValueError(P(op) + msg + " (input " + desc(x) + "; backend xtensor)");
}

// Runs f(Tag<T>{}) for float32/float64/complex64/complex128; anything else is a TypeError
// that names the op (float16/bfloat16 have no Eigen decompositions here).
template <class F>
void visit_fc(const char* op, const Array& x, F&& f) {
  DType d = x.dtype();
  if (d != float32 && d != float64 && d != complex64 && d != complex128)
    throw TypeError(P(op) + "expects a float32, float64, complex64 or complex128 array, got " + desc(x) +
                    " (backend xtensor)");
  visit_float(d, std::forward<F>(f));
}

// A new array of shape s and dtype d with every byte zero.
Array zeros(const Shape& s, DType d) {
  Array out = alloc(s, d);
  std::size_t bytes = static_cast<std::size_t>(s.numel()) * itemsize(d);
  if (bytes) std::memset(raw(out), 0, bytes);
  return out;
}

Shape batch_shape(const Shape& s, std::size_t drop) {
  Shape b;
  for (std::size_t i = 0; i + drop < s.size(); ++i) b.push_back(s[i]);
  return b;
}

// For each linear index into the batch shape `out`, the linear index into the batch
// shape `in`, which broadcasts to `out` (right-aligned, size-1 axes repeat). A batch of one
// (a single matrix, the common call) needs no table: every index maps to 0 and nothing is
// allocated.
struct BatchMap {
  std::vector<Index> map;  // empty for a batch of one
  Index operator[](Index b) const { return map.empty() ? 0 : map[static_cast<std::size_t>(b)]; }
};
BatchMap broadcast_map(const Shape& out, const Shape& in) {
  BatchMap r;
  const Index total = out.numel();
  if (total <= 1) return r;
  const std::size_t ro = out.size(), ri = in.size();
  Dims stride, ctr;  // fixed capacity: no heap
  stride.resize(ro, 0);
  ctr.resize(ro, 0);
  Index acc = 1;
  for (std::size_t j = ri; j-- > 0;) {
    std::size_t oj = j + (ro - ri);
    stride[oj] = in[j] == 1 ? 0 : acc;
    acc *= in[j];
  }
  std::vector<Index>& map = r.map;
  map.resize(static_cast<std::size_t>(total));
  Index cur = 0;
  for (Index i = 0; i < total; ++i) {
    map[static_cast<std::size_t>(i)] = cur;
    for (std::size_t d = ro; d-- > 0;) {
      cur += stride[d];
      if (++ctr[d] < out[d]) break;
      cur -= stride[d] * out[d];
      ctr[d] = 0;
    }
  }
  return r;
}

// The unsigned integer type of T's width (T itself for other types).
template <class T, bool = std::is_integral_v<T>> struct wrap_type { using type = T; };
template <class T> struct wrap_type<T, true> { using type = std::make_unsigned_t<T>; };

}  // namespace

// ------------------------------------------------------------------ matmul
XT_KERNEL(matmul) {
  const DType d = spec[0].dtype;
  const As x1_as(in[0], d), x2_as(in[1], d);
  const Array &x1 = *x1_as, &x2 = *x2_as;
  const Shape &s1 = x1.shape(), &s2 = x2.shape();
  const bool v1 = s1.size() == 1, v2 = s2.size() == 1;
  // 1-D operands: x1 becomes a (1, k) row, x2 a (k, 1) column; spec already drops them.
  const Index m = v1 ? 1 : s1[s1.size() - 2], k = s1.back(), N = v2 ? 1 : s2.back();
  // batch dims only where an operand has them: a plain matrix product (ranks <= 2) is one
  // product and skips the Shape work (a large part of the cost of a small product)
  const bool batched = s1.size() > 2 || s2.size() > 2;
  Shape b1, b2, bo;
  if (batched) {
    if (!v1) b1 = batch_shape(s1, 2);
    if (!v2) b2 = batch_shape(s2, 2);
    bo = broadcast_shapes(b1, b2, "matmul");
  }
  const Index nb = batched ? bo.numel() : 1;
  out[0] = alloc(spec[0].shape, d);
  if (m == 0 || N == 0 || nb == 0) return;  // empty
  if (k == 0) {                                      // a sum of nothing: zeros
    std::memset(raw(out[0]), 0, static_cast<std::size_t>(out[0].size()) * itemsize(d));
    return;
  }
  const BatchMap i1 = broadcast_map(bo, b1), i2 = broadcast_map(bo, b2);  // batch offsets
  visit(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      throw TypeError(P("matmul") + "bool operands are not supported: shapes " + s1.str() + " and " + s2.str() +
                      " (backend xtensor)");
    } else {
      // Integers: compute in the unsigned type of the same width, so that overflow wraps
      // (two's complement) as NumPy's does instead of being undefined behaviour.
      using U = typename wrap_type<T>::type;
      const U* p1 = reinterpret_cast<const U*>(ptr<T>(x1));
      const U* p2 = reinterpret_cast<const U*>(ptr<T>(x2));
      U* po = reinterpret_cast<U*>(ptr<T>(out[0]));
      for (Index b = 0; b < nb; ++b) {
        const Index o1 = i1[b], o2 = i2[b];
        CRMap<U> A(p1 + o1 * m * k, m, k);
        CRMap<U> B(p2 + o2 * k * N, k, N);
        RMap<U> C(po + b * m * N, m, N);
        C.noalias() = A * B;
      }
    }
  });
}

// ------------------------------------------------------------------ diagonal
XT_KERNEL(diagonal) {
  const Array& x = in[0];
  const Shape& s = x.shape();
  const Index r = s[s.size() - 2], c = s.back(), off = a.get<attr::diagonal>().offset;
  const Index len = spec[0].shape.back();
  out[0] = alloc(spec[0].shape, x.dtype());
  const Index nb = spec[0].shape.numel() / (len > 0 ? len : 1);
  if (len <= 0 || nb == 0) return;
  const std::size_t isz = itemsize(x.dtype());
  const Index r0 = off >= 0 ? 0 : -off, c0 = off >= 0 ? off : 0;
  const auto* src = static_cast<const unsigned char*>(raw(x));
  auto* dst = static_cast<unsigned char*>(raw(out[0]));
  for (Index b = 0; b < nb; ++b)
    for (Index i = 0; i < len; ++i)
      std::memcpy(dst + static_cast<std::size_t>(b * len + i) * isz,
                  src + static_cast<std::size_t>(b * r * c + (r0 + i) * c + (c0 + i)) * isz, isz);
}

// ------------------------------------------------------------------ cholesky
XT_KERNEL(cholesky) {
  const As x_as(in[0], spec[0].dtype);
  const Array& x = *x_as;
  const bool upper = a.get<attr::cholesky>().upper;
  const Index N = x.shape().back();
  const Index nb = N ? x.size() / (N * N) : 0;
  // (every element is written below: assigning the triangular factor zeroes the other triangle)
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  if (nb == 0) return;
  visit_fc("cholesky", x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* px = ptr<T>(x);
    T* po = ptr<T>(out[0]);
    for (Index b = 0; b < nb; ++b) {
      // reads the lower triangle; the decomposition copies the map into its own storage
      Eigen::LLT<CMat<T>, Eigen::Lower> llt(CRMap<T>(px + b * N * N, N, N));
      if (llt.info() != Eigen::Success) value_fail("cholesky", item(b, nb) + " is not positive definite", in[0]);
      RMap<T> O(po + b * N * N, N, N);
      if (upper)
        O = llt.matrixU();  // U = L^H, A = U^H U
      else
        O = llt.matrixL();
    }
  });
}

// ------------------------------------------------------------------ LU based: det, slogdet, inv, solve
namespace {

template <class T>
bool lu_singular(const Eigen::PartialPivLU<CMat<T>>& lu) {
  const auto& m = lu.matrixLU();
  for (Index i = 0; i < m.rows(); ++i)
    if (m(i, i) == T(0)) return true;
  return false;
}

}  // namespace

XT_KERNEL(det) {
  const As x_as(in[0], spec[0].dtype);
  const Array& x = *x_as;
  const Index N = x.shape().back();
  const Index nb = spec[0].shape.numel();
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  if (nb == 0) return;
  visit_fc("det", x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* px = ptr<T>(x);
    T* po = ptr<T>(out[0]);
    for (Index b = 0; b < nb; ++b) {
      if (N == 0) {
        po[b] = T(1);  // the empty product
        continue;
      }
      Eigen::PartialPivLU<CMat<T>> lu(CTMap<T>(px + b * N * N, N, N));  // of A^T: a plain copy
      po[b] = lu.determinant();
    }
  });
}

XT_KERNEL(slogdet) {
  const As x_as(in[0], spec[0].dtype);
  const Array& x = *x_as;
  const Index N = x.shape().back();
  const Index nb = spec[0].shape.numel();
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  out[1] = alloc(spec[1].shape, spec[1].dtype);
  if (nb == 0) return;
  visit_fc("slogdet", x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    const T* px = ptr<T>(x);
    T* ps = ptr<T>(out[0]);
    R* pl = ptr<R>(out[1]);
    for (Index b = 0; b < nb; ++b) {
      T sign(1);
      R logabs(0);
      if (N > 0) {
        Eigen::PartialPivLU<CMat<T>> lu(CTMap<T>(px + b * N * N, N, N));  // of A^T, as det
        sign = T(static_cast<R>(lu.permutationP().determinant()));
        const auto& m = lu.matrixLU();
        for (Index i = 0; i < N; ++i) {
          const T dii = m(i, i);
          const R ad = std::abs(dii);
          if (ad == R(0)) {
            sign = T(0);
            logabs = -std::numeric_limits<R>::infinity();
            break;
          }
          sign *= dii / ad;
          logabs += std::log(ad);
        }
        if constexpr (is_cplx_v<T>) {
          const R as = std::abs(sign);
          if (as > R(0)) sign /= as;  // keep |sign| = 1 despite rounding
        }
      }
      ps[b] = sign;
      pl[b] = logabs;
    }
  });
}

XT_KERNEL(inv) {
  const As x_as(in[0], spec[0].dtype);
  const Array& x = *x_as;
  const Index N = x.shape().back();
  const Index nb = N ? x.size() / (N * N) : 0;
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  if (nb == 0) return;
  visit_fc("inv", x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* px = ptr<T>(x);
    T* po = ptr<T>(out[0]);
    for (Index b = 0; b < nb; ++b) {
      Eigen::PartialPivLU<CMat<T>> lu(CRMap<T>(px + b * N * N, N, N));
      if (lu_singular(lu)) value_fail("inv", item(b, nb) + " is singular", in[0]);
      RMap<T>(po + b * N * N, N, N) = lu.inverse();
    }
  });
}

XT_KERNEL(solve) {
  const DType d = spec[0].dtype;
  const As A_as(in[0], d), B_as(in[1], d);
  const Array &A = *A_as, &B = *B_as;
  const Shape &sa = A.shape(), &sb = B.shape();
  const Index m = sa.back();
  const bool vec = sb.size() == 1;  // x2 of shape (m,): one right-hand side for every matrix
  const Index k = vec ? 1 : sb.back();
  const Shape ba = batch_shape(sa, 2), bb = vec ? Shape{} : batch_shape(sb, 2);
  const Shape bo = batch_shape(spec[0].shape, vec ? 1 : 2);
  out[0] = alloc(spec[0].shape, d);
  const Index nb = bo.numel();
  if (nb == 0 || m == 0 || k == 0) return;
  const BatchMap ia = broadcast_map(bo, ba), ib = broadcast_map(bo, bb);
  visit_fc("solve", A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = ptr<T>(A);
    const T* pb = ptr<T>(B);
    T* po = ptr<T>(out[0]);
    Index last_a = -1;
    Eigen::PartialPivLU<CMat<T>> lu;
    for (Index b = 0; b < nb; ++b) {
      const Index ja = ia[b];
      if (ja != last_a) {  // a broadcast matrix is factorized once per run
        lu.compute(CRMap<T>(pa + ja * m * m, m, m));
        if (lu_singular(lu))
          throw ValueError(P("solve") + item(ja, ba.numel()) + " of x1 is singular (x1 " + desc(in[0]) + ", x2 " +
                           desc(in[1]) + "; backend xtensor)");
        last_a = ja;
      }
      RMap<T>(po + b * m * k, m, k) = lu.solve(CRMap<T>(pb + ib[b] * m * k, m, k));
    }
  });
}

// ------------------------------------------------------------------ eigen decompositions
namespace {

template <bool Vectors>
void eigh_impl(const char* op, const Array& x0, const OutSpec* spec, Array* out) {
  const Array& x = x0;
  const Index n = x.shape().back();
  const Index nb = n ? x.size() / (n * n) : 0;
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  if constexpr (Vectors) out[1] = alloc(spec[1].shape, spec[1].dtype);
  if (nb == 0) return;
  visit_fc(op, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    const T* px = ptr<T>(x);
    R* pw = ptr<R>(out[0]);
    for (Index b = 0; b < nb; ++b) {
      // Only the lower triangle is referenced; eigenvalues come sorted ascending.
      Eigen::SelfAdjointEigenSolver<CMat<T>> es(CRMap<T>(px + b * n * n, n, n),
                                                Vectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
      if (es.info() != Eigen::Success)
        value_fail(op, "the eigenvalue computation did not converge for " + item(b, nb), x0);
      VMap<R>(pw + b * n, n) = es.eigenvalues();
      if constexpr (Vectors) RMap<T>(ptr<T>(out[1]) + b * n * n, n, n) = es.eigenvectors();
    }
  });
}

}  // namespace

XT_KERNEL(eigh) { eigh_impl<true>("eigh", in[0], spec, out); }
XT_KERNEL(eigvalsh) { eigh_impl<false>("eigvalsh", in[0], spec, out); }

namespace {

template <bool Vectors>
void eig_impl(const char* op, const Array& x, const OutSpec* spec, Array* out) {
  const Index n = x.shape().back();
  const Index nb = n ? x.size() / (n * n) : 0;
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  if constexpr (Vectors) out[1] = alloc(spec[1].shape, spec[1].dtype);
  if (nb == 0) return;
  visit_fc(op, x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = Cplx<T>;
    if (dtype_v<C> != spec[0].dtype)
      throw TypeError(P(op) + "internal dtype mismatch: input " + desc(x) + " but output dtype " +
                      dtype_name(spec[0].dtype) + " (backend xtensor)");
    const T* px = ptr<T>(x);
    C* pw = ptr<C>(out[0]);
    for (Index b = 0; b < nb; ++b) {
      CMat<T> A = CRMap<T>(px + b * n * n, n, n);
      auto store = [&](auto& es) {
        if (es.info() != Eigen::Success)
          value_fail(op, "the eigenvalue computation did not converge for " + item(b, nb), x);
        VMap<C>(pw + b * n, n) = es.eigenvalues();
        // (Eigen's solvers return unit-norm eigenvector columns, as numpy does)
        if constexpr (Vectors) RMap<C>(ptr<C>(out[1]) + b * n * n, n, n) = es.eigenvectors();
      };
      if constexpr (is_cplx_v<T>) {
        Eigen::ComplexEigenSolver<CMat<T>> es(A, Vectors);
        store(es);
      } else {
        Eigen::EigenSolver<CMat<T>> es(A, Vectors);
        store(es);
      }
    }
  });
}

}  // namespace

XT_KERNEL(eig) { eig_impl<true>("eig", in[0], spec, out); }
XT_KERNEL(eigvals) { eig_impl<false>("eigvals", in[0], spec, out); }

// ------------------------------------------------------------------ svd
namespace {

// JacobiSVD: accurate for every size; BDCSVD (faster on large matrices) would make this
// file much slower to compile.
template <class T>
void set_identity(T* p, Index rows, Index cols) {
  RMap<T> M(p, rows, cols);
  M.setIdentity();
}

}  // namespace

XT_KERNEL(svd) {
  const As x_as(in[0], spec[0].dtype);
  const Array& x = *x_as;
  const Shape& s = x.shape();
  const Index m = s[s.size() - 2], N = s.back(), k = std::min(m, N);
  const Index nb = batch_shape(s, 2).numel();
  const bool full = a.get<attr::svd>().full_matrices;
  const Index ucols = full ? m : k, vrows = full ? N : k;
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  out[1] = alloc(spec[1].shape, spec[1].dtype);
  out[2] = alloc(spec[2].shape, spec[2].dtype);
  if (nb == 0) return;
  visit_fc("svd", x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    const T* px = ptr<T>(x);
    T* pu = ptr<T>(out[0]);
    R* ps = ptr<R>(out[1]);
    T* pv = ptr<T>(out[2]);
    for (Index b = 0; b < nb; ++b) {
      if (k == 0) {  // an empty matrix: U and Vh are identities (of which at most one is non-empty)
        set_identity(pu + b * m * ucols, m, ucols);
        set_identity(pv + b * vrows * N, vrows, N);
        continue;
      }
      CMat<T> A = CRMap<T>(px + b * m * N, m, N);
      const unsigned opts = full ? (Eigen::ComputeFullU | Eigen::ComputeFullV) : (Eigen::ComputeThinU | Eigen::ComputeThinV);
      Eigen::JacobiSVD<CMat<T>> svd(A, opts);
      if (svd.info() != Eigen::Success)
        value_fail("svd", "the SVD did not converge for " + item(b, nb) + " (does it contain inf or nan?)", in[0]);
      RMap<T>(pu + b * m * ucols, m, ucols) = svd.matrixU();
      VMap<R>(ps + b * k, k) = svd.singularValues();  // descending
      RMap<T>(pv + b * vrows * N, vrows, N) = svd.matrixV().adjoint();
    }
  });
}

XT_KERNEL(svdvals) {
  const Array& x = in[0];
  const Shape& s = x.shape();
  const Index m = s[s.size() - 2], N = s.back(), k = std::min(m, N);
  const Index nb = k > 0 ? spec[0].shape.numel() / k : 0;
  out[0] = alloc(spec[0].shape, spec[0].dtype);
  if (nb == 0) return;
  visit_fc("svdvals", x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    if (dtype_v<R> != spec[0].dtype)
      throw TypeError(P("svdvals") + "internal dtype mismatch: input " + desc(x) + " but output dtype " +
                      dtype_name(spec[0].dtype) + " (backend xtensor)");
    const T* px = ptr<T>(x);
    R* ps = ptr<R>(out[0]);
    for (Index b = 0; b < nb; ++b) {
      CMat<T> A = CRMap<T>(px + b * m * N, m, N);
      Eigen::JacobiSVD<CMat<T>> svd(A);
      if (svd.info() != Eigen::Success)
        value_fail("svdvals", "the SVD did not converge for " + item(b, nb) + " (does it contain inf or nan?)", in[0]);
      VMap<R>(ps + b * k, k) = svd.singularValues();
    }
  });
}

// ------------------------------------------------------------------ qr
XT_KERNEL(qr) {
  const As x_as(in[0], spec[0].dtype);
  const Array& x = *x_as;
  const Shape& s = x.shape();
  const Index m = s[s.size() - 2], N = s.back(), k = std::min(m, N);
  const bool complete = a.get<attr::qr>().complete;
  const Index qc = complete ? m : k;  // Q is (m, qc), R is (qc, N)
  const Index nb = batch_shape(s, 2).numel();
  // (for k > 0 every element is written below: Q whole, R from the triangular view, which
  // zeroes the part below the diagonal; for k = 0 Q is the identity and R all zeros)
  out[0] = k > 0 ? alloc(spec[0].shape, spec[0].dtype) : zeros(spec[0].shape, spec[0].dtype);
  out[1] = k > 0 ? alloc(spec[1].shape, spec[1].dtype) : zeros(spec[1].shape, spec[1].dtype);
  if (nb == 0) return;
  visit_fc("qr", x, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* px = ptr<T>(x);
    T* pq = ptr<T>(out[0]);
    T* pr = ptr<T>(out[1]);
    for (Index b = 0; b < nb; ++b) {
      if (k == 0) {  // R is empty or all zeros; Q is the identity
        if (m > 0 && qc > 0) set_identity(pq + b * m * qc, m, qc);
        continue;
      }
      // Eigen's reflectors square column norms (overflow from |a| ~ 1e19 in float32, where
      // LAPACK's scaled norms do not): the matrix is scaled by 2^-e to a largest |a| in
      // [0.5, 1) first, which is exact and leaves Q unchanged, and R scaled back.
      CMat<T> A = CRMap<T>(px + b * m * N, m, N);
      using Real = typename Eigen::NumTraits<T>::Real;
      const Real amax = A.cwiseAbs().maxCoeff();
      int e = 0;
      if (std::isfinite(amax) && amax > 0) std::frexp(amax, &e);
      if (e != 0) A *= std::ldexp(Real(1), -e);
      Eigen::HouseholderQR<CMat<T>> qr(A);
      CMat<T> Q = CMat<T>::Identity(m, qc);
      Q.applyOnTheLeft(qr.householderQ());
      RMap<T>(pq + b * m * qc, m, qc) = Q;
      CMat<T> R = qr.matrixQR().topRows(qc).template triangularView<Eigen::Upper>();
      if (e != 0) R *= std::ldexp(Real(1), e);
      RMap<T>(pr + b * qc * N, qc, N) = R;
    }
  });
}

}  // namespace ivy::xtensor_backend
