// ivy::distributed: collectives and data-parallel training over Open MPI (target
// ivy::distributed, built when Debian's libopenmpi-dev is found; docs/distributed.md).
//
//   mpirun -np 2 ./train            (each process: one rank)
//
//   ivy::distributed::init();                     // MPI_Init_thread when launched by mpirun/srun
//   Array s = ivy::distributed::all_reduce(x);    // the sum over ranks, on every rank
//   ivy::distributed::DataParallel dp(model, opt);
//   Array loss = dp.step([&](nn::Module& m) { return nn::cross_entropy(m(x), y); });
//
// Without mpirun (no launcher in the environment) the world has one rank and every
// collective returns its input's values: the same program runs alone or distributed.
//
// Collectives take arrays of every backend and dtype, read them where they lie when they are
// contiguous CPU arrays (else through one host copy) and return new arrays on the input's
// backend; inputs are never modified. Every rank must make the same collective calls in the
// same order. Each call first exchanges a small header (operation, dtype, shape), so that
// mismatched calls fail on every rank with an error naming the ranks' shapes and dtypes
// instead of exchanging garbage. Reductions are computed in rank order (rank 0's values
// first, then 1, ...), by the rank that owns a chunk, and then sent to all: every rank gets
// the same bits, and a run gets the same bits each time for the same world size; float16 and
// bfloat16 accumulate in float32 and round once.
//
// Failures: report_failure(what) (DataParallel calls it for an exception inside its step)
// tells the other ranks, which are waiting in a collective or reach one; they throw an
// ivy::Error "[distributed] rank R failed: what", and the world is then broken (every later
// collective throws the same error at once) instead of hanging.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ivy/container.hpp"
#include "ivy/module.hpp"
#include "ivy/optim.hpp"

namespace ivy::distributed {

enum class ReduceOp { sum, mean, max, min, prod };
const char* reduce_op_name(ReduceOp op);

// ---------------------------------------------------------------- the world
// Starts MPI (MPI_Init_thread asking for MPI_THREAD_MULTIPLE; an error if MPI gives less than
// MPI_THREAD_SERIALIZED: ivy serializes its own MPI calls) when the process was started by an
// MPI launcher (mpirun, mpiexec, srun: found by their environment variables), or when
// IVY_DISTRIBUTED=mpi; otherwise a world of one. IVY_DISTRIBUTED=local forces a world of one.
// Idempotent. Every function below calls it when it has not been called.
void init();
// Ends MPI (MPI_Finalize; after a barrier unless the world is broken); a no-op for a world
// of one or when MPI was started by someone else.
void finalize();
bool initialized();
// true when the world runs over MPI (even of one process started by mpirun -np 1)
bool uses_mpi();
int rank();
int world_size();
// A one-line description: "rank 1 of 2 (Open MPI v4.1.4, thread level multiple)".
std::string describe();
void barrier();

// Tells every other rank that this one failed (what: the cause, in one line); they stop with
// an error naming this rank. Marks the world broken here too. Never throws.
void report_failure(const std::string& what) noexcept;
// "" while every rank is fine, else the error every collective now throws.
std::string broken_reason();

// ---------------------------------------------------------------- collectives on arrays
// The element-wise reduction over ranks, on every rank. sum and mean are differentiable (the
// gradient of an all_reduce is the all_reduce of the cotangents, as torch.distributed.nn's):
// inside a gradient computation every rank must take the gradient too. max and min propagate
// NaN and are errors for complex arrays; mean needs a floating dtype; bool takes max (any)
// and min (all) only. Integers wrap as NumPy's do.
Array all_reduce(const Array& x, ReduceOp op = ReduceOp::sum);
// root's array on every rank (the other ranks' x gives the shape and dtype, checked).
Array broadcast(const Array& x, int root = 0);
// Every rank's x stacked in rank order: shape [world_size, *x.shape].
Array all_gather(const Array& x);
// The reduction of x over ranks, split along axis 0 into world_size equal parts: rank r gets
// part r (x.shape[0] must be a multiple of world_size; an error otherwise).
Array reduce_scatter(const Array& x, ReduceOp op = ReduceOp::sum);

// A collective under way: wait() returns its result; test() advances it without blocking.
class Work {
 public:
  Work();
  ~Work();
  Work(Work&&) noexcept;
  Work& operator=(Work&&) noexcept;
  bool test();
  Array wait();
  bool valid() const { return state_ != nullptr; }
  struct State;

 private:
  explicit Work(std::shared_ptr<State> s);
  std::shared_ptr<State> state_;
  friend Work all_reduce_async(const Array& x, ReduceOp op);
};
// all_reduce that returns at once (not differentiable). Calls on the other ranks match it in
// issue order; results arrive by wait() (or test(), or any later wait).
Work all_reduce_async(const Array& x, ReduceOp op = ReduceOp::sum);

// ---------------------------------------------------------------- collectives on containers
inline constexpr std::size_t kDefaultBucketBytes = std::size_t{1} << 20;
// Every leaf reduced over ranks, the leaves packed into buckets of at most bucket_bytes (one
// dtype per bucket; a larger leaf gets a bucket of its own), one collective per bucket, all
// buckets in flight at once. The structure, shapes and dtypes must match on every rank (one
// header per call checks them).
Container all_reduce(const Container& c, ReduceOp op = ReduceOp::sum, std::size_t bucket_bytes = kDefaultBucketBytes);
Container broadcast(const Container& c, int root = 0, std::size_t bucket_bytes = kDefaultBucketBytes);

// ---------------------------------------------------------------- data-parallel training
struct DataParallelOptions {
  // gradient buckets: leaves in reverse registration order (the order the backward pass
  // finishes them), at most this many bytes each
  std::size_t bucket_bytes = kDefaultBucketBytes;
  // the first bucket (the last layers' gradients, final first) is capped lower, so that its
  // all-reduce starts early in the backward pass (PyTorch's DDP does the same)
  std::size_t first_bucket_bytes = std::size_t{64} << 10;
  // start a bucket's all-reduce as soon as its gradients are final, during the backward pass
  // (off: every bucket after it)
  bool overlap = true;
  // rank 0's buffers (batch-norm statistics) sent to every rank before each step, as
  // PyTorch's DistributedDataParallel does; SyncBatchNorm's are equal everywhere anyway
  bool broadcast_buffers = true;
};

// Where one step's time went (seconds from the step's start), for the overlap figures.
struct StepTimeline {
  double forward_end = 0, backward_end = 0, reduce_end = 0, step_end = 0;
  struct Bucket {
    std::size_t bytes = 0;
    double start = 0, done = 0;  // done: when a test or wait first saw it complete
  };
  std::vector<Bucket> buckets;
  // the part of the buckets' in-flight time that lay before backward_end, over all of it
  double hidden_share() const;
};

// A Module and its optimizer trained data-parallel: at construction rank 0's parameters and
// buffers go to every rank; each step computes the loss on this rank's batch, averages the
// gradients over ranks with bucketed all-reduces that start during the backward pass, and
// takes the optimizer step on every rank, so the parameters stay identical everywhere.
class DataParallel {
 public:
  DataParallel(std::shared_ptr<nn::Module> model, std::shared_ptr<optim::Optimizer> optimizer,
               DataParallelOptions options = {});
  // One training step; returns the loss averaged over ranks. An exception inside (the loss
  // function, the backward pass, the optimizer) is reported to the other ranks and rethrown.
  Array step(const std::function<Array(nn::Module&)>& loss);
  nn::Module& module() { return *model_; }
  optim::Optimizer& optimizer() { return *optimizer_; }
  const StepTimeline& last_timeline() const { return timeline_; }
  // Number of gradient buckets and their sizes in bytes, in the order they are reduced.
  std::vector<std::size_t> bucket_sizes() const;
  // On rank 0 only (the others wait): c.save(path); then a barrier.
  static void save_on_root(const Container& c, const std::string& path);

 private:
  struct Bucket {
    DType dtype;
    std::vector<std::size_t> leaves;  // indices into paths_
    std::size_t bytes = 0;
  };
  struct Slot {
    std::size_t bucket = 0, offset = 0;  // where a parameter's gradient lies in its bucket
  };
  void sync_state();
  std::shared_ptr<nn::Module> model_;
  std::shared_ptr<optim::Optimizer> optimizer_;
  DataParallelOptions options_;
  std::vector<std::string> paths_;
  std::map<std::string, std::size_t> index_;  // path -> index into paths_
  std::vector<Slot> slots_;                   // by index into paths_
  std::vector<Bucket> buckets_;
  StepTimeline timeline_;
};

// PyTorch's DistributedSampler: each epoch a permutation of 0..n-1 from (seed, epoch) when
// shuffling, padded to a multiple of the world size by repeating its start (or cut to one,
// drop_last), of which rank r takes the elements r, r + world, r + 2 world, ...; so that the
// b-th batch of every rank together are the b-th batch of world * batch elements of the
// whole permutation. The permutation is ivy's own (SplitMix64 Fisher-Yates): equal on every
// rank for the same seed and epoch.
class DistributedSampler {
 public:
  DistributedSampler(std::int64_t n, bool shuffle = true, std::uint64_t seed = 0, bool drop_last = false,
                     int rank = -1, int world_size = -1);  // -1: this process's
  void set_epoch(std::int64_t epoch) { epoch_ = epoch; }
  // This rank's indices for the current epoch.
  std::vector<std::int64_t> indices() const;
  // The sharding rule on a given permutation: padded (or cut) to a multiple of world, then
  // the elements rank, rank + world, ...
  static std::vector<std::int64_t> shard(const std::vector<std::int64_t>& permutation, int rank, int world,
                                         bool drop_last = false);
  // The whole permutation of the epoch, before padding (what one process would use).
  std::vector<std::int64_t> permutation() const;
  std::int64_t num_samples() const;  // per rank
  std::int64_t total_size() const;   // num_samples() * world

 private:
  std::int64_t n_, epoch_ = 0;
  bool shuffle_, drop_last_;
  std::uint64_t seed_;
  int rank_, world_;
};

// Batch normalization whose training statistics are those of the whole global batch (each
// channel's sum and centered sum of squares all-reduced over ranks, two small collectives
// per call and two in the backward pass); the same variables and the same evaluation as
// nn::BatchNorm, whose results it equals on a world of one. Every rank must call it with
// the same channel count (the batch sizes may differ, but not be 0 on every rank).
class SyncBatchNorm : public nn::Module {
 public:
  explicit SyncBatchNorm(std::int64_t num_features, double eps = 1e-5, double momentum = 0.1, bool affine = true,
                         bool track_running_stats = true, std::int64_t channel_axis = 1,
                         const nn::init::Where& where = {});
  Array forward(const Array& x) override;

 protected:
  std::string describe() const override;

 private:
  std::int64_t features_;
  double eps_, momentum_;
  bool affine_, track_;
  std::int64_t axis_;
};

}  // namespace ivy::distributed
