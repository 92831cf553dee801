// ivy::distributed under mpirun -np 1, 2 and 3 (and alone: a world of one); ctest runs each.
// Every rank builds every rank's inputs from (rank, index) on its own, so the expected
// results are folds over ranks computed here in float64 / modular integer arithmetic, without
// MPI. DistributedFailure.* breaks the world on purpose: it runs as its own ctest entries.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "ivy/autodiff.hpp"
#include "ivy/distributed.hpp"
#include "ivy/ivy.hpp"
#include "ivy/nn.hpp"

namespace {

namespace dist = ivy::distributed;
namespace nn = ivy::nn;
using dist::ReduceOp;
using ivy::Array;
using ivy::DType;
using ivy::Shape;

int P() { return dist::world_size(); }
int R() { return dist::rank(); }

const std::vector<DType> kAllDTypes = {ivy::bool_,   ivy::int8,     ivy::int16,   ivy::int32,     ivy::int64,
                                       ivy::uint8,   ivy::uint16,   ivy::uint32,  ivy::uint64,    ivy::float16,
                                       ivy::bfloat16, ivy::float32, ivy::float64, ivy::complex64, ivy::complex128};

bool has_dtype(ivy::Backend b, DType d) {
  // xtensor has no float16 / bfloat16 (backends/xtensor/xt_backend.cpp); torch has every dtype
  return !(std::string(b.name()) == "xtensor" && (d == ivy::float16 || d == ivy::bfloat16));
}

// the dtypes each op takes (the refusals the API documents)
bool takes(ReduceOp op, DType d) {
  if (d == ivy::bool_) return op == ReduceOp::max || op == ReduceOp::min;
  if (ivy::is_complex(d)) return op != ReduceOp::max && op != ReduceOp::min;
  if (op == ReduceOp::mean) return ivy::is_floating(d);
  return true;
}

bool is_signed_kind(DType d) { return ivy::is_floating(d) || d == ivy::int8 || d == ivy::int16 || d == ivy::int32 || d == ivy::int64; }

// rank r's element i: small integers, so that sums and products are exact in every float type
double value(int r, std::int64_t i, DType d) {
  const double v = static_cast<double>((i * 7 + r * 3) % 11 + 1);
  if (d == ivy::bool_) return (i + r) % 3 == 0 ? 1.0 : 0.0;
  return is_signed_kind(d) ? v - 5.0 : v;
}
double imag_value(int r, std::int64_t i) { return static_cast<double>((i + 2 * r) % 3) - 1.0; }

Array input(int r, const Shape& shape, DType d, ivy::Backend b) {
  const std::int64_t n = shape.numel();
  if (ivy::is_complex(d)) {
    std::vector<std::complex<double>> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = {value(r, i, d), imag_value(r, i)};
    return ivy::asarray(v.data(), ivy::complex128, shape, d, ivy::Device{}, b);
  }
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = value(r, i, d);
  return ivy::asarray(v.data(), ivy::float64, shape, d, ivy::Device{}, b);
}

// The fold of op over ranks 0..P-1 of element i, as a float64 / complex128 / wrapped integer.
std::complex<double> expected_float(ReduceOp op, std::int64_t i, DType d, int parts) {
  std::complex<double> acc;
  for (int r = 0; r < parts; ++r) {
    const std::complex<double> v(value(r, i, d), ivy::is_complex(d) ? imag_value(r, i) : 0.0);
    if (r == 0) acc = v;
    else if (op == ReduceOp::sum || op == ReduceOp::mean) acc += v;
    else if (op == ReduceOp::prod) acc *= v;
    else if (op == ReduceOp::max) acc = std::max(acc.real(), v.real());
    else acc = std::min(acc.real(), v.real());
  }
  if (op == ReduceOp::mean) acc /= static_cast<double>(parts);
  return acc;
}
std::int64_t expected_int(ReduceOp op, std::int64_t i, DType d, int parts) {
  std::uint64_t acc = 0;
  std::int64_t best = 0;
  for (int r = 0; r < parts; ++r) {
    const auto v = static_cast<std::int64_t>(value(r, i, d));
    if (r == 0) {
      acc = static_cast<std::uint64_t>(v);
      best = v;
    } else if (op == ReduceOp::sum) acc += static_cast<std::uint64_t>(v);
    else if (op == ReduceOp::prod) acc *= static_cast<std::uint64_t>(v);
    else best = op == ReduceOp::max ? std::max(best, v) : std::min(best, v);
  }
  if (op == ReduceOp::max || op == ReduceOp::min) return best;
  const int bits = static_cast<int>(ivy::itemsize(d)) * 8;
  if (bits == 64) return static_cast<std::int64_t>(acc);
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1, low = acc & mask;
  if (is_signed_kind(d) && (low >> (bits - 1)) != 0) return static_cast<std::int64_t>(low | ~mask);  // sign-extend
  return static_cast<std::int64_t>(low);
}

void expect_reduced(const Array& got, ReduceOp op, DType d, const Shape& shape, const std::string& what) {
  ASSERT_EQ(got.dtype(), d) << what;
  ASSERT_EQ(got.shape(), shape) << what;
  const std::int64_t n = shape.numel();
  if (ivy::is_complex(d)) {
    auto v = ivy::astype(got, ivy::complex128).to_vector<std::complex<double>>();
    for (std::int64_t i = 0; i < n; ++i) {
      const auto e = expected_float(op, i, d, P());
      const double tol = op == ReduceOp::mean ? 1e-6 * std::abs(e) : 0.0;
      EXPECT_NEAR(v[static_cast<std::size_t>(i)].real(), e.real(), tol) << what << " at " << i;
      EXPECT_NEAR(v[static_cast<std::size_t>(i)].imag(), e.imag(), tol) << what << " at " << i;
    }
  } else if (ivy::is_floating(d)) {
    auto v = ivy::astype(got, ivy::float64).to_vector<double>();
    for (std::int64_t i = 0; i < n; ++i) {
      double e = expected_float(op, i, d, P()).real();
      // the expected value rounded to d (exact except for bfloat16 products and means)
      e = ivy::astype(ivy::asarray(&e, ivy::float64, Shape{}, d, ivy::Device{}, got.backend()), ivy::float64).item<double>();
      const double tol = op == ReduceOp::mean && (d == ivy::float16 || d == ivy::bfloat16) ? 1e-2 * std::abs(e) : 0.0;
      EXPECT_NEAR(v[static_cast<std::size_t>(i)], e, tol) << what << " at " << i;
    }
  } else if (d == ivy::bool_) {
    auto v = ivy::astype(got, ivy::int64).to_vector<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i) {
      bool e = value(0, i, d) != 0;
      for (int r = 1; r < P(); ++r) e = op == ReduceOp::max ? (e || value(r, i, d) != 0) : (e && value(r, i, d) != 0);
      EXPECT_EQ(v[static_cast<std::size_t>(i)], e ? 1 : 0) << what << " at " << i;
    }
  } else {
    auto v = ivy::astype(got, ivy::int64).to_vector<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i)
      EXPECT_EQ(v[static_cast<std::size_t>(i)], expected_int(op, i, d, P())) << what << " at " << i;
  }
}

TEST(Distributed, WorldMatchesTheLauncher) {
  const char* env = std::getenv("OMPI_COMM_WORLD_SIZE");
  EXPECT_EQ(P(), env ? std::atoi(env) : 1);
  EXPECT_EQ(dist::uses_mpi(), env != nullptr);
  EXPECT_GE(R(), 0);
  EXPECT_LT(R(), P());
  EXPECT_NE(dist::describe().find("of " + std::to_string(P())), std::string::npos) << dist::describe();
  dist::barrier();
}

TEST(Distributed, AllReduceEveryDTypeOpAndShape) {
  int cases = 0;
  for (ivy::Backend b : ivy::available_backends())
    for (DType d : kAllDTypes) {
      if (!has_dtype(b, d)) continue;
      for (ReduceOp op : {ReduceOp::sum, ReduceOp::mean, ReduceOp::max, ReduceOp::min, ReduceOp::prod}) {
        if (!takes(op, d)) continue;
        for (const Shape& shape : {Shape{}, Shape{0}, Shape{1}, Shape{7}, Shape{3, 5}, Shape{2, 0, 3}}) {
          const std::string what = std::string(b.name()) + " " + ivy::dtype_name(d) + " " + dist::reduce_op_name(op) +
                                   " " + shape.str();
          expect_reduced(dist::all_reduce(input(R(), shape, d, b), op), op, d, shape, what);
          ++cases;
        }
      }
    }
  EXPECT_GT(cases, 300);
}

TEST(Distributed, AllReduceOfAStridedViewReadsItsValues) {
  for (ivy::Backend b : ivy::available_backends()) {
    // rank r's [5, 3] transposed: the reduction of the transposed values
    Array x = ivy::permute_dims(input(R(), Shape{5, 3}, ivy::float32, b), {1, 0});
    Array got = dist::all_reduce(x, ReduceOp::sum);
    Array base_sum = ivy::zeros(Shape{5, 3}, ivy::float32, ivy::Device{}, b);
    for (int r = 0; r < P(); ++r) base_sum = base_sum + input(r, Shape{5, 3}, ivy::float32, b);
    EXPECT_TRUE(ivy::all(ivy::equal(got, ivy::permute_dims(base_sum, {1, 0}))).item<bool>()) << b.name();
  }
}

TEST(Distributed, MaxMinAndSumPropagateNaN) {
  for (ivy::Backend b : ivy::available_backends()) {
    std::vector<double> v{1.0 + R(), -2.0 - R(), 3.0};
    if (R() == P() - 1) v[0] = std::numeric_limits<double>::quiet_NaN();
    Array x = ivy::asarray(v.data(), ivy::float64, Shape{3}, ivy::float32, ivy::Device{}, b);
    for (ReduceOp op : {ReduceOp::max, ReduceOp::min, ReduceOp::sum}) {
      auto got = ivy::astype(dist::all_reduce(x, op), ivy::float64).to_vector<double>();
      EXPECT_TRUE(std::isnan(got[0])) << b.name() << " " << dist::reduce_op_name(op);
      EXPECT_FALSE(std::isnan(got[1]));
    }
    auto mx = ivy::astype(dist::all_reduce(x, ReduceOp::max), ivy::float64).to_vector<double>();
    EXPECT_EQ(mx[1], -2.0);
    auto mn = ivy::astype(dist::all_reduce(x, ReduceOp::min), ivy::float64).to_vector<double>();
    EXPECT_EQ(mn[1], -1.0 - P());
  }
}

TEST(Distributed, RefusedReductionsNameTheReason) {
  Array b = ivy::asarray({true, false});
  Array c = ivy::asarray(std::vector<std::complex<float>>{{1, 2}});
  Array i = ivy::asarray({1, 2, 3});
  auto message = [](auto&& fn) {
    try {
      fn();
    } catch (const ivy::TypeError& e) {
      return std::string(e.what());
    }
    return std::string("no TypeError");
  };
  EXPECT_NE(message([&] { dist::all_reduce(b, ReduceOp::sum); }).find("[distributed.all_reduce] sum of a bool"),
            std::string::npos);
  EXPECT_NE(message([&] { dist::all_reduce(c, ReduceOp::max); }).find("complex numbers are not ordered"),
            std::string::npos);
  EXPECT_NE(message([&] { dist::all_reduce(i, ReduceOp::mean); }).find("mean needs a floating dtype"),
            std::string::npos);
  // the world is fine after a refusal: it happened on every rank after the same header
  EXPECT_EQ(dist::all_reduce(ivy::asarray({1.0f}), ReduceOp::sum).item<float>(), static_cast<float>(P()));
}

TEST(Distributed, MismatchedCallsFailOnEveryRankAndTheWorldGoesOn) {
  Array x = ivy::ones(Shape{R() + 1}, ivy::float32);
  if (P() == 1) {
    EXPECT_EQ(dist::all_reduce(x).shape(), Shape{1});
    return;
  }
  try {
    dist::all_reduce(x);
    ADD_FAILURE() << "shapes [1] and [2] reduced";
  } catch (const ivy::ValueError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("[distributed.all_reduce] the ranks' calls do not match"), std::string::npos) << m;
    EXPECT_NE(m.find("rank 1: all_reduce sum of float32 [2]"), std::string::npos) << m;
  }
  try {  // dtypes differ
    dist::broadcast(ivy::ones(Shape{2}, R() == 0 ? ivy::float32 : ivy::float64));
    ADD_FAILURE() << "float32 and float64 broadcast";
  } catch (const ivy::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dist::all_reduce(ivy::asarray({2.0})).item<double>(), 2.0 * P());
}

TEST(Distributed, BroadcastAllGatherReduceScatter) {
  for (ivy::Backend b : ivy::available_backends())
    for (DType d : {ivy::float32, ivy::int64, ivy::bool_, ivy::complex128, ivy::uint8}) {
      const Shape s{2, 3};
      const std::string what = std::string(b.name()) + " " + ivy::dtype_name(d);
      const int root = P() - 1;
      Array got = dist::broadcast(input(R(), s, d, b), root);
      EXPECT_TRUE(ivy::all(ivy::equal(got, input(root, s, d, b))).item<bool>()) << what;
      Array all = dist::all_gather(input(R(), s, d, b));
      ASSERT_EQ(all.shape(), (Shape{P(), 2, 3})) << what;
      for (int r = 0; r < P(); ++r)
        EXPECT_TRUE(ivy::all(ivy::equal(all[r], input(r, s, d, b))).item<bool>()) << what << " row " << r;
      if (d == ivy::bool_) continue;
      // reduce_scatter over [2P, 3]: rank r gets rows [2r, 2r + 2) of the sum
      const Shape big{2 * P(), 3};
      Array mine = dist::reduce_scatter(input(R(), big, d, b), ReduceOp::sum);
      ASSERT_EQ(mine.shape(), (Shape{2, 3})) << what;
      Array total = dist::all_reduce(input(R(), big, d, b), ReduceOp::sum);
      EXPECT_TRUE(ivy::all(ivy::equal(mine, total.index({ivy::Slice(2 * R(), 2 * R() + 2)}))).item<bool>()) << what;
    }
  EXPECT_THROW(dist::broadcast(ivy::ones(Shape{1}), P()), ivy::ValueError);
  EXPECT_THROW(dist::reduce_scatter(ivy::ones(Shape{}), ReduceOp::sum), ivy::ValueError);
  if (P() > 1) EXPECT_THROW(dist::reduce_scatter(ivy::ones(Shape{2 * P() + 1}), ReduceOp::sum), ivy::ValueError);
  EXPECT_EQ(dist::all_gather(ivy::ones(Shape{0}, ivy::float32)).shape(), (Shape{P(), 0}));
}

TEST(Distributed, AsyncWorkCompletesInAnyWaitOrder) {
  dist::Work a = dist::all_reduce_async(ivy::full(Shape{1000}, 1.0, ivy::float64), ReduceOp::sum);
  dist::Work b = dist::all_reduce_async(ivy::full(Shape{3}, 2, ivy::int32), ReduceOp::prod);
  Array rb = b.wait();
  Array ra = a.wait();
  EXPECT_EQ(ivy::sum(ra).item<double>(), 1000.0 * P());
  EXPECT_EQ(rb.to_vector<std::int32_t>()[2], 1 << P());
  EXPECT_TRUE(a.test());
}

TEST(Distributed, ContainerAllReduceInUnevenBuckets) {
  for (ivy::Backend b : ivy::available_backends()) {
    std::vector<std::pair<std::string, Array>> leaves;
    for (int k = 0; k < 200; ++k) {
      const DType d = k % 3 == 0 ? ivy::float64 : k % 3 == 1 ? ivy::float32 : ivy::int32;
      leaves.emplace_back("layer" + std::to_string(k / 10) + "/w" + std::to_string(k % 10),
                          input(R() + k, Shape{k % 7}, d, b));
    }
    leaves.emplace_back("scalar", input(R(), Shape{}, ivy::float32, b));
    const ivy::Container c = ivy::Container::from_pairs(leaves);
    for (std::size_t bucket : {std::size_t{1}, std::size_t{40}, std::size_t{1000}, dist::kDefaultBucketBytes}) {
      const ivy::Container got = dist::all_reduce(c, ReduceOp::sum, bucket);
      ASSERT_TRUE(got.same_structure(c));
      for (int k = 0; k < 200; ++k) {
        const auto& [path, leaf] = leaves[static_cast<std::size_t>(k)];
        Array want = ivy::zeros_like(leaf);
        for (int r = 0; r < P(); ++r) want = want + input(r + k, leaf.shape(), leaf.dtype(), b);
        EXPECT_TRUE(ivy::all(ivy::equal(got.at(path).array(), want)).item<bool>()) << b.name() << " " << path;
        EXPECT_EQ(got.at(path).array().backend(), b);
      }
    }
    // a leaf container, and broadcast of a container
    const ivy::Container leaf(input(R(), Shape{4}, ivy::float32, b));
    EXPECT_EQ(dist::all_reduce(leaf, ReduceOp::max).array().shape(), Shape{4});
    const ivy::Container from_root = dist::broadcast(c, 0, 64);
    EXPECT_TRUE(ivy::all(ivy::equal(from_root.at("layer3/w4").array(), input(34, Shape{34 % 7}, ivy::float32, b)))
                    .item<bool>());
  }
  // structures that differ are reported on every rank
  if (P() > 1) {
    ivy::Container odd;
    odd.set(R() == 0 ? "a" : "b", ivy::ones(Shape{2}));
    EXPECT_THROW(dist::all_reduce(odd), ivy::ValueError);
  }
}

TEST(Distributed, GradientOfAllReduceReachesEveryRank) {
  // L = sum over ranks r of sum(all_reduce(x_r) * (r + 1)): dL/dx_r = sum_r (r + 1) everywhere
  for (ivy::Backend b : ivy::available_backends()) {
    Array x = ivy::ones(Shape{3}, ivy::float32, ivy::Device{}, b);
    const double c = R() + 1.0;
    auto g = ivy::grad([&](const Array& v) { return ivy::sum(dist::all_reduce(v, ReduceOp::sum) * c); })(x);
    const float want = static_cast<float>(P() * (P() + 1) / 2);
    for (float v : g.to_vector<float>()) EXPECT_EQ(v, want) << b.name();
    auto gm = ivy::grad([&](const Array& v) { return ivy::sum(dist::all_reduce(v, ReduceOp::mean) * c); })(x);
    for (float v : gm.to_vector<float>()) EXPECT_NEAR(v, want / P(), 1e-6) << b.name();
  }
}

TEST(Distributed, CollectivesRefuseToBeTraced) {
  EXPECT_THROW(ivy::trace([](const Array& v) { return dist::all_reduce(v * 2.0); }, ivy::ones(Shape{2})), ivy::ValueError);
}

TEST(Distributed, SamplerFollowsPyTorchsPaddingRule) {
  // torch.utils.data.DistributedSampler(range(10), num_replicas=3, shuffle=False)
  const std::vector<std::vector<std::int64_t>> want = {{0, 3, 6, 9}, {1, 4, 7, 0}, {2, 5, 8, 1}};
  for (int r = 0; r < 3; ++r) {
    dist::DistributedSampler s(10, false, 0, false, r, 3);
    EXPECT_EQ(s.indices(), want[static_cast<std::size_t>(r)]);
    EXPECT_EQ(s.total_size(), 12);
    dist::DistributedSampler dl(10, false, 0, true, r, 3);  // drop_last: 3 each, the last cut
    EXPECT_EQ(dl.indices(), std::vector<std::int64_t>(want[static_cast<std::size_t>(r)].begin(),
                                                      want[static_cast<std::size_t>(r)].begin() + 3));
  }
  EXPECT_EQ(dist::DistributedSampler(9, false, 0, true, 0, 3).num_samples(), 3);
  EXPECT_TRUE(dist::DistributedSampler(0, true, 1, false, 0, 2).indices().empty());
  EXPECT_THROW(dist::DistributedSampler(4, true, 0, false, 2, 2), ivy::ValueError);
  // shuffled: the same permutation on every rank, the shards partition it, epochs differ
  dist::DistributedSampler s(24, true, 7);
  s.set_epoch(3);
  const auto perm = s.permutation();
  Array all = dist::all_gather(ivy::asarray(perm));
  for (int r = 0; r < P(); ++r) EXPECT_EQ(all[r].to_vector<std::int64_t>(), perm);
  Array shards = dist::all_gather(ivy::asarray(s.indices()));
  std::vector<int> seen(24, 0);
  for (int r = 0; r < P(); ++r)
    for (std::int64_t i : shards[r].to_vector<std::int64_t>()) ++seen[static_cast<std::size_t>(i)];
  for (int k = 0; k < 24; ++k) EXPECT_EQ(seen[static_cast<std::size_t>(k)], 24 % P() == 0 ? 1 : seen[static_cast<std::size_t>(k)]);
  s.set_epoch(4);
  EXPECT_NE(s.permutation(), perm);
}

// ---------------------------------------------------------------- data-parallel training
std::shared_ptr<nn::Sequential> small_model(bool sync, ivy::Backend b) {
  nn::init::seed(11);
  const nn::init::Where w{ivy::float32, b, {}};
  std::shared_ptr<nn::Module> norm = sync ? std::shared_ptr<nn::Module>(std::make_shared<dist::SyncBatchNorm>(6, 1e-5, 0.1, true, true, 1, w))
                                          : std::make_shared<nn::BatchNorm>(6, 1e-5, 0.1, true, true, 1, w);
  return std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
      // no bias before the norm: it has no gradient (the norm subtracts it), and Adam would
      // turn the rounding noise there into steps of lr
      std::make_shared<nn::Linear>(4, 6, false, w), norm, nn::ReLU(), std::make_shared<nn::Linear>(6, 3, true, w)});
}
// global batch t: 12 rows (a multiple of 1, 2 and 3)
std::pair<Array, Array> global_batch(int t, ivy::Backend b) {
  std::vector<float> x(48);
  std::vector<std::int64_t> y(12);
  for (int i = 0; i < 48; ++i) x[static_cast<std::size_t>(i)] = std::sin(0.37f * static_cast<float>(i + 13 * t)) * 2.0f;
  for (int i = 0; i < 12; ++i) y[static_cast<std::size_t>(i)] = (i * 5 + t) % 3;
  return {ivy::asarray(x, Shape{12, 4}, ivy::float32, ivy::Device{}, b), ivy::asarray(y, Shape{12}, ivy::int64, ivy::Device{}, b)};
}

ivy::Container run_data_parallel(ivy::Backend b, bool overlap, std::size_t bucket, int steps) {
  auto model = small_model(true, b);
  dist::DataParallelOptions o;
  o.overlap = overlap;
  o.bucket_bytes = bucket;
  dist::DataParallel dp(model, std::make_shared<ivy::optim::Adam>(0.05), o);
  for (int t = 0; t < steps; ++t) {
    auto [x, y] = global_batch(t, b);
    // this rank's rows: r, r + P, ... (the DistributedSampler's sharding of a batch)
    Array rows = ivy::arange(R(), 12, P(), ivy::int64, ivy::Device{}, b);
    Array xl = ivy::take(x, rows, 0), yl = ivy::take(y, rows, 0);
    dp.step([&](nn::Module& m) { return nn::cross_entropy(m(xl), yl); });
    const auto& tl = dp.last_timeline();
    if (P() > 1) {
      EXPECT_EQ(tl.buckets.size(), dp.bucket_sizes().size());
      EXPECT_GE(tl.hidden_share(), 0.0);
      EXPECT_LE(tl.hidden_share(), 1.0);
      EXPECT_LE(tl.backward_end, tl.reduce_end);
    }
  }
  return model->state();
}

TEST(DistributedTraining, DataParallelEqualsOneProcessOnTheGlobalBatch) {
  for (ivy::Backend b : ivy::available_backends()) {
    const int steps = 5;
    // the reference: one process, plain batch norm, the whole batch
    auto ref = small_model(false, b);
    ivy::optim::Adam opt(0.05);
    for (int t = 0; t < steps; ++t) {
      auto [x, y] = global_batch(t, b);
      auto [loss, grads] = nn::value_and_grad(*ref, [&](nn::Module& m) { return nn::cross_entropy(m(x), y); });
      ref->set_parameters(opt.step(ref->parameters(), grads));
    }
    const ivy::Container want = ref->state();
    const ivy::Container got = run_data_parallel(b, true, 64, steps);
    ASSERT_TRUE(got.same_structure(want));
    for (const auto& [path, a] : want.flatten()) {
      const Array g = got.at(path).array();
      const double err = ivy::max(ivy::abs(ivy::astype(g, ivy::float64) - ivy::astype(a, ivy::float64))).item<double>();
      EXPECT_LT(err, 1e-5) << b.name() << " " << path;
      // identical bits on every rank
      Array everyone = dist::all_gather(g);
      for (int r = 1; r < P(); ++r) EXPECT_TRUE(ivy::all(ivy::equal(everyone[r], everyone[0])).item<bool>()) << path;
    }
    // without overlap, and in one bucket: the same bits
    const ivy::Container serial = run_data_parallel(b, false, dist::kDefaultBucketBytes, steps);
    for (const auto& [path, a] : got.flatten())
      EXPECT_TRUE(ivy::all(ivy::equal(serial.at(path).array(), a)).item<bool>()) << b.name() << " " << path;
  }
}

TEST(DistributedTraining, SyncBatchNormIsBatchNormOnTheGlobalBatch) {
  for (ivy::Backend b : ivy::available_backends()) {
    auto [x, y] = global_batch(2, b);
    (void)y;
    Array x4 = ivy::reshape(ivy::concat({x, x * 0.5 + 1.0}, 1), Shape{12, 2, 2, 2});  // [N, C=2, 2, 2]
    const nn::init::Where w{ivy::float32, b, {}};
    dist::SyncBatchNorm sbn(2, 1e-5, 0.1, true, true, 1, w);
    nn::BatchNorm bn(2, 1e-5, 0.1, true, true, 1, w);
    Array rows = ivy::arange(R(), 12, P(), ivy::int64, ivy::Device{}, b);
    Array mine = sbn(ivy::take(x4, rows, 0));
    Array want = ivy::take(bn(x4), rows, 0);
    EXPECT_LT(ivy::max(ivy::abs(mine - want)).item<float>(), 2e-6f) << b.name();
    for (const char* buf : {"running_mean", "running_var"})
      EXPECT_LT(ivy::max(ivy::abs(sbn.buffers().at(buf).array() - bn.buffers().at(buf).array())).item<float>(), 2e-6f);
    sbn.eval();
    bn.eval();
    EXPECT_LT(ivy::max(ivy::abs(sbn(x4) - bn(x4))).item<float>(), 2e-6f);
  }
}

TEST(DistributedTraining, BadArgumentsAreNamed) {
  auto model = small_model(true, ivy::available_backends().front());
  auto opt = std::make_shared<ivy::optim::SGD>(0.1);
  auto message = [](auto&& fn) {
    try {
      fn();
    } catch (const ivy::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { dist::DataParallel(nullptr, opt); }).find("[distributed.DataParallel] the model is null"),
            std::string::npos);
  EXPECT_NE(message([&] { dist::DataParallel(model, nullptr); }).find("the optimizer is null"), std::string::npos);
  dist::SyncBatchNorm bn(3);
  EXPECT_NE(message([&] { bn(ivy::ones(Shape{4, 2, 5})); }).find("the input has 2 channels on axis 1, the layer 3"),
            std::string::npos);
  EXPECT_NE(message([&] { bn(ivy::ones(Shape{4})); }).find("rank >= 2"), std::string::npos);
  EXPECT_NE(message([&] { bn(ivy::ones(Shape{4, 3}, ivy::int32)); }).find("real floating"), std::string::npos);
  dist::Work empty;
  EXPECT_NE(message([&] { empty.wait(); }).find("[distributed.Work] wait() on an empty Work"), std::string::npos);
  EXPECT_THROW(dist::all_reduce(Array()), ivy::ValueError);
  EXPECT_THROW(dist::all_gather(Array()), ivy::ValueError);
}

TEST(DistributedTraining, SaveOnRootWritesOneFile) {
  const std::string path = ::testing::TempDir() + "ivy_dist_ckpt_" + std::to_string(P()) + ".safetensors";
  std::remove(path.c_str());
  dist::barrier();
  ivy::Container c;
  c.set("w", ivy::full(Shape{3}, 1.0 + R(), ivy::float32));
  dist::DataParallel::save_on_root(c, path);
  EXPECT_EQ(ivy::Container::load(path).at("w").array().to_vector<float>(), (std::vector<float>{1, 1, 1}));
  dist::barrier();
  if (R() == 0) std::remove(path.c_str());
}

// ---------------------------------------------------------------- failures (breaks the world)
TEST(DistributedFailure, ARankThatThrowsStopsTheOthers) {
  const ivy::Backend b = ivy::available_backends().front();
  auto model = small_model(true, b);
  dist::DataParallel dp(model, std::make_shared<ivy::optim::SGD>(0.1));
  const int bad = P() - 1;
  std::string seen;
  try {
    for (int t = 0; t < 4; ++t) {
      auto [x, y] = global_batch(t, b);
      dp.step([&](nn::Module& m) {
        if (t == 2 && R() == bad) throw std::runtime_error("an injected failure");
        return nn::cross_entropy(m(x), y);
      });
    }
  } catch (const std::exception& e) {
    seen = e.what();
  }
  if (R() == bad) EXPECT_EQ(seen, "an injected failure");
  else EXPECT_NE(seen.find("[distributed] rank " + std::to_string(bad) + " failed: an injected failure"), std::string::npos) << seen;
  // the world is broken: every collective says why, at once
  EXPECT_FALSE(dist::broken_reason().empty());
  EXPECT_THROW(dist::all_reduce(ivy::ones(Shape{1})), ivy::Error);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ivy::distributed::init();
  // one rank's full report is enough; the others print their failures only
  if (ivy::distributed::rank() != 0) ::testing::GTEST_FLAG(brief) = true;
  const int rc = RUN_ALL_TESTS();
  ivy::distributed::finalize();
  return rc;
}
