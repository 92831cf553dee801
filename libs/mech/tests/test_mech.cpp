// ivy::mech against SciPy (tests/fixtures/mech.json from tests/gen_mech_fixtures.py) on every
// backend: every conversion in float64 (1e-10) and float32 (1e-5), quaternion sign and angle
// wrap-around handled, Euler angles at gimbal lock checked through the matrices they give;
// round trips, batch dims, finite gradients at zero rotation and at the lock, argument
// errors, random rotations, and the spec's hand-checked case.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "lib_test_util.hpp"
#include "ivy/mech.hpp"


namespace {

using json = nlohmann::json;
using ivy::Array;
using ivy::Shape;
namespace mech = ivy::mech;

// float64 results against SciPy's: tight enough that a conversion computed in float32
// (relative error ~1e-7) fails
constexpr double kTol64 = 1e-10;
// Matrices rebuilt from Euler angles: near gimbal lock the angles are ill-conditioned (their
// error grows as eps over the sine of the middle angle), and the fixture has rows within 1e-9
// of the lock, whose round trips differ from SciPy's matrices by about 1e-9.
constexpr double kTolEuler64 = 1e-8;

const std::vector<std::string> kConventions = {"xyx", "yzy", "zxz", "xzx", "yxy", "zyz",
                                               "xyz", "yzx", "zxy", "xzy", "yxz", "zyx"};

using ivy::lib_testing::backend_names;

const json& doc() {
  static const json d = ivy::lib_testing::load_fixture("mech.json");
  return d;
}

using ivy::lib_testing::arr;
// The field `key` of every row, stacked along a new first axis.
Array field(const json& rows, const std::string& key, ivy::DType dt = ivy::float64) {
  json j = json::array();
  for (const auto& r : rows) j.push_back(r.at(key));
  return arr(j, dt);
}
using ivy::lib_testing::vals;

using ivy::lib_testing::close;
double wrap(double d) { return std::remainder(d, 2 * M_PI); }
// Rows of [N, n] arrays equal up to sign (q ~ -q) where `either_sign` says so.
::testing::AssertionResult close_rows_up_to_sign(const Array& got, const Array& want, double tol,
                                                 const std::vector<bool>& either_sign) {
  if (!(got.shape() == want.shape()))
    return ::testing::AssertionFailure() << "shape " << got.shape().str() << " vs " << want.shape().str();
  auto u = vals(got), v = vals(want);
  const std::size_t n = static_cast<std::size_t>(got.shape().back());
  for (std::size_t r = 0; r * n < u.size(); ++r) {
    double plus = 0, minus = 0;
    for (std::size_t k = 0; k < n; ++k) {
      plus = std::max(plus, std::abs(u[r * n + k] - v[r * n + k]));
      minus = std::max(minus, std::abs(u[r * n + k] + v[r * n + k]));
    }
    if (!(plus <= tol || (either_sign[r] && minus <= tol)))
      return ::testing::AssertionFailure() << "row " << r << " differs by " << plus << " (" << minus << " negated)";
  }
  return ::testing::AssertionSuccess();
}
std::vector<bool> all_rows(std::size_t n, bool v) { return std::vector<bool>(n, v); }
std::vector<bool> flags(const json& rows, const std::string& key) {
  std::vector<bool> f;
  for (const auto& r : rows) f.push_back(r.at(key).get<bool>());
  return f;
}

class Mech : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(doc().contains("rotations")) << "tests/fixtures/mech.json is missing (run tests/gen_mech_fixtures.py)";
    scope_ = std::make_unique<ivy::BackendScope>(ivy::Backend(GetParam()));
  }
  const json& rows() const { return doc().at("rotations"); }
  std::size_t n() const { return rows().size(); }
  std::unique_ptr<ivy::BackendScope> scope_;
};

// ---------------------------------------------------------------- quaternions
TEST_P(Mech, QuaternionToRotMatAndBack) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double tol = dt == ivy::float64 ? kTol64 : 1e-5;
    Array q = field(rows(), "quat", dt), R = field(rows(), "rotmat", dt);
    EXPECT_TRUE(close(mech::quaternion_to_rot_mat(q), R, tol));
    Array back = mech::rot_mat_to_quaternion(R);
    EXPECT_EQ(back.dtype(), dt);
    EXPECT_TRUE(close_rows_up_to_sign(back, q, tol, flags(rows(), "half_turn")));
    EXPECT_TRUE(ivy::all(mech::rot_mat_to_quaternion(R).index({ivy::Ellipsis, 3}) >= 0.0).item<bool>());
  }
}

TEST_P(Mech, AxisAngleAndRotationVectorToQuaternion) {
  Array q = field(rows(), "quat");
  EXPECT_TRUE(close_rows_up_to_sign(mech::axis_angle_to_quaternion(field(rows(), "axis_angle")), q, kTol64,
                                    flags(rows(), "half_turn")));
  EXPECT_TRUE(close_rows_up_to_sign(mech::rotation_vector_to_quaternion(field(rows(), "rotvec")), q, kTol64,
                                    flags(rows(), "half_turn")));
  EXPECT_TRUE(close_rows_up_to_sign(mech::polar_axis_angle_to_quaternion(field(rows(), "polar_axis_angle")), q, kTol64,
                                    flags(rows(), "half_turn")));
}

TEST_P(Mech, QuaternionToAxisAngleRotationVectorPolar) {
  auto half = flags(rows(), "half_turn");
  Array q = field(rows(), "quat");
  Array aa = mech::quaternion_to_axis_angle(q), rv = mech::quaternion_to_rotation_vector(q);
  // The axis of a half turn is defined up to sign: compare [e, theta] and rv up to sign there,
  // then the angle exactly.
  EXPECT_TRUE(close_rows_up_to_sign(aa.index({ivy::Ellipsis, ivy::Slice(0, 3)}),
                                    field(rows(), "axis_angle").index({ivy::Ellipsis, ivy::Slice(0, 3)}), kTol64, half));
  EXPECT_TRUE(close(aa.index({ivy::Ellipsis, 3}), field(rows(), "axis_angle").index({ivy::Ellipsis, 3}), kTol64));
  EXPECT_TRUE(close_rows_up_to_sign(rv, field(rows(), "rotvec"), kTol64, half));
  Array polar = mech::quaternion_to_polar_axis_angle(q);
  auto got = vals(polar);
  auto want = vals(field(rows(), "polar_axis_angle"));
  for (std::size_t r = 0; r < n(); ++r) {
    SCOPED_TRACE(r);
    EXPECT_NEAR(got[3 * r + 2], want[3 * r + 2], kTol64);
    if (!half[r] && want[3 * r + 2] > 0) {
      EXPECT_NEAR(got[3 * r], want[3 * r], kTol64);
      EXPECT_NEAR(wrap(got[3 * r + 1] - want[3 * r + 1]), 0.0, kTol64);
    }
  }
  // Every row, half turns included: back to the same rotation.
  EXPECT_TRUE(close_rows_up_to_sign(mech::polar_axis_angle_to_quaternion(polar), q, kTol64, half));
}

TEST_P(Mech, HamiltonProductAndInverse) {
  Array q = field(rows(), "quat"), R = field(rows(), "rotmat");
  Array q2 = ivy::roll(q, 1, 0), R2 = ivy::roll(R, 1, 0);
  // q1 * q2 is the rotation R1 R2.
  EXPECT_TRUE(close(mech::quaternion_to_rot_mat(mech::hamilton_product(q, q2)), ivy::matmul(R, R2), kTol64));
  Array id = mech::hamilton_product(q, mech::inverse_quaternion(q));
  Array unit = ivy::broadcast_to(ivy::asarray({0.0, 0.0, 0.0, 1.0}), id.shape());
  EXPECT_TRUE(close(id, unit, 1e-9));
  // Non-unit quaternions: the true inverse.
  Array q3 = 2.5 * q;
  EXPECT_TRUE(close(mech::hamilton_product(mech::inverse_quaternion(q3), q3), unit, 1e-9));
}

// ---------------------------------------------------------------- rotation matrices
TEST_P(Mech, RotVecAndAxisAngleToRotMat) {
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double tol = dt == ivy::float64 ? kTol64 : 1e-5;
    Array R = field(rows(), "rotmat", dt);
    EXPECT_TRUE(close(mech::rot_vec_to_rot_mat(field(rows(), "rotvec", dt)), R, tol));
    EXPECT_TRUE(close(mech::axis_angle_to_rot_mat(field(rows(), "axis_angle", dt)), R, tol));
  }
  // Tiny angles keep their first- and second-order terms: R = I + K + K^2 / 2 to O(|rv|^3).
  const double x = 1e-9, y = -2e-9, z = 3e-9;
  auto r = vals(mech::rot_vec_to_rot_mat(ivy::asarray({x, y, z})));
  EXPECT_NEAR(r[7], x + 0.5 * y * z, 1e-22);  // R21
  EXPECT_NEAR(r[2], y + 0.5 * x * z, 1e-22);  // R02
  EXPECT_NEAR(r[3], z + 0.5 * x * y, 1e-22);  // R10
  EXPECT_NEAR(r[0], 1 - 0.5 * (y * y + z * z), 1e-17);
}

TEST_P(Mech, RotMatToAxisAngleAndRotVec) {
  auto half = flags(rows(), "half_turn");
  Array R = field(rows(), "rotmat");
  EXPECT_TRUE(close_rows_up_to_sign(mech::rot_mat_to_rot_vec(R), field(rows(), "rotvec"), kTol64, half));
  Array aa = mech::rot_mat_to_axis_angle(R);
  EXPECT_TRUE(close(aa.index({ivy::Ellipsis, 3}), field(rows(), "axis_angle").index({ivy::Ellipsis, 3}), kTol64));
  EXPECT_TRUE(close(mech::axis_angle_to_rot_mat(aa), R, kTol64));
}

TEST_P(Mech, EulerToRotMatAndQuaternion) {
  for (const auto& conv : kConventions) {
    SCOPED_TRACE(conv);
    const json& cases = doc().at("euler_cases").at(conv);
    for (auto dt : {ivy::float64, ivy::float32}) {
      const double tol = dt == ivy::float64 ? kTol64 : 1e-5;
      Array e = field(cases, "euler", dt);
      EXPECT_TRUE(close(mech::euler_to_rot_mat(e, conv), field(cases, "rotmat", dt), tol));
      EXPECT_TRUE(close_rows_up_to_sign(mech::euler_to_quaternion(e, conv), field(cases, "quat", dt), tol,
                                        all_rows(cases.size(), true)));
    }
    // Pose variant and axis-angle variant agree with the matrix.
    Array e = field(cases, "euler");
    EXPECT_TRUE(close(mech::axis_angle_to_rot_mat(mech::euler_to_axis_angle(e, conv)), field(cases, "rotmat"), kTol64));
  }
}

TEST_P(Mech, RotMatToEulerAgainstScipy) {
  Array R = field(rows(), "rotmat");
  for (const auto& conv : kConventions) {
    SCOPED_TRACE(conv);
    for (auto dt : {ivy::float64, ivy::float32}) {
      const double tol = dt == ivy::float64 ? kTol64 : 1e-5;
      Array Rd = ivy::astype(R, dt);
      Array e = mech::rot_mat_to_euler(Rd, conv);
      ASSERT_EQ(e.dtype(), dt);
      auto got = vals(e);
      std::vector<double> want;
      for (const auto& r : rows())
        for (double a : r.at("euler").at(conv)) want.push_back(a);
      for (std::size_t r = 0; r < n(); ++r) {
        // Unique angles away from the lock: compare them (mod 2 pi); at the lock SciPy and ivy
        // choose differently, and the matrices are compared below.
        if (rows()[r].at("euler_locked").at(conv).get<bool>()) continue;
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(wrap(got[3 * r + k] - want[3 * r + k]), 0.0, tol) << "row " << r << " angle " << k;
      }
      const double round_trip = dt == ivy::float64 ? kTolEuler64 : tol;
      EXPECT_TRUE(close(mech::euler_to_rot_mat(e, conv), Rd, round_trip));
      // The same through quaternions and axis-angle.
      EXPECT_TRUE(close(mech::euler_to_rot_mat(mech::quaternion_to_euler(field(rows(), "quat", dt), conv), conv), Rd,
                        round_trip));
      EXPECT_TRUE(close(mech::euler_to_rot_mat(mech::axis_angle_to_euler(field(rows(), "axis_angle", dt), conv), conv),
                        Rd, round_trip));
    }
  }
}

TEST_P(Mech, RotMatToEulerAtGimbalLock) {
  for (const auto& conv : kConventions) {
    SCOPED_TRACE(conv);
    const json& cases = doc().at("euler_cases").at(conv);
    Array R = field(cases, "rotmat");
    Array e = mech::rot_mat_to_euler(R, conv);
    EXPECT_TRUE(close(mech::euler_to_rot_mat(e, conv), R, kTol64));
    auto got = vals(e);
    auto want = vals(field(cases, "euler"));
    for (std::size_t r = 0; r < cases.size(); ++r) {
      if (cases[r].at("locked").get<bool>()) {
        EXPECT_EQ(got[3 * r + 2], 0.0) << "row " << r << ": e2 = 0 at the lock";
        EXPECT_NEAR(wrap(got[3 * r + 1] - want[3 * r + 1]), 0.0, kTol64);
      } else {
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(wrap(got[3 * r + k] - want[3 * r + k]), 0.0, kTol64) << r << " " << k;
      }
    }
  }
}

// Inside the lock band (cos e1 or sin e1 below GIMBAL_TOLERANCE but not 0) e2 is still set to 0,
// and the angles reproduce the matrix to about the band's width.
TEST_P(Mech, RotMatToEulerInsideLockBand) {
  for (const auto& conv : kConventions) {
    SCOPED_TRACE(conv);
    const bool proper = conv[0] == conv[2];
    const double e1 = proper ? 3e-5 : M_PI / 2 - 3e-5;
    Array R = mech::euler_to_rot_mat(ivy::asarray({0.4, e1, 0.7}), conv);
    Array e = mech::rot_mat_to_euler(R, conv);
    EXPECT_EQ(vals(e)[2], 0.0);
    EXPECT_TRUE(close(mech::euler_to_rot_mat(e, conv), R, mech::GIMBAL_TOLERANCE));
    // Just outside the band the angles are the exact ones.
    const double e1_out = proper ? 3e-4 : M_PI / 2 - 3e-4;
    Array e_out = ivy::asarray({0.4, e1_out, 0.7});
    EXPECT_TRUE(close(mech::rot_mat_to_euler(mech::euler_to_rot_mat(e_out, conv), conv), e_out, 1e-9));
  }
}

TEST_P(Mech, UnknownConventionAndWrongShapes) {
  Array e = ivy::zeros({2, 3}), R = ivy::zeros({2, 3, 3}), q = ivy::zeros({2, 4});
  for (std::string bad : {"xxy", "abc", "zyxz", "", "XYZ", "xyy"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(mech::euler_to_rot_mat(e, bad), ivy::ValueError);
    EXPECT_THROW(mech::rot_mat_to_euler(R, bad), ivy::ValueError);
    EXPECT_THROW(mech::euler_to_quaternion(e, bad), ivy::ValueError);
    EXPECT_THROW(mech::quaternion_to_euler(q, bad), ivy::ValueError);
  }
  auto expect_msg = [](const std::function<void()>& f, const std::string& prefix, const std::string& shape) {
    try {
      f();
      ADD_FAILURE() << prefix << " did not throw";
    } catch (const ivy::ValueError& err) {
      std::string what = err.what();
      EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
      EXPECT_NE(what.find(shape), std::string::npos) << what;
    }
  };
  expect_msg([&] { mech::quaternion_to_rot_mat(ivy::zeros({2, 3})); }, "[mech.quaternion_to_rot_mat]", "(2, 3)");
  expect_msg([&] { mech::rot_mat_to_quaternion(ivy::zeros({3, 4})); }, "[mech.rot_mat_to_quaternion]", "(3, 4)");
  expect_msg([&] { mech::hamilton_product(q, ivy::zeros({2, 3})); }, "[mech.hamilton_product]", "(2, 3)");
  expect_msg([&] { mech::rot_vec_to_rot_mat(ivy::zeros({4})); }, "[mech.rot_vec_to_rot_mat]", "(4,)");
  expect_msg([&] { mech::euler_to_rot_mat(ivy::zeros({2, 4})); }, "[mech.euler_to_rot_mat]", "(2, 4)");
  expect_msg([&] { mech::rot_mat_to_euler(ivy::zeros({3})); }, "[mech.rot_mat_to_euler]", "(3,)");
  expect_msg([&] { mech::quaternion_pose_to_mat_pose(ivy::zeros({5, 6})); }, "[mech.quaternion_pose_to_mat_pose]",
             "(5, 6)");
  expect_msg([&] { mech::mat_pose_to_quaternion_pose(ivy::zeros({3, 3})); }, "[mech.mat_pose_to_quaternion_pose]",
             "(3, 3)");
  expect_msg([&] { mech::cartesian_to_polar_coords(ivy::zeros({2})); }, "[mech.cartesian_to_polar_coords]", "(2,)");
  expect_msg([&] { mech::make_transformation_homogeneous(ivy::zeros({4, 4})); },
             "[mech.make_transformation_homogeneous]", "(4, 4)");
  EXPECT_THROW(mech::quaternion_to_rot_mat(ivy::zeros({4}, ivy::int32)), ivy::TypeError);
}

// ---------------------------------------------------------------- round trips and batches
TEST_P(Mech, RoundTrips) {
  ivy::seed(7);
  Array R = mech::get_random_rot_mat({64});
  EXPECT_TRUE(close(mech::quaternion_to_rot_mat(mech::rot_mat_to_quaternion(R)), R, 1e-9));
  EXPECT_TRUE(close(mech::rot_vec_to_rot_mat(mech::rot_mat_to_rot_vec(R)), R, 1e-9));
  EXPECT_TRUE(close(mech::axis_angle_to_rot_mat(mech::rot_mat_to_axis_angle(R)), R, 1e-9));
  for (const auto& conv : kConventions) {
    SCOPED_TRACE(conv);
    Array e = mech::get_random_euler({64}, conv);
    Array e2 = mech::rot_mat_to_euler(mech::euler_to_rot_mat(e, conv), conv);
    EXPECT_TRUE(close(e2, e, 1e-9));  // e lies in the canonical ranges, so it comes back
    EXPECT_TRUE(close(mech::euler_to_rot_mat(e2, conv), mech::euler_to_rot_mat(e, conv), 1e-9));
    EXPECT_TRUE(close(mech::quaternion_to_euler(mech::euler_to_quaternion(e, conv), conv), e, 1e-9));
    EXPECT_TRUE(close(mech::axis_angle_to_euler(mech::euler_to_axis_angle(e, conv), conv), e, 1e-9));
  }
  Array q = mech::get_random_quaternion({64});
  EXPECT_TRUE(close(mech::rotation_vector_to_quaternion(mech::quaternion_to_rotation_vector(q)), q, 1e-9));
  EXPECT_TRUE(close(mech::polar_axis_angle_to_quaternion(mech::quaternion_to_polar_axis_angle(q)), q, 1e-9));
}

TEST_P(Mech, LeadingBatchDims) {
  // 28 fixture rotations as [2, 14] and [2, 2, 7]: same values as the flat batch.
  ASSERT_EQ(n(), 28u);
  Array q = field(rows(), "quat"), R = field(rows(), "rotmat");
  for (Shape lead : {Shape{2, 14}, Shape{2, 2, 7}}) {
    Shape sq = lead, sr = lead;
    sq.push_back(4);
    sr.push_back(3);
    sr.push_back(3);
    Array qb = ivy::reshape(q, sq), Rb = ivy::reshape(R, sr);
    Array Rq = mech::quaternion_to_rot_mat(qb);
    EXPECT_EQ(Rq.shape(), sr);
    EXPECT_TRUE(close(ivy::reshape(Rq, R.shape()), R, 1e-9));
    Array qR = mech::rot_mat_to_quaternion(Rb);
    EXPECT_EQ(qR.shape(), sq);
    EXPECT_TRUE(close(ivy::reshape(qR, q.shape()), mech::rot_mat_to_quaternion(R), 0));
    Array e = mech::rot_mat_to_euler(Rb, "xyz");
    Shape se = lead;
    se.push_back(3);
    EXPECT_EQ(e.shape(), se);
    EXPECT_TRUE(close(mech::euler_to_rot_mat(e, "xyz"), Rb, 1e-9));
    EXPECT_EQ(mech::rot_vec_to_rot_mat(mech::rot_mat_to_rot_vec(Rb)).shape(), sr);
    EXPECT_EQ(mech::hamilton_product(qb, qb).shape(), sq);
    Shape sp = lead;
    sp.push_back(7);
    Array pose = ivy::concat({ivy::zeros(se), qb}, -1);
    EXPECT_EQ(pose.shape(), sp);
    Shape sm = lead;
    sm.push_back(3);
    sm.push_back(4);
    EXPECT_EQ(mech::quaternion_pose_to_mat_pose(pose).shape(), sm);
  }
  // Broadcasting a single quaternion against a batch.
  Array one = q.index({0});
  EXPECT_EQ(mech::hamilton_product(one, q).shape(), q.shape());
}

// ---------------------------------------------------------------- gradients
// On the z axis, polar forms have finite gradients (the inclination is an atan2, not an acos
// at 1) and the documented values: phi = 0, theta = 0 / pi, and pi/2 at the origin.
TEST_P(Mech, PolarFormsOnTheZAxis) {
  auto finite = [](const Array& x) { return ivy::all(ivy::isfinite(x)).item<bool>(); };
  for (auto dt : {ivy::float64, ivy::float32}) {
    Array q = mech::axis_angle_to_quaternion(ivy::astype(ivy::asarray({0.0, 0.0, 1.0, 0.7}), dt));
    EXPECT_TRUE(close(mech::quaternion_to_polar_axis_angle(q), ivy::astype(ivy::asarray({0.0, 0.0, 0.7}), dt), 1e-6));
    EXPECT_TRUE(finite(ivy::grad([](const Array& x) { return ivy::sum(mech::quaternion_to_polar_axis_angle(x)); })(q)));
    Array pts = ivy::astype(ivy::asarray({{0.0, 0.0, 2.0}, {0.0, 0.0, -3.0}, {0.0, 0.0, 0.0}, {1.0, 1.0, 0.0}}), dt);
    EXPECT_TRUE(close(mech::cartesian_to_polar_coords(pts),
                      ivy::astype(ivy::asarray({{0.0, 0.0, 2.0}, {0.0, M_PI, 3.0}, {0.0, M_PI / 2, 0.0},
                                                {M_PI / 4, M_PI / 2, std::sqrt(2.0)}}),
                                  dt),
                      1e-6));
    Array on_axis = pts.index({ivy::Slice(0, 2)});
    EXPECT_TRUE(finite(ivy::grad([](const Array& x) { return ivy::sum(mech::cartesian_to_polar_coords(x)); })(on_axis)));
  }
}

TEST_P(Mech, ZeroRotationFiniteWithFiniteGradient) {
  Array zero = ivy::zeros({3}, ivy::float64);
  auto R0 = vals(mech::rot_vec_to_rot_mat(zero));
  for (int k = 0; k < 9; ++k) EXPECT_EQ(R0[k], k % 4 == 0 ? 1.0 : 0.0);
  // f(rv) = sum(R(rv) * C): ivy::grad at 0 against a central difference.
  Array C = ivy::asarray({{0.3, -1.2, 0.7}, {2.0, 0.1, -0.4}, {-0.9, 1.5, 0.6}});
  auto f = [C](const Array& rv) { return ivy::sum(mech::rot_vec_to_rot_mat(rv) * C); };
  auto g = vals(ivy::grad(f)(zero));
  const double h = 1e-6;
  for (int k = 0; k < 3; ++k) {
    std::vector<double> p(3, 0.0), m(3, 0.0);
    p[k] = h;
    m[k] = -h;
    double fd = (f(ivy::asarray(p)).item<double>() - f(ivy::asarray(m)).item<double>()) / (2 * h);
    ASSERT_TRUE(std::isfinite(g[k]));
    EXPECT_NEAR(g[k], fd, 1e-7) << k;
  }
  // The generator's component: d R / d rv_x at 0 is K(e_x), so the gradient is C21 - C12.
  EXPECT_NEAR(g[0], 1.5 - (-0.4), 1e-12);
  // Other functions stay finite at the identity and at an Euler gimbal lock.
  auto finite = [](const Array& x) { return ivy::all(ivy::isfinite(x)).item<bool>(); };
  EXPECT_TRUE(finite(ivy::grad([](const Array& rv) {
    return ivy::sum(mech::rotation_vector_to_quaternion(rv) * ivy::asarray({1.0, 2.0, 3.0, 4.0}));
  })(zero)));
  Array qid = ivy::asarray({0.0, 0.0, 0.0, 1.0});
  EXPECT_TRUE(finite(ivy::grad([](const Array& q) { return ivy::sum(mech::quaternion_to_rotation_vector(q)); })(qid)));
  EXPECT_TRUE(finite(ivy::grad([](const Array& q) { return ivy::sum(mech::quaternion_to_axis_angle(q)); })(qid)));
  Array I = ivy::eye(3, std::nullopt, 0, ivy::float64);
  EXPECT_TRUE(finite(ivy::grad([](const Array& R) { return ivy::sum(mech::rot_mat_to_quaternion(R)); })(I)));
  EXPECT_TRUE(finite(ivy::grad([](const Array& R) { return ivy::sum(mech::rot_mat_to_euler(R, "zyz")); })(I)));
  Array lock = mech::euler_to_rot_mat(ivy::asarray({0.3, M_PI / 2, -0.2}), "zyx");
  EXPECT_TRUE(finite(ivy::grad([](const Array& R) { return ivy::sum(mech::rot_mat_to_euler(R, "zyx")); })(lock)));
}

TEST_P(Mech, TargetFacingRotationMatrix) {
  // The spec's case: body at the origin, target (0, 1, 0).
  Array R = mech::target_facing_rotation_matrix(ivy::asarray({0.0, 0.0, 0.0}), ivy::asarray({0.0, 1.0, 0.0}));
  EXPECT_TRUE(close(R, ivy::asarray({{-1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, {0.0, 1.0, 0.0}}), 1e-12));
  // Batched: a rotation whose third column points at the target.
  ivy::seed(5);
  Array b = ivy::random_normal(0.0, 1.0, {2, 3, 3}, ivy::float64), t = ivy::random_normal(0.0, 1.0, {2, 3, 3}, ivy::float64);
  Array Rb = mech::target_facing_rotation_matrix(b, t);
  EXPECT_EQ(Rb.shape(), (Shape{2, 3, 3, 3}));
  EXPECT_TRUE(close(ivy::linalg::det(Rb), ivy::ones({2, 3}), 1e-9));
  Array d = t - b;
  d = d / ivy::sqrt(ivy::sum(d * d, -1, std::nullopt, true));
  EXPECT_TRUE(close(Rb.index({ivy::Ellipsis, 2}), d, 1e-9));
  EXPECT_TRUE(close(Rb.index({ivy::Ellipsis, 2, 0}), ivy::zeros({2, 3}), 1e-12));  // x stays horizontal
}

// ---------------------------------------------------------------- poses and coordinates
TEST_P(Mech, Poses) {
  auto half = flags(rows(), "half_turn");
  ivy::seed(3);
  Array t = ivy::random_uniform(-2.0, 2.0, {static_cast<std::int64_t>(n()), 3}, ivy::float64);
  Array q = field(rows(), "quat"), R = field(rows(), "rotmat");
  Array mat = ivy::concat({R, ivy::expand_dims(t, -1)}, -1);
  Array qpose = ivy::concat({t, q}, -1);
  Array rvpose = ivy::concat({t, field(rows(), "rotvec")}, -1);
  Array aapose = ivy::concat({t, field(rows(), "axis_angle")}, -1);
  EXPECT_TRUE(close(mech::quaternion_pose_to_mat_pose(qpose), mat, kTol64));
  EXPECT_TRUE(close(mech::rot_vec_pose_to_mat_pose(rvpose), mat, kTol64));
  EXPECT_TRUE(close(mech::axis_angle_pose_to_mat_pose(aapose), mat, kTol64));
  EXPECT_TRUE(close_rows_up_to_sign(mech::mat_pose_to_quaternion_pose(mat).index({ivy::Ellipsis, ivy::Slice(3, 7)}), q,
                                    kTol64, half));
  EXPECT_TRUE(close(mech::mat_pose_to_quaternion_pose(mat).index({ivy::Ellipsis, ivy::Slice(0, 3)}), t, 0));
  EXPECT_TRUE(close(mech::rot_vec_pose_to_mat_pose(mech::mat_pose_to_rot_vec_pose(mat)), mat, kTol64));
  EXPECT_TRUE(close(mech::axis_angle_pose_to_mat_pose(mech::mat_pose_to_axis_angle_pose(mat)), mat, kTol64));
  EXPECT_TRUE(close(mech::rot_vec_pose_to_mat_pose(mech::quaternion_pose_to_rot_vec_pose(qpose)), mat, kTol64));
  EXPECT_TRUE(close(mech::quaternion_pose_to_mat_pose(mech::axis_angle_pose_to_quaternion_pose(aapose)), mat, kTol64));
  for (const std::string conv : {"zyx", "xyz", "zxz", "yzy"}) {
    SCOPED_TRACE(conv);
    Array epose = mech::mat_pose_to_euler_pose(mat, conv);
    EXPECT_TRUE(close(mech::euler_pose_to_mat_pose(epose, conv), mat, kTolEuler64));
    EXPECT_TRUE(close(mech::euler_pose_to_mat_pose(mech::quaternion_pose_to_euler_pose(qpose, conv), conv), mat, kTolEuler64));
    EXPECT_TRUE(close(mech::euler_pose_to_mat_pose(mech::axis_angle_pose_to_euler_pose(aapose, conv), conv), mat, kTolEuler64));
    EXPECT_TRUE(close(mech::quaternion_pose_to_mat_pose(mech::euler_pose_to_quaternion_pose(epose, conv)), mat, kTolEuler64));
    EXPECT_TRUE(close(mech::axis_angle_pose_to_mat_pose(mech::euler_pose_to_axis_angle_pose(epose, conv)), mat, kTolEuler64));
  }
  // Homogeneous transformation: bottom row [0, 0, 0, 1], shape [..., 4, 4].
  Array H = mech::make_transformation_homogeneous(ivy::reshape(mat, {4, 7, 3, 4}));
  EXPECT_EQ(H.shape(), (Shape{4, 7, 4, 4}));
  EXPECT_TRUE(close(H.index({ivy::Ellipsis, ivy::Slice(0, 3), ivy::Slice()}), ivy::reshape(mat, {4, 7, 3, 4}), 0));
  Array bottom = H.index({ivy::Ellipsis, 3, ivy::Slice()});
  EXPECT_TRUE(close(bottom, ivy::broadcast_to(ivy::asarray({0.0, 0.0, 0.0, 1.0}), bottom.shape()), 0));
}

TEST_P(Mech, Coordinates) {
  const json& p = doc().at("polar");
  for (auto dt : {ivy::float64, ivy::float32}) {
    const double tol = dt == ivy::float64 ? kTol64 : 1e-5;
    Array xyz = arr(p.at("xyz"), dt), polar = arr(p.at("polar"), dt);
    EXPECT_TRUE(close(mech::cartesian_to_polar_coords(xyz), polar, tol));
    EXPECT_TRUE(close(mech::polar_to_cartesian_coords(polar), xyz, tol * 4));
  }
  Array xyz = ivy::reshape(arr(p.at("xyz")), {2, 4, 3});
  Array h = mech::make_coordinates_homogeneous(xyz);
  EXPECT_EQ(h.shape(), (Shape{2, 4, 4}));
  EXPECT_TRUE(close(h.index({ivy::Ellipsis, ivy::Slice(0, 3)}), xyz, 0));
  EXPECT_TRUE(close(h.index({ivy::Ellipsis, 3}), ivy::ones({2, 4}), 0));
}

// ---------------------------------------------------------------- the spec's fixture line
TEST_P(Mech, SpecFixtureLineHandChecked) {
  const json& L = doc().at("fixture_line");
  const double s14 = std::sqrt(14.0), ang = M_PI / 3;
  // By hand: q = [sin(pi/6) e, cos(pi/6)] = [e / 2, sqrt(3) / 2].
  std::vector<double> qh{0.5 / s14, 1.0 / s14, 1.5 / s14, std::sqrt(3.0) / 2};
  Array aa = ivy::asarray({1.0 / s14, 2.0 / s14, 3.0 / s14, ang});
  EXPECT_TRUE(close(mech::axis_angle_to_quaternion(aa), ivy::asarray(qh), 1e-12));
  EXPECT_TRUE(close(ivy::asarray(qh), arr(L.at("quat")), 1e-12));
  // R fixes its axis and has trace 1 + 2 cos(pi/3) = 2.
  Array R = mech::axis_angle_to_rot_mat(aa);
  EXPECT_TRUE(close(ivy::matmul(R, aa.index({ivy::Slice(0, 3)})), aa.index({ivy::Slice(0, 3)}), 1e-12));
  EXPECT_NEAR(ivy::linalg::trace(R).item<double>(), 2.0, 1e-12);
  EXPECT_TRUE(close(R, arr(L.at("rotmat")), kTol64));
  EXPECT_TRUE(close(mech::rot_vec_to_rot_mat(arr(L.at("rotvec"))), R, 1e-12));
  EXPECT_TRUE(close(mech::rot_mat_to_euler(R), arr(L.at("euler_zyx")), kTol64));  // default convention zyx
  // Pose [1, 2, 3 | q]: translation column [1, 2, 3].
  Array pose = ivy::concat({ivy::asarray({1.0, 2.0, 3.0}), ivy::asarray(qh)}, 0);
  Array M = mech::quaternion_pose_to_mat_pose(pose);
  EXPECT_TRUE(close(M.index({ivy::Slice(), 3}), ivy::asarray({1.0, 2.0, 3.0}), 0));
  EXPECT_TRUE(close(M.index({ivy::Slice(), ivy::Slice(0, 3)}), R, 1e-12));
  // Scale 2: rotation by 2 pi / 3 about the same axis.
  EXPECT_TRUE(close(mech::scale_quaternion_rotation_angle(ivy::asarray(qh), 2.0), arr(L.at("quat_scaled")), kTol64));
  EXPECT_NEAR(mech::quaternion_to_axis_angle(mech::scale_quaternion_rotation_angle(ivy::asarray(qh), 2.0))
                  .index({3}).item<double>(),
              2 * ang, 1e-12);
  // dt 0.05 with velocity [1, 2, 3 | q]: position [1.05, 2.1, 3.15], angle pi/3 * 1.05.
  Array inc = mech::increment_quaternion_pose_with_velocity(pose, pose, 0.05);
  EXPECT_TRUE(close(inc.index({ivy::Slice(0, 3)}), ivy::asarray({1.05, 2.1, 3.15}), 1e-12));
  EXPECT_TRUE(close(inc, arr(L.at("incremented_pose")), kTol64));
}

// ---------------------------------------------------------------- random rotations
TEST_P(Mech, RandomRotations) {
  ivy::seed(11);
  Array q = mech::get_random_quaternion({4000});
  ivy::seed(11);
  EXPECT_TRUE(close(mech::get_random_quaternion({4000}), q, 0));  // seeded
  EXPECT_EQ(q.shape(), (Shape{4000, 4}));
  EXPECT_TRUE(close(ivy::sum(q * q, -1), ivy::ones({4000}), 1e-12));
  EXPECT_TRUE(ivy::all(q.index({ivy::Ellipsis, 3}) >= 0.0).item<bool>());
  // Haar measure: E[R] = 0 and the angle's mean is pi/2 + 2/pi.
  Array R = mech::quaternion_to_rot_mat(q);
  EXPECT_LT(ivy::max(ivy::abs(ivy::mean(R, 0))).item<double>(), 0.05);
  EXPECT_NEAR(ivy::mean(mech::quaternion_to_axis_angle(q).index({ivy::Ellipsis, 3})).item<double>(),
              M_PI / 2 + 2 / M_PI, 0.05);
  Array Rr = mech::get_random_rot_mat({2, 5}, ivy::float32);
  EXPECT_EQ(Rr.shape(), (Shape{2, 5, 3, 3}));
  EXPECT_EQ(Rr.dtype(), ivy::float32);
  EXPECT_TRUE(close(ivy::matmul(Rr, ivy::matrix_transpose(Rr)),
                    ivy::broadcast_to(ivy::eye(3, std::nullopt, 0, ivy::float32), Rr.shape()), 1e-5));
  EXPECT_TRUE(close(ivy::linalg::det(Rr), ivy::ones({2, 5}, ivy::float32), 1e-5));
  EXPECT_EQ(mech::get_random_axis_angle({3}).shape(), (Shape{3, 4}));
  Array e = mech::get_random_euler({100}, "zxz");
  EXPECT_EQ(e.shape(), (Shape{100, 3}));
  EXPECT_TRUE(ivy::all(e.index({ivy::Ellipsis, 1}) >= 0.0).item<bool>());
  EXPECT_THROW(mech::get_random_euler({1}, "zzz"), ivy::ValueError);
}

INSTANTIATE_TEST_SUITE_P(Backends, Mech, ::testing::ValuesIn(backend_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
