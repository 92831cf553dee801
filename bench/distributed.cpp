// ivy::distributed against raw MPI, under mpirun (bench/distributed.sh runs it with 1 and 2
// ranks, one thread each, and summarizes; bench/README.md "Distributed").
//
//   BM_ContainerAllReduce/<set>: ivy::distributed::all_reduce of a Container (packing, the
//     rank-order reduction, unpacking into arrays) — the fashion-mnist CNN's parameters, or
//     200 small leaves
//   BM_RawAllreduce/<set>: one MPI_Allreduce (MPI_SUM, float32, in place) of the same bytes
//   BM_DataParallelStep/<backend>: one training step of the CNN (per-rank batch 32, Adam) through
//     DataParallel; counters: hidden (the share of all-reduce time behind the backward pass,
//     from the step's timeline) and buckets
//
// Every benchmark has a fixed iteration count, so that every rank makes the same collective
// calls; only rank 0 reports.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "ivy/distributed.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn.hpp"

namespace {

namespace dist = ivy::distributed;
namespace nn = ivy::nn;
using ivy::Array;
using ivy::Shape;

std::shared_ptr<nn::Sequential> cnn(ivy::Backend b) {
  nn::init::seed(0);
  const nn::init::Where w{ivy::float32, b, {}};
  nn::ConvOptions same{.padding = "SAME"};
  return std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
      std::make_shared<nn::Conv2D>(1, 16, ivy::Dims{3}, same, false, w), std::make_shared<nn::BatchNorm>(16, 1e-5, 0.1, true, true, 1, w),
      nn::ReLU(), std::make_shared<nn::MaxPool>(ivy::Dims{2}),
      std::make_shared<nn::Conv2D>(16, 32, ivy::Dims{3}, same, false, w), std::make_shared<nn::BatchNorm>(32, 1e-5, 0.1, true, true, 1, w),
      nn::ReLU(), std::make_shared<nn::MaxPool>(ivy::Dims{2}), std::make_shared<nn::Flatten>(),
      std::make_shared<nn::Linear>(32 * 7 * 7, 10, true, w)});
}

ivy::Container leaves_of(int set) {
  if (set == 0) return cnn("xtensor")->parameters();
  std::vector<std::pair<std::string, Array>> v;
  for (int k = 0; k < 200; ++k) v.emplace_back("l" + std::to_string(k), ivy::ones(Shape{16 + (k * 37) % 200}, ivy::float32));
  return ivy::Container::from_pairs(v);
}
const char* set_name(int set) { return set == 0 ? "cnn" : "200_small"; }

void BM_ContainerAllReduce(benchmark::State& state) {
  const int set = static_cast<int>(state.range(0));
  const ivy::Container c = leaves_of(set);
  std::int64_t bytes = 0;
  for (const auto& [p, a] : c.flatten()) bytes += a.size() * 4;
  dist::barrier();
  for (auto _ : state) benchmark::DoNotOptimize(dist::all_reduce(c, dist::ReduceOp::sum));
  state.SetLabel(set_name(set));
  state.counters["bytes"] = static_cast<double>(bytes);
}
void BM_RawAllreduce(benchmark::State& state) {
  const int set = static_cast<int>(state.range(0));
  const ivy::Container c = leaves_of(set);
  std::int64_t n = 0;
  for (const auto& [p, a] : c.flatten()) n += a.size();
  std::vector<float> buf(static_cast<std::size_t>(n), 1.0f);
  MPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    benchmark::DoNotOptimize(buf.data());
  }
  state.SetLabel(set_name(set));
  state.counters["bytes"] = static_cast<double>(n * 4);
}

void BM_DataParallelStep(benchmark::State& state) {
  const ivy::Backend b = state.range(0) == 0 ? ivy::Backend("xtensor") : ivy::Backend("torch");
  auto model = cnn(b);
  dist::DataParallelOptions o;
  o.bucket_bytes = static_cast<std::size_t>(state.range(1));
  dist::DataParallel dp(model, std::make_shared<ivy::optim::Adam>(1e-3), o);
  std::vector<float> xs(32 * 28 * 28);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>((i * 2654435761u) % 1000) / 500.0f - 1.0f;
  std::vector<std::int64_t> ys(32);
  for (std::size_t i = 0; i < ys.size(); ++i) ys[i] = static_cast<std::int64_t>((i * 7) % 10);
  Array x = ivy::asarray(xs, Shape{32, 1, 28, 28}, ivy::float32, ivy::Device{}, b);
  Array y = ivy::asarray(ys, Shape{32}, ivy::int64, ivy::Device{}, b);
  double hidden = 0, reduce_wait = 0;
  int n = 0;
  for (auto _ : state) {
    dp.step([&](nn::Module& m) { return nn::cross_entropy(m(x), y); });
    const auto& t = dp.last_timeline();
    hidden += t.hidden_share();
    reduce_wait += t.reduce_end - t.backward_end;
    ++n;
  }
  state.SetLabel(b.name());
  state.counters["hidden"] = n ? hidden / n : 0;
  state.counters["wait_after_backward_us"] = n ? 1e6 * reduce_wait / n : 0;
  state.counters["buckets"] = static_cast<double>(dp.bucket_sizes().size());
  state.counters["ranks"] = dist::world_size();
}

BENCHMARK(BM_ContainerAllReduce)->Arg(0)->Arg(1)->Iterations(2000)->Repetitions(5)->ReportAggregatesOnly()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RawAllreduce)->Arg(0)->Arg(1)->Iterations(2000)->Repetitions(5)->ReportAggregatesOnly()->Unit(benchmark::kMicrosecond);
// bucket sizes: 16 KiB (the CNN's 82 KB in 5 buckets) and the defaults (a 64 KiB first bucket, then 1 MiB: 2 buckets)
BENCHMARK(BM_DataParallelStep)->Args({0, 16 << 10})->Args({1, 16 << 10})->Args({0, 1 << 20})->Args({1, 1 << 20})
    ->Iterations(40)->Repetitions(3)->ReportAggregatesOnly()->Unit(benchmark::kMillisecond);

class Silent : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  dist::init();  // MPI_Init_thread through ivy; raw MPI calls below use MPI_COMM_WORLD
  benchmark::Initialize(&argc, argv);
  if (dist::rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    Silent silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  dist::finalize();
  return 0;
}
