// The standard's keyword-only arguments in C++: one options struct per signature, filled with
// designated initializers and passed after the positional arguments:
//
//   ivy::sum(x, {.axis = 1, .keepdims = true});
//   ivy::sort(x, {.descending = true});
//   ivy::zeros({2, 3}, {.dtype = ivy::DType::float64});
//
// Members are declared in the standard's order (designators must follow it) with the
// standard's defaults; each overload forwards to the positional form. Every struct starts with
// a KeywordsOnly member, so that an undesignated list such as sum(x, {1}) still means the
// positional form (axis 1) and never fills an options struct by position.
#pragma once

#include <concepts>

#include "ivy/functional.hpp"

namespace ivy {

struct KeywordsOnly {
  explicit KeywordsOnly() = default;
};

// ---------------------------------------------------------------- creation
struct CreationOptions {  // arange, empty, full, ones, zeros
  KeywordsOnly keywords_only{};
  std::optional<DType> dtype{};
  Device device{};
  Backend backend{};
};
struct LikeOptions {  // *_like
  KeywordsOnly keywords_only{};
  std::optional<DType> dtype{};
  std::optional<Device> device{};
};
struct EyeOptions {
  KeywordsOnly keywords_only{};
  std::int64_t k = 0;
  std::optional<DType> dtype{};
  Device device{};
  Backend backend{};
};
struct LinspaceOptions {
  KeywordsOnly keywords_only{};
  std::optional<DType> dtype{};
  Device device{};
  bool endpoint = true;
  Backend backend{};
};
struct AsarrayOptions {
  KeywordsOnly keywords_only{};
  std::optional<DType> dtype{};
  Device device{};
  std::optional<bool> copy{};
  Backend backend{};
};
inline Array arange(Scalar start, std::optional<Scalar> stop, Scalar step, const CreationOptions& o) {
  return arange(start, stop, step, o.dtype, o.device, o.backend);
}
inline Array arange(Scalar stop, const CreationOptions& o) { return arange(stop, std::nullopt, 1, o.dtype, o.device, o.backend); }
inline Array arange(Scalar start, std::optional<Scalar> stop, const CreationOptions& o) {
  return arange(start, stop, 1, o.dtype, o.device, o.backend);
}
inline Array asarray(const Array& obj, const AsarrayOptions& o) {
  return asarray(obj, o.dtype, o.device, o.copy, o.backend);
}
inline Array empty(const Shape& shape, const CreationOptions& o) { return empty(shape, o.dtype, o.device, o.backend); }
inline Array empty_like(const Array& x, const LikeOptions& o) { return empty_like(x, o.dtype, o.device); }
inline Array eye(std::int64_t n_rows, const EyeOptions& o) {
  return eye(n_rows, std::nullopt, o.k, o.dtype, o.device, o.backend);
}
inline Array eye(std::int64_t n_rows, std::optional<std::int64_t> n_cols, const EyeOptions& o) {
  return eye(n_rows, n_cols, o.k, o.dtype, o.device, o.backend);
}
inline Array full(const Shape& shape, Scalar fill_value, const CreationOptions& o) {
  return full(shape, fill_value, o.dtype, o.device, o.backend);
}
inline Array full_like(const Array& x, Scalar fill_value, const LikeOptions& o) {
  return full_like(x, fill_value, o.dtype, o.device);
}
inline Array linspace(Scalar start, Scalar stop, std::int64_t num, const LinspaceOptions& o) {
  return linspace(start, stop, num, o.dtype, o.device, o.endpoint, o.backend);
}
inline Array ones(const Shape& shape, const CreationOptions& o) { return ones(shape, o.dtype, o.device, o.backend); }
inline Array ones_like(const Array& x, const LikeOptions& o) { return ones_like(x, o.dtype, o.device); }
inline Array zeros(const Shape& shape, const CreationOptions& o) { return zeros(shape, o.dtype, o.device, o.backend); }
inline Array zeros_like(const Array& x, const LikeOptions& o) { return zeros_like(x, o.dtype, o.device); }

// ---------------------------------------------------------------- data types
struct AstypeOptions {
  KeywordsOnly keywords_only{};
  bool copy = true;
  std::optional<Device> device{};
};
inline Array astype(const Array& x, DType dtype, const AstypeOptions& o) { return astype(x, dtype, o.copy, o.device); }

// ---------------------------------------------------------------- reductions
struct ReduceOptions {  // all, any, count_nonzero, max, mean, min
  KeywordsOnly keywords_only{};
  AxisArg axis{};
  bool keepdims = false;
};
struct SumOptions {  // prod, sum
  KeywordsOnly keywords_only{};
  AxisArg axis{};
  std::optional<DType> dtype{};
  bool keepdims = false;
};
struct VarianceOptions {  // std, var
  KeywordsOnly keywords_only{};
  AxisArg axis{};
  double correction = 0.0;
  bool keepdims = false;
};
struct ArgReduceOptions {  // argmax, argmin
  KeywordsOnly keywords_only{};
  std::optional<std::int64_t> axis{};
  bool keepdims = false;
};
struct CumulativeOptions {  // cumulative_prod, cumulative_sum
  KeywordsOnly keywords_only{};
  std::optional<std::int64_t> axis{};
  std::optional<DType> dtype{};
  bool include_initial = false;
};
inline Array all(const Array& x, const ReduceOptions& o) { return all(x, o.axis, o.keepdims); }
inline Array any(const Array& x, const ReduceOptions& o) { return any(x, o.axis, o.keepdims); }
inline Array count_nonzero(const Array& x, const ReduceOptions& o) { return count_nonzero(x, o.axis, o.keepdims); }
inline Array max(const Array& x, const ReduceOptions& o) { return max(x, o.axis, o.keepdims); }
inline Array mean(const Array& x, const ReduceOptions& o) { return mean(x, o.axis, o.keepdims); }
inline Array min(const Array& x, const ReduceOptions& o) { return min(x, o.axis, o.keepdims); }
inline Array prod(const Array& x, const SumOptions& o) { return prod(x, o.axis, o.dtype, o.keepdims); }
inline Array sum(const Array& x, const SumOptions& o) { return sum(x, o.axis, o.dtype, o.keepdims); }
inline Array std(const Array& x, const VarianceOptions& o) { return std(x, o.axis, o.correction, o.keepdims); }
inline Array var(const Array& x, const VarianceOptions& o) { return var(x, o.axis, o.correction, o.keepdims); }
inline Array argmax(const Array& x, const ArgReduceOptions& o) { return argmax(x, o.axis, o.keepdims); }
inline Array argmin(const Array& x, const ArgReduceOptions& o) { return argmin(x, o.axis, o.keepdims); }
inline Array cumulative_prod(const Array& x, const CumulativeOptions& o) {
  return cumulative_prod(x, o.axis, o.dtype, o.include_initial);
}
inline Array cumulative_sum(const Array& x, const CumulativeOptions& o) {
  return cumulative_sum(x, o.axis, o.dtype, o.include_initial);
}
// A bool after the axis is keepdims (include_initial for the cumulative ones), as for max and
// mean: a bool is never a dtype, and std(x, 0, true) must not read true as correction 1. Only
// an exact bool takes these (std(x, 0, 1) stays correction 1).
template <std::same_as<bool> B>
Array prod(const Array& x, const AxisArg& axis, B keepdims) { return prod(x, axis, std::nullopt, keepdims); }
template <std::same_as<bool> B>
Array sum(const Array& x, const AxisArg& axis, B keepdims) { return sum(x, axis, std::nullopt, keepdims); }
template <std::same_as<bool> B>
Array std(const Array& x, const AxisArg& axis, B keepdims) { return std(x, axis, 0.0, keepdims); }
template <std::same_as<bool> B>
Array var(const Array& x, const AxisArg& axis, B keepdims) { return var(x, axis, 0.0, keepdims); }
template <std::same_as<bool> B>
Array cumulative_prod(const Array& x, std::optional<std::int64_t> axis, B include_initial) {
  return cumulative_prod(x, axis, std::nullopt, include_initial);
}
template <std::same_as<bool> B>
Array cumulative_sum(const Array& x, std::optional<std::int64_t> axis, B include_initial) {
  return cumulative_sum(x, axis, std::nullopt, include_initial);
}

// ---------------------------------------------------------------- sorting, searching, utility
struct SortOptions {  // argsort, sort
  KeywordsOnly keywords_only{};
  std::int64_t axis = -1;
  bool descending = false;
  bool stable = true;
};
struct SearchsortedOptions {
  KeywordsOnly keywords_only{};
  std::string_view side = "left";
  std::optional<Array> sorter{};
};
struct DiffOptions {
  KeywordsOnly keywords_only{};
  std::int64_t axis = -1;
  std::int64_t n = 1;
  std::optional<Array> prepend{};
  std::optional<Array> append{};
};
inline Array argsort(const Array& x, const SortOptions& o) { return argsort(x, o.axis, o.descending, o.stable); }
inline Array sort(const Array& x, const SortOptions& o) { return sort(x, o.axis, o.descending, o.stable); }
inline Array searchsorted(const Array& x1, const Array& x2, const SearchsortedOptions& o) {
  return searchsorted(x1, x2, o.side, o.sorter);
}
inline Array diff(const Array& x, const DiffOptions& o) { return diff(x, o.axis, o.n, o.prepend, o.append); }

// ---------------------------------------------------------------- linalg
namespace linalg {
struct VectorNormOptions {
  KeywordsOnly keywords_only{};
  AxisArg axis{};
  bool keepdims = false;
  double ord = 2.0;
};
struct MatrixNormOptions {
  KeywordsOnly keywords_only{};
  bool keepdims = false;
  Ord ord = std::string("fro");
};
struct TraceOptions {
  KeywordsOnly keywords_only{};
  std::int64_t offset = 0;
  std::optional<DType> dtype{};
};
inline Array vector_norm(const Array& x, const VectorNormOptions& o) { return vector_norm(x, o.axis, o.keepdims, o.ord); }
inline Array matrix_norm(const Array& x, const MatrixNormOptions& o) { return matrix_norm(x, o.keepdims, o.ord); }
inline Array trace(const Array& x, const TraceOptions& o) { return trace(x, o.offset, o.dtype); }
}  // namespace linalg

// ---------------------------------------------------------------- fft
namespace fft {
struct FFTOptions {  // fft, ifft, rfft, irfft, hfft, ihfft
  KeywordsOnly keywords_only{};
  std::optional<std::int64_t> n{};
  std::int64_t axis = -1;
  std::string_view norm = "backward";
};
struct FFTNOptions {  // fftn, ifftn, rfftn, irfftn
  KeywordsOnly keywords_only{};
  std::optional<Dims> s{};
  std::optional<Dims> axes{};
  std::string_view norm = "backward";
};
struct FreqOptions {  // fftfreq, rfftfreq
  KeywordsOnly keywords_only{};
  double d = 1.0;
  std::optional<DType> dtype{};
  Device device{};
  Backend backend{};
};
#define IVY_FFT_KEYWORDS(name) \
  inline Array name(const Array& x, const FFTOptions& o) { return name(x, o.n, o.axis, o.norm); }
IVY_FFT_KEYWORDS(fft) IVY_FFT_KEYWORDS(ifft) IVY_FFT_KEYWORDS(rfft) IVY_FFT_KEYWORDS(irfft) IVY_FFT_KEYWORDS(hfft)
IVY_FFT_KEYWORDS(ihfft)
#undef IVY_FFT_KEYWORDS
#define IVY_FFTN_KEYWORDS(name) \
  inline Array name(const Array& x, const FFTNOptions& o) { return name(x, o.s, o.axes, o.norm); }
IVY_FFTN_KEYWORDS(fftn) IVY_FFTN_KEYWORDS(ifftn) IVY_FFTN_KEYWORDS(rfftn) IVY_FFTN_KEYWORDS(irfftn)
#undef IVY_FFTN_KEYWORDS
inline Array fftfreq(std::int64_t n, const FreqOptions& o) { return fftfreq(n, o.d, o.dtype, o.device, o.backend); }
inline Array rfftfreq(std::int64_t n, const FreqOptions& o) { return rfftfreq(n, o.d, o.dtype, o.device, o.backend); }
}  // namespace fft

}  // namespace ivy
