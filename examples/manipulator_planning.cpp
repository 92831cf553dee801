// The 2021 Ivy paper's manipulator demo: a Kinova Mico arm on the table of the planning scene
// learns a collision-free joint-space path from a start to a target configuration by
// gradient descent through polyharmonic spline sampling and forward kinematics (ivy::robot)
// and the scene's signed distance (ivy::vision), on the backend named by --backend.
// Cost = joint-space path length + 100 * mean(max(0.1 - SDF, 0)) over points sampled along the
// links (--cost mean-sdf: the drone's 10 * -mean SDF instead; docs/applied-demos.md compares
// them); SGD on the 3 middle spline anchors until every moving link point clears --clearance. (The first
// link stands on the base and no joint moves its points: they are left out of the cost and
// of the clearance.) Writes a top-down and a side view of the arm along the initial and the
// final paths.
// Last line: manipulator: collision-free=yes|no iterations=N length=L min_sdf=D
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "ivy/ivy.hpp"
#include "ivy/robot.hpp"
#include "ivy/vision/sdf.hpp"
#include "planning_scene.hpp"
#include "svg_plot.hpp"

namespace {

using ivy::Array;

struct Planner {
  ivy::vision::PrimitiveScene scene;
  ivy::robot::Manipulator arm;
  Array start, target;         // joint angles [1, 6], radians
  Array anchor_points, query;  // [5, 1], [NQ, 1]
  std::int64_t first_moving;   // link samples before this index do not move with the joints
  double samples_per_metre;
  bool hinge = true;  // the penetration cost; false: the drone demo's -mean SDF
  static constexpr double kHingeWeight = 100, kHingeMargin = 0.1;

  Array anchors(const Array& middle) const { return ivy::concat(std::vector<Array>{start, middle, target}, 0); }
  Array path(const Array& middle) const {  // [NQ, 6] joint angles along the spline
    return ivy::robot::sample_spline_path(anchor_points, anchors(middle), query);
  }
  static Array length(const Array& path) {  // joint-space length along the path
    Array seg = path.index({ivy::Slice(1, ivy::None)}) - path.index({ivy::Slice(0, -1)});
    Array sq = ivy::sum(seg * seg, -1);  // sqrt with gradient 0, not NaN, where samples coincide
    Array moved = sq > 0.0;
    return ivy::sum(ivy::where(moved, ivy::sqrt(ivy::where(moved, sq, 1.0)), 0.0));
  }
  Array link_sdf(const Array& path) const {  // [NQ * S', 1] for the moving link samples
    Array pts = arm.sample_links(path, samples_per_metre).index({ivy::Slice(), ivy::Slice(first_moving, ivy::None)});
    return scene.sdf(ivy::reshape(pts, {-1, 3}));
  }
  Array cost(const Array& middle) const {
    Array p = path(middle);
    Array sdf = link_sdf(p);
    if (hinge)
      return length(p) + kHingeWeight * ivy::mean(ivy::maximum(kHingeMargin - sdf, 0.0));
    return length(p) + 10.0 * -ivy::mean(sdf);
  }
};

double scalar(const Array& x) { return ivy::astype(x, ivy::float64).item<double>(); }
std::vector<double> values(const Array& x) { return ivy::astype(x, ivy::float64).to_vector<double>(); }
Array degrees(const std::vector<double>& d, ivy::DType dt) {
  std::vector<double> r;
  for (double v : d) r.push_back(v * M_PI / 180);
  return ivy::asarray(r.data(), ivy::float64, {1, static_cast<std::int64_t>(r.size())}, dt);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Mico arm motion planning through the paper's scene by gradient descent (ivy::robot, vision)"};
  std::string backend_name = "xtensor", dtype_name = "float32", svg = "manipulator_planning.svg";
  double lr = 0.1, clearance = 0.05, samples_per_metre = 25;
  int max_iterations = 500, num_queries = 100;
  app.add_option("--backend", backend_name, "the backend to plan on")->check(CLI::IsMember({"xtensor", "torch"}));
  app.add_option("--dtype", dtype_name, "float32 or float64")->check(CLI::IsMember({"float32", "float64"}));
  app.add_option("--lr", lr, "SGD's learning rate")->check(CLI::PositiveNumber);
  app.add_option("--clearance", clearance, "stop once every moving link point is this far from the scene");
  app.add_option("--max-iterations", max_iterations, "give up after this many steps")->check(CLI::PositiveNumber);
  app.add_option("--queries", num_queries, "configurations sampled along the path")->check(CLI::Range(2, 100000));
  app.add_option("--samples-per-metre", samples_per_metre, "points per metre along the links")
      ->check(CLI::PositiveNumber);
  app.add_option("--svg", svg, "where to write the plot (empty: none)");
  std::string cost_name = "hinge";
  app.add_option("--cost", cost_name,
                 "collision term: hinge = 100 * mean(max(0.1 - sdf, 0)), mean-sdf = 10 * -mean(sdf) (the drone's)")
      ->check(CLI::IsMember({"hinge", "mean-sdf"}));
  CLI11_PARSE(app, argc, argv);
  try {
    ivy::BackendScope scope(ivy::Backend(backend_name.c_str()));
    const ivy::DType dt = dtype_name == "float64" ? ivy::float64 : ivy::float32;
    const std::vector<double> base = {1, 0, 0, 0.85, 0, 1, 0, -0.025, 0, 0, 1, 0.70};
    ivy::robot::Manipulator arm = ivy::robot::mico_manipulator(ivy::asarray(base.data(), ivy::float64, {3, 4}, dt), dt);
    const auto cuboids = demo::scene_cuboids(/*manipulator_demo=*/true);
    Planner planner{demo::make_scene(cuboids, dt),
                    arm,
                    degrees({100, 100, 240, 180, 180, 120}, dt),
                    degrees({260, 100, 220, 0, 180, 45}, dt),
                    ivy::reshape(ivy::linspace(0.0, 1.0, 5, dt), {5, 1}),
                    ivy::reshape(ivy::linspace(0.0, 1.0, num_queries, dt), {num_queries, 1}),
                    arm.frame_origin_sample_indices(samples_per_metre)[1] + 1,
                    samples_per_metre};
    planner.hinge = cost_name == "hinge";
    Array t = ivy::reshape(ivy::linspace(0.0, 1.0, 5, dt).index({ivy::Slice(1, 4)}), {3, 1});
    Array middle = planner.start + t * (planner.target - planner.start);
    const Array initial_path = planner.path(middle);

    auto value_and_grad = ivy::value_and_grad([&](const Array& m) { return planner.cost(m); });
    int iterations = 0;
    double min_sdf = scalar(ivy::min(planner.link_sdf(initial_path)));
    std::printf("manipulator: backend %s, %s, initial joint-space length %.3f, min sdf %.3f\n", backend_name.c_str(),
                dtype_name.c_str(), scalar(Planner::length(initial_path)), min_sdf);
    while (min_sdf < clearance && iterations < max_iterations) {
      auto [cost, g] = value_and_grad(middle);
      middle = middle - lr * g;
      ++iterations;
      min_sdf = scalar(ivy::min(planner.link_sdf(planner.path(middle))));
      if (iterations % 10 == 0 || min_sdf >= clearance)
        std::printf("  iteration %3d: cost %.4f, min sdf %.4f\n", iterations, scalar(cost), min_sdf);
    }
    const Array final_path = planner.path(middle);
    const double length = scalar(Planner::length(final_path));

    if (!svg.empty()) {
      demo::Figure fig(1060, 560);
      // the arm (frame origins) at every 11th configuration, and the end effector's path
      auto origins = [&](const Array& path) {
        return values(planner.arm.compute_link_poses(path).index({ivy::Ellipsis, ivy::Slice(), 3}));  // [NQ, 7, 3]
      };
      auto before = origins(initial_path), after = origins(final_path);
      const std::size_t per = 3 * static_cast<std::size_t>(arm.num_joints() + 1);
      for (int v = 0; v < 2; ++v) {
        int ax = 0, ay = v == 0 ? 1 : 2;
        auto& panel = fig.add_panel(demo::Panel(v == 0 ? "top-down (x, y)" : "side (x, z)", -0.6, 1.6,
                                                v == 0 ? -1.1 : 0.0, v == 0 ? 1.1 : 2.0, 50 + 510.0 * v, 30, 460,
                                                v == 0 ? 460 : 418));
        demo::draw_cuboids(panel, cuboids, ax, ay);
        for (const auto* run : {&before, &after}) {
          const bool initial = run == &before;
          std::vector<demo::Point2> tip;
          for (std::size_t q = 0; q < static_cast<std::size_t>(num_queries); ++q) {
            std::vector<double> arm_q(run->begin() + q * per, run->begin() + (q + 1) * per);
            auto pts = demo::project(arm_q, 3, ax, ay);
            tip.push_back(pts.back());
            if (q % 11 == 0 || q + 1 == static_cast<std::size_t>(num_queries))
              panel.polyline(pts, initial ? "#f29b9b" : "#7fb8e0", 1.5);
          }
          panel.polyline(tip, initial ? "#d64545" : "#2680c2", 2.5, initial);
        }
      }
      fig.legend_at(560, 470);
      fig.legend("#d64545", "end effector, initial path (joint-space straight line)");
      fig.legend("#2680c2", "end effector, learned path, iteration " + std::to_string(iterations));
      fig.legend("#7fb8e0", "the arm along the paths (every 11th configuration)");
      fig.legend("#9aa5b1", "scene cuboids");
      fig.save(svg);
      std::printf("manipulator: wrote %s\n", svg.c_str());
    }
    const bool ok = min_sdf >= clearance;
    std::printf("manipulator: collision-free=%s iterations=%d length=%.4f min_sdf=%.4f\n", ok ? "yes" : "no",
                iterations, length, min_sdf);
    return ok ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "manipulator_planning: %s\n", e.what());
    return 1;
  }
}
