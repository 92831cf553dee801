// The linalg and fft extensions, as submodules _ivy.linalg and _ivy.fft.
#include "common.hpp"

namespace ivy_py {

using ivy::Array;
using ivy::AxisArg;
using ivy::Device;
using ivy::Dims;
using ivy::DType;

namespace {
using ODType = std::optional<DType>;
using OInt = std::optional<std::int64_t>;
using ODims = std::optional<Dims>;

ivy::linalg::Ord to_ord(py::handle h) {
  if (PyUnicode_Check(h.ptr())) return ivy::linalg::Ord(h.cast<std::string>());
  return ivy::linalg::Ord(py::float_(py::reinterpret_borrow<py::object>(h)).cast<double>());
}
}  // namespace

void bind_linalg_fft(py::module_& m) {
  namespace L = ivy::linalg;
  py::module_ la = m.def_submodule("linalg", "ivy's linalg extension");
  la.def("cholesky", [](const Array& x, bool upper) { return L::cholesky(x, upper); });
  la.def("cross", [](const Array& a, const Array& b, std::int64_t axis) { return L::cross(a, b, axis); });
  la.def("det", &L::det);
  la.def("diagonal", [](const Array& x, std::int64_t offset) { return L::diagonal(x, offset); });
  la.def("eigh", [](const Array& x) {
    auto r = L::eigh(x);
    return py::make_tuple(r.eigenvalues, r.eigenvectors);
  });
  la.def("eig", [](const Array& x) {
    auto r = L::eig(x);
    return py::make_tuple(r.eigenvalues, r.eigenvectors);
  });
  la.def("eigvalsh", &L::eigvalsh);
  la.def("eigvals", &L::eigvals);
  la.def("inv", &L::inv);
  la.def("matmul", [](const Array& a, const Array& b) { return L::matmul(a, b); });
  la.def("matrix_norm", [](const Array& x, bool keepdims, py::handle ord) { return L::matrix_norm(x, keepdims, to_ord(ord)); });
  la.def("matrix_power", [](const Array& x, std::int64_t n) { return L::matrix_power(x, n); });
  la.def("matrix_rank", [](const Array& x, std::optional<double> rtol) { return L::matrix_rank(x, rtol); });
  la.def("matrix_rank_array_rtol", [](const Array& x, const Array& rtol) { return L::matrix_rank(x, rtol); });
  la.def("matrix_transpose", [](const Array& x) { return L::matrix_transpose(x); });
  la.def("outer", &L::outer);
  la.def("pinv", [](const Array& x, std::optional<double> rtol) { return L::pinv(x, rtol); });
  la.def("pinv_array_rtol", [](const Array& x, const Array& rtol) { return L::pinv(x, rtol); });
  la.def("qr", [](const Array& x, std::string_view mode) {
    auto r = L::qr(x, mode);
    return py::make_tuple(r.Q, r.R);
  });
  la.def("slogdet", [](const Array& x) {
    auto r = L::slogdet(x);
    return py::make_tuple(r.sign, r.logabsdet);
  });
  la.def("solve", [](const Array& a, const Array& b) { return L::solve(a, b); });
  la.def("svd", [](const Array& x, bool full_matrices) {
    auto r = L::svd(x, full_matrices);
    return py::make_tuple(r.U, r.S, r.Vh);
  });
  la.def("svdvals", &L::svdvals);
  la.def("trace", [](const Array& x, std::int64_t offset, ODType dtype) { return L::trace(x, offset, dtype); });
  la.def("vecdot", [](const Array& a, const Array& b, std::int64_t axis) { return L::vecdot(a, b, axis); });
  la.def("vector_norm", [](const Array& x, const AxisArg& axis, bool keepdims, py::handle ord) {
    return L::vector_norm(x, axis, keepdims, py::float_(py::reinterpret_borrow<py::object>(ord)).cast<double>());
  });

  namespace F = ivy::fft;
  py::module_ f = m.def_submodule("fft", "ivy's fft extension");
#define IVY_PY_FFT1(name)                                                                      \
  f.def(#name, [](const Array& x, OInt n, std::int64_t axis, std::string_view norm) {         \
    return F::name(x, n, axis, norm);                                                          \
  });
#define IVY_PY_FFTN(name)                                                                      \
  f.def(#name, [](const Array& x, const ODims& s, const ODims& axes, std::string_view norm) { \
    return F::name(x, s, axes, norm);                                                          \
  });
  IVY_PY_FFT1(fft) IVY_PY_FFT1(ifft) IVY_PY_FFT1(rfft) IVY_PY_FFT1(irfft) IVY_PY_FFT1(hfft) IVY_PY_FFT1(ihfft)
  IVY_PY_FFTN(fftn) IVY_PY_FFTN(ifftn) IVY_PY_FFTN(rfftn) IVY_PY_FFTN(irfftn)
#undef IVY_PY_FFT1
#undef IVY_PY_FFTN
  f.def("fftfreq", [](std::int64_t n, double d, ODType dtype, std::optional<Device> dev) {
    return F::fftfreq(n, d, dtype, dev.value_or(Device{}));
  });
  f.def("rfftfreq", [](std::int64_t n, double d, ODType dtype, std::optional<Device> dev) {
    return F::rfftfreq(n, d, dtype, dev.value_or(Device{}));
  });
  f.def("fftshift", [](const Array& x, const AxisArg& axes) { return F::fftshift(x, axes); });
  f.def("ifftshift", [](const Array& x, const AxisArg& axes) { return F::ifftshift(x, axes); });
}

}  // namespace ivy_py
