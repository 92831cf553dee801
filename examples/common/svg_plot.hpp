// A small dependency-free SVG writer for the demos' plots: panels with data coordinates
// (y up), polylines, markers, rectangles as polygons, text and a legend. Header-only; the
// demos write top-down and side views with it (docs/applied-demos.md says why not a plotting
// library: one self-contained file, and SVG opens in any browser).
#pragma once

#include <algorithm>
#include <deque>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace demo {

struct Point2 {
  double x, y;
};

// One plot area: data range [x0, x1] x [y0, y1] drawn into a w x h pixel box at (left, top).
class Panel {
 public:
  Panel(std::string title, double x0, double x1, double y0, double y1, double left, double top, double w, double h)
      : title_(std::move(title)), x0_(x0), x1_(x1), y0_(y0), y1_(y1), left_(left), top_(top), w_(w), h_(h) {}

  double px(double x) const { return left_ + (x - x0_) / (x1_ - x0_) * w_; }
  double py(double y) const { return top_ + (y1_ - y) / (y1_ - y0_) * h_; }

  void polygon(const std::vector<Point2>& pts, const std::string& fill, const std::string& stroke, double opacity = 1) {
    std::ostringstream s;
    s << "<polygon points=\"" << coords(pts) << "\" fill=\"" << fill << "\" fill-opacity=\"" << opacity
      << "\" stroke=\"" << stroke << "\" stroke-width=\"1\"/>\n";
    body_ += s.str();
  }
  void polyline(const std::vector<Point2>& pts, const std::string& stroke, double width = 2, bool dashed = false) {
    std::ostringstream s;
    s << "<polyline points=\"" << coords(pts) << "\" fill=\"none\" stroke=\"" << stroke << "\" stroke-width=\""
      << width << "\"" << (dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n";
    body_ += s.str();
  }
  void marker(Point2 p, const std::string& fill, double radius = 4) {
    std::ostringstream s;
    s << "<circle cx=\"" << px(p.x) << "\" cy=\"" << py(p.y) << "\" r=\"" << radius << "\" fill=\"" << fill
      << "\"/>\n";
    body_ += s.str();
  }
  void label(Point2 p, const std::string& text, int size = 11) {
    std::ostringstream s;
    s << "<text x=\"" << px(p.x) << "\" y=\"" << py(p.y) << "\" font-size=\"" << size
      << "\" font-family=\"sans-serif\">" << escape(text) << "</text>\n";
    body_ += s.str();
  }

  std::string svg() const {
    std::ostringstream s;
    s << "<g>\n<rect x=\"" << left_ << "\" y=\"" << top_ << "\" width=\"" << w_ << "\" height=\"" << h_
      << "\" fill=\"white\" stroke=\"black\"/>\n";
    s << "<text x=\"" << left_ + w_ / 2 << "\" y=\"" << top_ - 8 << "\" text-anchor=\"middle\" font-size=\"14\" "
      << "font-family=\"sans-serif\">" << escape(title_) << "</text>\n";
    s << "<svg x=\"" << left_ << "\" y=\"" << top_ << "\" width=\"" << w_ << "\" height=\"" << h_
      << "\" viewBox=\"" << left_ << " " << top_ << " " << w_ << " " << h_ << "\">\n"
      << body_ << "</svg>\n";
    // axis ticks at the range ends
    auto tick = [&](double v) {
      char b[32];
      std::snprintf(b, sizeof b, "%g", v);
      return std::string(b);
    };
    s << "<text x=\"" << left_ << "\" y=\"" << top_ + h_ + 14 << "\" font-size=\"10\" font-family=\"sans-serif\">"
      << tick(x0_) << "</text>\n";
    s << "<text x=\"" << left_ + w_ << "\" y=\"" << top_ + h_ + 14
      << "\" text-anchor=\"end\" font-size=\"10\" font-family=\"sans-serif\">" << tick(x1_) << "</text>\n";
    s << "<text x=\"" << left_ - 4 << "\" y=\"" << top_ + h_ << "\" text-anchor=\"end\" font-size=\"10\" "
      << "font-family=\"sans-serif\">" << tick(y0_) << "</text>\n";
    s << "<text x=\"" << left_ - 4 << "\" y=\"" << top_ + 10 << "\" text-anchor=\"end\" font-size=\"10\" "
      << "font-family=\"sans-serif\">" << tick(y1_) << "</text>\n</g>\n";
    return s.str();
  }

  static std::string escape(const std::string& t) {
    std::string o;
    for (char c : t) {
      if (c == '<') o += "&lt;";
      else if (c == '>') o += "&gt;";
      else if (c == '&') o += "&amp;";
      else o += c;
    }
    return o;
  }

 private:
  std::string coords(const std::vector<Point2>& pts) const {
    std::ostringstream s;
    for (const auto& p : pts) s << px(p.x) << "," << py(p.y) << " ";
    return s.str();
  }
  std::string title_, body_;
  double x0_, x1_, y0_, y1_, left_, top_, w_, h_;
};

// A figure of panels and a legend, written to a file (written whole to PATH.tmp, then renamed).
class Figure {
 public:
  Figure(double width, double height) : width_(width), height_(height) {}
  Panel& add_panel(Panel p) {
    panels_.push_back(std::move(p));
    return panels_.back();
  }
  void legend(const std::string& colour, const std::string& text) { legend_.emplace_back(colour, text); }
  // top-left corner of the legend (default: the bottom-left corner of the figure)
  void legend_at(double x, double y) {
    legend_x_ = x;
    legend_y_ = y;
  }
  std::string svg() const {
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width_ << "\" height=\"" << height_
      << "\" viewBox=\"0 0 " << width_ << " " << height_ << "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    for (const auto& p : panels_) s << p.svg();
    const double x = legend_x_ >= 0 ? legend_x_ : 10;
    double y = legend_y_ >= 0 ? legend_y_ + 12 : height_ - 12.0 * static_cast<double>(legend_.size()) - 4;
    for (const auto& [colour, text] : legend_) {
      s << "<rect x=\"" << x << "\" y=\"" << y - 8 << "\" width=\"14\" height=\"4\" fill=\"" << colour << "\"/>"
        << "<text x=\"" << x + 20 << "\" y=\"" << y << "\" font-size=\"12\" font-family=\"sans-serif\">"
        << Panel::escape(text) << "</text>\n";
      y += 16;
    }
    s << "</svg>\n";
    return s.str();
  }
  void save(const std::string& path) const {
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw std::runtime_error("cannot write " + tmp);
      out << svg();
      out.flush();
      if (!out) throw std::runtime_error("failed writing " + tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }

 private:
  double width_, height_, legend_x_ = -1, legend_y_ = -1;
  std::deque<Panel> panels_;  // stable references from add_panel
  std::vector<std::pair<std::string, std::string>> legend_;
};

}  // namespace demo
