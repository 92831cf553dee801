// Private helpers of ivy::gym: component access and a small SVG writer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "ivy/ivy.hpp"

namespace ivy::gym::detail {

// x[..., i] and x[..., a:b] along the last axis.
inline Array c(const Array& x, std::int64_t i) { return x.index({Ellipsis, i}); }
inline Array sl(const Array& x, std::int64_t a, std::int64_t b) { return x.index({Ellipsis, Slice(a, b)}); }

// Batch shape of a [B..., n] array.
inline Shape batch_of(const Array& x) {
  Shape s = x.shape();
  s.pop_back();
  return s;
}

inline Array uniform(double lo, double hi, const Shape& shape, DType dtype, Backend backend) {
  return ivy::random_uniform(lo, hi, shape, dtype, Device{}, backend);
}

// ---------------------------------------------------------------- SVG
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// World coordinates [x0, x1] x [y0, y1] (y up) fitted, aspect kept and centred, into a
// width x height picture (y down).
struct View {
  double x0, x1, y0, y1;
  int width, height;
  double scale() const { return std::min(width / (x1 - x0), height / (y1 - y0)); }
  double px(double x) const { return 0.5 * width + (x - 0.5 * (x0 + x1)) * scale(); }
  double py(double y) const { return 0.5 * height - (y - 0.5 * (y0 + y1)) * scale(); }
  double len(double d) const { return d * scale(); }

  std::string line(double xa, double ya, double xb, double yb, const std::string& stroke, double w) const {
    return "<line x1=\"" + num(px(xa)) + "\" y1=\"" + num(py(ya)) + "\" x2=\"" + num(px(xb)) + "\" y2=\"" +
           num(py(yb)) + "\" stroke=\"" + stroke + "\" stroke-width=\"" + num(w) + "\" stroke-linecap=\"round\"/>\n";
  }
  std::string circle(double x, double y, double r, const std::string& fill, const std::string& stroke = "none") const {
    return "<circle cx=\"" + num(px(x)) + "\" cy=\"" + num(py(y)) + "\" r=\"" + num(len(r)) + "\" fill=\"" + fill +
           "\" stroke=\"" + stroke + "\"/>\n";
  }
  // Axis-aligned rectangle centred at (x, y), w x h in world units.
  std::string rect(double x, double y, double w, double h, const std::string& fill) const {
    return "<rect x=\"" + num(px(x - 0.5 * w)) + "\" y=\"" + num(py(y + 0.5 * h)) + "\" width=\"" + num(len(w)) +
           "\" height=\"" + num(len(h)) + "\" fill=\"" + fill + "\"/>\n";
  }
};

inline std::string text(double x, double y, const std::string& s, int size = 14) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-family=\"sans-serif\" font-size=\"" +
         std::to_string(size) + "\" fill=\"#333\">" + s + "</text>\n";
}

}  // namespace ivy::gym::detail
