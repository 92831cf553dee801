// Writes seed inputs for the fuzz harnesses: well-formed safetensors files (every dtype, empty,
// 0-d, nested names, metadata) and graph JSON files (traced functions over elementwise ops,
// reductions, matmul, indexing, shape changes, convolution, several dtypes). scripts/fuzz.sh
// runs it before fuzzing; libFuzzer mutates these into the inputs that reach deep checks.
//   make_seeds safetensors_load|graph_json OUTDIR
#include <cstdio>
#include <string>
#include <vector>

#include "ivy/graph_io.hpp"
#include "ivy/container.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn.hpp"

namespace {

void write_containers(const std::string& dir) {
  using ivy::DType;
  int n = 0;
  const DType all[] = {DType::bool_,   DType::int8,    DType::int16,   DType::int32,     DType::int64,
                       DType::uint8,   DType::uint16,  DType::uint32,  DType::uint64,    DType::float16,
                       DType::bfloat16, DType::float32, DType::float64, DType::complex64, DType::complex128};
  for (DType d : all) {
    try {
      std::vector<std::pair<std::string, ivy::Array>> leaves;
      leaves.emplace_back("a", ivy::astype(ivy::reshape(ivy::arange(6), {2, 3}), d));
      leaves.emplace_back("b/c", ivy::astype(ivy::ones({}), d));
      leaves.emplace_back("b/empty", ivy::zeros({0, 4}, d));
      ivy::Container::from_pairs(leaves).save(dir + "/dtype_" + std::to_string(n++) + ".safetensors",
                                              {{"format", "pt"}, {"dtype", ivy::dtype_name(d)}});
    } catch (const ivy::Error&) {
      // a dtype this backend lacks
    }
  }
  ivy::Container::from_pairs({{"layer1/weight", ivy::ones({4, 3})},
                              {"layer1/bias", ivy::zeros({4})},
                              {"layer2/weight", ivy::full({2, 4}, 0.5)}})
      .save(dir + "/mlp.safetensors");
  ivy::Container::from_pairs({}).save(dir + "/empty.safetensors");
}

void write_graphs(const std::string& dir) {
  using ivy::Array;
  int n = 0;
  auto put = [&](const ivy::TracedFn& fn, const std::vector<Array>& in) {
    ivy::save_graph(ivy::trace(fn, in), dir + "/graph_" + std::to_string(n++) + ".json");
  };
  const Array x = ivy::reshape(ivy::arange(12, std::nullopt, 1, ivy::DType::float32), {3, 4});
  const Array y = ivy::ones({4, 2}, ivy::DType::float32);
  put([](const std::vector<Array>& a) { return std::vector<Array>{ivy::exp(a[0]) * 2.0 + a[0]}; }, {x});
  put([](const std::vector<Array>& a) { return std::vector<Array>{ivy::nn::softmax(a[0], -1)}; }, {x});
  put([](const std::vector<Array>& a) { return std::vector<Array>{ivy::matmul(a[0], a[1]), ivy::sum(a[0], 1)}; },
      {x, y});
  put([](const std::vector<Array>& a) {
        return std::vector<Array>{ivy::permute_dims(a[0], {1, 0}), ivy::reshape(a[0], {2, 6}),
                                  ivy::concat(std::vector<Array>{a[0], a[0]}, 0)};
      },
      {x});
  put([](const std::vector<Array>& a) {
        const Array idx = ivy::asarray(std::vector<std::int64_t>{2, 0});
        return std::vector<Array>{ivy::take(a[0], idx, 1), ivy::argmax(a[0], 0), ivy::sort(a[0], -1, true)};
      },
      {x});
  put([](const std::vector<Array>& a) {
        return std::vector<Array>{ivy::where(a[0] > 3.0, a[0], ivy::zeros_like(a[0])),
                                  ivy::cumulative_sum(a[0], 1), ivy::astype(a[0], ivy::DType::int32)};
      },
      {x});
  const Array img = ivy::ones({1, 2, 5, 5}, ivy::DType::float32);
  const Array w = ivy::ones({3, 2, 3, 3}, ivy::DType::float32);
  put([](const std::vector<Array>& a) {
        return std::vector<Array>{ivy::nn::max_pool2d(ivy::nn::relu(ivy::nn::conv2d(a[0], a[1])), {2, 2})};
      },
      {img, w});
  const Array xi = ivy::reshape(ivy::arange(6, std::nullopt, 1, ivy::DType::int64), {2, 3});
  put([](const std::vector<Array>& a) { return std::vector<Array>{ivy::bitwise_and(a[0], a[0] + 1), a[0] % 4}; },
      {xi});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seeds safetensors_load|graph_json OUTDIR\n");
    return 2;
  }
  const std::string what = argv[1], dir = argv[2];
  if (what == "safetensors_load") {
    write_containers(dir);
  } else if (what == "graph_json") {
    write_graphs(dir);
  } else {
    std::fprintf(stderr, "make_seeds: no seeds for %s\n", what.c_str());
    return 2;
  }
  return 0;
}
