// xtensor backend: the elementwise functions, and astype. Each function is one scalar
// functor (a <cmath>/<complex> function, or one of ivy's NumPy-exact helpers below), run by
// ivy's contiguous loops (backends/cpu/cpu_loops.hpp) over operands of the result's shape or
// of one element, and for most binary functions block by block over broadcasts that split
// into contiguous blocks (blocked2). On full or one-element operands some functions have
// dedicated kernels of ivy's instead: float32 transcendental functions, pow, atan2, hypot
// and logaddexp (backends/cpu/vec_math.hpp), float floor_divide and remainder, shifts and
// float maximum/minimum (backends/cpu/npy_kernels.hpp). Only binary operands that broadcast
// in another way go through xtensor: the functor as a lambda xfunction over xt::adapt views,
// assigned with xtensor's broadcasting (eval, xt_common.hpp).
#include <algorithm>
#include <memory>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <type_traits>

#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>

#include "complex_special.hpp"
#include "cpu_loops.hpp"
#include "npy_kernels.hpp"
#include "npy_scalar.hpp"
#include "vec_math.hpp"
#include "xt_common.hpp"

namespace ivy::xtensor_backend {
namespace {

// Inputs of the result's shape (and one-element operands of binary functions) run ivy's
// loops over the scalar functor (backends/cpu/cpu_loops.hpp), with no expression or adaptor
// built per call. Real dtypes take the *_best loops, compiled for the build's ISA and, on
// x86-64, for AVX2 (cpu::isa::kAvx2, backends/cpu/cpu_isa.hpp), the same bits either way;
// complex dtypes the baseline loop. Binary operands that broadcast take blocked2 where their
// shapes allow (BINARY_FN_AS), else xtensor (loop_operands).
using cpu::loops::each1;
using cpu::loops::each2;
using cpu::loops::OneElement;
template <class U, class T, class F>
Array loop1(const Shape& s, DType d, const Array& x, F f) {
  Array out = alloc(s, d);
  if constexpr (!is_cplx_v<T> && !is_cplx_v<U>) cpu::loops::each1_best(ptr<U>(out), ptr<T>(x), out.size(), f);
  else each1(ptr<U>(out), ptr<T>(x), out.size(), f);
  return out;
}
// f(a, b) -> U, operands as `which` says. Wide: f is a select on a compare
// (cpu::loops::each2_best).
template <class U, class T, bool Wide = false, class F>
Array loop2(const Shape& s, DType d, const Array& x1, const Array& x2, OneElement which, F f) {
  Array out = alloc(s, d);
  auto g = [f](T a, T b, unsigned char&) { return f(a, b); };
  if constexpr (!is_cplx_v<T> && !is_cplx_v<U>)
    cpu::loops::each2_best<unsigned char, Wide>(ptr<U>(out), ptr<T>(x1), ptr<T>(x2), out.size(), which, g);
  else
    each2<unsigned char>(ptr<U>(out), ptr<T>(x1), ptr<T>(x2), out.size(), which, g);
  return out;
}
// Broadcasting operands whose shapes split into an outer part and an inner block in which
// each operand is either whole (the output's trailing dims) or one value (all 1s), e.g. a
// matrix minus its row maxima (n, m) - (n, 1): the contiguous loops of loop2 once per block,
// in place of xtensor's broadcasting stepper. False (nothing done) when the shapes do not
// split that way or the blocks are short.
template <class U, class T, bool Wide = false, class F>
bool blocked2(const Shape& s, DType d, const Array& x1, const Array& x2, F f, Array& out) {
  const std::size_t r = s.size();
  if (r == 0 || x1.ndim() > static_cast<std::int64_t>(r) || x2.ndim() > static_cast<std::int64_t>(r)) return false;
  // each operand's shape left-padded to rank r
  auto padded = [r](const Shape& a) {
    Shape p;
    for (std::size_t i = a.size(); i < r; ++i) p.push_back(1);
    for (auto v : a) p.push_back(v);
    return p;
  };
  const Shape p1 = padded(x1.shape()), p2 = padded(x2.shape());
  // the inner block: the longest run of trailing dims where each operand is whole or all 1s
  std::size_t k = r;
  bool whole1 = true, ones1 = true, whole2 = true, ones2 = true;
  while (k > 0) {
    const std::size_t i = k - 1;
    const bool w1 = whole1 && p1[i] == s[i], o1 = ones1 && p1[i] == 1;
    const bool w2 = whole2 && p2[i] == s[i], o2 = ones2 && p2[i] == 1;
    if (!(w1 || o1) || !(w2 || o2) || (!w1 && !w2)) break;
    whole1 = w1, ones1 = o1 && !w1, whole2 = w2, ones2 = o2 && !w2;
    --k;
  }
  std::int64_t inner = 1;
  for (std::size_t i = k; i < r; ++i) inner *= s[i];
  // short blocks (a (n, 4) / (n, 1) divide): one operand must be the output's shape; the
  // other's values are expanded chunk by chunk into a buffer, then one contiguous loop
  const bool full1 = x1.shape() == s, full2 = x2.shape() == s;
  if (k == r || inner == 0 || (inner < 16 && !full1 && !full2)) return false;
  const OneElement which = whole1 && whole2 ? OneElement::neither : whole1 ? OneElement::second : OneElement::first;
  // outer strides of each operand in elements (0 along its broadcast dims)
  std::int64_t st1[kMaxRank], st2[kMaxRank];
  std::int64_t a1 = whole1 ? inner : 1, a2 = whole2 ? inner : 1;
  for (std::size_t i = k; i-- > 0;) {
    st1[i] = p1[i] == 1 ? 0 : a1;
    st2[i] = p2[i] == 1 ? 0 : a2;
    a1 *= p1[i];
    a2 *= p2[i];
  }
  out = alloc(s, d);
  U* o = ptr<U>(out);
  const T* b1 = ptr<T>(x1);
  const T* b2 = ptr<T>(x2);
  auto g = [f](T a, T b, unsigned char&) { return f(a, b); };
  std::int64_t idx[kMaxRank] = {};
  std::int64_t off1 = 0, off2 = 0;
  const std::int64_t blocks = s.numel() / inner;
  auto step = [&] {  // next outer index (row-major), carrying the operands' offsets along
    for (std::size_t i = k; i-- > 0;) {
      off1 += st1[i], off2 += st2[i];
      if (++idx[i] < s[i]) break;
      off1 -= st1[i] * s[i], off2 -= st2[i] * s[i];
      idx[i] = 0;
    }
  };
  if (inner < 16) {
    constexpr std::int64_t kChunk = 1024;
    const std::int64_t per = kChunk / inner;  // whole blocks per chunk
    std::unique_ptr<T[]> buf(new T[static_cast<std::size_t>(std::min(blocks, per) * inner)]);
    const T* other = full1 ? b2 : b1;
    const bool other_whole = full1 ? whole2 : whole1;
    for (std::int64_t blk = 0; blk < blocks; blk += per) {
      const std::int64_t nb = std::min(per, blocks - blk);
      for (std::int64_t t = 0; t < nb; ++t) {
        const T* src = other + (full1 ? off2 : off1);
        T* dst = buf.get() + t * inner;
        if (other_whole) std::copy(src, src + inner, dst);
        else std::fill(dst, dst + inner, src[0]);
        step();
      }
      const std::int64_t at = blk * inner, n = nb * inner;
      const T* a = full1 ? b1 + at : buf.get();
      const T* b = full1 ? buf.get() : b2 + at;
      if constexpr (!is_cplx_v<T> && !is_cplx_v<U>)
        cpu::loops::each2_best<unsigned char, Wide>(o + at, a, b, n, OneElement::neither, g);
      else
        each2<unsigned char>(o + at, a, b, n, OneElement::neither, g);
    }
    return true;
  }
  for (std::int64_t blk = 0; blk < blocks; ++blk) {
    if constexpr (!is_cplx_v<T> && !is_cplx_v<U>)
      cpu::loops::each2_best<unsigned char, Wide>(o + blk * inner, b1 + off1, b2 + off2, inner, which, g);
    else
      each2<unsigned char>(o + blk * inner, b1 + off1, b2 + off2, inner, which, g);
    step();
  }
  return true;
}
// The operands of loop2 for a binary function with result shape s: both of that shape, or
// one of them a single element; nothing when they broadcast otherwise (then blocked2, else
// xtensor's broadcasting assignment).
inline std::optional<OneElement> loop_operands(const Array& x1, const Array& x2, const Shape& s) {
  const bool f1 = x1.shape() == s, f2 = x2.shape() == s;
  if (f1 && f2) return OneElement::neither;
  if (f1 && x2.size() == 1) return OneElement::second;
  if (f2 && x1.size() == 1) return OneElement::first;
  return std::nullopt;
}
// float32 through one of ivy's vectorized functions (vec_math.hpp): f(o, x, n) on the input
// cast to float32 into a fresh result; false (nothing done) for other result dtypes.
template <class F>
bool f32_vm(const Array& in, const OutSpec& spec, Array& out, F f) {
  if (spec.dtype != DType::float32) return false;
  const As xa(in, DType::float32);
  out = alloc(spec.shape, DType::float32);
  f(ptr<float>(out), ptr<float>(*xa), out.size());
  return true;
}

template <class T> inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_realf_v = std::is_floating_point_v<T>;

// ---------------------------------------------------------------- scalar helpers
namespace cs = cpu::complex_special;
template <class T> T s_expm1(T v) {
  if constexpr (is_cplx_v<T>) return cs::eval(cs::Fn::expm1, v);
  else return std::expm1(v);
}
template <class T> T s_log1p(T v) {
  if constexpr (is_cplx_v<T>) return cs::eval(cs::Fn::log1p, v);
  else return std::log1p(v);
}
template <class T> T s_log2(T v) {
  if constexpr (is_cplx_v<T>) return cs::eval(cs::Fn::log2, v);
  else return std::log2(v);
}
template <class T> bool s_isnan(T v) {
  if constexpr (is_cplx_v<T>) return std::isnan(v.real()) || std::isnan(v.imag());
  else if constexpr (is_realf_v<T>) return std::isnan(v);
  else return false;
}
template <class T> bool s_isinf(T v) {
  if constexpr (is_cplx_v<T>) return std::isinf(v.real()) || std::isinf(v.imag());
  else if constexpr (is_realf_v<T>) return std::isinf(v);
  else return false;
}
template <class T> bool s_isfinite(T v) {
  if constexpr (is_cplx_v<T>) return std::isfinite(v.real()) && std::isfinite(v.imag());
  else if constexpr (is_realf_v<T>) return std::isfinite(v);
  else return true;
}
template <class T> T s_sign(T v) {
  if constexpr (is_cplx_v<T>) {
    if (s_isnan(v)) return T(std::numeric_limits<real_t<T>>::quiet_NaN(), std::numeric_limits<real_t<T>>::quiet_NaN());
    auto m = std::abs(v);
    return m == 0 ? T(0) : v / m;
  } else if constexpr (is_realf_v<T>) {
    if (std::isnan(v)) return v;
    return v > 0 ? T(1) : (v < 0 ? T(-1) : T(0));
  } else if constexpr (std::is_unsigned_v<T>) {
    return v > 0 ? T(1) : T(0);
  } else {
    return static_cast<T>(v > 0 ? 1 : (v < 0 ? -1 : 0));
  }
}
template <class T> T s_round(T v) {
  if constexpr (is_cplx_v<T>) return T(std::nearbyint(v.real()), std::nearbyint(v.imag()));
  else if constexpr (is_realf_v<T>) return std::nearbyint(v);  // half to even
  else return v;
}
template <class T> T s_floordiv(T a, T b) {
  if constexpr (is_realf_v<T>) {
    return cpu::npy::floor_divide(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == -1) return a;  // wraps, as NumPy does
      T q = static_cast<T>(a / b);
      if ((a % b != 0) && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
      return q;
    } else {
      return static_cast<T>(a / b);
    }
  }
}
// floor_divide/remainder follow NumPy's fmod-based definitions exactly; the _fast forms
// (npy_scalar.hpp) check floor(a / b) first and take fmod only where that cannot decide.
template <class T> T s_floordiv_fast(T a, T b) {
  if constexpr (is_realf_v<T>) return cpu::npy::floor_divide_fast(a, b);
  else return s_floordiv(a, b);
}
template <class T> T s_remainder(T a, T b);
template <class T> T s_remainder_fast(T a, T b) {
  if constexpr (is_realf_v<T>) return cpu::npy::remainder_fast(a, b);
  else return s_remainder(a, b);
}
template <class T> T s_remainder(T a, T b) {
  if constexpr (is_realf_v<T>) {
    return cpu::npy::remainder(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;
      T m = static_cast<T>(a % b);
      if (m != 0 && ((b < 0) != (m < 0))) m = static_cast<T>(m + b);
      return m;
    } else {
      return static_cast<T>(a % b);
    }
  }
}
template <class T> T s_pow(T a, T b) {
  if constexpr (is_cplx_v<T>) {
    if (b == T(0)) return T(1);
    return std::pow(a, b);
  } else if constexpr (is_realf_v<T>) {
    return std::pow(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a || !b;
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) return a == 1 ? T(1) : (a == -1 ? T((b % 2) ? -1 : 1) : T(0));
    }
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    W base = static_cast<W>(a), r = 1;
    std::uint64_t e = static_cast<std::uint64_t>(b);
    while (e) {
      if (e & 1) r = static_cast<W>(static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(base));
      base = static_cast<W>(static_cast<std::uint64_t>(base) * static_cast<std::uint64_t>(base));
      e >>= 1;
    }
    return static_cast<T>(r);
  }
}
// logaddexp: scalar_ops.hpp's (the fused loops' too)
template <class T> T s_logaddexp(T a, T b) { return cpu::sops::logaddexp(a, b); }
// Arithmetic in the result dtype; wrap-around for integers, as the standard allows.
template <class T> T s_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a || b;
  else if constexpr (is_int_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
  else return a + b;
}
template <class T> T s_sub(T a, T b) {
  if constexpr (is_int_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) - static_cast<std::make_unsigned_t<T>>(b));
  else return a - b;
}
template <class T> T s_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a && b;
  else if constexpr (is_int_v<T>) return static_cast<T>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
  else return a * b;
}
// f(a, b) through libm's float64 function for float32 (rounded once, as vec_math's loops
// round: broadcast operands get the same correctly rounded results as full ones).
template <class T, class F> T s_f64(T a, T b, F f) { return static_cast<T>(f(a, b)); }
// maximum/minimum: cpu::npy::maximum / cpu::npy::minimum (npy_scalar.hpp), NumPy's rule; complex
// operands are not ordered (real_v).
template <class T> bool truthy(T v) {
  if constexpr (is_cplx_v<T>) return v != T(0);
  else return v != 0;
}

template <class T> T s_abs(T v) {
  if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) return v;
  else if constexpr (std::is_floating_point_v<T>) return std::fabs(v);
  else return static_cast<T>(v < 0 ? -v : v);
}
template <class T> real_t<T> s_abs(std::complex<T> v) { return std::abs(v); }
template <class T> T s_conj(T v) {
  if constexpr (is_cplx_v<T>) return std::conj(v);
  else return v;
}
template <class T> real_t<T> s_real(T v) {
  if constexpr (is_cplx_v<T>) return v.real();
  else return v;
}
template <class T> real_t<T> s_imag(T v) {
  if constexpr (is_cplx_v<T>) return v.imag();
  else return 0;
}
template <class T> T s_invert(T v) {
  if constexpr (std::is_same_v<T, bool>) return !v;
  else return static_cast<T>(~v);
}
template <class T> T s_neg(T v) {
  if constexpr (std::is_unsigned_v<T>) return static_cast<T>(0u - v);
  else return static_cast<T>(-v);
}
template <class T> T s_ceil(T v) {
  if constexpr (is_realf_v<T>) return std::ceil(v);
  else return v;
}
template <class T> T s_floor(T v) {
  if constexpr (is_realf_v<T>) return std::floor(v);
  else return v;
}
template <class T> T s_trunc(T v) {
  if constexpr (is_realf_v<T>) return std::trunc(v);
  else return v;
}
template <class T> bool s_signbit(T v) {
  if constexpr (is_realf_v<T>) return std::signbit(v);
  else if constexpr (std::is_signed_v<T>) return v < 0;
  else return false;
}

template <class T> inline constexpr bool any_v = true;
template <class T> inline constexpr bool not_bool_v = !std::is_same_v<T, bool>;
template <class T> inline constexpr bool int_or_bool_v = std::is_integral_v<T>;
template <class T> inline constexpr bool real_v = !is_cplx_v<T>;
template <class T> inline constexpr bool real_num_v = !is_cplx_v<T> && !std::is_same_v<T, bool>;
template <class T> using same_t = T;
template <class T> using bool_t = bool;

}  // namespace

// ---------------------------------------------------------------- the kernels
// The macros below define k_<op> kernels (XT_KERNEL) with external linkage; helpers that only
// they call stay in unnamed namespaces.

// Runs `body(tag)` for the compute dtype when `Cond<T>` holds.
#define VISIT_IF(visitor, dtype, COND, op_name, ...)                                              \
  visitor(dtype, [&](auto tag) {                                                                  \
    using T = typename decltype(tag)::type;                                                       \
    if constexpr (COND) {                                                                         \
      __VA_ARGS__                                                                                 \
    } else {                                                                                      \
      fail(op_name, std::string("dtype ") + dtype_name(dtype) + " is not supported");             \
    }                                                                                             \
  })

// ---- unary: float functions of <cmath>/<complex> (libm) in loop1, on the input cast to the
// floating result dtype.
#define UNARY_XT(name, xtfn)                                                                     \
  XT_KERNEL(name) {                                                                              \
    DType d = spec[0].dtype;                                                                     \
    const As xa(in[0], d);                                                                       \
    const Array& x = *xa;                                                                        \
    visit_float(d, [&](auto tag) {                                                               \
      using T = typename decltype(tag)::type;                                                    \
      out[0] = loop1<T, T>(spec[0].shape, d, x, [](T v) { using std::xtfn; return xtfn(v); });   \
    });                                                                                          \
  }
// float32 through ivy's functions computed in float64 (vec_math.hpp: correctly rounded but
// within ~1e-13 of a boundary, vectorized, in place of libm's float32 function per element);
// other dtypes through libm in loop1.
#define UNARY_XT_VM(name, xtfn)                                                                  \
  XT_KERNEL(name) {                                                                              \
    if (f32_vm(in[0], spec[0], out[0], [](float* o, const float* x, std::int64_t n) {              \
          cpu::vmath::unary_n(cpu::vmath::Op::name, o, x, n);                                              \
        }))                                                                                      \
      return;                                                                                    \
    DType d = spec[0].dtype;                                                                     \
    const As xa(in[0], d);                                                                       \
    const Array& x = *xa;                                                                        \
    visit_float(d, [&](auto tag) {                                                               \
      using T = typename decltype(tag)::type;                                                    \
      out[0] = loop1<T, T>(spec[0].shape, d, x, [](T v) { using std::xtfn; return xtfn(v); });   \
    });                                                                                          \
  }
UNARY_XT_VM(acos, acos)
UNARY_XT_VM(acosh, acosh)
UNARY_XT_VM(asin, asin)
UNARY_XT_VM(asinh, asinh)
UNARY_XT_VM(atan, atan)
UNARY_XT_VM(atanh, atanh)
UNARY_XT_VM(cos, cos)
UNARY_XT_VM(cosh, cosh)
UNARY_XT_VM(exp, exp)
UNARY_XT_VM(log, log)
UNARY_XT_VM(log10, log10)
UNARY_XT_VM(sin, sin)
UNARY_XT_VM(sinh, sinh)
UNARY_XT(sqrt, sqrt)
UNARY_XT_VM(tan, tan)
// tanh: as UNARY_XT_VM, with the standard's complex values (complex_special.hpp).
template <class T>
T tanh_standard(T v) {
  if constexpr (is_cplx_v<T>) return cs::eval(cs::Fn::tanh, v);
  using std::tanh;
  return tanh(v);
}
XT_KERNEL(tanh) {
  if (f32_vm(in[0], spec[0], out[0], [](float* o, const float* x, std::int64_t n) {
        cpu::vmath::unary_n(cpu::vmath::Op::tanh, o, x, n);
      }))
    return;
  DType d = spec[0].dtype;
  const As xa(in[0], d);
  const Array& x = *xa;
  visit_float(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out[0] = loop1<T, T>(spec[0].shape, d, x, [](T v) { return tanh_standard(v); });
  });
}

// ---- unary: EXPR of the element v in loop1 (ivy's loop). OUT(T) is the output C++ type,
// CD the compute dtype.
// IDENT: when true for the input, the function maps every value to itself in the same dtype
// (real, conj and positive of real numbers; ceil, floor, trunc and round of integers): the
// result is a new handle on the input's buffer, as LibTorch returns `self` for real and conj
// of real tensors and NumPy a view for real. No copy is needed because ivy never writes into
// an array's buffer (in-place updates rebind the handle to a new array), so no caller can
// tell the two apart except by the buffer's address.
#define UNARY_FN_ID(name, VIS, CD, COND, OUT, EXPR, IDENT)                                         \
  XT_KERNEL(name) {                                                                                \
    if (IDENT) {                                                                                   \
      alias_into(out[0], in[0], in[0].shape());                                                    \
      return;                                                                                      \
    }                                                                                              \
    DType cd = CD;                                                                                 \
    const As xa(in[0], cd);                                                                        \
    const Array& x = *xa;                                                                          \
    VISIT_IF(VIS, cd, COND, #name, {                                                               \
      using U = OUT<T>;                                                                            \
      auto f = [](T v) -> U { return static_cast<U>(EXPR); };                                      \
      out[0] = loop1<U, T>(spec[0].shape, spec[0].dtype, x, f);                                    \
    });                                                                                            \
  }
#define UNARY_FN(name, VIS, CD, COND, OUT, EXPR) UNARY_FN_ID(name, VIS, CD, COND, OUT, EXPR, false)
#define NOT_CPLX (!is_complex(in[0].dtype()))
#define NOT_FLOAT (!is_floating(in[0].dtype()))
#define D_OUT spec[0].dtype
#define D_IN in[0].dtype()
#define UNARY_FN_VM(name)                                                                         \
  XT_KERNEL(name) {                                                                                \
    if (f32_vm(in[0], spec[0], out[0], [](float* o, const float* x, std::int64_t n) {                \
          cpu::vmath::unary_n(cpu::vmath::Op::name, o, x, n);                                                \
        }))                                                                                        \
      return;                                                                                      \
    const As xa(in[0], spec[0].dtype);                                                             \
    const Array& x = *xa;                                                                          \
    VISIT_IF(visit_float, spec[0].dtype, true, #name, {                                            \
      out[0] = loop1<T, T>(spec[0].shape, spec[0].dtype, x, [](T v) { return s_##name(v); });      \
    });                                                                                            \
  }
UNARY_FN_VM(expm1)  // float32: vec_math.hpp, as UNARY_XT_VM
// float32 log1p: ivy's vectorized one (vec_math.hpp, in place of libm's log1pf per element);
// other dtypes through libm in loop1.
XT_KERNEL(log1p) {
  if (f32_vm(in[0], spec[0], out[0], cpu::vmath::log1p_n)) return;
  const As xa(in[0], spec[0].dtype);
  const Array& x = *xa;
  VISIT_IF(visit_float, spec[0].dtype, true, "log1p", {
    out[0] = loop1<T, T>(spec[0].shape, spec[0].dtype, x, [](T v) { return s_log1p(v); });
  });
}
UNARY_FN_VM(log2)
UNARY_FN(reciprocal, visit_float, D_OUT, true, same_t, T(1) / v)
UNARY_FN(abs, visit, D_IN, not_bool_v<T>, real_t, s_abs(v))
UNARY_FN(bitwise_invert, visit, D_IN, int_or_bool_v<T>, same_t, s_invert(v))
UNARY_FN_ID(ceil, visit, D_IN, real_v<T>, same_t, s_ceil(v), NOT_FLOAT)
UNARY_FN_ID(floor, visit, D_IN, real_v<T>, same_t, s_floor(v), NOT_FLOAT)
UNARY_FN_ID(trunc, visit, D_IN, real_v<T>, same_t, s_trunc(v), NOT_FLOAT)
UNARY_FN_ID(conj, visit, D_IN, any_v<T>, same_t, s_conj(v), NOT_CPLX)
UNARY_FN(imag, visit, D_IN, any_v<T>, real_t, s_imag(v))
UNARY_FN_ID(real, visit, D_IN, any_v<T>, real_t, s_real(v), NOT_CPLX)
UNARY_FN(isfinite, visit, D_IN, any_v<T>, bool_t, s_isfinite(v))
UNARY_FN(isinf, visit, D_IN, any_v<T>, bool_t, s_isinf(v))
UNARY_FN(isnan, visit, D_IN, any_v<T>, bool_t, s_isnan(v))
UNARY_FN(logical_not, visit, D_IN, any_v<T>, bool_t, !truthy(v))
UNARY_FN(negative, visit, D_IN, not_bool_v<T>, same_t, s_neg(v))
UNARY_FN_ID(positive, visit, D_IN, any_v<T>, same_t, v, true)
UNARY_FN_ID(round, visit, D_IN, any_v<T>, same_t, s_round(v), NOT_FLOAT)
UNARY_FN(sign, visit, D_IN, not_bool_v<T>, same_t, s_sign(v))
UNARY_FN(signbit, visit, D_IN, real_v<T>, bool_t, s_signbit(v))
UNARY_FN(square, visit, D_IN, not_bool_v<T>, same_t, v * v)

// ---- binary: loop2 on full or one-element operands, blocked2 on broadcasts that split into
// contiguous blocks, else xtensor's broadcasting assignment of a lambda xfunction over the
// operands' views. CD: compute dtype; inputs are cast to it.
// BINARY_FN_SEL: EXPR is a select on a compare (the Wide loop of loop2).
#define BINARY_FN(name, VIS, CD, COND, OUT, EXPR) BINARY_FN_AS(name, #name, VIS, CD, COND, OUT, EXPR, false)
#define BINARY_FN_SEL(name, VIS, CD, COND, OUT, EXPR) BINARY_FN_AS(name, #name, VIS, CD, COND, OUT, EXPR, true)
#define BINARY_FN_AS(name, label, VIS, CD, COND, OUT, EXPR, WIDE)                                   \
  XT_KERNEL(name) {                                                                                 \
    DType cd = CD;                                                                                  \
    const As a1(in[0], cd), a2(in[1], cd);                                                          \
    const Array &x1 = *a1, &x2 = *a2;                                                               \
    VISIT_IF(VIS, cd, COND, label, {                                                                \
      using U = OUT<T>;                                                                             \
      auto f = [](T a, T b) -> U { return static_cast<U>(EXPR); };                                  \
      const auto which = loop_operands(x1, x2, spec[0].shape);                                      \
      if (which)                                                                                    \
        out[0] = loop2<U, T, WIDE>(spec[0].shape, spec[0].dtype, x1, x2, *which, f);                \
      else if (!blocked2<U, T, WIDE>(spec[0].shape, spec[0].dtype, x1, x2, f, out[0]))              \
        out[0] = eval<U>(spec[0].shape, spec[0].dtype,                                              \
                         xt::make_lambda_xfunction(std::move(f), view<T>(x1), view<T>(x2)));        \
    });                                                                                             \
  }
#define D_PROMOTED result_type(in[0].dtype(), in[1].dtype())
BINARY_FN(add, visit, D_OUT, any_v<T>, same_t, s_add(a, b))
BINARY_FN(subtract, visit, D_OUT, not_bool_v<T>, same_t, s_sub(a, b))
BINARY_FN(multiply, visit, D_OUT, any_v<T>, same_t, s_mul(a, b))
BINARY_FN(divide, visit_float, D_OUT, any_v<T>, same_t, a / b)
BINARY_FN(copysign, visit_float, D_OUT, real_v<T>, same_t, std::copysign(a, b))
// float32 atan2, hypot and logaddexp of full or one-element operands: vec_math.hpp (computed
// in float64, vectorized, correctly rounded, in place of libm's float32 functions one element
// at a time); the rest as the others.
#define VMATH_BINARY(name, expr)                                                                   \
  namespace {                                                                                      \
  BINARY_FN_AS(name##_rest, #name, visit_float, D_OUT, real_v<T>, same_t, expr, false)             \
  }                                                                                                \
  XT_KERNEL(name) {                                                                                \
    const DType cd = spec[0].dtype;                                                                \
    if (cd == DType::float32) {                                                                    \
      const As a1(in[0], cd), a2(in[1], cd);                                                       \
      const auto which = loop_operands(*a1, *a2, spec[0].shape);                                   \
      if (which) {                                                                                 \
        out[0] = alloc(spec[0].shape, cd);                                                         \
        cpu::vmath::name##_n(ptr<float>(out[0]), ptr<float>(*a1), ptr<float>(*a2), out[0].size(),  \
                             *which);                                                              \
        return;                                                                                    \
      }                                                                                            \
    }                                                                                              \
    k_##name##_rest(in, n, a, spec, out);                                                          \
  }
VMATH_BINARY(atan2, s_f64(a, b, [](double y, double x) { return std::atan2(y, x); }))
VMATH_BINARY(hypot, s_f64(a, b, [](double y, double x) { return std::hypot(y, x); }))
VMATH_BINARY(logaddexp, s_logaddexp(a, b))
#undef VMATH_BINARY
BINARY_FN(nextafter, visit_float, D_OUT, real_v<T>, same_t, std::nextafter(a, b))
BINARY_FN(bitwise_and, visit, D_OUT, int_or_bool_v<T>, same_t, a & b)
BINARY_FN(bitwise_or, visit, D_OUT, int_or_bool_v<T>, same_t, a | b)
BINARY_FN(bitwise_xor, visit, D_OUT, int_or_bool_v<T>, same_t, a ^ b)
// Shifts and floor_divide/remainder of full or one-element operands: NumPy's definitions in
// backends/cpu/npy_kernels.cpp (shared with the torch backend; integer floor_divide and
// remainder with the scalar definitions in loop2); operands that broadcast through xtensor
// with the scalar definitions.
namespace {
template <bool Left>
void shift_kernel(const char* name, const Array* in, const OutSpec* spec, Array* out) {
  const DType cd = spec[0].dtype;
  const As a1(in[0], cd), a2(in[1], cd);
  const Array &x1 = *a1, &x2 = *a2;
  VISIT_IF(visit, cd, is_int_v<T>, name, {
    const auto which = loop_operands(x1, x2, spec[0].shape);
    if (which) {
      out[0] = alloc(spec[0].shape, cd);
      if constexpr (Left) cpu::npy::left_shift_n(ptr<T>(out[0]), ptr<T>(x1), ptr<T>(x2), out[0].size(), *which);
      else cpu::npy::right_shift_n(ptr<T>(out[0]), ptr<T>(x1), ptr<T>(x2), out[0].size(), *which);
    } else {
      auto defined = [](T a, T b) -> T { return Left ? cpu::npy::left_shift(a, b) : cpu::npy::right_shift(a, b); };
      out[0] = eval<T>(spec[0].shape, cd, xt::make_lambda_xfunction(std::move(defined), view<T>(x1), view<T>(x2)));
    }
  });
}
}  // namespace
XT_KERNEL(bitwise_left_shift) { shift_kernel<true>("bitwise_left_shift", in, spec, out); }
XT_KERNEL(bitwise_right_shift) { shift_kernel<false>("bitwise_right_shift", in, spec, out); }
namespace {
template <bool Rem>
void floordiv_kernel(const char* name, const Array* in, const OutSpec* spec, Array* out) {
  const DType cd = spec[0].dtype;
  const As a1(in[0], cd), a2(in[1], cd);
  const Array &x1 = *a1, &x2 = *a2;
  VISIT_IF(visit, cd, real_v<T>, name, {
    auto exact = [](T a, T b) -> T { return Rem ? s_remainder_fast(a, b) : s_floordiv_fast(a, b); };
    const auto which = loop_operands(x1, x2, spec[0].shape);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (which) {
        out[0] = alloc(spec[0].shape, cd);
        if constexpr (Rem) cpu::npy::remainder_n(ptr<T>(out[0]), ptr<T>(x1), ptr<T>(x2), out[0].size(), *which);
        else cpu::npy::floor_divide_n(ptr<T>(out[0]), ptr<T>(x1), ptr<T>(x2), out[0].size(), *which);
        return;
      }
    }
    if (which)
      out[0] = loop2<T, T>(spec[0].shape, spec[0].dtype, x1, x2, *which, exact);
    else
      out[0] = eval<T>(spec[0].shape, spec[0].dtype, xt::make_lambda_xfunction(std::move(exact), view<T>(x1), view<T>(x2)));
  });
}
}  // namespace
XT_KERNEL(floor_divide) { floordiv_kernel<false>("floor_divide", in, spec, out); }
XT_KERNEL(remainder) { floordiv_kernel<true>("remainder", in, spec, out); }
// float32 pow of full or one-element operands: vec_math.hpp (e^(b ln a) in float64 where a is
// positive, libm's powf elsewhere); other full or one-element operands in loop2, operands
// that broadcast through xtensor.
XT_KERNEL(pow) {
  const DType cd = spec[0].dtype;
  const As a1(in[0], cd), a2(in[1], cd);
  const Array &x1 = *a1, &x2 = *a2;
  const auto which = loop_operands(x1, x2, spec[0].shape);
  if (cd == DType::float32 && which) {
    out[0] = alloc(spec[0].shape, cd);
    cpu::vmath::pow_n(ptr<float>(out[0]), ptr<float>(x1), ptr<float>(x2), out[0].size(), *which);
    return;
  }
  VISIT_IF(visit, cd, any_v<T>, "pow", {
    auto f = [](T a, T b) -> T { return s_pow(a, b); };
    if (which)
      out[0] = loop2<T, T>(spec[0].shape, spec[0].dtype, x1, x2, *which, f);
    else
      out[0] = eval<T>(spec[0].shape, spec[0].dtype, xt::make_lambda_xfunction(std::move(f), view<T>(x1), view<T>(x2)));
  });
}
// float32/float64 operands full or of one element: cpu::npy::arith_n (the same rule; its loop for
// operands off a 32-byte boundary), the rest as the others.
namespace {
BINARY_FN_AS(maximum_rest, "maximum", visit, D_OUT, real_v<T>, same_t, cpu::npy::maximum(a, b), true)
BINARY_FN_AS(minimum_rest, "minimum", visit, D_OUT, real_v<T>, same_t, cpu::npy::minimum(a, b), true)
}  // namespace
#define MAXMIN(name)                                                                            \
  XT_KERNEL(name) {                                                                             \
    const DType cd = spec[0].dtype;                                                             \
    if (cd == DType::float32 || cd == DType::float64) {                                         \
      const As a1(in[0], cd), a2(in[1], cd);                                                    \
      const auto which = loop_operands(*a1, *a2, spec[0].shape);                                \
      if (which) {                                                                              \
        out[0] = alloc(spec[0].shape, cd);                                                      \
        if (cd == DType::float32)                                                               \
          cpu::npy::arith_n(cpu::npy::Arith::name, ptr<float>(out[0]), ptr<float>(*a1), ptr<float>(*a2),  \
                       out[0].size(), *which);                                                  \
        else                                                                                    \
          cpu::npy::arith_n(cpu::npy::Arith::name, ptr<double>(out[0]), ptr<double>(*a1), ptr<double>(*a2), \
                       out[0].size(), *which);                                                  \
        return;                                                                                 \
      }                                                                                         \
    }                                                                                           \
    k_##name##_rest(in, n, a, spec, out);                                                       \
  }
MAXMIN(maximum)
MAXMIN(minimum)
#undef MAXMIN
BINARY_FN(equal, visit, D_PROMOTED, any_v<T>, bool_t, a == b)
BINARY_FN(not_equal, visit, D_PROMOTED, any_v<T>, bool_t, a != b)
BINARY_FN(greater, visit, D_PROMOTED, real_v<T>, bool_t, a > b)
BINARY_FN(greater_equal, visit, D_PROMOTED, real_v<T>, bool_t, a >= b)
BINARY_FN(less, visit, D_PROMOTED, real_v<T>, bool_t, a < b)
BINARY_FN(less_equal, visit, D_PROMOTED, real_v<T>, bool_t, a <= b)
BINARY_FN(logical_and, visit, D_PROMOTED, any_v<T>, bool_t, truthy(a) && truthy(b))
BINARY_FN(logical_or, visit, D_PROMOTED, any_v<T>, bool_t, truthy(a) || truthy(b))
BINARY_FN(logical_xor, visit, D_PROMOTED, any_v<T>, bool_t, truthy(a) != truthy(b))

// ---- astype (data types): a conversion element by element (cast, xt_backend.cpp), or a copy
// when the dtype is already the result's.
XT_KERNEL(astype) { out[0] = in[0].dtype() == spec[0].dtype ? contiguous_copy(in[0]) : cast(in[0], spec[0].dtype); }
// A new array with x's values (spec[0].dtype is x's): astype's copy.
XT_KERNEL(stop_gradient) { k_astype(in, n, a, spec, out); }

}  // namespace ivy::xtensor_backend
