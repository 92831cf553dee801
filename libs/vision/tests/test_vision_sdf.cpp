// ivy::vision signed distances on every backend against references computed here in plain
// double arithmetic: a cuboid's distance from the nearest point of the box (clamping in its
// frame; inside, the nearest face), cross-checked by brute force over points sampled on the
// cuboid's surface; spheres by hand. Batch dims, float32, gradients against central finite
// differences, empty shape sets and argument errors.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "lib_test_util.hpp"
#include "ivy/vision/sdf.hpp"

namespace {

using ivy::Array;
using ivy::Shape;
namespace vision = ivy::vision;
using Mat3 = std::array<std::array<double, 3>, 3>;
using Vec3 = std::array<double, 3>;

using ivy::lib_testing::backend_names;
using ivy::lib_testing::vals;
using ivy::lib_testing::arr;

// Rodrigues' formula for a unit axis and angle, written out.
Mat3 rotation(Vec3 axis, double angle) {
  double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (auto& a : axis) a /= n;
  double c = std::cos(angle), s = std::sin(angle), C = 1 - c;
  auto [x, y, z] = axis;
  return Mat3{{{c + x * x * C, x * y * C - z * s, x * z * C + y * s},
               {y * x * C + z * s, c + y * y * C, y * z * C - x * s},
               {z * x * C - y * s, z * y * C + x * s, c + z * z * C}}};
}

struct Box {
  Vec3 centre, dims;
  Mat3 R;  // box frame -> world
  // world -> box frame: [R^T | -R^T c]
  std::vector<double> ext_mat() const {
    std::vector<double> e(12);
    for (int r = 0; r < 3; ++r) {
      double t = 0;
      for (int k = 0; k < 3; ++k) {
        e[r * 4 + k] = R[k][r];
        t -= R[k][r] * centre[k];
      }
      e[r * 4 + 3] = t;
    }
    return e;
  }
  Vec3 local(const Vec3& p) const {
    Vec3 l{};
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 3; ++k) l[r] += R[k][r] * (p[k] - centre[k]);
    return l;
  }
  // nearest-point distance, negative inside (distance to the nearest face)
  double sdf(const Vec3& p) const {
    Vec3 l = local(p);
    bool inside = true;
    double out2 = 0, to_face = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 3; ++k) {
      double h = dims[k] / 2, clamped = std::clamp(l[k], -h, h);
      out2 += (l[k] - clamped) * (l[k] - clamped);
      if (std::abs(l[k]) > h) inside = false;
      to_face = std::min(to_face, h - std::abs(l[k]));
    }
    return inside ? -to_face : std::sqrt(out2);
  }
  // |distance| by brute force: the nearest of n x n points on each face
  double brute_abs(const Vec3& p, int n) const {
    Vec3 l = local(p);
    double best = std::numeric_limits<double>::infinity();
    for (int axis = 0; axis < 3; ++axis)
      for (double side : {-1.0, 1.0})
        for (int i = 0; i <= n; ++i)
          for (int j = 0; j <= n; ++j) {
            Vec3 s{};
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            s[axis] = side * dims[axis] / 2;
            s[u] = (-0.5 + double(i) / n) * dims[u];
            s[v] = (-0.5 + double(j) / n) * dims[v];
            double d2 = 0;
            for (int k = 0; k < 3; ++k) d2 += (s[k] - l[k]) * (s[k] - l[k]);
            best = std::min(best, std::sqrt(d2));
          }
    return best;
  }
};

struct Scene {
  std::vector<Box> boxes;
  std::vector<Vec3> queries;
};
Scene random_scene(unsigned seed, int n_boxes, int n_queries) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1, 1), pos(0.1, 1.0);
  Scene s;
  for (int b = 0; b < n_boxes; ++b)
    s.boxes.push_back(Box{{u(g), u(g), u(g)}, {pos(g), pos(g), pos(g)}, rotation({u(g), u(g), u(g)}, 3 * u(g))});
  for (int q = 0; q < n_queries; ++q) s.queries.push_back({1.5 * u(g), 1.5 * u(g), 1.5 * u(g)});
  return s;
}
Array ext_mats(const std::vector<Box>& boxes, ivy::DType dt = ivy::float64) {
  std::vector<double> v;
  for (const auto& b : boxes) {
    auto e = b.ext_mat();
    v.insert(v.end(), e.begin(), e.end());
  }
  return arr(v, {static_cast<std::int64_t>(boxes.size()), 3, 4}, dt);
}
Array dims(const std::vector<Box>& boxes, ivy::DType dt = ivy::float64) {
  std::vector<double> v;
  for (const auto& b : boxes) v.insert(v.end(), b.dims.begin(), b.dims.end());
  return arr(v, {static_cast<std::int64_t>(boxes.size()), 3}, dt);
}
Array points(const std::vector<Vec3>& q, ivy::DType dt = ivy::float64) {
  std::vector<double> v;
  for (const auto& p : q) v.insert(v.end(), p.begin(), p.end());
  return arr(v, {static_cast<std::int64_t>(q.size()), 3}, dt);
}

class VisionSdf : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam())); }
  std::unique_ptr<ivy::BackendScope> scope_;
};

TEST(VisionSdfReference, NearestPointAgreesWithBruteForce) {
  // the reference itself, against sampling the surface (grid spacing <= 1/200 of a side)
  Scene s = random_scene(7, 3, 60);
  for (const auto& b : s.boxes)
    for (const auto& q : s.queries) {
      double tol = 0.5 * std::max({b.dims[0], b.dims[1], b.dims[2]}) / 200 * std::sqrt(2.0) + 1e-12;
      EXPECT_NEAR(std::abs(b.sdf(q)), b.brute_abs(q, 200), tol);
    }
}

TEST_P(VisionSdf, CuboidsMatchTheReference) {
  Scene s = random_scene(11, 4, 200);
  for (const auto& b : s.boxes)  // points inside each box, near its centre
    for (double f : {-0.2, 0.0, 0.3}) {  // along the box's first axis
      Vec3 p{};
      for (int k = 0; k < 3; ++k) p[k] = b.centre[k] + f * b.dims[0] * b.R[k][0];
      s.queries.push_back(p);
    }
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double tol = dt == ivy::float64 ? 1e-12 : 2e-6;
    Array got = vision::cuboid_signed_distances(ext_mats(s.boxes, dt), dims(s.boxes, dt), points(s.queries, dt));
    ASSERT_EQ(got.shape(), Shape({212, 1}));
    EXPECT_EQ(got.dtype(), dt);
    auto v = vals(got);
    int inside = 0;
    for (std::size_t i = 0; i < s.queries.size(); ++i) {
      double want = std::numeric_limits<double>::infinity();
      for (const auto& b : s.boxes) want = std::min(want, b.sdf(s.queries[i]));
      inside += want < 0;
      EXPECT_NEAR(v[i], want, tol) << "query " << i;
    }
    EXPECT_GT(inside, 5);  // the draw reaches inside as well as outside
  }
}

TEST_P(VisionSdf, SpheresByHand) {
  Array c = arr({0, 0, 0, 3, 0, 0}, {2, 3}), r = arr({1, 0.5}, {2, 1});
  Array q = arr({0, 0, 0, 2, 0, 0, 3, 0, 2, 0, 0.5, 0}, {4, 3});
  // centre of sphere 0: -1; x=2: 1 from sphere 0, 0.5 from sphere 1; (3,0,2): 1.5; (0,.5,0): -0.5
  EXPECT_EQ(vals(vision::sphere_signed_distances(c, r, q)), (std::vector<double>{-1, 0.5, 1.5, -0.5}));
}

TEST_P(VisionSdf, BatchDimsBroadcast) {
  Scene s = random_scene(3, 2, 10), t = random_scene(4, 2, 10);
  Array e = ivy::stack({ext_mats(s.boxes), ext_mats(t.boxes)}), d = ivy::stack({dims(s.boxes), dims(t.boxes)});
  Array q = points(s.queries);  // [NQ, 3] broadcasts against the batch [2] of scenes
  Array got = vision::cuboid_signed_distances(e, d, q);
  ASSERT_EQ(got.shape(), Shape({2, 10, 1}));
  auto v = vals(got);
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 10; ++i) {
      const auto& boxes = b == 0 ? s.boxes : t.boxes;
      double want = std::min(boxes[0].sdf(s.queries[i]), boxes[1].sdf(s.queries[i]));
      EXPECT_NEAR(v[b * 10 + i], want, 1e-12);
    }
}

TEST_P(VisionSdf, SceneIsTheMinimumOfItsShapes) {
  Scene s = random_scene(5, 3, 30);
  Array c = arr({0.2, 0.1, -0.3}, {1, 3}), r = arr({0.4}, {1, 1});
  vision::PrimitiveScene scene(c, r, ext_mats(s.boxes), dims(s.boxes));
  Array q = points(s.queries);
  auto got = vals(scene.sdf(q));
  auto spheres = vals(vision::sphere_signed_distances(c, r, q));
  auto cuboids = vals(vision::cuboid_signed_distances(ext_mats(s.boxes), dims(s.boxes), q));
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], std::min(spheres[i], cuboids[i]));
  // no shapes at all: +inf everywhere; only cuboids: the cuboid distances
  auto none = vals(vision::PrimitiveScene(Array(), Array(), Array(), Array()).sdf(q));
  for (double x : none) EXPECT_EQ(x, std::numeric_limits<double>::infinity());
  EXPECT_EQ(vals(vision::PrimitiveScene(Array(), Array(), ext_mats(s.boxes), dims(s.boxes)).sdf(q)), cuboids);
  auto zero = vals(vision::cuboid_signed_distances(ivy::zeros({0, 3, 4}, ivy::float64), ivy::zeros({0, 3}, ivy::float64), q));
  for (double x : zero) EXPECT_EQ(x, std::numeric_limits<double>::infinity());
}

TEST_P(VisionSdf, GradientsMatchFiniteDifferences) {
  Scene s = random_scene(9, 2, 12);
  Array e = ext_mats(s.boxes), d = dims(s.boxes), q0 = points(s.queries);
  auto f = [&](const Array& q) { return ivy::sum(vision::cuboid_signed_distances(e, d, q)); };
  auto g = vals(ivy::grad(f)(q0));
  auto q = vals(q0);
  const double h = 1e-6;
  for (std::size_t i = 0; i < q.size(); ++i) {
    auto qp = q, qm = q;
    qp[i] += h;
    qm[i] -= h;
    double fd = (vals(f(arr(qp, {12, 3})))[0] - vals(f(arr(qm, {12, 3})))[0]) / (2 * h);
    EXPECT_NEAR(g[i], fd, 1e-6) << "coordinate " << i;
  }
  // in the dims as well (the scene's parameters)
  auto fd_dims = [&](const Array& dd) { return ivy::sum(vision::cuboid_signed_distances(e, dd, q0)); };
  auto gd = vals(ivy::grad(fd_dims)(d));
  auto dv = vals(d);
  for (std::size_t i = 0; i < dv.size(); ++i) {
    auto p = dv, m = dv;
    p[i] += h;
    m[i] -= h;
    double fd = (vals(fd_dims(arr(p, {2, 3})))[0] - vals(fd_dims(arr(m, {2, 3})))[0]) / (2 * h);
    EXPECT_NEAR(gd[i], fd, 1e-6) << "dim " << i;
  }
  // finite at a surface point with d == 0 in two components (an edge), and at a box centre
  Box b{{0, 0, 0}, {1, 1, 1}, rotation({0, 0, 1}, 0)};
  Array eb = ext_mats({b}), db = dims({b});
  for (auto p : {std::vector<double>{0.5, 0.5, 0.0}, std::vector<double>{0, 0, 0}}) {
    auto ge = vals(ivy::grad([&](const Array& x) { return ivy::sum(vision::cuboid_signed_distances(eb, db, x)); })(
        arr(p, {1, 3})));
    for (double x : ge) EXPECT_TRUE(std::isfinite(x));
  }
}

TEST_P(VisionSdf, BadInput) {
  Array e = ivy::zeros({2, 3, 4}, ivy::float64), d = ivy::zeros({2, 3}, ivy::float64), q = ivy::zeros({5, 3}, ivy::float64);
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const ivy::Error& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { vision::cuboid_signed_distances(ivy::zeros({2, 4, 4}, ivy::float64), d, q); })
                .find("[vision.cuboid_signed_distances] expects cuboid_ext_mats of shape [..., N, 3, 4], got shape"),
            std::string::npos);
  EXPECT_NE(message([&] { vision::cuboid_signed_distances(e, ivy::zeros({3, 3}, ivy::float64), q); })
                .find("differ in the number of cuboids"),
            std::string::npos);
  EXPECT_NE(message([&] { vision::cuboid_signed_distances(e, d, ivy::zeros({5, 2}, ivy::float64)); })
                .find("query_positions of shape [..., N, 3]"),
            std::string::npos);
  EXPECT_NE(message([&] { vision::sphere_signed_distances(q, ivy::zeros({5}, ivy::float64), q); })
                .find("[vision.sphere_signed_distances] expects sphere_radii"),
            std::string::npos);
  EXPECT_NE(message([&] { vision::cuboid_signed_distances(e, d, ivy::zeros({5, 3}, ivy::int32)); })
                .find("float32 or float64, got int32"),
            std::string::npos);
  EXPECT_NE(message([&] { vision::PrimitiveScene(q, Array(), Array(), Array()); }).find("[vision.PrimitiveScene]"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Backends, VisionSdf, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
