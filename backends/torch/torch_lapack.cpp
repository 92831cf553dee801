// The torch backend's eig, eigvals and qr on the direct path (plain dense CPU tensors that take
// no part in autograd): the LAPACK calls LibTorch's CPU kernels make, without their tensor
// bookkeeping, and with the same bits (tests/test_native.cpp compares them with LibTorch's
// public functions byte for byte).
// - eig / eigvals (LibTorch's linalg_eig / _linalg_eigvals): ?geev on a column-major copy of
//   each matrix (jobvl 'N', jobvr 'V' or 'N', the workspace size of one query for the whole
//   batch), then complex results from the real routines' (wr, wi) and VR columns as LAPACK
//   documents them. What LibTorch adds around that call (an isfinite/all check, an infos
//   tensor, an imaginary-part test with .item(), complex_out, copies through TensorIterator)
//   is skipped.
// - qr (LibTorch's linalg_qr): ?geqrf on a column-major copy held in R's or Q's storage as
//   LibTorch places it, the reflectors copied to Q, R's lower part zeroed, then ?orgqr/?ungqr
//   on Q; one workspace query per routine for the whole batch.
#include "torch_lapack.hpp"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#include "ivy/core.hpp"

// LAPACK's Fortran entry points (liblapack, the library LibTorch itself calls), with the
// hidden lengths gfortran passes for character arguments.
extern "C" {
void sgeev_(const char* jobvl, const char* jobvr, const int* n, float* a, const int* lda, float* wr, float* wi,
            float* vl, const int* ldvl, float* vr, const int* ldvr, float* work, const int* lwork, int* info,
            std::size_t, std::size_t);
void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* wr, double* wi,
            double* vl, const int* ldvl, double* vr, const int* ldvr, double* work, const int* lwork, int* info,
            std::size_t, std::size_t);
void cgeev_(const char* jobvl, const char* jobvr, const int* n, std::complex<float>* a, const int* lda,
            std::complex<float>* w, std::complex<float>* vl, const int* ldvl, std::complex<float>* vr, const int* ldvr,
            std::complex<float>* work, const int* lwork, float* rwork, int* info, std::size_t, std::size_t);
void zgeev_(const char* jobvl, const char* jobvr, const int* n, std::complex<double>* a, const int* lda,
            std::complex<double>* w, std::complex<double>* vl, const int* ldvl, std::complex<double>* vr,
            const int* ldvr, std::complex<double>* work, const int* lwork, double* rwork, int* info, std::size_t,
            std::size_t);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork,
             int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info);
void cgeqrf_(const int* m, const int* n, std::complex<float>* a, const int* lda, std::complex<float>* tau,
             std::complex<float>* work, const int* lwork, int* info);
void zgeqrf_(const int* m, const int* n, std::complex<double>* a, const int* lda, std::complex<double>* tau,
             std::complex<double>* work, const int* lwork, int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info);
void cungqr_(const int* m, const int* n, const int* k, std::complex<float>* a, const int* lda,
             const std::complex<float>* tau, std::complex<float>* work, const int* lwork, int* info);
void zungqr_(const int* m, const int* n, const int* k, std::complex<double>* a, const int* lda,
             const std::complex<double>* tau, std::complex<double>* work, const int* lwork, int* info);
}

namespace ivy::torch_lapack {
namespace {

template <class T>
struct Real {
  using type = T;
};
template <class T>
struct Real<std::complex<T>> {
  using type = T;
};
template <class T>
constexpr bool kComplex = !std::is_same_v<T, typename Real<T>::type>;

// One ?geev call. Real T: w holds wr then wi (2n entries); complex T: w holds n eigenvalues
// and rwork 2n reals.
template <class T>
int geev(char jobvr, int n, T* a, T* w, T* vr, int ldvr, T* work, int lwork, typename Real<T>::type* rwork) {
  const char jobvl = 'N';
  const int lda = n > 1 ? n : 1, ldvl = 1;
  T vl{};
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    sgeev_(&jobvl, &jobvr, &n, a, &lda, w, w + n, &vl, &ldvl, vr, &ldvr, work, &lwork, &info, 1, 1);
  else if constexpr (std::is_same_v<T, double>)
    dgeev_(&jobvl, &jobvr, &n, a, &lda, w, w + n, &vl, &ldvl, vr, &ldvr, work, &lwork, &info, 1, 1);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    cgeev_(&jobvl, &jobvr, &n, a, &lda, w, &vl, &ldvl, vr, &ldvr, work, &lwork, rwork, &info, 1, 1);
  else
    zgeev_(&jobvl, &jobvr, &n, a, &lda, w, &vl, &ldvl, vr, &ldvr, work, &lwork, rwork, &info, 1, 1);
  return info;
}

template <class T>
int geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>) sgeqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);
  else if constexpr (std::is_same_v<T, double>) dgeqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);
  else if constexpr (std::is_same_v<T, std::complex<float>>) cgeqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);
  else zgeqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);
  return info;
}
// Q's columns from the reflectors (?orgqr, ?ungqr for complex types).
template <class T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork) {
  int info = 0;
  if constexpr (std::is_same_v<T, float>) sorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  else if constexpr (std::is_same_v<T, double>) dorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  else if constexpr (std::is_same_v<T, std::complex<float>>) cungqr_(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  else zungqr_(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  return info;
}

// "(2, 3, 3) float32": the input as errors name it
std::string describe(const at::Tensor& a) {
  std::string s = "(";
  for (std::int64_t i = 0; i < a.dim(); ++i) s += (i ? ", " : "") + std::to_string(a.size(i));
  const auto t = a.scalar_type();
  const char* d = t == at::kFloat           ? "float32"
                  : t == at::kDouble        ? "float64"
                  : t == at::kComplexFloat  ? "complex64"
                  : t == at::kComplexDouble ? "complex128"
                                            : c10::toString(t);
  return s + (a.dim() == 1 ? ",)" : ")") + " " + d;
}

// The nb matrices of a stack addressed by three strides: the batch flattened (a copy only when
// the batch dimensions do not flatten as a view).
template <class T>
struct Stack {
  Stack(const at::Tensor& a, std::int64_t nb)
      : t(a.reshape({nb, a.size(-2), a.size(-1)})), p(static_cast<const T*>(t.data_ptr())), m(a.size(-2)),
        n(a.size(-1)), sb(t.stride(0)), si(t.stride(1)), sj(t.stride(2)) {}
  T at(std::int64_t b, std::int64_t i, std::int64_t j) const { return p[b * sb + i * si + j * sj]; }
  // Matrix b into dst, column-major with leading dimension m (LAPACK's layout).
  void col_major(std::int64_t b, T* dst) const {
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) dst[j * m + i] = at(b, i, j);
  }
  at::Tensor t;
  const T* p;
  std::int64_t m, n, sb, si, sj;
};

// f(T{}) for the scalar type of a tensor `serves` accepted.
template <class F>
void visit(at::ScalarType t, F&& f) {
  switch (t) {
    case at::kFloat: return f(float{});
    case at::kDouble: return f(double{});
    case at::kComplexFloat: return f(std::complex<float>{});
    default: return f(std::complex<double>{});
  }
}

// LibTorch's linalg_eig (vectors) or _linalg_eigvals on one dtype (see the file comment).
template <class T>
void run_eig(const char* op, const at::Tensor& a, bool vectors, at::Tensor& values, at::Tensor& vecs) {
  using R = typename Real<T>::type;
  using C = std::complex<R>;
  const std::int64_t n64 = a.size(-1);
  const std::int64_t nb = n64 ? a.numel() / (n64 * n64) : 0;
  const auto copt = a.options().dtype(c10::toComplexType(a.scalar_type()));
  values = at::empty(a.sizes().slice(0, static_cast<std::size_t>(a.dim() - 1)), copt);
  if (vectors) {  // batched column-major (Fortran contiguous) matrices, as LibTorch returns them
    vecs = at::empty(a.sizes(), copt);
    vecs.transpose_(-2, -1);
  }
  if (nb == 0 || n64 == 0) return;
  const int n = static_cast<int>(n64);
  const Stack<T> x(a, nb);
  // LibTorch rejects non-finite input before LAPACK sees it (geev may not return on NaN).
  for (std::int64_t b = 0; b < nb; ++b)
    for (std::int64_t i = 0; i < n64; ++i)
      for (std::int64_t j = 0; j < n64; ++j) {
        const T v = x.at(b, i, j);
        bool finite;
        if constexpr (kComplex<T>) finite = std::isfinite(v.real()) && std::isfinite(v.imag());
        else finite = std::isfinite(v);
        if (!finite)
          throw ValueError(std::string("[") + op + "] input " + describe(a) +
                           " contains infs or NaNs; the eigendecomposition needs finite entries (backend torch)");
      }
  const char jobvr = vectors ? 'V' : 'N';
  const int ldvr = vectors ? n : 1;
  const std::size_t nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  // The workspace query (geev reads no matrix entry for it).
  T query{};
  R rquery[2];
  T dummy[2];
  geev<T>(jobvr, n, dummy, dummy, dummy, ldvr, &query, -1, rquery);
  const int lwork = std::max(1, static_cast<int>(std::real(query)));
  // One scratch block: the matrix copy, the eigenvalues (2n reals or n complex), VR, work.
  const std::size_t nw = kComplex<T> ? static_cast<std::size_t>(n) : 2 * static_cast<std::size_t>(n);
  const std::size_t nvr = vectors ? nn : 1;
  const std::size_t nrwork = kComplex<T> ? 2 * static_cast<std::size_t>(n) : 0;
  const std::size_t total = nn + nw + nvr + static_cast<std::size_t>(lwork) + (nrwork + 1) / 2 + 1;
  std::unique_ptr<T[]> scratch(new T[total]);
  T* wa = scratch.get();
  T* w = wa + nn;
  T* vr = w + nw;
  T* work = vr + nvr;
  R* rwork = reinterpret_cast<R*>(work + lwork);
  C* pv = static_cast<C*>(values.data_ptr());
  C* pvec = vectors ? static_cast<C*>(vecs.data_ptr()) : nullptr;  // column j of matrix b at pvec + b*nn + j*n
  for (std::int64_t b = 0; b < nb; ++b) {
    x.col_major(b, wa);
    const int info = geev<T>(jobvr, n, wa, w, vr, ldvr, work, lwork, rwork);
    if (info != 0)
      throw ValueError(std::string("[") + op + "] the eigenvalue computation did not converge (LAPACK geev info " +
                       std::to_string(info) + ") for matrix " + std::to_string(b) + " of input " + describe(a) +
                       " (backend torch)");
    C* vb = pv + b * n64;
    C* mb = vectors ? pvec + static_cast<std::int64_t>(nn) * b : nullptr;
    if constexpr (kComplex<T>) {
      for (std::int64_t k = 0; k < n64; ++k) vb[k] = w[k];
      if (vectors)
        for (std::size_t k = 0; k < nn; ++k) mb[k] = vr[k];
    } else {
      const T* wr = w;
      const T* wi = w + n;
      bool real_only = true;
      for (std::int64_t k = 0; k < n64; ++k) real_only &= wi[k] == 0;
      // All eigenvalues real: LibTorch copies the real parts (a -0 imaginary part becomes +0).
      for (std::int64_t k = 0; k < n64; ++k) vb[k] = real_only ? C(wr[k], 0) : C(wr[k], wi[k]);
      if (vectors)
        for (std::int64_t j = 0; j < n64; ++j) {
          const T* c0 = vr + j * n64;
          if (wi[j] == 0) {  // a real eigenvalue: v(j) = VR(:, j)
            for (std::int64_t i = 0; i < n64; ++i) mb[j * n64 + i] = C(c0[i], 0);
          } else {  // a conjugate pair, positive imaginary part first: VR(:, j) +- i VR(:, j + 1)
            const T* c1 = c0 + n64;
            for (std::int64_t i = 0; i < n64; ++i) {
              mb[j * n64 + i] = C(c0[i], c1[i]);
              mb[(j + 1) * n64 + i] = C(c0[i], -c1[i]);
            }
            ++j;
          }
        }
    }
  }
}

// LibTorch's linalg_qr on one dtype (see the file comment); m, n >= 1 and a non-empty batch.
template <class T>
void run_qr(const at::Tensor& a, bool complete, at::Tensor& q, at::Tensor& r) {
  const std::int64_t m64 = a.size(-2), n64 = a.size(-1), k64 = std::min(m64, n64);
  const std::int64_t nb = a.numel() / (m64 * n64);
  const std::int64_t qcols = complete ? m64 : k64, rrows = complete ? m64 : k64;
  // Batched column-major (Fortran contiguous) results, as LibTorch makes them: q is
  // (..., m, qcols), r (..., rrows, n).
  auto qs = a.sizes().vec(), rs = a.sizes().vec();
  qs.end()[-2] = qcols, qs.end()[-1] = m64;
  rs.end()[-2] = n64, rs.end()[-1] = rrows;
  q = at::empty(qs, a.options()).transpose_(-2, -1);
  r = at::empty(rs, a.options()).transpose_(-2, -1);
  const int m = static_cast<int>(m64), n = static_cast<int>(n64), k = static_cast<int>(k64);
  const int qc = static_cast<int>(qcols);
  const Stack<T> x(a, nb);
  T* pq = static_cast<T*>(q.data_ptr());
  T* pr = static_cast<T*>(r.data_ptr());
  // The workspace sizes (queries read no matrix entry), then one block for tau and work.
  T w1{}, w2{}, dummy[2];
  geqrf<T>(m, n, dummy, m, dummy, &w1, -1);
  orgqr<T>(m, qc, k, dummy, m, dummy, &w2, -1);
  const int lw1 = std::max(1, static_cast<int>(std::real(w1))), lw2 = std::max(1, static_cast<int>(std::real(w2)));
  std::unique_ptr<T[]> scratch(new T[static_cast<std::size_t>(k) + static_cast<std::size_t>(std::max(lw1, lw2))]);
  T* tau = scratch.get();
  T* work = tau + k;
  for (std::int64_t b = 0; b < nb; ++b) {
    T* qb = pq + b * m64 * qcols;
    T* rb = pr + b * rrows * n64;
    // geqrf works in R's storage, or in Q's for a tall matrix's reduced mode; either is m x n
    // with leading dimension m there.
    T* qr = m64 > n64 && !complete ? qb : rb;
    x.col_major(b, qr);
    geqrf<T>(m, n, qr, m, tau, work, lw1);
    if (qr == qb) {  // R: the top n rows
      for (std::int64_t j = 0; j < n64; ++j)
        for (std::int64_t i = 0; i < n64; ++i) rb[j * n64 + i] = qb[j * m64 + i];
    } else {  // Q's first columns: the reflectors
      const std::int64_t cols = std::min(n64, qcols);
      std::copy(rb, rb + cols * m64, qb);
    }
    for (std::int64_t j = 0; j < n64; ++j)  // R upper triangular
      for (std::int64_t i = j + 1; i < rrows; ++i) rb[j * rrows + i] = T(0);
    orgqr<T>(m, qc, k, qb, m, tau, work, lw2);
  }
}

}  // namespace

bool serves(const at::Tensor& a) {
  const auto t = a.scalar_type();
  return a.dim() >= 2 && a.size(-1) <= 46340 && a.size(-2) <= 46340 &&  // m * n fits LAPACK's int
         (t == at::kFloat || t == at::kDouble || t == at::kComplexFloat || t == at::kComplexDouble);
}

void eig(const char* op, const at::Tensor& a, bool vectors, at::Tensor& values, at::Tensor& vecs) {
  visit(a.scalar_type(), [&](auto tag) { run_eig<decltype(tag)>(op, a, vectors, values, vecs); });
}

void qr(const at::Tensor& a, bool complete, at::Tensor& q, at::Tensor& r) {
  visit(a.scalar_type(), [&](auto tag) { run_qr<decltype(tag)>(a, complete, q, r); });
}

}  // namespace ivy::torch_lapack
