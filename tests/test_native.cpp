// The framework-specific namespaces: ivy on each library's own arrays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ivy/ivy.hpp"
#ifdef IVY_HAS_TORCH
#include <ATen/autocast_mode.h>

#include "ivy/backends/torch.hpp"
#endif
#ifdef IVY_HAS_XTENSOR
#include "ivy/backends/xtensor.hpp"
#endif

#ifdef IVY_HAS_TORCH
TEST(NativeTorch, TensorsInTensorsOutWithAutograd) {
  at::Tensor t = at::tensor({-1.5, 0.25, 0.75, 2.0}, at::kDouble).set_requires_grad(true);
  at::Tensor c = ivy::torch::clip(t, 0.0, 1.0);
  EXPECT_TRUE(at::allclose(c, at::tensor({0.0, 0.25, 0.75, 1.0}, at::kDouble)));
  at::Tensor y = ivy::torch::multiply(ivy::torch::sin(t), t).sum();
  y.backward();
  // d/dt (t sin t) = sin t + t cos t
  at::Tensor expect = at::sin(t.detach()) + t.detach() * at::cos(t.detach());
  EXPECT_TRUE(at::allclose(t.grad(), expect));
  // wrap/unwrap share memory
  at::Tensor u = at::arange(6, at::kFloat);
  ivy::Array a = ivy::torch::wrap(u);
  EXPECT_EQ(a.dtype(), ivy::float32);
  EXPECT_EQ(ivy::torch::unwrap(a).data_ptr(), u.data_ptr());
  EXPECT_EQ(ivy::sum(a).item<float>(), 15.0f);
  EXPECT_THROW(ivy::torch::unwrap(ivy::zeros({2}, {}, {}, "xtensor")), ivy::ValueError);
}
// ivy functions on a library user's tensors: gradients flow through LibTorch's autograd
// (elementwise, view and reduction kernels), while plain tensors skip it and their results
// carry no autograd state.
TEST(NativeTorch, IvyFunctionsKeepTorchAutograd) {
  at::Tensor p = at::tensor({0.5, -1.0, 2.0, 0.25}, at::kDouble).reshape({2, 2}).detach().requires_grad_();
  ivy::Array x = ivy::torch::wrap(p);
  ivy::Array y = ivy::sum(ivy::multiply(ivy::sin(x), ivy::permute_dims(x, {1, 0})));
  at::Tensor ty = ivy::torch::unwrap(y);
  ASSERT_TRUE(ty.requires_grad());
  ty.backward();
  // f = sum_ij sin(p_ij) p_ji  =>  df/dp = cos(p) * p^T + sin(p)^T
  at::Tensor q = p.detach();
  EXPECT_TRUE(at::allclose(p.grad(), at::cos(q) * q.t() + at::sin(q).t()));
  ivy::Array plain = ivy::torch::wrap(at::ones({2, 2}, at::kDouble));
  at::Tensor r = ivy::torch::unwrap(ivy::sum(ivy::multiply(ivy::sin(plain), ivy::permute_dims(plain, {1, 0}))));
  EXPECT_FALSE(r.requires_grad());
  EXPECT_EQ(r.grad_fn(), nullptr);
  EXPECT_NEAR(r.item<double>(), 4.0 * std::sin(1.0), 1e-12);
  // a view made by ivy of a plain tensor is still a view LibTorch tracks (shares storage)
  at::Tensor base = at::arange(6, at::kFloat).reshape({2, 3});
  at::Tensor v = ivy::torch::unwrap(ivy::permute_dims(ivy::torch::wrap(base), {1, 0}));
  EXPECT_EQ(v.data_ptr(), base.data_ptr());
  EXPECT_TRUE(v.is_view());
}
// Plain CPU tensors take the kernels' direct calls into LibTorch's CPU kernels; tensors
// with other dispatch keys must not: LibTorch's CPU multiply ignores a conjugate bit (it
// gives conj(z)*z = (-3, 8) here) and its add ignores a negative bit, which the dispatcher's
// Conjugate/Negative layers resolve first.
TEST(NativeTorch, DirectCpuCallsOnlyForPlainTensors) {
  at::Tensor z = at::view_as_complex(at::tensor({1.0, 2.0, 3.0, -1.0}, at::kDouble).reshape({2, 2}));  // 1+2i, 3-i
  at::Tensor zc = z.conj();
  ASSERT_TRUE(zc.is_conj());
  ivy::Array p = ivy::multiply(ivy::torch::wrap(zc), ivy::torch::wrap(z));  // |z|^2
  auto pv = p.to_vector<std::complex<double>>();
  ASSERT_EQ(pv.size(), 2u);
  EXPECT_EQ(pv[0], std::complex<double>(5.0, 0.0));
  EXPECT_EQ(pv[1], std::complex<double>(10.0, 0.0));
  at::Tensor im = at::imag(zc);  // -2, 1 as a negative-bit view of z's imaginary parts
  ASSERT_TRUE(im.is_neg());
  ivy::Array s = ivy::add(ivy::torch::wrap(im), ivy::torch::wrap(at::zeros({2}, at::kDouble)));
  EXPECT_EQ(s.to_vector<double>(), (std::vector<double>{-2.0, 1.0}));
  EXPECT_EQ(ivy::sin(ivy::torch::wrap(im)).to_vector<double>(), (std::vector<double>{std::sin(-2.0), std::sin(1.0)}));
  // the same functions on plain tensors (the direct calls), including the semantics the
  // namespace functions add on top of LibTorch's: NumPy's remainder sign, floor division,
  // sign of NaN
  ivy::Array a = ivy::torch::wrap(at::tensor({-7.0, 7.0, -0.0, NAN}, at::kDouble));
  ivy::Array b = ivy::torch::wrap(at::tensor({2.0, -2.0, 3.0, 1.0}, at::kDouble));
  auto r = ivy::remainder(a, b).to_vector<double>();
  EXPECT_EQ(r[0], 1.0);
  EXPECT_EQ(r[1], -1.0);
  EXPECT_EQ(r[2], 0.0);
  EXPECT_FALSE(std::signbit(r[2]));  // NumPy: a zero remainder takes the divisor's sign
  EXPECT_TRUE(std::isnan(r[3]));
  auto f = ivy::floor_divide(a, b).to_vector<double>();
  EXPECT_EQ(f[0], -4.0);
  EXPECT_EQ(f[1], -4.0);
  auto sg = ivy::sign(a).to_vector<double>();
  EXPECT_EQ(sg[0], -1.0);
  EXPECT_TRUE(std::isnan(sg[3]));
}
// Nor when the thread's dispatch state is not LibTorch's default: under CPU autocast LibTorch
// computes matmul in bfloat16, and ivy's kernels go through the dispatcher there too (the
// result is then cast back to the float32 ivy promises). 1 + 2^-10 has no bfloat16 value.
TEST(NativeTorch, DirectCpuCallsOnlyInDefaultDispatchState) {
  const float x = 1.0f + 1.0f / 1024;
  ivy::Array a = ivy::torch::wrap(at::full({1, 1}, x)), b = ivy::torch::wrap(at::ones({1, 1}));
  EXPECT_EQ(ivy::matmul(a, b).to_vector<float>(), std::vector<float>{x});  // direct call, float32
  struct Autocast {
    Autocast() { at::autocast::set_cpu_enabled(true); }
    ~Autocast() { at::autocast::set_cpu_enabled(false); }
  };
  {
    Autocast on;
    ivy::Array r = ivy::matmul(a, b);
    EXPECT_EQ(r.dtype(), ivy::float32);
    EXPECT_EQ(r.to_vector<float>(), std::vector<float>{1.0f});  // bfloat16 rounding
  }
  EXPECT_EQ(ivy::matmul(a, b).to_vector<float>(), std::vector<float>{x});
}
// Views ivy makes of plain CPU tensors (direct path, without LibTorch's view layer) are
// registered as LibTorch registers its own: the base (the root of a chain of views) is
// recorded and its version counter shared, autograd sees an in-place write through the view (the base's history becomes a
// CopySlices node, so gradients reach the written values), and refuses such a write when the
// view was made in no-grad mode.
// The decompositions' direct path calls the CPU kernels under LibTorch's composites
// (at::cpu::_linalg_eigh, _linalg_svd, ...): on plain tensors the results are the very
// tensors LibTorch's public functions give, bit for bit (eigvalsh and svdvals included, which
// LibTorch computes without vectors for tensors that need no gradient: with vectors the
// values differ in the last bits).
TEST(NativeTorch, DirectDecompositionsAreLibTorchs) {
  at::manual_seed(11);
  auto same = [](const ivy::Array& got, const at::Tensor& want, const char* what, int n) {
    EXPECT_TRUE(at::equal(ivy::torch::unwrap(got), want)) << what << ", n = " << n;
  };
  for (int n : {1, 5, 30}) {
    at::Tensor b = at::randn({n, n}, at::kDouble);
    at::Tensor spd = b.matmul(b.t()) + n * at::eye(n, at::kDouble);
    ivy::Array x = ivy::torch::wrap(b), s = ivy::torch::wrap(spd);
    auto [w, v] = at::linalg_eigh(spd, "L");
    ivy::linalg::EighResult e = ivy::linalg::eigh(s);
    same(e.eigenvalues, w, "eigh values", n);
    same(e.eigenvectors, v, "eigh vectors", n);
    same(ivy::linalg::eigvalsh(s), at::linalg_eigvalsh(spd, "L"), "eigvalsh", n);
    auto [ew, ev] = at::linalg_eig(b);
    ivy::linalg::EigResult g = ivy::linalg::eig(x);
    same(g.eigenvalues, ew, "eig values", n);
    same(g.eigenvectors, ev, "eig vectors", n);
    for (bool full : {false, true}) {
      auto [u, sv, vh] = at::linalg_svd(b, full);
      ivy::linalg::SVDResult d = ivy::linalg::svd(x, full);
      same(d.U, u, "svd U", n);
      same(d.S, sv, "svd S", n);
      same(d.Vh, vh, "svd Vh", n);
    }
    same(ivy::linalg::svdvals(x), at::linalg_svdvals(b), "svdvals", n);
    for (const char* mode : {"reduced", "complete"}) {
      auto [q, r] = at::linalg_qr(b, mode);
      ivy::linalg::QRResult f = ivy::linalg::qr(x, mode);
      same(f.Q, q, "qr Q", n);
      same(f.R, r, "qr R", n);
    }
    same(ivy::linalg::det(x), at::linalg_det(b), "det", n);
    auto [sg, la] = at::linalg_slogdet(b);
    ivy::linalg::SlogdetResult sd = ivy::linalg::slogdet(x);
    same(sd.sign, sg, "slogdet sign", n);
    same(sd.logabsdet, la, "slogdet logabsdet", n);
  }
}
// ivy's result holds the very bytes of LibTorch's (shape, dtype and every byte: -0 against +0
// and NaN payloads count).
static void expect_same_bytes(const ivy::Array& got, const at::Tensor& want, const std::string& what) {
  const at::Tensor g = ivy::torch::unwrap(got).contiguous(), w = want.contiguous();
  ASSERT_EQ(g.sizes(), w.sizes()) << what;
  ASSERT_EQ(g.scalar_type(), w.scalar_type()) << what;
  if (w.nbytes() == 0) return;  // empty tensors may have null data pointers, which memcmp must not see
  EXPECT_EQ(std::memcmp(g.data_ptr(), w.data_ptr(), static_cast<std::size_t>(w.nbytes())), 0) << what;
}
// eig and eigvals on the direct path call LAPACK's geev themselves (torch_lapack.cpp): the
// results must be LibTorch's bit for bit (compared as bytes, so that -0 against +0 and NaN
// payloads count), for every dtype geev serves, conjugate pairs and all-real spectra,
// batches, non-contiguous and empty inputs; non-finite input is an ivy error, as LibTorch
// refuses it.
TEST(NativeTorch, DirectEigIsLibTorchsGeev) {
  at::manual_seed(5);
  std::vector<std::pair<std::string, at::Tensor>> cases;
  for (auto t : {at::kFloat, at::kDouble, at::kComplexFloat, at::kComplexDouble}) {
    const std::string d = c10::toString(t);
    for (int n : {0, 1, 2, 5, 30}) {
      cases.emplace_back(d + " random n=" + std::to_string(n), at::randn({n, n}, t));
      cases.emplace_back(d + " triangular n=" + std::to_string(n), at::randn({n, n}, t).triu());
    }
    cases.emplace_back(d + " rotation", at::tensor({0.0, -1.0, 1.0, 0.0}, at::kDouble).reshape({2, 2}).to(t));
    cases.emplace_back(d + " batch", at::randn({3, 2, 4, 4}, t));
    cases.emplace_back(d + " empty batch", at::randn({0, 3, 3}, t));
    cases.emplace_back(d + " transposed", at::randn({2, 6, 6}, t).mT());
    cases.emplace_back(d + " strided", at::randn({7, 14}, t).slice(1, 0, 14, 2));
  }
  for (const auto& [what, m] : cases) {
    ASSERT_TRUE(m.is_contiguous() || what.find("transposed") != std::string::npos ||
                what.find("strided") != std::string::npos);
    ivy::Array x = ivy::torch::wrap(m);
    auto [w, v] = at::linalg_eig(m);
    ivy::linalg::EigResult g = ivy::linalg::eig(x);
    expect_same_bytes(g.eigenvalues, w, what + ": eig values");
    expect_same_bytes(g.eigenvectors, v, what + ": eig vectors");
    expect_same_bytes(ivy::linalg::eigvals(x), at::linalg_eigvals(m), what + ": eigvals");
  }
  at::Tensor bad = at::eye(3, at::kFloat);
  bad[1][2] = std::numeric_limits<float>::quiet_NaN();
  for (bool vectors : {true, false}) {
    try {
      if (vectors) ivy::linalg::eig(ivy::torch::wrap(bad));
      else ivy::linalg::eigvals(ivy::torch::wrap(bad));
      ADD_FAILURE() << "no error for a NaN entry";
    } catch (const ivy::ValueError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(vectors ? "[eig] " : "[eigvals] ", 0), 0u) << msg;
      EXPECT_NE(msg.find("(3, 3) float32"), std::string::npos) << msg;
      EXPECT_NE(msg.find("infs or NaNs"), std::string::npos) << msg;
      EXPECT_NE(msg.find("torch"), std::string::npos) << msg;
    }
  }
}
// qr on the direct path calls LAPACK's geqrf and orgqr/ungqr itself (torch_lapack.cpp): Q and
// R must be LibTorch's bit for bit in both modes, for square, tall and wide matrices, every
// dtype LAPACK serves, batches, non-contiguous and empty inputs.
TEST(NativeTorch, DirectQrIsLibTorchs) {
  at::manual_seed(9);
  std::vector<std::pair<std::string, at::Tensor>> cases;
  for (auto t : {at::kFloat, at::kDouble, at::kComplexFloat, at::kComplexDouble}) {
    const std::string d = c10::toString(t);
    for (auto [m, n] : {std::pair{1, 1}, {5, 5}, {30, 30}, {7, 3}, {3, 7}, {40, 9}, {1, 4}, {4, 1}, {160, 140}})
      cases.emplace_back(d + " " + std::to_string(m) + "x" + std::to_string(n), at::randn({m, n}, t));
    cases.emplace_back(d + " batch", at::randn({2, 3, 6, 4}, t));
    cases.emplace_back(d + " empty batch", at::randn({0, 3, 3}, t));
    cases.emplace_back(d + " empty rows", at::randn({0, 3}, t));
    cases.emplace_back(d + " transposed", at::randn({2, 5, 8}, t).mT());
    cases.emplace_back(d + " strided", at::randn({6, 10}, t).slice(1, 0, 10, 2));
  }
  for (const auto& [what, m] : cases) {
    ivy::Array x = ivy::torch::wrap(m);
    for (const char* mode : {"reduced", "complete"}) {
      auto [q, r] = at::linalg_qr(m, mode);
      ivy::linalg::QRResult f = ivy::linalg::qr(x, mode);
      expect_same_bytes(f.Q, q, what + " " + mode + ": Q");
      expect_same_bytes(f.R, r, what + " " + mode + ": R");
    }
  }
}
TEST(NativeTorch, DirectViewsAreLibTorchViews) {
  const char* names[] = {"permute_dims", "diagonal", "reshape", "broadcast_to"};
  for (int which = 0; which < 4; ++which) {
    SCOPED_TRACE(names[which]);
    auto view = [which](const at::Tensor& b) {
      ivy::Array x = ivy::torch::wrap(b);
      if (which == 0) return ivy::torch::unwrap(ivy::permute_dims(x, {1, 0}));
      if (which == 1) return ivy::torch::unwrap(ivy::linalg::diagonal(x));
      if (which == 2) return ivy::torch::unwrap(ivy::reshape(x, {4}));
      return ivy::torch::unwrap(ivy::broadcast_to(x, ivy::Shape{3, 2, 2}));
    };
    // base is itself a view (of arange's result): LibTorch records the root as the base
    at::Tensor base = at::arange(4, at::kFloat).reshape({2, 2});
    ASSERT_TRUE(base.is_view());
    at::Tensor v = view(base);
    ASSERT_TRUE(v.is_view());
    EXPECT_EQ(v._base().unsafeGetTensorImpl(), base._base().unsafeGetTensorImpl());
    EXPECT_EQ(v.data_ptr(), base.data_ptr());
    const int64_t v0 = v._version();
    base.add_(1);  // 1 2 / 3 4
    EXPECT_EQ(v._version(), v0 + 1);
    EXPECT_EQ(base._version(), v._version());
    std::vector<float> want = which == 0   ? std::vector<float>{1, 3, 2, 4}
                              : which == 1 ? std::vector<float>{1, 4}
                              : which == 2 ? std::vector<float>{1, 2, 3, 4}
                                           : std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};
    at::Tensor vc = v.contiguous();
    EXPECT_EQ(std::vector<float>(vc.data_ptr<float>(), vc.data_ptr<float>() + vc.numel()), want);
    if (which == 3) continue;  // an expanded view cannot be written in place (LibTorch refuses)
    // an in-place write of a value that requires grad, through the view
    at::Tensor w = at::full(v.sizes(), 2.0f).requires_grad_();
    v.mul_(w);
    ASSERT_TRUE(base.requires_grad());
    ASSERT_NE(base.grad_fn(), nullptr);
    // d/dw sum(base) = the base values the view saw
    base.sum().backward();
    at::Tensor g = w.grad().contiguous();
    EXPECT_EQ(std::vector<float>(g.data_ptr<float>(), g.data_ptr<float>() + g.numel()), want);
    // made in no-grad mode: LibTorch refuses the same write with grad mode on
    at::Tensor base2 = at::ones({2, 2});
    at::Tensor v2;
    {
      at::NoGradGuard no_grad;
      v2 = view(base2);
    }
    ASSERT_TRUE(v2.is_view());
    EXPECT_THROW(v2.mul_(at::full(v2.sizes(), 2.0f).requires_grad_()), c10::Error);
  }
  // a reshape the strides do not allow as a view is a copy, as LibTorch's own
  at::Tensor t = at::arange(4, at::kFloat).reshape({2, 2}).t();
  at::Tensor r = ivy::torch::unwrap(ivy::reshape(ivy::torch::wrap(t), {4}));
  EXPECT_FALSE(r.is_view());
  EXPECT_NE(r.data_ptr(), t.data_ptr());
  EXPECT_TRUE(at::equal(r, at::tensor({0.0f, 2.0f, 1.0f, 3.0f})));
}
#endif

#ifdef IVY_HAS_XTENSOR
TEST(NativeXtensor, XarrayInXarrayOut) {
  xt::xarray<double> a = {{-1.5, 0.25}, {0.75, 2.0}};
  xt::xarray<double> c = ivy::xtensor::clip(a, 0.0, 1.0);
  EXPECT_EQ(c, (xt::xarray<double>{{0.0, 0.25}, {0.75, 1.0}}));
  xt::xarray<double> s = ivy::xtensor::add(ivy::xtensor::sin(a), a);
  EXPECT_NEAR(s(1, 1), std::sin(2.0) + 2.0, 1e-15);
  ivy::Array w = ivy::xtensor::wrap(a);
  EXPECT_EQ(w.shape(), (ivy::Shape{2, 2}));
  EXPECT_EQ(ivy::xtensor::unwrap<double>(ivy::multiply(w, w)), a * a);
  EXPECT_THROW(ivy::xtensor::unwrap<float>(w), ivy::TypeError);
}
#endif

#ifdef IVY_HAS_XTENSOR
// The xtensor backend draws from std::mt19937_64 seeded with seed()'s value (its loops are
// built for AVX2 where the CPU has it: the engine's refill is then vectorized), so its values
// are those of the standard engine compiled here: 53 bits per float64 uniform, the same
// draw rounded for float32, std::uniform_int_distribution for randint. 2000 values: the
// engine refills its 312 words several times.
TEST(NativeXtensor, RandomDrawsAreTheStandardEngines) {
  ivy::Backend xt("xtensor");
  const std::uint64_t s = 20261123;
  ivy::seed(s, xt);
  const auto u64 = ivy::random_uniform(-2.0, 3.0, {2000}, ivy::float64, {}, xt).to_vector<double>();
  const auto u32 = ivy::random_uniform(0.0, 1.0, {2000}, ivy::float32, {}, xt).to_vector<float>();
  const auto ri = ivy::randint(-5, 1000, {2000}, ivy::int64, {}, xt).to_vector<std::int64_t>();
  std::mt19937_64 g(s);
  for (std::size_t i = 0; i < u64.size(); ++i)
    ASSERT_EQ(u64[i], -2.0 + 5.0 * (static_cast<double>(g() >> 11) * 0x1.0p-53)) << i;
  for (std::size_t i = 0; i < u32.size(); ++i)
    ASSERT_EQ(u32[i], std::min(static_cast<float>(static_cast<double>(g() >> 11) * 0x1.0p-53), 0x1.fffffep-1f)) << i;
  std::uniform_int_distribution<std::int64_t> d(-5, 999);
  for (std::size_t i = 0; i < ri.size(); ++i) ASSERT_EQ(ri[i], d(g)) << i;
}
#endif

#ifdef IVY_HAS_XTENSOR
// Buffers of another library borrowed at every 4-byte phase of a 32-byte boundary (xtensor's
// and NumPy's own buffers are only 16-byte aligned): the element-wise loops pick their vector
// width by alignment (cpu::loops::each2_best, cpu::npy::arith_n's maximum/minimum), and every choice
// must give the same bits: NumPy's rules, NaN kept, -0 against +0 the second operand.
template <class T>
void check_misaligned_binary() {
  static const ivy::BackendImpl* xb = ivy::get_backend("xtensor").impl();
  constexpr int n = 203;  // vector body and a scalar tail
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const T pool[] = {T(0), T(-0.0), T(1), T(-2.5), nan, inf, -inf, T(3), T(1e-30), T(-7)};
  alignas(64) static unsigned char bufa[4096], bufb[4096];
  auto same = [](T x, T y) { return (x != x && y != y) || (x == y && std::signbit(x) == std::signbit(y)); };
  for (int oa = 0; oa < 32; oa += static_cast<int>(sizeof(T))) {
    for (int ob : {0, 16, oa}) {
      T* a = reinterpret_cast<T*>(bufa + oa);
      T* b = reinterpret_cast<T*>(bufb + ob);
      for (int i = 0; i < n; ++i) a[i] = pool[i % 10], b[i] = pool[(i / 10 + i) % 10];
      ivy::Array x = xb->wrap(a, {n}, ivy::dtype_v<T>, nullptr), y = xb->wrap(b, {n}, ivy::dtype_v<T>, nullptr);
      struct Case {
        const char* name;
        ivy::Array got;
        T (*want)(T, T);
      } cases[] = {
          {"maximum", ivy::maximum(x, y), [](T p, T q) { return p != p ? p : (p > q ? p : q); }},
          {"minimum", ivy::minimum(x, y), [](T p, T q) { return p != p ? p : (p < q ? p : q); }},
          {"add", ivy::add(x, y), [](T p, T q) { return p + q; }},
          {"subtract", ivy::subtract(x, y), [](T p, T q) { return p - q; }},
          {"multiply", ivy::multiply(x, y), [](T p, T q) { return p * q; }},
          {"divide", ivy::divide(x, y), [](T p, T q) { return p / q; }},
      };
      for (const Case& c : cases) {
        ASSERT_EQ(c.got.dtype(), ivy::dtype_v<T>);
        ASSERT_EQ(c.got.size(), n);
        std::vector<T> host(n);
        ivy::copy_to_host(c.got, host.data());
        const T* g = host.data();
        for (int i = 0; i < n; ++i)
          ASSERT_TRUE(same(g[i], c.want(a[i], b[i])))
              << c.name << " at " << i << " (" << a[i] << ", " << b[i] << "): " << g[i] << "; a +" << oa << " B, b +" << ob << " B";
      }
    }
  }
}
TEST(NativeXtensor, BinaryLoopsOnMisalignedBuffers) {
  check_misaligned_binary<float>();
  check_misaligned_binary<double>();
}
#endif
