// The framework-agnostic functional API: the Python Array API standard (2025.12) as
// C++ free functions with the standard's names, argument order and defaults.
#pragma once

#include <numbers>
#include <limits>
#include <string>
#include <variant>

#include "ivy/dispatch.hpp"

namespace ivy {

// ---------------------------------------------------------------- constants
inline constexpr double e = std::numbers::e;
inline constexpr double pi = std::numbers::pi;
inline constexpr double inf = std::numeric_limits<double>::infinity();
inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// newaxis: see array.hpp (ivy::newaxis, or ivy::None).

// An axis argument: none (all axes), one axis, or several: sum(x), sum(x, 1), sum(x, {0, 1}).
struct AxisArg {
  bool has = false;
  Dims dims;
  AxisArg() = default;
  AxisArg(std::nullopt_t) {}                                        // NOLINT
  AxisArg(std::int64_t a) : has(true), dims{a} {}                   // NOLINT
  AxisArg(int a) : has(true), dims{a} {}                            // NOLINT
  AxisArg(std::initializer_list<std::int64_t> a) : has(true), dims(a) {}  // NOLINT
  AxisArg(const Dims& d) : has(true), dims(d) {}                    // NOLINT
  AxisArg(const std::vector<std::int64_t>& d) : has(true), dims(d.begin(), d.end()) {}  // NOLINT
};

// ---------------------------------------------------------------- creation (16)
Array arange(Scalar start, std::optional<Scalar> stop = std::nullopt, Scalar step = 1,
             std::optional<DType> dtype = std::nullopt, Device device = {}, Backend backend = {});
Array asarray(const Array& obj, std::optional<DType> dtype = std::nullopt, Device device = {},
              std::optional<bool> copy = std::nullopt, Backend backend = {});
Array asarray(Scalar obj, std::optional<DType> dtype = std::nullopt, Device device = {}, Backend backend = {});
// From host data (copied). `shape` defaults to 1-d.
Array asarray(const void* data, DType data_dtype, const Shape& shape, std::optional<DType> dtype = std::nullopt,
              Device device = {}, Backend backend = {});
template <class T>
Array asarray(const std::vector<T>& data, std::optional<Shape> shape = std::nullopt,
              std::optional<DType> dtype = std::nullopt, Device device = {}, Backend backend = {}) {
  Shape s = shape ? *shape : Shape{static_cast<std::int64_t>(data.size())};
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::uint8_t> tmp(data.begin(), data.end());
    return asarray(static_cast<const void*>(tmp.data()), DType::bool_, s, dtype, device, backend);
  } else {
    return asarray(static_cast<const void*>(data.data()), dtype_v<T>, s, dtype, device, backend);
  }
}
template <class T>
Array asarray(std::initializer_list<T> data, std::optional<DType> dtype = std::nullopt, Device device = {},
              Backend backend = {}) {
  return asarray(std::vector<T>(data), std::nullopt, dtype, device, backend);
}
// A list mixing kinds or C++ types ({1.0f, ivy::nan}, {1, 2.5}, {true, 2}): as a Python list,
// its dtype is the default dtype of its highest kind (bool < int < float < complex) unless
// dtype is given. A list of one C++ type takes the template above (that type's dtype).
Array asarray(std::initializer_list<Scalar> data, std::optional<DType> dtype = std::nullopt, Device device = {},
              Backend backend = {});
template <class T>
Array asarray(std::initializer_list<std::initializer_list<T>> rows, std::optional<DType> dtype = std::nullopt,
              Device device = {}, Backend backend = {}) {
  std::vector<T> flat;
  std::int64_t cols = rows.size() ? static_cast<std::int64_t>(rows.begin()->size()) : 0;
  for (auto& r : rows) {
    if (static_cast<std::int64_t>(r.size()) != cols) throw ValueError("[asarray] ragged nested lists are not an array");
    flat.insert(flat.end(), r.begin(), r.end());
  }
  return asarray(flat, Shape{static_cast<std::int64_t>(rows.size()), cols}, dtype, device, backend);
}
Array empty(const Shape& shape, std::optional<DType> dtype = std::nullopt, Device device = {}, Backend backend = {});
Array empty_like(const Array& x, std::optional<DType> dtype = std::nullopt, std::optional<Device> device = std::nullopt);
Array eye(std::int64_t n_rows, std::optional<std::int64_t> n_cols = std::nullopt, std::int64_t k = 0,
          std::optional<DType> dtype = std::nullopt, Device device = {}, Backend backend = {});
// DLPack-style exchange between ivy backends: shares memory where layouts allow.
Array from_dlpack(const Array& x, std::optional<Device> device = std::nullopt, std::optional<bool> copy = std::nullopt,
                  Backend backend = {});
Array full(const Shape& shape, Scalar fill_value, std::optional<DType> dtype = std::nullopt, Device device = {},
           Backend backend = {});
Array full_like(const Array& x, Scalar fill_value, std::optional<DType> dtype = std::nullopt,
                std::optional<Device> device = std::nullopt);
Array linspace(Scalar start, Scalar stop, std::int64_t num, std::optional<DType> dtype = std::nullopt,
               Device device = {}, bool endpoint = true, Backend backend = {});
std::vector<Array> meshgrid(const std::vector<Array>& arrays, std::string_view indexing = "xy");
Array ones(const Shape& shape, std::optional<DType> dtype = std::nullopt, Device device = {}, Backend backend = {});
Array ones_like(const Array& x, std::optional<DType> dtype = std::nullopt, std::optional<Device> device = std::nullopt);
Array tril(const Array& x, std::int64_t k = 0);
Array triu(const Array& x, std::int64_t k = 0);
Array zeros(const Shape& shape, std::optional<DType> dtype = std::nullopt, Device device = {}, Backend backend = {});
Array zeros_like(const Array& x, std::optional<DType> dtype = std::nullopt, std::optional<Device> device = std::nullopt);

// ---------------------------------------------------------------- data types (6)
Array astype(const Array& x, DType dtype, bool copy = true, std::optional<Device> device = std::nullopt);
bool can_cast(const Array& from, DType to);
// can_cast(DType, DType), finfo, iinfo, isdtype, result_type(DType...) live in core.hpp.
FInfo finfo(const Array& x);
IInfo iinfo(const Array& x);
using DTypeArg = std::variant<DType, Array, Scalar>;
DType result_type(const std::vector<DTypeArg>& args);
DType result_type(const Array& a, const Array& b);

// ---------------------------------------------------------------- elementwise (67)
// One declaration per elementwise primitive of ops.def; binary ones also take scalars.
#define IVY_OP(...)
#define IVY_UNARY_OP(name, meta, kinds, props) Array name(const Array& x);
#define IVY_BINARY_OP(name, meta, kinds, props)        \
  Array name(const Array& x1, const Array& x2); \
  Array name(const Array& x1, Scalar x2);       \
  Array name(Scalar x1, const Array& x2);
#include "ivy/ops.def"
#undef IVY_OP
#undef IVY_UNARY_OP
#undef IVY_BINARY_OP
// clip(x, min, max): bounds may be arrays, scalars or absent; result keeps x's dtype.
using Bound = std::variant<std::monostate, Array, Scalar>;
// `backend` (optional) runs the call on that backend, moving x there (zero-copy where possible).
Array clip(const Array& x, const Bound& min = {}, const Bound& max = {}, Backend backend = {});
inline Array clip(const Array& x, double min, double max, Backend backend = {}) {
  return clip(x, Bound(Scalar(min)), Bound(Scalar(max)), backend);
}

// ---------------------------------------------------------------- indexing (2)
Array take(const Array& x, const Array& indices, std::optional<std::int64_t> axis = std::nullopt);
Array take_along_axis(const Array& x, const Array& indices, std::int64_t axis = -1);

// ---------------------------------------------------------------- linear algebra (4)
Array matmul(const Array& x1, const Array& x2);
Array matrix_transpose(const Array& x);
// axes: an int N (last N of x1 with first N of x2) or two explicit lists.
struct TensordotAxes {
  bool pair = false;
  std::int64_t n = 2;
  Dims a1, a2;
  TensordotAxes(std::int64_t n_ = 2) : n(n_) {}  // NOLINT
  TensordotAxes(int n_) : n(n_) {}               // NOLINT
  TensordotAxes(Dims x1_axes, Dims x2_axes) : pair(true), a1(x1_axes), a2(x2_axes) {}
};
Array tensordot(const Array& x1, const Array& x2, const TensordotAxes& axes = 2);
Array vecdot(const Array& x1, const Array& x2, std::int64_t axis = -1);

// ---------------------------------------------------------------- manipulation (15)
std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);
// broadcast_shapes(Shape, Shape) / (span<Shape>) live in core.hpp.
Shape broadcast_shapes(const std::vector<Shape>& shapes);
Array broadcast_to(const Array& x, const Shape& shape);
Array concat(std::span<const Array> arrays, std::optional<std::int64_t> axis = 0);
inline Array concat(const std::vector<Array>& arrays, std::optional<std::int64_t> axis = 0) {
  return concat(std::span<const Array>(arrays), axis);
}
// concat({a, b}): the handles in a braced list, no vector built
inline Array concat(std::initializer_list<Array> arrays, std::optional<std::int64_t> axis = 0) {
  return concat(std::span<const Array>(arrays.begin(), arrays.size()), axis);
}
Array expand_dims(const Array& x, const AxisArg& axis = 0);
Array flip(const Array& x, const AxisArg& axis = {});
Array moveaxis(const Array& x, const Dims& source, const Dims& destination);
Array permute_dims(const Array& x, const Dims& axes);
Array repeat(const Array& x, const Array& repeats, std::optional<std::int64_t> axis = std::nullopt);
Array repeat(const Array& x, std::int64_t repeats, std::optional<std::int64_t> axis = std::nullopt);
Array reshape(const Array& x, const Shape& shape, std::optional<bool> copy = std::nullopt);
Array roll(const Array& x, const Dims& shift, const AxisArg& axis = {});
inline Array roll(const Array& x, std::int64_t shift, const AxisArg& axis = {}) { return roll(x, Dims{shift}, axis); }
Array squeeze(const Array& x, const AxisArg& axis);
Array stack(const std::vector<Array>& arrays, std::int64_t axis = 0);
Array tile(const Array& x, const Dims& repetitions);
std::vector<Array> unstack(const Array& x, std::int64_t axis = 0);

// Reductions over an AxisArg: the compiled form takes every argument; the defaulted form is a
// template only so that an options struct (keywords.hpp) wins the tie when a braced list could
// be read as either: sum(x, {.axis = 1}) is SumOptions, sum(x, {1}) is axis 1.
#define IVY_AXIS_REDUCTION(name)                                                            \
  Array name(const Array& x, const AxisArg& axis, bool keepdims);                            \
  template <class = void>                                                                   \
  Array name(const Array& x, const AxisArg& axis = {}, bool keepdims = false) {              \
    return name(x, axis, keepdims);                                                          \
  }

// ---------------------------------------------------------------- searching (6)
Array argmax(const Array& x, std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false);
Array argmin(const Array& x, std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false);
IVY_AXIS_REDUCTION(count_nonzero)
std::vector<Array> nonzero(const Array& x);
Array searchsorted(const Array& x1, const Array& x2, std::string_view side = "left",
                   const std::optional<Array>& sorter = std::nullopt);
Array where(const Array& condition, const Array& x1, const Array& x2);
Array where(const Array& condition, const Array& x1, Scalar x2);
Array where(const Array& condition, Scalar x1, const Array& x2);
Array where(const Array& condition, Scalar x1, Scalar x2);

// ---------------------------------------------------------------- set (5)
struct UniqueAll {
  Array values, indices, inverse_indices, counts;
};
struct UniqueCounts {
  Array values, counts;
};
struct UniqueInverse {
  Array values, inverse_indices;
};
UniqueAll unique_all(const Array& x);
UniqueCounts unique_counts(const Array& x);
UniqueInverse unique_inverse(const Array& x);
Array unique_values(const Array& x);
Array isin(const Array& x1, const Array& x2, bool invert = false);

// ---------------------------------------------------------------- sorting (2)
Array argsort(const Array& x, std::int64_t axis = -1, bool descending = false, bool stable = true);
Array sort(const Array& x, std::int64_t axis = -1, bool descending = false, bool stable = true);

// ---------------------------------------------------------------- statistical (9)
Array cumulative_prod(const Array& x, std::optional<std::int64_t> axis = std::nullopt,
                      std::optional<DType> dtype = std::nullopt, bool include_initial = false);
Array cumulative_sum(const Array& x, std::optional<std::int64_t> axis = std::nullopt,
                     std::optional<DType> dtype = std::nullopt, bool include_initial = false);
IVY_AXIS_REDUCTION(max)
IVY_AXIS_REDUCTION(mean)
IVY_AXIS_REDUCTION(min)
#define IVY_AXIS_REDUCTION3(name, T3, arg3, default3)                                                 \
  Array name(const Array& x, const AxisArg& axis, T3 arg3, bool keepdims);                            \
  template <class = void>                                                                             \
  Array name(const Array& x, const AxisArg& axis = {}, T3 arg3 = default3, bool keepdims = false) {   \
    return name(x, axis, arg3, keepdims);                                                             \
  }
IVY_AXIS_REDUCTION3(prod, std::optional<DType>, dtype, std::nullopt)
IVY_AXIS_REDUCTION3(std, double, correction, 0.0)
IVY_AXIS_REDUCTION3(sum, std::optional<DType>, dtype, std::nullopt)
IVY_AXIS_REDUCTION3(var, double, correction, 0.0)
#undef IVY_AXIS_REDUCTION3

// ---------------------------------------------------------------- utility (3)
IVY_AXIS_REDUCTION(all)
IVY_AXIS_REDUCTION(any)
#undef IVY_AXIS_REDUCTION
Array diff(const Array& x, std::int64_t axis = -1, std::int64_t n = 1, const std::optional<Array>& prepend = std::nullopt,
           const std::optional<Array>& append = std::nullopt);

// ---------------------------------------------------------------- random (Ivy's)
Array random_uniform(Scalar low = 0.0, Scalar high = 1.0, const Shape& shape = {}, std::optional<DType> dtype = std::nullopt,
                     Device device = {}, Backend backend = {});
Array random_normal(Scalar mean = 0.0, Scalar std = 1.0, const Shape& shape = {}, std::optional<DType> dtype = std::nullopt,
                    Device device = {}, Backend backend = {});
Array randint(std::int64_t low, std::int64_t high, const Shape& shape = {}, std::optional<DType> dtype = std::nullopt,
              Device device = {}, Backend backend = {});
// Seeds the generator of `backend` (or of every backend when none is given).
void seed(std::uint64_t value, Backend backend = {});

// ---------------------------------------------------------------- operators
Array operator+(const Array& a, const Array& b);
Array operator-(const Array& a, const Array& b);
Array operator*(const Array& a, const Array& b);
Array operator/(const Array& a, const Array& b);
Array operator%(const Array& a, const Array& b);
Array operator&(const Array& a, const Array& b);
Array operator|(const Array& a, const Array& b);
Array operator^(const Array& a, const Array& b);
Array operator<<(const Array& a, const Array& b);
Array operator>>(const Array& a, const Array& b);
Array operator==(const Array& a, const Array& b);
Array operator!=(const Array& a, const Array& b);
Array operator<(const Array& a, const Array& b);
Array operator<=(const Array& a, const Array& b);
Array operator>(const Array& a, const Array& b);
Array operator>=(const Array& a, const Array& b);
#define IVY_SCALAR_OPS(op)                   \
  Array operator op(const Array& a, Scalar b); \
  Array operator op(Scalar a, const Array& b);
IVY_SCALAR_OPS(+) IVY_SCALAR_OPS(-) IVY_SCALAR_OPS(*) IVY_SCALAR_OPS(/) IVY_SCALAR_OPS(%) IVY_SCALAR_OPS(&)
IVY_SCALAR_OPS(|) IVY_SCALAR_OPS(^) IVY_SCALAR_OPS(<<) IVY_SCALAR_OPS(>>) IVY_SCALAR_OPS(==) IVY_SCALAR_OPS(!=)
IVY_SCALAR_OPS(<) IVY_SCALAR_OPS(<=) IVY_SCALAR_OPS(>) IVY_SCALAR_OPS(>=)
#undef IVY_SCALAR_OPS
Array operator-(const Array& a);
Array operator+(const Array& a);
Array operator~(const Array& a);
Array operator!(const Array& a);  // logical_not
// matmul, the standard's `@`.
inline Array dot(const Array& a, const Array& b) { return matmul(a, b); }

// Exact comparison helpers for tests and users.
bool array_equal(const Array& a, const Array& b);
bool allclose(const Array& a, const Array& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = true);

// ---------------------------------------------------------------- linalg extension (25)
namespace linalg {
struct EighResult {
  Array eigenvalues, eigenvectors;
};
using EigResult = EighResult;
struct QRResult {
  Array Q, R;
};
struct SlogdetResult {
  Array sign, logabsdet;
};
struct SVDResult {
  Array U, S, Vh;
};
using Ord = std::variant<double, std::string>;  // a number, inf, -inf, "fro", "nuc"
Array cholesky(const Array& x, bool upper = false);
Array cross(const Array& x1, const Array& x2, std::int64_t axis = -1);
Array det(const Array& x);
Array diagonal(const Array& x, std::int64_t offset = 0);
EighResult eigh(const Array& x);
Array eigvalsh(const Array& x);
EigResult eig(const Array& x);
Array eigvals(const Array& x);
Array inv(const Array& x);
Array matmul(const Array& x1, const Array& x2);
Array matrix_norm(const Array& x, bool keepdims = false, const Ord& ord = std::string("fro"));
Array matrix_power(const Array& x, std::int64_t n);
Array matrix_rank(const Array& x, std::optional<double> rtol = std::nullopt);
// rtol per matrix: an array that broadcasts against x's batch shape x.shape[:-2]
Array matrix_rank(const Array& x, const Array& rtol);
Array matrix_transpose(const Array& x);
Array outer(const Array& x1, const Array& x2);
Array pinv(const Array& x, std::optional<double> rtol = std::nullopt);
// rtol per matrix: an array that broadcasts against x's batch shape x.shape[:-2]
Array pinv(const Array& x, const Array& rtol);
QRResult qr(const Array& x, std::string_view mode = "reduced");
SlogdetResult slogdet(const Array& x);
Array solve(const Array& x1, const Array& x2);
SVDResult svd(const Array& x, bool full_matrices = true);
Array svdvals(const Array& x);
Array tensordot(const Array& x1, const Array& x2, const TensordotAxes& axes = 2);
Array trace(const Array& x, std::int64_t offset = 0, std::optional<DType> dtype = std::nullopt);
Array vecdot(const Array& x1, const Array& x2, std::int64_t axis = -1);
Array vector_norm(const Array& x, const AxisArg& axis, bool keepdims, double ord);
template <class = void>  // a template for the reason given at IVY_AXIS_REDUCTION
Array vector_norm(const Array& x, const AxisArg& axis = {}, bool keepdims = false, double ord = 2.0) {
  return vector_norm(x, axis, keepdims, ord);
}
}  // namespace linalg

// ---------------------------------------------------------------- fft extension (14)
namespace fft {
Array fft(const Array& x, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
          std::string_view norm = "backward");
Array ifft(const Array& x, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
           std::string_view norm = "backward");
Array fftn(const Array& x, const std::optional<Dims>& s = std::nullopt, const std::optional<Dims>& axes = std::nullopt,
           std::string_view norm = "backward");
Array ifftn(const Array& x, const std::optional<Dims>& s = std::nullopt, const std::optional<Dims>& axes = std::nullopt,
            std::string_view norm = "backward");
Array rfft(const Array& x, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
           std::string_view norm = "backward");
Array irfft(const Array& x, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
            std::string_view norm = "backward");
Array rfftn(const Array& x, const std::optional<Dims>& s = std::nullopt, const std::optional<Dims>& axes = std::nullopt,
            std::string_view norm = "backward");
Array irfftn(const Array& x, const std::optional<Dims>& s = std::nullopt, const std::optional<Dims>& axes = std::nullopt,
             std::string_view norm = "backward");
Array hfft(const Array& x, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
           std::string_view norm = "backward");
Array ihfft(const Array& x, std::optional<std::int64_t> n = std::nullopt, std::int64_t axis = -1,
            std::string_view norm = "backward");
Array fftfreq(std::int64_t n, double d = 1.0, std::optional<DType> dtype = std::nullopt, Device device = {},
              Backend backend = {});
Array rfftfreq(std::int64_t n, double d = 1.0, std::optional<DType> dtype = std::nullopt, Device device = {},
               Backend backend = {});
Array fftshift(const Array& x, const AxisArg& axes = {});
Array ifftshift(const Array& x, const AxisArg& axes = {});
}  // namespace fft

}  // namespace ivy

// The standard's keyword arguments as options structs: sum(x, {.axis = 1, .keepdims = true}).
#include "ivy/keywords.hpp"
