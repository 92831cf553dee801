// ivy::mech from another project: a quarter turn about z as a rotation matrix.
#include <cmath>
#include <cstdio>
#include <vector>

#include "ivy/mech.hpp"

bool check_mech() {
  ivy::Array rv = ivy::asarray({0.0, 0.0, M_PI / 2});
  std::vector<double> R = ivy::mech::rot_vec_to_rot_mat(rv).to_vector<double>();
  const std::vector<double> want = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  bool ok = R.size() == want.size();
  for (std::size_t i = 0; ok && i < R.size(); ++i) ok = std::abs(R[i] - want[i]) < 1e-12;
  std::printf("ivy_consumer: mech rot_vec_to_rot_mat(0, 0, pi/2) %s\n", ok ? "ok" : "WRONG");
  return ok;
}
