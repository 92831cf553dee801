// Private helpers of ivy::mech: component access, matrix assembly, safe square roots and
// argument checks.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "ivy/ivy.hpp"

namespace ivy::mech::detail {

// x[..., i] and x[..., a:b] along the last axis; R[..., r, col].
inline Array c(const Array& x, std::int64_t i) { return x.index({Ellipsis, i}); }
inline Array sl(const Array& x, std::int64_t a, std::int64_t b) { return x.index({Ellipsis, Slice(a, b)}); }
inline Array m(const Array& R, std::int64_t r, std::int64_t col) { return R.index({Ellipsis, r, col}); }

// A [..., 3, 3] matrix from its 9 entries, row-major.
inline Array mat3(const std::array<Array, 9>& e) {
  Array flat = ivy::stack(std::vector<Array>(e.begin(), e.end()), -1);  // [..., 9], one copy
  Shape s = flat.shape();
  s[s.size() - 1] = 3;
  s.push_back(3);
  return ivy::reshape(flat, s);
}

// The entries of I + A K + B K^2 (row-major) for K the cross-product matrix of (x, y, z).
inline std::array<Array, 9> rodrigues_entries(const Array& x, const Array& y, const Array& z, const Array& A,
                                              const Array& B) {
  return {1.0 - B * (y * y + z * z), B * x * y - A * z, B * x * z + A * y,  //
          B * x * y + A * z, 1.0 - B * (x * x + z * z), B * y * z - A * x,  //
          B * x * z - A * y, B * y * z + A * x, 1.0 - B * (x * x + y * y)};
}
inline Array rodrigues(const Array& x, const Array& y, const Array& z, const Array& A, const Array& B) {
  return mat3(rodrigues_entries(x, y, z, A, B));
}
// [R | t] [..., 3, 4] from R's 9 entries and t [..., 3], in one stack.
inline Array mat34(const std::array<Array, 9>& R, const Array& t) {
  std::vector<Array> e;
  for (int r = 0; r < 3; ++r) {
    e.insert(e.end(), {R[3 * r], R[3 * r + 1], R[3 * r + 2], c(t, r)});
  }
  Array flat = ivy::stack(e, -1);  // [..., 12]
  Shape s = flat.shape();
  s[s.size() - 1] = 3;
  s.push_back(4);
  return ivy::reshape(flat, s);
}

// The rotation matrix entries of a rotation vector [..., 3] (Rodrigues, series near 0).
std::array<Array, 9> rot_vec_entries(const Array& rot_vec);

// sqrt(x) for x >= 0, with gradient 0 (not inf) at x = 0.
inline Array safe_sqrt(const Array& x) {
  Array pos = x > 0.0;
  return ivy::where(pos, ivy::sqrt(ivy::where(pos, x, 1.0)), 0.0);
}

inline void check_float(const Array& x, const char* fn) {
  if (!x.defined()) throw ValueError(std::string("[mech.") + fn + "] got an undefined array");
  if (!is_real_floating(x.dtype()))
    throw TypeError(std::string("[mech.") + fn + "] expects float32 or float64, got " + dtype_name(x.dtype()));
}
// x of shape [..., n].
inline void check_vec(const Array& x, const char* fn, std::int64_t n, const char* what) {
  check_float(x, fn);
  if (x.ndim() < 1 || x.shape().back() != n)
    throw ValueError(std::string("[mech.") + fn + "] expects " + what + " of shape [..., " + std::to_string(n) +
                     "], got shape " + x.shape().str());
}
// x of shape [..., r, cols].
inline void check_mat(const Array& x, const char* fn, std::int64_t r, std::int64_t cols, const char* what) {
  check_float(x, fn);
  if (x.ndim() < 2 || x.shape()[x.ndim() - 2] != r || x.shape().back() != cols)
    throw ValueError(std::string("[mech.") + fn + "] expects " + what + " of shape [..., " + std::to_string(r) + ", " +
                     std::to_string(cols) + "], got shape " + x.shape().str());
}

// "zyx" -> {2, 1, 0}; one of the 12 Euler conventions or a ValueError.
inline std::array<int, 3> parse_convention(std::string_view conv, const char* fn) {
  std::array<int, 3> a{-1, -1, -1};
  bool ok = conv.size() == 3;
  for (std::size_t n = 0; ok && n < 3; ++n) {
    if (conv[n] < 'x' || conv[n] > 'z') ok = false;
    else a[n] = conv[n] - 'x';
  }
  if (ok) ok = a[0] != a[1] && a[1] != a[2];
  if (!ok)
    throw ValueError(std::string("[mech.") + fn + "] unknown Euler convention '" + std::string(conv) +
                     "' (expected one of xyx yzy zxz xzx yxy zyz xyz yzx zxy xzy yxz zyx)");
  return a;
}

}  // namespace ivy::mech::detail
