// The 2021 Ivy paper's drone demo: a drone (5 body points) learns a collision-free path
// through the 11-cuboid scene by gradient descent through polyharmonic spline sampling
// (ivy::robot), pose conversion (ivy::mech) and signed distances (ivy::vision), on the
// backend named by --backend. Cost = path length (along the path) + 10 * (-mean SDF of the
// body points); SGD on the 3 middle spline anchors until the smallest SDF along the path
// clears --clearance. Writes a top-down and a side view with the initial and final paths.
// Last line: drone: collision-free=yes|no iterations=N length=L min_sdf=D
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <exception>
#include <string>
#include <vector>

#include "ivy/compile.hpp"
#include "ivy/ivy.hpp"
#include "ivy/mech.hpp"
#include "ivy/robot.hpp"
#include "ivy/vision/sdf.hpp"
#include "planning_scene.hpp"
#include "svg_plot.hpp"

namespace {

using ivy::Array;

struct Planner {
  ivy::vision::PrimitiveScene scene;
  ivy::robot::RigidMobile drone;
  Array start, goal;           // rot-vec poses [1, 6]
  Array anchor_points, query;  // [5, 1], [NQ, 1]

  Array anchors(const Array& middle) const { return ivy::concat(std::vector<Array>{start, middle, goal}, 0); }
  Array path(const Array& middle) const {  // [NQ, 6] poses along the spline
    return ivy::robot::sample_spline_path(anchor_points, anchors(middle), query);
  }
  static Array length(const Array& path) {  // along the path: sum of the segment lengths
    Array xyz = path.index({ivy::Slice(), ivy::Slice(0, 3)});
    Array seg = xyz.index({ivy::Slice(1, ivy::None)}) - xyz.index({ivy::Slice(0, -1)});
    Array sq = ivy::sum(seg * seg, -1);  // sqrt with gradient 0, not NaN, where samples coincide
    Array moved = sq > 0.0;
    return ivy::sum(ivy::where(moved, ivy::sqrt(ivy::where(moved, sq, 1.0)), 0.0));
  }
  Array body_sdf(const Array& path) const {  // [NQ * 5, 1]
    Array body = drone.sample_body(ivy::mech::rot_vec_pose_to_mat_pose(path));  // [NQ, 5, 3]
    return scene.sdf(ivy::reshape(body, {-1, 3}));
  }
  Array cost(const Array& middle) const {
    Array p = path(middle);
    return length(p) + 10.0 * -ivy::mean(body_sdf(p));
  }
};

double scalar(const Array& x) { return ivy::astype(x, ivy::float64).item<double>(); }
std::vector<double> values(const Array& x) { return ivy::astype(x, ivy::float64).to_vector<double>(); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Drone motion planning through the paper's scene by gradient descent (ivy::robot, vision, mech)"};
  std::string backend_name = "xtensor", dtype_name = "float32", svg = "drone_planning.svg";
  double lr = 0.05, clearance = 0.1;
  int max_iterations = 500, num_queries = 100;
  app.add_option("--backend", backend_name, "the backend to plan on")->check(CLI::IsMember({"xtensor", "torch"}));
  app.add_option("--dtype", dtype_name, "float32 or float64")->check(CLI::IsMember({"float32", "float64"}));
  app.add_option("--lr", lr, "SGD's learning rate")->check(CLI::PositiveNumber);
  app.add_option("--clearance", clearance, "stop once every body point is this far from the scene");
  app.add_option("--max-iterations", max_iterations, "give up after this many steps")->check(CLI::PositiveNumber);
  app.add_option("--queries", num_queries, "poses sampled along the path")->check(CLI::Range(2, 100000));
  app.add_option("--svg", svg, "where to write the plot (empty: none)");
  bool compiled = false;
  app.add_flag("--compile", compiled, "run each step as one graph compiled by ivy::compile");
  CLI11_PARSE(app, argc, argv);
  try {
    ivy::BackendScope scope(ivy::Backend(backend_name.c_str()));
    const ivy::DType dt = dtype_name == "float64" ? ivy::float64 : ivy::float32;
    const std::vector<double> start = {-1.15, -1.028, 0.6, 0.7937, 1.7021, 1.7021};
    const std::vector<double> goal = {1.025, 1.125, 0.6, 0.7937, 1.7021, 1.7021};
    const std::vector<double> body = {0, 0, 0, 0.15, 0, 0.15, 0.15, 0, -0.15, -0.15, 0, 0.15, -0.15, 0, -0.15};
    const auto cuboids = demo::scene_cuboids();
    Planner planner{demo::make_scene(cuboids, dt), ivy::robot::RigidMobile(ivy::asarray(body.data(), ivy::float64, {5, 3}, dt)),
                    ivy::asarray(start.data(), ivy::float64, {1, 6}, dt), ivy::asarray(goal.data(), ivy::float64, {1, 6}, dt),
                    ivy::reshape(ivy::linspace(0.0, 1.0, 5, dt), {5, 1}),
                    ivy::reshape(ivy::linspace(0.0, 1.0, num_queries, dt), {num_queries, 1})};
    // the 3 middle anchors start on the straight line from start to goal (through the scene)
    Array t = ivy::reshape(ivy::linspace(0.0, 1.0, 5, dt).index({ivy::Slice(1, 4)}), {3, 1});
    Array middle = planner.start + t * (planner.goal - planner.start);
    const Array initial_path = planner.path(middle);

    // one step's values: the cost, its gradient and the smallest SDF along the path (eager, or
    // traced and compiled once by ivy::compile with --compile)
    auto value_and_grad = ivy::value_and_grad([&](const Array& m) { return planner.cost(m); });
    auto step_eager = [&](const std::vector<Array>& in) -> std::vector<Array> {
      auto [cost, g] = value_and_grad(in[0]);
      return {cost, g, ivy::min(planner.body_sdf(planner.path(in[0] - lr * g)))};
    };
    std::function<std::vector<Array>(const std::vector<Array>&)> step = step_eager;
    if (compiled) step = ivy::compile(step_eager);
    int iterations = 0;
    double min_sdf = scalar(ivy::min(planner.body_sdf(initial_path)));
    const auto t0 = std::chrono::steady_clock::now();
    std::printf("drone: backend %s, %s, initial length %.3f, min sdf %.3f\n", backend_name.c_str(), dtype_name.c_str(),
                scalar(Planner::length(initial_path)), min_sdf);
    double first_ms = 0;
    while (min_sdf < clearance && iterations < max_iterations) {
      std::vector<Array> r = step({middle});  // cost, gradient, min SDF after the step
      middle = middle - lr * r[1];
      ++iterations;
      min_sdf = scalar(r[2]);
      if (iterations == 1)
        first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (iterations % 10 == 0 || min_sdf >= clearance)
        std::printf("  iteration %3d: cost %.4f, min sdf %.4f\n", iterations, scalar(r[0]), min_sdf);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("drone: %d iterations in %.1f ms (%s): the first %.2f ms, the others %.3f ms each\n", iterations, ms,
                compiled ? "compiled" : "eager", first_ms, iterations > 1 ? (ms - first_ms) / (iterations - 1) : 0.0);
    const Array final_path = planner.path(middle);
    const double length = scalar(Planner::length(final_path));

    if (!svg.empty()) {
      demo::Figure fig(1060, 540);
      auto before = values(initial_path), after = values(final_path);
      auto anchors = values(planner.anchors(middle));
      const char* views[2][3] = {{"top-down (x, y)", "0", "1"}, {"side (x, z)", "0", "2"}};
      for (int v = 0; v < 2; ++v) {
        int ax = 0, ay = v == 0 ? 1 : 2;
        auto& panel = fig.add_panel(demo::Panel(views[v][0], -2.6, 2.6, v == 0 ? -2.6 : -0.2, v == 0 ? 2.6 : 2.2,
                                                50 + 510.0 * v, 30, 460, v == 0 ? 460 : 212));
        demo::draw_cuboids(panel, cuboids, ax, ay);
        panel.polyline(demo::project(before, 6, ax, ay), "#d64545", 2, true);
        panel.polyline(demo::project(after, 6, ax, ay), "#2680c2", 2.5);
        for (auto p : demo::project(anchors, 6, ax, ay)) panel.marker(p, "#0b69a3", 4);
      }
      fig.legend_at(560, 290);
      fig.legend("#d64545", "initial path (straight line)");
      fig.legend("#2680c2", "learned path, iteration " + std::to_string(iterations));
      fig.legend("#0b69a3", "spline anchors (start, 3 learned, goal)");
      fig.legend("#9aa5b1", "scene cuboids");
      fig.save(svg);
      std::printf("drone: wrote %s\n", svg.c_str());
    }
    const bool ok = min_sdf >= clearance;
    std::printf("drone: collision-free=%s iterations=%d length=%.4f min_sdf=%.4f\n", ok ? "yes" : "no", iterations,
                length, min_sdf);
    return ok ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "drone_planning: %s\n", e.what());
    return 1;
  }
}
