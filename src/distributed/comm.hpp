// A collective under way (Work::State): a list of stages, each of which may post one
// non-blocking MPI call; advance() runs the next stage once the posted call has completed.
// Shared by comm.cpp (the collectives) and data_parallel.cpp (gradient buckets).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "distributed/reduce.hpp"
#include "ivy/distributed.hpp"

namespace ivy::distributed {

struct Work::State {
  std::string name;  // "distributed.all_reduce": the [prefix] of its errors
  std::vector<std::function<void(State&)>> stages;
  std::size_t next = 0;
  void* request = nullptr;  // the posted MPI_Request (owned; comm.cpp), null when none
  bool done = false, failed = false;
  int comm = 0;       // which of the world's communicators its calls use (comm.cpp)
  int reduce_op = 0;  // the ReduceOp MPI applies, where MPI's own reduction is used
  Array result;
  double start_time = 0, done_time = 0;  // detail::now()
  // what the stages work on
  detail::CallHeader header;
  std::vector<detail::CallHeader> headers;
  std::shared_ptr<std::byte> send_copy, recv, out;
  const std::byte* send = nullptr;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  ~State();
};

namespace detail {
double now();  // seconds, steady clock
// Runs the stages that can run now; true once the collective is complete.
bool advance(Work::State& s);
// advance() until complete, watching for failures of other ranks.
void wait(Work::State& s);
// The sum/mean/... over ranks of n elements of d in buf, written back into buf (the caller
// keeps buf alive until done); no header check: for buffers whose layout every rank agreed
// on before (DataParallel's buckets).
std::shared_ptr<Work::State> start_buffer_all_reduce(std::shared_ptr<std::byte> buf, std::size_t n, DType d,
                                                     ReduceOp op);
// Exchanges h with every rank and throws, on every rank, when they differ.
void check_same_call(const CallHeader& h, const char* name);
// The same, started: wait() on it checks.
std::shared_ptr<Work::State> start_header_check(const CallHeader& h, const char* name);
// The world is broken: throw its error.
void throw_if_broken();
}  // namespace detail

}  // namespace ivy::distributed
