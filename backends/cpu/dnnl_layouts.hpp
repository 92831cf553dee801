// oneDNN helpers the xtensor backend's convolutions and the prepared kernels share: the
// process's one CPU engine and the memory descriptors of ivy's row-major and channels-last
// activations and [O, C/groups, *K] weights. Included only by .cpp files that use oneDNN.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>

#include "ivy/core.hpp"

namespace ivy::cpu::dnnl_layouts {

inline dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}
inline dnnl::memory::dims dims_of(const Shape& s) { return dnnl::memory::dims(s.begin(), s.end()); }
// [N, C, *S] row-major, and channels-last ([N, *S, C] in memory), for 1 to 3 spatial axes
inline dnnl::memory::format_tag row_major(std::size_t rank) {
  using tag = dnnl::memory::format_tag;
  return rank == 3 ? tag::ncw : rank == 4 ? tag::nchw : tag::ncdhw;
}
inline dnnl::memory::format_tag channels_last(std::size_t rank) {
  using tag = dnnl::memory::format_tag;
  return rank == 3 ? tag::nwc : rank == 4 ? tag::nhwc : tag::ndhwc;
}
// [O, C/g, *K] row-major as oneDNN's weights: oi*k, or goi*k with the groups split off
inline dnnl::memory::desc weights(const Shape& w, std::int64_t groups) {
  using tag = dnnl::memory::format_tag;
  dnnl::memory::dims d = dims_of(w);
  const std::size_t r = w.size();
  if (groups == 1) return dnnl::memory::desc(d, dnnl::memory::data_type::f32, r == 3 ? tag::oiw : r == 4 ? tag::oihw : tag::oidhw);
  d[0] /= groups;
  d.insert(d.begin(), groups);
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32, r == 3 ? tag::goiw : r == 4 ? tag::goihw : tag::goidhw);
}

}  // namespace ivy::cpu::dnnl_layouts
