// DataParallel (bucketed gradient all-reduce overlapped with the backward pass),
// DistributedSampler and SyncBatchNorm (include/ivy/distributed.hpp).
#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "distributed/comm.hpp"
#include "ivy/autodiff.hpp"
#include "ivy/functional.hpp"
#include "ivy/nn_functional.hpp"

namespace ivy::distributed {

// ---------------------------------------------------------------- timeline
double StepTimeline::hidden_share() const {
  double hidden = 0, total = 0;
  for (const Bucket& b : buckets) {
    total += b.done - b.start;
    hidden += std::max(0.0, std::min(b.done, backward_end) - b.start);
  }
  return total > 0 ? hidden / total : 0.0;
}

// ---------------------------------------------------------------- DataParallel
DataParallel::DataParallel(std::shared_ptr<nn::Module> model, std::shared_ptr<optim::Optimizer> optimizer,
                           DataParallelOptions options)
    : model_(std::move(model)), optimizer_(std::move(optimizer)), options_(options) {
  if (!model_) throw ValueError("[distributed.DataParallel] the model is null");
  if (!optimizer_) throw ValueError("[distributed.DataParallel] the optimizer is null");
  init();
  const auto leaves = model_->parameters().flatten();
  for (const auto& [p, a] : leaves) {
    index_[p] = paths_.size();
    paths_.push_back(p);
    if (!is_floating(a.dtype()))
      throw TypeError("[distributed.DataParallel] parameter '" + p + "' has dtype " + dtype_name(a.dtype()) +
                      "; parameters must be floating arrays");
  }
  // buckets in reverse registration order, one dtype each, at most bucket_bytes
  slots_.resize(paths_.size());
  std::vector<std::size_t> open(kNumDTypes, SIZE_MAX);
  for (std::size_t k = leaves.size(); k-- > 0;) {
    const Array& a = leaves[k].second;
    const std::size_t b = static_cast<std::size_t>(a.size()) * itemsize(a.dtype());
    std::size_t& o = open[static_cast<std::size_t>(a.dtype())];
    const std::size_t cap = buckets_.size() <= 1 && o == 0 ? std::min(options_.first_bucket_bytes, options_.bucket_bytes)
                                                          : options_.bucket_bytes;
    if (o == SIZE_MAX || (buckets_[o].bytes + b > cap && !buckets_[o].leaves.empty())) {
      o = buckets_.size();
      buckets_.push_back({a.dtype(), {}, 0});
    }
    slots_[k] = {o, buckets_[o].bytes};
    buckets_[o].leaves.push_back(k);
    buckets_[o].bytes += b;
  }
  sync_state();  // also checks that every rank has the same parameters' structure
}

void DataParallel::sync_state() {
  try {
    model_->set_parameters(broadcast(model_->parameters(), 0));
    const Container buffers = model_->buffers();
    if (buffers.num_leaves() > 0 && !buffers.empty()) model_->set_buffers(broadcast(buffers, 0));
  } catch (const std::exception& e) {
    report_failure(e.what());
    throw;
  }
}

std::vector<std::size_t> DataParallel::bucket_sizes() const {
  std::vector<std::size_t> v;
  for (const Bucket& b : buckets_) v.push_back(b.bytes);
  return v;
}

Array DataParallel::step(const std::function<Array(nn::Module&)>& loss) {
  const double t0 = detail::now();
  timeline_ = StepTimeline{};
  try {
    detail::throw_if_broken();
    const int P = world_size();
    if (options_.broadcast_buffers && P > 1) {
      const Container buffers = model_->buffers();
      if (buffers.num_leaves() > 0 && !buffers.empty()) model_->set_buffers(broadcast(buffers, 0));
    }
    auto timed_loss = [&](nn::Module& m) {
      Array l = loss(m);
      timeline_.forward_end = detail::now() - t0;
      return l;
    };
    Container grads;
    Array value;
    if (P == 1) {  // nothing to average
      std::tie(value, grads) = nn::value_and_grad(*model_, timed_loss);
      timeline_.backward_end = timeline_.reduce_end = detail::now() - t0;
    } else {
      const std::size_t nb = buckets_.size();
      std::vector<std::shared_ptr<std::byte>> bufs(nb);
      std::vector<std::size_t> remaining(nb);
      for (std::size_t b = 0; b < nb; ++b) {
        bufs[b] = detail::host_buffer(buckets_[b].bytes);
        remaining[b] = buckets_[b].leaves.size();
      }
      std::vector<std::shared_ptr<Work::State>> work(nb);
      timeline_.buckets.resize(nb);
      std::size_t launched = 0;
      // buckets start in index order on every rank (MPI matches collectives by issue order)
      auto launch_ready = [&](bool all) {
        while (launched < nb && (all || remaining[launched] == 0)) {
          timeline_.buckets[launched].bytes = buckets_[launched].bytes;
          timeline_.buckets[launched].start = detail::now() - t0;
          const DType d = buckets_[launched].dtype;
          work[launched] =
              detail::start_buffer_all_reduce(bufs[launched], buckets_[launched].bytes / itemsize(d), d, ReduceOp::mean);
          ++launched;
        }
        for (std::size_t b = 0; b < launched; ++b) detail::advance(*work[b]);
      };
      nn::GradReady on_ready = [&](const std::string& path, const Array& g) {
        auto it = index_.find(path);
        if (it == index_.end()) return;
        const Slot s = slots_[it->second];
        detail::copy_bytes(g, bufs[s.bucket].get() + s.offset);
        --remaining[s.bucket];
        if (options_.overlap) launch_ready(false);
      };
      std::tie(value, grads) = nn::value_and_grad(*model_, timed_loss, on_ready);
      timeline_.backward_end = detail::now() - t0;
      launch_ready(true);
      std::vector<std::pair<std::string, Array>> averaged;
      const auto params = model_->parameters().flatten();
      for (std::size_t b = 0; b < nb; ++b) detail::wait(*work[b]);
      timeline_.reduce_end = detail::now() - t0;
      for (std::size_t b = 0; b < nb; ++b) {
        timeline_.buckets[b].done = work[b]->done_time - t0;
        work[b].reset();
      }
      for (std::size_t i = 0; i < params.size(); ++i) {
        const Slot s = slots_[i];
        const Array& p = params[i].second;
        averaged.emplace_back(params[i].first, detail::array_over(bufs[s.bucket], s.offset, p.shape(), p.dtype(), p));
      }
      grads = Container::from_pairs(averaged);
      value = all_reduce(value, ReduceOp::mean);
    }
    model_->set_parameters(optimizer_->step(model_->parameters(), grads));
    timeline_.step_end = detail::now() - t0;
    return value;
  } catch (const std::exception& e) {
    report_failure(e.what());
    throw;
  }
}

void DataParallel::save_on_root(const Container& c, const std::string& path) {
  if (rank() == 0) {
    try {
      c.save(path);
    } catch (const std::exception& e) {
      report_failure(e.what());
      throw;
    }
  }
  barrier();
}

// ---------------------------------------------------------------- DistributedSampler
DistributedSampler::DistributedSampler(std::int64_t n, bool shuffle, std::uint64_t seed, bool drop_last, int rank_,
                                       int world)
    : n_(n), shuffle_(shuffle), drop_last_(drop_last), seed_(seed), rank_(rank_ < 0 ? rank() : rank_),
      world_(world < 0 ? world_size() : world) {
  if (n < 0) throw ValueError("[distributed.DistributedSampler] the dataset size must be >= 0, got " + std::to_string(n));
  if (world_ <= 0 || rank_ >= world_)
    throw ValueError("[distributed.DistributedSampler] rank " + std::to_string(rank_) + " is not in a world of " +
                     std::to_string(world_));
}

std::vector<std::int64_t> DistributedSampler::permutation() const {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n_));
  std::iota(v.begin(), v.end(), 0);
  if (!shuffle_) return v;
  // SplitMix64 from (seed, epoch), Fisher-Yates from the end
  std::uint64_t state = seed_ ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(epoch_ + 1));
  auto next = [&state] {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[next() % i]);
  return v;
}

std::vector<std::int64_t> DistributedSampler::shard(const std::vector<std::int64_t>& perm, int rank, int world,
                                                    bool drop_last) {
  if (world <= 0 || rank < 0 || rank >= world)
    throw ValueError("[distributed.DistributedSampler] rank " + std::to_string(rank) + " is not in a world of " +
                     std::to_string(world));
  const std::size_t n = perm.size(), w = static_cast<std::size_t>(world);
  const std::size_t per = drop_last ? n / w : (n + w - 1) / w;
  std::vector<std::int64_t> out;
  out.reserve(per);
  if (per == 0) return out;
  for (std::size_t k = 0; k < per; ++k) {
    const std::size_t at = k * w + static_cast<std::size_t>(rank);
    out.push_back(perm[at % n]);  // past the end: the padding repeats the start (PyTorch's rule)
  }
  return out;
}

std::vector<std::int64_t> DistributedSampler::indices() const { return shard(permutation(), rank_, world_, drop_last_); }
std::int64_t DistributedSampler::num_samples() const {
  const std::int64_t w = world_;
  return drop_last_ ? n_ / w : (n_ + w - 1) / w;
}
std::int64_t DistributedSampler::total_size() const { return num_samples() * world_; }

// ---------------------------------------------------------------- SyncBatchNorm
SyncBatchNorm::SyncBatchNorm(std::int64_t n, double eps, double momentum, bool affine, bool track, std::int64_t axis,
                             const nn::init::Where& where)
    : features_(n), eps_(eps), momentum_(momentum), affine_(affine), track_(track), axis_(axis) {
  if (affine) {
    register_parameter("weight", nn::init::ones(Shape{n}, where));
    register_parameter("bias", nn::init::zeros(Shape{n}, where));
  }
  if (track) {
    register_buffer("running_mean", nn::init::zeros(Shape{n}, where));
    register_buffer("running_var", nn::init::ones(Shape{n}, where));
  }
}

Array SyncBatchNorm::forward(const Array& x) {
  const char* op = "[distributed.SyncBatchNorm] ";
  Array rm = track_ ? buffer("running_mean") : Array(), rv = track_ ? buffer("running_var") : Array();
  Array w = affine_ ? param("weight") : Array(), b = affine_ ? param("bias") : Array();
  if (!x.defined() || !is_real_floating(x.dtype()))
    throw TypeError(std::string(op) + "the input must be a real floating array");
  if (x.ndim() < 2) throw ValueError(std::string(op) + "the input must have rank >= 2, got shape " + x.shape().str());
  const std::int64_t rank_ = x.ndim();
  const std::int64_t ch = axis_ < 0 ? axis_ + rank_ : axis_;
  if (ch <= 0 || ch >= rank_)
    throw ValueError(std::string(op) + "channel_axis " + std::to_string(axis_) + " is out of range (or the batch axis) for shape " +
                     x.shape().str());
  const std::int64_t C = x.shape()[static_cast<std::size_t>(ch)];
  if (C != features_)
    throw ValueError(std::string(op) + "the input has " + std::to_string(C) + " channels on axis " + std::to_string(ch) +
                     ", the layer " + std::to_string(features_));
  const bool batch_stats = training() || !track_;
  if (!batch_stats || world_size() == 1) {  // per-rank: exactly nn::BatchNorm
    nn::NormResult r = nn::batch_norm(x, rm, rv, w, b, batch_stats, momentum_, eps_, axis_);
    if (track_ && training()) {
      buffer("running_mean") = r.running_mean;
      buffer("running_var") = r.running_var;
    }
    return r.output;
  }
  Dims axes;
  for (std::int64_t i = 0; i < rank_; ++i)
    if (i != ch) axes.push_back(i);
  std::vector<std::int64_t> along_dims(static_cast<std::size_t>(rank_), 1);
  along_dims[static_cast<std::size_t>(ch)] = C;
  const Shape along(along_dims);
  // the global number of values per channel (every rank's batch may differ)
  const std::int64_t local = C ? x.size() / C : 0;
  const std::int64_t total =
      all_reduce(asarray(std::vector<std::int64_t>{local}, std::nullopt, int64, x.device(), x.backend()), ReduceOp::sum)
          .to_vector<std::int64_t>()[0];
  if (total <= 1)
    throw ValueError(std::string(op) + "expected more than 1 value per channel over all ranks when training, got " +
                     std::to_string(total));
  const double inv_n = 1.0 / static_cast<double>(total);
  Array mu = all_reduce(sum(x, axes, true), ReduceOp::sum) * inv_n;
  Array d = x - mu;
  Array var_b = all_reduce(sum(d * d, axes, true), ReduceOp::sum) * inv_n;
  Array scale = 1.0 / sqrt(var_b + eps_);
  if (w.defined()) scale = scale * reshape(w, along);
  Array y = d * scale;
  if (b.defined()) y = y + reshape(b, along);
  if (track_) {
    const double m = momentum_;
    Array bm = reshape(mu, Shape{C}), bv = reshape(var_b, Shape{C}) * (static_cast<double>(total) / static_cast<double>(total - 1));
    buffer("running_mean") = stop_gradient(stop_gradient(rm) * (1.0 - m) + stop_gradient(bm) * m);
    buffer("running_var") = stop_gradient(stop_gradient(rv) * (1.0 - m) + stop_gradient(bv) * m);
  }
  return y;
}

std::string SyncBatchNorm::describe() const { return "SyncBatchNorm " + std::to_string(features_); }

}  // namespace ivy::distributed
