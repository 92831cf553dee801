// The framework-specific namespaces: ivy on each library's own arrays.
#include <gtest/gtest.h>

#include <cmath>

#include "ivy/ivy.hpp"
#ifdef IVY_HAS_TORCH
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
