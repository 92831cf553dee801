// The 2021 paper's planning scene (shared/specs/applied-libs.md, "robot"): 11 cuboids, as an
// ivy::vision::PrimitiveScene and as outlines for the demos' SVG views.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/mech.hpp"
#include "ivy/vision/sdf.hpp"
#include "svg_plot.hpp"

namespace demo {

struct Cuboid {
  std::array<double, 3> centre, dims, rot_vec;  // pose of the cuboid: rotation vector, then centre
};

// The scene; the manipulator demo moves cuboid 10 from under the floor to (0.55, 0, 0.9).
inline std::vector<Cuboid> scene_cuboids(bool manipulator_demo = false) {
  const double d = M_PI / 180;
  std::vector<Cuboid> c = {
      {{-0.6, -0.025, 0.45}, {0.4, 0.45, 0.909}, {0, 0, 90 * d}},
      {{0.275, -0.65, 0.45}, {0.4, 0.45, 0.909}, {0, 0, 180 * d}},
      {{0.3, 0, 0.375}, {1.6, 1.1, 0.75}, {0, 0, 0}},
      {{2.175, 1.775, 0.45}, {0.6, 0.9, 1.2}, {-90 * d, 0, 0}},
      {{2.175, 0.575, 0.45}, {0.6, 0.9, 1.2}, {-90 * d, 0, 0}},
      {{0.172, -0.017, 1.027}, {0.4, 0.4006, 0.5636}, {0, 0, 0}},
      {{-0.725, 2.098, 0.35}, {0.712, 0.799, 0.998}, {0, -90 * d, 0}},
      {{1.425, 1.783, 0.461}, {0.734, 0.765, 0.919}, {0, 0, 55 * d}},
      {{-0.675, -2.325, 0.985}, {0.3, 1.2, 1.97}, {0, 0, -90 * d}},
      {{-2.175, 0.975, 0.985}, {0.58, 1.2, 1.97}, {0, 0, 180 * d}},
      {{0, 0, -1}, {0.3, 0.3, 0.3}, {0, 0, 0}},
  };
  if (manipulator_demo) c[10].centre = {0.55, 0, 0.9};
  return c;
}

// cuboid_ext_mats = inv(homogeneous(pose))[:3, :], world -> cuboid frame, as the spec says.
inline ivy::vision::PrimitiveScene make_scene(const std::vector<Cuboid>& cuboids, ivy::DType dtype) {
  std::vector<double> poses, dims;
  for (const auto& c : cuboids) {
    poses.insert(poses.end(), c.centre.begin(), c.centre.end());
    poses.insert(poses.end(), c.rot_vec.begin(), c.rot_vec.end());
    dims.insert(dims.end(), c.dims.begin(), c.dims.end());
  }
  const auto n = static_cast<std::int64_t>(cuboids.size());
  ivy::Array pose = ivy::asarray(poses.data(), ivy::float64, {n, 6}, dtype);
  ivy::Array mat = ivy::mech::make_transformation_homogeneous(ivy::mech::rot_vec_pose_to_mat_pose(pose));
  ivy::Array ext = ivy::linalg::inv(mat).index({ivy::Ellipsis, ivy::Slice(0, 3), ivy::Slice()});
  return ivy::vision::PrimitiveScene(ivy::Array(), ivy::Array(), ext,
                                     ivy::asarray(dims.data(), ivy::float64, {n, 3}, dtype));
}

// The outline of a cuboid seen along `drop` (the axis not drawn): convex hull of its corners.
inline std::vector<Point2> outline(const Cuboid& c, int ax, int ay) {
  // rotation matrix from the rotation vector (Rodrigues, written out for plotting only)
  double th = std::sqrt(c.rot_vec[0] * c.rot_vec[0] + c.rot_vec[1] * c.rot_vec[1] + c.rot_vec[2] * c.rot_vec[2]);
  double k[3] = {0, 0, 1};
  if (th > 0)
    for (int i = 0; i < 3; ++i) k[i] = c.rot_vec[i] / th;
  double cs = std::cos(th), sn = std::sin(th), C = 1 - cs;
  double R[3][3] = {{cs + k[0] * k[0] * C, k[0] * k[1] * C - k[2] * sn, k[0] * k[2] * C + k[1] * sn},
                    {k[1] * k[0] * C + k[2] * sn, cs + k[1] * k[1] * C, k[1] * k[2] * C - k[0] * sn},
                    {k[2] * k[0] * C - k[1] * sn, k[2] * k[1] * C + k[0] * sn, cs + k[2] * k[2] * C}};
  std::vector<Point2> pts;
  for (int corner = 0; corner < 8; ++corner) {
    double l[3] = {(corner & 1 ? 0.5 : -0.5) * c.dims[0], (corner & 2 ? 0.5 : -0.5) * c.dims[1],
                   (corner & 4 ? 0.5 : -0.5) * c.dims[2]};
    double w[3];
    for (int r = 0; r < 3; ++r) w[r] = c.centre[r] + R[r][0] * l[0] + R[r][1] * l[1] + R[r][2] * l[2];
    pts.push_back({w[ax], w[ay]});
  }
  // Andrew's monotone chain
  std::sort(pts.begin(), pts.end(), [](auto a, auto b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  auto cross = [](Point2 o, Point2 a, Point2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); };
  std::vector<Point2> hull(2 * pts.size());
  std::size_t h = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (h >= 2 && cross(hull[h - 2], hull[h - 1], pts[i]) <= 0) --h;
    hull[h++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = h + 1; i-- > 0;) {
    while (h >= t && cross(hull[h - 2], hull[h - 1], pts[i]) <= 0) --h;
    hull[h++] = pts[i];
  }
  hull.resize(h > 0 ? h - 1 : 0);
  return hull;
}

inline void draw_cuboids(Panel& panel, const std::vector<Cuboid>& cuboids, int ax, int ay) {
  for (const auto& c : cuboids) panel.polygon(outline(c, ax, ay), "#9aa5b1", "#52606d", 0.45);
}

// Columns ax, ay of a [N, >=3] float64 row-major buffer, as plot points.
inline std::vector<Point2> project(const std::vector<double>& xyz, std::size_t stride, int ax, int ay) {
  std::vector<Point2> p;
  for (std::size_t i = 0; i + stride <= xyz.size(); i += stride) p.push_back({xyz[i + ax], xyz[i + ay]});
  return p;
}

}  // namespace demo
