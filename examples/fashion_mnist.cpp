// The main job: a small CNN trained on Fashion-MNIST with ivy's nn layer and Adam, on the
// backend named by --backend (the same code on every backend), then evaluated on the test
// set and checkpointed. Ends with the line "test accuracy: 0.XXXX".
//
// Data: Debian's dataset-fashion-mnist package (IDX files, gzip-compressed, read with zlib).
// Model: two conv(3x3, same, no bias: the batch norm after it subtracts it) - batch norm -
// ReLU - max pool(2) blocks (16 and 32 channels) and a linear head; cross-entropy loss; Adam
// with the learning rate annealed to 0 over the run (cosine, per step).
//
// --distributed (ivy::distributed, under mpirun -np N): data-parallel over N ranks with the
// same global batch (--batch-size, a multiple of N): each step's batch is the one the
// single-process run takes, split by DistributedSampler's rule; SyncBatchNorm in place of
// batch norm, gradients averaged across ranks, evaluation split over the ranks, the
// checkpoint written by rank 0.
#include <unistd.h>
#include <zlib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ivy/nn.hpp"
#ifdef IVY_HAS_DISTRIBUTED
#include "ivy/distributed.hpp"
#endif

namespace {

namespace nn = ivy::nn;
using ivy::Array;
using ivy::Shape;

constexpr const char* kDefaultDataDir = "/usr/share/datasets/fashion-mnist";

// ---------------------------------------------------------------- data
struct Split {
  std::vector<std::uint8_t> images;  // n * rows * cols
  std::vector<std::uint8_t> labels;  // n
  std::int64_t n = 0, rows = 0, cols = 0;
};

std::vector<std::uint8_t> read_gz(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error(path + " not found: install Debian's dataset-fashion-mnist package "
                             "(apt-get install dataset-fashion-mnist) or pass --data-dir");
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<std::uint8_t> out;
  std::uint8_t buf[1 << 16];
  int got;
  while ((got = gzread(f, buf, sizeof buf)) > 0) out.insert(out.end(), buf, buf + got);
  int err = 0;
  const char* msg = gzerror(f, &err);
  std::string why = err != Z_OK && err != Z_STREAM_END ? msg : "";
  gzclose(f);
  if (got < 0 || !why.empty()) throw std::runtime_error("cannot decompress " + path + ": " + why);
  return out;
}
std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}
// IDX: a big-endian magic (0x0803 images / 0x0801 labels), the sizes, then unsigned bytes.
Split read_split(const std::string& dir, const std::string& prefix) {
  Split s;
  const std::string ip = dir + "/" + prefix + "-images-idx3-ubyte.gz", lp = dir + "/" + prefix + "-labels-idx1-ubyte.gz";
  std::vector<std::uint8_t> img = read_gz(ip), lab = read_gz(lp);
  if (img.size() < 16 || be32(img, 0) != 0x803) throw std::runtime_error(ip + ": not an IDX image file");
  if (lab.size() < 8 || be32(lab, 0) != 0x801) throw std::runtime_error(lp + ": not an IDX label file");
  s.n = be32(img, 4);
  s.rows = be32(img, 8);
  s.cols = be32(img, 12);
  if (be32(lab, 4) != static_cast<std::uint32_t>(s.n) ||
      img.size() != 16 + static_cast<std::size_t>(s.n * s.rows * s.cols) || lab.size() != 8 + static_cast<std::size_t>(s.n))
    throw std::runtime_error(ip + " / " + lp + ": sizes do not match their headers");
  s.images.assign(img.begin() + 16, img.end());
  s.labels.assign(lab.begin() + 8, lab.end());
  for (auto l : s.labels)
    if (l > 9) throw std::runtime_error(lp + ": a label is outside 0..9");
  return s;
}

// Images idx[b0:b1] as float32 [B, 1, rows, cols], scaled to [0, 1] and standardized with
// the training set's mean and standard deviation; labels as int64 [B].
std::pair<Array, Array> batch(const Split& s, const std::vector<std::int64_t>& idx, std::size_t b0, std::size_t b1,
                              ivy::Backend backend) {
  const std::int64_t px = s.rows * s.cols, n = static_cast<std::int64_t>(b1 - b0);
  std::vector<float> x(static_cast<std::size_t>(n * px));
  std::vector<std::int64_t> y(static_cast<std::size_t>(n));
  constexpr float mean = 0.2860f, inv_std = 1.0f / 0.3530f;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = idx[b0 + static_cast<std::size_t>(i)];
    const std::uint8_t* src = s.images.data() + k * px;
    for (std::int64_t p = 0; p < px; ++p) x[static_cast<std::size_t>(i * px + p)] = (src[p] / 255.0f - mean) * inv_std;
    y[static_cast<std::size_t>(i)] = s.labels[static_cast<std::size_t>(k)];
  }
  Array xa = ivy::asarray(x.data(), ivy::float32, Shape{n, 1, s.rows, s.cols}, ivy::float32, ivy::Device{}, backend);
  Array ya = ivy::asarray(y.data(), ivy::int64, Shape{n}, ivy::int64, ivy::Device{}, backend);
  return {xa, ya};
}

// ---------------------------------------------------------------- model
// sync: SyncBatchNorm (statistics over every rank's batch) in place of BatchNorm
std::shared_ptr<nn::Sequential> make_model(const nn::init::Where& w, bool sync) {
  nn::ConvOptions same{.padding = "SAME"};
  auto norm = [&](std::int64_t c) -> std::shared_ptr<nn::Module> {
#ifdef IVY_HAS_DISTRIBUTED
    if (sync) return std::make_shared<ivy::distributed::SyncBatchNorm>(c, 1e-5, 0.1, true, true, 1, w);
#endif
    (void)sync;
    return std::make_shared<nn::BatchNorm>(c, 1e-5, 0.1, true, true, 1, w);
  };
  return std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Module>>{
      std::make_shared<nn::Conv2D>(1, 16, ivy::Dims{3}, same, false, w), norm(16), nn::ReLU(),
      std::make_shared<nn::MaxPool>(ivy::Dims{2}), std::make_shared<nn::Conv2D>(16, 32, ivy::Dims{3}, same, false, w),
      norm(32), nn::ReLU(), std::make_shared<nn::MaxPool>(ivy::Dims{2}), std::make_shared<nn::Flatten>(),
      std::make_shared<nn::Linear>(32 * 7 * 7, 10, true, w)});
}

double to_double(const Array& a) { return ivy::astype(a, ivy::float64).item<double>(); }

// The epoch's order: a Fisher-Yates shuffle driven by SplitMix64, so that the PyTorch
// comparison (bench/train_fashion_mnist.py) reproduces it exactly.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};
void shuffle(std::vector<std::int64_t>& v, SplitMix64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.next() % i]);
}

// ---------------------------------------------------------------- progress
class Progress {
 public:
  explicit Progress(bool tty) : tty_(tty) {}
  void update(int epoch, int epochs, std::size_t step, std::size_t steps, double loss, double images_per_s) {
    if (tty_) {
      const int width = 30, done = static_cast<int>(width * step / std::max<std::size_t>(1, steps));
      std::string bar(static_cast<std::size_t>(done), '=');
      bar.resize(width, ' ');
      std::printf("\repoch %d/%d [%s] step %zu/%zu  loss %.4f  %.0f images/s ", epoch, epochs, bar.c_str(), step, steps,
                  loss, images_per_s);
      std::fflush(stdout);
    } else if (step == steps || step % 100 == 0) {
      std::printf("epoch %d/%d step %zu/%zu loss %.4f %.0f images/s\n", epoch, epochs, step, steps, loss, images_per_s);
      std::fflush(stdout);
    }
  }
  void end_epoch() {
    if (tty_) std::printf("\n");
  }

 private:
  bool tty_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Train a small CNN on Fashion-MNIST with ivy (the main job)"};
  std::string backend_name = ivy::default_backend().name(), data_dir = kDefaultDataDir,
              checkpoint = "fashion_mnist_cnn.safetensors";
  int epochs = 1;
  std::int64_t batch_size = 64, limit = 0;
  double lr = 2e-3;
  std::uint64_t seed = 0;
  app.add_option("--backend", backend_name, "the backend to train on")->check(CLI::IsMember({"xtensor", "torch"}));
  app.add_option("--epochs", epochs, "passes over the training set")->check(CLI::PositiveNumber);
  app.add_option("--batch-size", batch_size, "images per step")->check(CLI::PositiveNumber);
  app.add_option("--lr", lr, "Adam's learning rate")->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "initialization and shuffling seed");
  app.add_option("--limit", limit, "train on the first N images only (0: all)")->check(CLI::NonNegativeNumber);
  app.add_option("--data-dir", data_dir, "the folder with the IDX .gz files");
  app.add_option("--checkpoint", checkpoint, "where to save the trained model and optimizer state");
  std::string save_init, schedule = "cosine";
  app.add_option("--schedule", schedule, "learning rate over the run: cosine (annealed to 0 per step) or constant")
      ->check(CLI::IsMember({"cosine", "constant"}));
  app.add_option("--save-init", save_init, "also save the initial parameters there (safetensors)");
  bool distributed = false;
  app.add_flag("--distributed", distributed,
               "data-parallel over the ranks of mpirun -np N (ivy::distributed; the same global batch)");
  CLI11_PARSE(app, argc, argv);

  int rank = 0, world = 1;
  try {
    if (distributed) {
#ifdef IVY_HAS_DISTRIBUTED
      ivy::distributed::init();
      rank = ivy::distributed::rank();
      world = ivy::distributed::world_size();
      if (batch_size % world != 0)
        throw std::runtime_error("--batch-size " + std::to_string(batch_size) + " is the global batch: it must be a " +
                                 "multiple of the " + std::to_string(world) + " ranks");
#else
      throw std::runtime_error("--distributed: this build has no ivy::distributed (install libopenmpi-dev and rebuild)");
#endif
    }
    const bool root = rank == 0;
    ivy::Backend backend(backend_name.c_str());
    ivy::BackendScope scope(backend);
    const Split train = read_split(data_dir, "train"), test = read_split(data_dir, "t10k");
    const std::int64_t n_train = limit > 0 ? std::min(limit, train.n) : train.n;

    nn::init::seed(seed);
    auto model = make_model({ivy::float32, backend, {}}, distributed);
    auto opt = std::make_shared<ivy::optim::Adam>(lr);
    auto save = [&](const ivy::Container& c, const std::string& path) {
#ifdef IVY_HAS_DISTRIBUTED
      if (distributed) return ivy::distributed::DataParallel::save_on_root(c, path);
#endif
      c.save(path);
    };
    if (!save_init.empty()) save(model->parameters(), save_init);
    if (root)
      std::printf("fashion-mnist: %lld training and %lld test images, backend %s, %lld parameters%s\n",
                  static_cast<long long>(n_train), static_cast<long long>(test.n), backend_name.c_str(),
                  static_cast<long long>(model->num_parameters()),
                  distributed ? (", " + std::to_string(world) + " ranks").c_str() : "");
#ifdef IVY_HAS_DISTRIBUTED
    std::optional<ivy::distributed::DataParallel> dp;
    if (distributed) dp.emplace(model, opt);  // rank 0's parameters everywhere
#endif

    SplitMix64 rng{seed};
    // per rank: the global batch split over the ranks (DistributedSampler's rule on the
    // epoch's order, which every rank draws alike)
    const std::int64_t local_batch = batch_size / world;
    const std::int64_t per_rank = (n_train + world - 1) / world;
    const std::size_t steps = static_cast<std::size_t>((per_rank + local_batch - 1) / local_batch);
    std::optional<ivy::optim::CosineAnnealingLR> cosine;
    if (schedule == "cosine") cosine.emplace(lr, static_cast<std::int64_t>(steps) * epochs);
    std::vector<std::int64_t> order(static_cast<std::size_t>(n_train));
    Progress progress(root && isatty(STDOUT_FILENO) != 0);
    for (int epoch = 1; epoch <= epochs; ++epoch) {
      std::iota(order.begin(), order.end(), 0);
      shuffle(order, rng);
      std::vector<std::int64_t> mine = order;
#ifdef IVY_HAS_DISTRIBUTED
      if (distributed) mine = ivy::distributed::DistributedSampler::shard(order, rank, world);
#endif
      model->train();
      const auto t0 = std::chrono::steady_clock::now();
      double loss_avg = 0;
      for (std::size_t step = 0; step < steps; ++step) {
        if (cosine) opt->set_lr(cosine->lr_at(static_cast<std::int64_t>((epoch - 1) * steps + step)));
        const std::size_t b0 = step * static_cast<std::size_t>(local_batch);
        const std::size_t b1 = std::min(mine.size(), b0 + static_cast<std::size_t>(local_batch));
        auto [x, y] = batch(train, mine, b0, b1, backend);
        auto loss_of = [&](nn::Module& m) { return nn::cross_entropy(m(x), y); };
        Array loss;
#ifdef IVY_HAS_DISTRIBUTED
        if (dp) loss = dp->step(loss_of);
#endif
        if (!loss.defined()) {
          auto [l, grads] = nn::value_and_grad(*model, loss_of);
          model->set_parameters(opt->step(model->parameters(), grads));
          loss = l;
        }
        const double l = to_double(loss);
        loss_avg = step == 0 ? l : 0.98 * loss_avg + 0.02 * l;
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (root)
          progress.update(epoch, epochs, step + 1, steps, loss_avg,
                          static_cast<double>(b1 * static_cast<std::size_t>(world)) / std::max(secs, 1e-9));
      }
      progress.end_epoch();
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (root)
        std::printf("epoch %d: %.1f s, %.0f images/s, smoothed training loss %.4f\n", epoch, secs,
                    static_cast<double>(n_train) / secs, loss_avg);
    }

    model->eval();
    // the test set split over the ranks (rank r: images r, r + world, ...), the hits summed
    std::int64_t correct = 0;
    std::vector<std::int64_t> all;
    for (std::int64_t i = rank; i < test.n; i += world) all.push_back(i);
    for (std::size_t b0 = 0; b0 < all.size(); b0 += 500) {
      auto [x, y] = batch(test, all, b0, std::min(all.size(), b0 + 500), backend);
      Array hits = ivy::equal(ivy::argmax((*model)(x), -1), y);
      correct += ivy::sum(ivy::astype(hits, ivy::int64)).item<std::int64_t>();
    }
#ifdef IVY_HAS_DISTRIBUTED
    if (distributed)
      correct = ivy::distributed::all_reduce(ivy::asarray(std::vector<std::int64_t>{correct})).to_vector<std::int64_t>()[0];
#endif
    ivy::Container ckpt;
    ckpt.set("model", model->state());
    ckpt.set("optimizer", opt->state());
    save(ckpt, checkpoint);
    if (root) {
      std::printf("checkpoint: %s\n", checkpoint.c_str());
      std::printf("test accuracy: %.4f\n", static_cast<double>(correct) / static_cast<double>(test.n));
    }
  } catch (const std::exception& e) {
#ifdef IVY_HAS_DISTRIBUTED
    if (distributed) {
      ivy::distributed::report_failure(e.what());
      std::fprintf(stderr, "fashion_mnist (rank %d of %d): %s\n", rank, world, e.what());
      ivy::distributed::finalize();
      return 1;
    }
#endif
    std::fprintf(stderr, "fashion_mnist: %s\n", e.what());
    return 1;
  }
#ifdef IVY_HAS_DISTRIBUTED
  if (distributed) ivy::distributed::finalize();
#endif
  return 0;
}
