// ivy::distributed over Open MPI: the world, the failure channel and the collectives on
// arrays and containers (include/ivy/distributed.hpp).
//
// Every collective is a Work::State of stages (comm.hpp): the header exchange (an
// MPI_Iallgather of a CallHeader), then the data movement as non-blocking MPI calls, with the
// reduction done on the host by the owner of each chunk, in rank order. Waiting polls the
// posted request and a second communicator on which failed ranks send their cause.
#include "distributed/comm.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "ivy/autodiff.hpp"
#include "ivy/functional.hpp"
#include "ivy/trace.hpp"

namespace ivy::distributed {

using detail::CallHeader;

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::mean: return "mean";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
    case ReduceOp::prod: return "prod";
  }
  return "?";
}

namespace {

constexpr int kFailTag = 7001;
enum Kind : std::int32_t { kAllReduce = 1, kBroadcast, kAllGather, kReduceScatter, kBarrier, kAllReduceC, kBroadcastC };

struct World {
  std::recursive_mutex mu;  // ivy's MPI calls, one at a time
  bool inited = false, mpi = false, own = false, finalized = false;
  int rank = 0, size = 1, level = 0;
  // Collectives in flight at once each use their own communicator, comms[seq % kComms] by
  // their sequence number (equal on every rank: ranks make the same calls in the same order),
  // so that MPI matches each one's calls whatever order the ranks' waits advance them in; a
  // new collective first completes the one kComms before it, which used the same communicator.
  static constexpr int kComms = 8;
  std::vector<MPI_Comm> comms;
  std::uint64_t seq = 0;
  std::vector<std::weak_ptr<Work::State>> ring = std::vector<std::weak_ptr<Work::State>>(kComms);
  MPI_Comm ctl = MPI_COMM_NULL;
  MPI_Datatype unit[5] = {};  // contiguous runs of 1, 2, 4, 8, 16 bytes
  std::string broken;
  std::string version;
  // collectives dropped while MPI still held their request (a broken world): kept, with the
  // buffers MPI may still read or write, until MPI_Finalize (finalize() frees them)
  std::vector<Work::State*> abandoned;
};
World& W() {
  static World w;
  return w;
}
using Lock = std::lock_guard<std::recursive_mutex>;

bool launched_by_mpi() {
  if (const char* mode = std::getenv("IVY_DISTRIBUTED")) {
    if (std::strcmp(mode, "local") == 0) return false;
    if (std::strcmp(mode, "mpi") == 0) return true;
  }
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

void check_rc(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw Error(std::string("[distributed] ") + what + " failed on rank " + std::to_string(W().rank) + ": " +
              std::string(msg, static_cast<std::size_t>(len)));
}

MPI_Comm comm_of(const Work::State& s) { return W().comms[static_cast<std::size_t>(s.comm)]; }

MPI_Datatype unit_of(std::size_t itemsize) {
  switch (itemsize) {
    case 1: return W().unit[0];
    case 2: return W().unit[1];
    case 4: return W().unit[2];
    case 8: return W().unit[3];
    default: return W().unit[4];
  }
}

// Under the lock: a failure message from another rank makes the world broken and throws.
void poll_failures_locked() {
  World& w = W();
  if (!w.mpi || w.size == 1) return;
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, kFailTag, w.ctl, &flag, &st);
  if (!flag) return;
  int count = 0;
  MPI_Get_count(&st, MPI_CHAR, &count);
  std::string msg(static_cast<std::size_t>(std::max(count, 0)), '\0');
  MPI_Recv(msg.data(), count, MPI_CHAR, st.MPI_SOURCE, kFailTag, w.ctl, MPI_STATUS_IGNORE);
  w.broken = "[distributed] rank " + std::to_string(st.MPI_SOURCE) + " failed: " + msg +
             " (rank " + std::to_string(w.rank) + " stops too: the world can no longer communicate)";
  throw Error(w.broken);
}

// The MPI type for two ranks' op on d where MPI's result is the fold's bit for bit (sum, mean
// and prod of integers and real floats; sum and mean of complex), else MPI_DATATYPE_NULL.
// (max/min: MPI's do not propagate NaN; complex products may be contracted differently.)
MPI_Datatype two_rank_type(ReduceOp op, DType d) {
  if (op == ReduceOp::max || op == ReduceOp::min) return MPI_DATATYPE_NULL;
  if (op == ReduceOp::mean && !is_floating(d)) return MPI_DATATYPE_NULL;
  switch (d) {
    case DType::int8: return MPI_INT8_T;
    case DType::int16: return MPI_INT16_T;
    case DType::int32: return MPI_INT32_T;
    case DType::int64: return MPI_INT64_T;
    case DType::uint8: return MPI_UINT8_T;
    case DType::uint16: return MPI_UINT16_T;
    case DType::uint32: return MPI_UINT32_T;
    case DType::uint64: return MPI_UINT64_T;
    case DType::float32: return MPI_FLOAT;
    case DType::float64: return MPI_DOUBLE;
    case DType::complex64: return op == ReduceOp::prod ? MPI_DATATYPE_NULL : MPI_C_FLOAT_COMPLEX;
    case DType::complex128: return op == ReduceOp::prod ? MPI_DATATYPE_NULL : MPI_C_DOUBLE_COMPLEX;
    default: return MPI_DATATYPE_NULL;  // bool, float16, bfloat16: ivy's fold
  }
}
MPI_Op op_of(int op) {
  switch (static_cast<ReduceOp>(op)) {
    case ReduceOp::prod: return MPI_PROD;
    default: return MPI_SUM;
  }
}

// [lo, lo + len) of n elements split into parts near-equal chunks, chunk j
std::size_t chunk_lo(std::size_t n, int parts, int j) {
  const std::size_t base = n / static_cast<std::size_t>(parts), extra = n % static_cast<std::size_t>(parts);
  return static_cast<std::size_t>(j) * base + std::min(static_cast<std::size_t>(j), extra);
}
std::size_t chunk_len(std::size_t n, int parts, int j) { return chunk_lo(n, parts, j + 1) - chunk_lo(n, parts, j); }

int as_count(std::size_t n, const std::string& name) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw ValueError("[" + name + "] a chunk of " + std::to_string(n) +
                     " elements per rank is more than MPI's int counts allow (2^31 - 1)");
  return static_cast<int>(n);
}

void post(Work::State& s, const std::function<int(MPI_Request*)>& call, const char* what) {
  auto* req = new MPI_Request(MPI_REQUEST_NULL);
  s.request = req;
  Lock l(W().mu);
  check_rc(call(req), what);
}

// The header stages: exchange s.header, then compare (the same error on every rank).
void add_header_stages(Work::State& s) {
  if (W().size == 1) return;
  s.stages.push_back([](Work::State& st) {
    st.headers.resize(static_cast<std::size_t>(W().size));
    post(
        st,
        [&](MPI_Request* r) {
          return MPI_Iallgather(&st.header, sizeof(CallHeader), MPI_BYTE, st.headers.data(), sizeof(CallHeader),
                                MPI_BYTE, comm_of(st), r);
        },
        "MPI_Iallgather (call header)");
  });
  s.stages.push_back([](Work::State& st) {
    bool same = true;
    for (const CallHeader& h : st.headers) same = same && std::memcmp(&h, &st.headers[0], sizeof h) == 0;
    if (same) return;
    std::string msg = "[" + st.name + "] the ranks' calls do not match:";
    for (std::size_t r = 0; r < st.headers.size() && r < 16; ++r)
      msg += (r ? "; rank " : " rank ") + std::to_string(r) + ": " + detail::describe_header(st.headers[r]);
    throw ValueError(msg);
  });
}

CallHeader header_of(std::int32_t kind, std::int32_t op, const Array& x) {
  CallHeader h;
  h.kind = kind;
  h.op = op;
  h.dtype = static_cast<std::int32_t>(x.dtype());
  h.ndim = x.ndim();
  for (std::int64_t i = 0; i < x.ndim() && i < 32; ++i) h.dims[i] = x.shape()[static_cast<std::size_t>(i)];
  h.bytes = static_cast<std::uint64_t>(x.size()) * itemsize(x.dtype());
  return h;
}

void check_defined(const Array& x, const std::string& name) {
  if (!x.defined()) throw ValueError("[" + name + "] got an undefined array");
  if (tracing_active())
    throw ValueError("[" + name + "] cannot run inside ivy::trace or ivy::compile: a collective is not a primitive, " +
                     "and a graph would keep its result as a constant");
}

// The reduction stages over n elements of d: send (the input) -> out, in place when send is
// out's own memory. Chunk j of the result is reduced by rank j, then gathered by all.
void add_reduce_stages(Work::State& s, std::size_t n, DType d, ReduceOp op) {
  const int P = W().size, me = W().rank;
  const std::size_t isz = itemsize(d);
  if (P == 1) {
    s.stages.push_back([n, d, op](Work::State& st) {
      // one part: a copy (mean divides by 1); nothing to do in place
      if (st.out.get() != st.send) detail::reduce_parts(st.out.get(), st.send, 0, 1, n, d, op);
    });
    return;
  }
  if (MPI_Datatype t = two_rank_type(op, d); P == 2 && t != MPI_DATATYPE_NULL) {
    // two ranks: a op b == b op a bit for bit for these ops and types, so MPI's own
    // all-reduce gives what the rank-order fold gives, in one exchange
    const int count = as_count(n, s.name);
    s.stages.push_back([count, t](Work::State& st) {
      post(
          st,
          [&](MPI_Request* r) {
            return MPI_Iallreduce(st.out.get() == st.send ? MPI_IN_PLACE : st.send, st.out.get(), count, t,
                                  op_of(st.reduce_op), comm_of(st), r);
          },
          "MPI_Iallreduce");
    });
    if (op == ReduceOp::mean)
      s.stages.push_back([n, d](Work::State& st) {
        // the mean of two: the sum halved, as the fold divides it
        if (d == DType::float32) for (std::size_t i = 0; i < n; ++i) reinterpret_cast<float*>(st.out.get())[i] /= 2.0f;
        else if (d == DType::float64) for (std::size_t i = 0; i < n; ++i) reinterpret_cast<double*>(st.out.get())[i] /= 2.0;
        else if (d == DType::complex64) for (std::size_t i = 0; i < n; ++i) reinterpret_cast<std::complex<float>*>(st.out.get())[i] /= 2.0f;
        else for (std::size_t i = 0; i < n; ++i) reinterpret_cast<std::complex<double>*>(st.out.get())[i] /= 2.0;
      });
    s.reduce_op = static_cast<int>(op == ReduceOp::mean ? ReduceOp::sum : op);
    return;
  }
  for (int j = 0; j < P; ++j) as_count(chunk_len(n, P, j), s.name);
  s.stages.push_back([n, d, P, me, isz](Work::State& st) {
    const std::size_t mine = chunk_len(n, P, me);
    st.recv = detail::host_buffer(mine * isz * static_cast<std::size_t>(P));
    st.send_counts.resize(static_cast<std::size_t>(P));
    st.send_displs.resize(static_cast<std::size_t>(P));
    st.recv_counts.assign(static_cast<std::size_t>(P), static_cast<int>(mine));
    st.recv_displs.resize(static_cast<std::size_t>(P));
    for (int j = 0; j < P; ++j) {
      st.send_counts[static_cast<std::size_t>(j)] = static_cast<int>(chunk_len(n, P, j));
      st.send_displs[static_cast<std::size_t>(j)] = static_cast<int>(chunk_lo(n, P, j));
      st.recv_displs[static_cast<std::size_t>(j)] = static_cast<int>(mine) * j;
    }
    post(
        st,
        [&](MPI_Request* r) {
          return MPI_Ialltoallv(st.send, st.send_counts.data(), st.send_displs.data(), unit_of(isz), st.recv.get(),
                                st.recv_counts.data(), st.recv_displs.data(), unit_of(isz), comm_of(st), r);
        },
        "MPI_Ialltoallv");
  });
  s.stages.push_back([n, d, op, P, me, isz](Work::State& st) {
    const std::size_t mine = chunk_len(n, P, me);
    detail::reduce_parts(st.out.get() + chunk_lo(n, P, me) * isz, st.recv.get(), mine * isz, P, mine, d, op);
    st.recv.reset();
    // gathered in place: every rank's chunk lies at its offset of out
    for (int j = 0; j < P; ++j) {
      st.recv_counts[static_cast<std::size_t>(j)] = static_cast<int>(chunk_len(n, P, j));
      st.recv_displs[static_cast<std::size_t>(j)] = static_cast<int>(chunk_lo(n, P, j));
    }
    post(
        st,
        [&](MPI_Request* r) {
          return MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, st.out.get(), st.recv_counts.data(),
                                 st.recv_displs.data(), unit_of(isz), comm_of(st), r);
        },
        "MPI_Iallgatherv");
  });
}

// The deleter of every collective's state. A collective dropped before its end is completed
// here, so that the ranks' calls stay matched, unless the world is broken or a stage failed;
// then a request MPI still holds keeps the state (its buffers and the arrays its stages hold)
// alive until MPI_Finalize, since MPI may still write into them.
void drop_state(Work::State* s) {
  if (!s->done && !s->failed && W().broken.empty()) {
    try {
      detail::wait(*s);
    } catch (...) {
    }
  }
  if (s->request) {
    World& w = W();
    Lock l(w.mu);
    if (!w.finalized) {
      w.abandoned.push_back(s);
      return;
    }
  }
  delete s;
}

std::shared_ptr<Work::State> new_state(const char* name) {
  init();
  detail::throw_if_broken();
  World& w = W();
  Lock l(w.mu);
  const std::size_t slot = static_cast<std::size_t>(w.seq++ % World::kComms);
  if (auto before = w.ring[slot].lock(); before && !before->done) detail::wait(*before);
  auto s = std::shared_ptr<Work::State>(new Work::State(), drop_state);
  s->name = std::string("distributed.") + name;
  s->comm = static_cast<int>(slot);
  s->start_time = detail::now();
  w.ring[slot] = s;
  return s;
}

void refuse_reduce(const std::string& name, ReduceOp op, DType d) {
  const std::string why = detail::reduce_refusal(op, d);
  if (!why.empty()) throw TypeError("[" + name + "] " + why);
}

std::shared_ptr<Work::State> start_all_reduce(const Array& x, ReduceOp op) {
  auto s = new_state("all_reduce");
  check_defined(x, s->name);
  s->header = header_of(kAllReduce, static_cast<std::int32_t>(op), x);
  add_header_stages(*s);
  const std::size_t n = static_cast<std::size_t>(x.size());
  const DType d = x.dtype();
  s->stages.push_back([x, op, n, d](Work::State& st) {  // the same verdict on every rank: headers match
    refuse_reduce(st.name, op, d);
    st.send = detail::host_bytes(x, st.send_copy);
    st.out = st.send_copy ? st.send_copy : detail::host_buffer(n * itemsize(d));  // a copy is ours to overwrite
  });
  add_reduce_stages(*s, n, d, op);
  s->stages.push_back([x](Work::State& st) {
    st.result = detail::array_over(st.out, 0, x.shape(), x.dtype(), x);
    st.send_copy.reset();
  });
  return s;
}

Array wait_result(const std::shared_ptr<Work::State>& s) {
  detail::wait(*s);
  return s->result;
}

}  // namespace

// ---------------------------------------------------------------- Work::State and waiting
Work::State::~State() { delete static_cast<MPI_Request*>(request); }

namespace detail {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool advance(Work::State& s) {
  if (s.done) return true;
  if (s.failed) throw Error("[" + s.name + "] this collective failed before");
  for (;;) {
    if (s.request) {
      auto* r = static_cast<MPI_Request*>(s.request);
      int flag = 0;
      {
        Lock l(W().mu);
        if (!W().broken.empty()) throw Error(W().broken);
        check_rc(MPI_Test(r, &flag, MPI_STATUS_IGNORE), "MPI_Test");
        if (!flag) {
          poll_failures_locked();
          return false;
        }
      }
      delete r;
      s.request = nullptr;
    }
    if (s.next == s.stages.size()) {
      s.done = true;
      s.done_time = now();
      s.stages.clear();
      return true;
    }
    try {
      s.stages[s.next++](s);
    } catch (...) {
      s.failed = true;  // the same on every rank (a header check, a refusal): nothing left posted
      throw;
    }
  }
}

void wait(Work::State& s) {
  for (unsigned spins = 0; !advance(s); ++spins) {
    if (spins > 200000) std::this_thread::sleep_for(std::chrono::microseconds(50));
    else if (spins > 2000) std::this_thread::yield();
  }
}

void throw_if_broken() {
  Lock l(W().mu);
  if (!W().broken.empty()) throw Error(W().broken);
}

std::shared_ptr<Work::State> start_buffer_all_reduce(std::shared_ptr<std::byte> buf, std::size_t n, DType d,
                                                     ReduceOp op) {
  auto s = new_state("all_reduce");
  refuse_reduce(s->name, op, d);
  s->send = buf.get();
  s->out = std::move(buf);
  add_reduce_stages(*s, n, d, op);
  detail::advance(*s);  // posts the first exchange
  return s;
}

std::shared_ptr<Work::State> start_header_check(const CallHeader& h, const char* name) {
  auto s = new_state(name);
  s->header = h;
  add_header_stages(*s);
  advance(*s);
  return s;
}
void check_same_call(const CallHeader& h, const char* name) { wait(*start_header_check(h, name)); }
}  // namespace detail

Work::Work() = default;
Work::~Work() = default;
Work::Work(Work&&) noexcept = default;
Work& Work::operator=(Work&&) noexcept = default;
Work::Work(std::shared_ptr<State> s) : state_(std::move(s)) {}
bool Work::test() {
  if (!state_) throw ValueError("[distributed.Work] test() on an empty Work");
  return detail::advance(*state_);
}
Array Work::wait() {
  if (!state_) throw ValueError("[distributed.Work] wait() on an empty Work");
  detail::wait(*state_);
  return state_->result;
}

// ---------------------------------------------------------------- the world
void init() {
  World& w = W();
  Lock l(w.mu);
  if (w.inited) return;
  if (launched_by_mpi()) {
    int already = 0;
    MPI_Initialized(&already);
    int level = 0;
    if (!already) {
      check_rc(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &level), "MPI_Init_thread");
      w.own = true;
    } else {
      MPI_Query_thread(&level);
    }
    w.level = level;
    if (level < MPI_THREAD_SERIALIZED)
      throw Error("[distributed.init] MPI provides thread level " + std::to_string(level) +
                  ", below MPI_THREAD_SERIALIZED, which ivy needs (its calls may come from several threads, "
                  "one at a time)");
    w.comms.assign(World::kComms, MPI_COMM_NULL);
    for (MPI_Comm& c : w.comms) {
      check_rc(MPI_Comm_dup(MPI_COMM_WORLD, &c), "MPI_Comm_dup");
      MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    }
    check_rc(MPI_Comm_dup(MPI_COMM_WORLD, &w.ctl), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(w.ctl, MPI_ERRORS_RETURN);
    MPI_Comm_rank(w.ctl, &w.rank);
    MPI_Comm_size(w.ctl, &w.size);
    const int sizes[5] = {1, 2, 4, 8, 16};
    for (int i = 0; i < 5; ++i) {
      MPI_Type_contiguous(sizes[i], MPI_BYTE, &w.unit[i]);
      MPI_Type_commit(&w.unit[i]);
    }
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(lib, &len);
    w.version.assign(lib, static_cast<std::size_t>(len));
    if (auto cut = w.version.find_first_of(",\n"); cut != std::string::npos) w.version.resize(cut);
    w.mpi = true;
  }
  w.inited = true;
}

void finalize() {
  World& w = W();
  Lock l(w.mu);
  if (!w.inited || w.finalized) return;
  w.finalized = true;
  if (!w.mpi || !w.own) return;
  if (w.broken.empty()) {
    try {
      barrier();
    } catch (const Error&) {  // a rank failed meanwhile: finalize without the barrier
    }
  }
  for (auto& t : w.unit) MPI_Type_free(&t);
  MPI_Comm_free(&w.ctl);
  for (MPI_Comm& c : w.comms) MPI_Comm_free(&c);
  MPI_Finalize();
  for (Work::State* s : w.abandoned) delete s;
  w.abandoned.clear();
}

bool initialized() { return W().inited; }
bool uses_mpi() {
  init();
  return W().mpi;
}
int rank() {
  init();
  return W().rank;
}
int world_size() {
  init();
  return W().size;
}
std::string describe() {
  init();
  World& w = W();
  std::string s = "rank " + std::to_string(w.rank) + " of " + std::to_string(w.size);
  if (!w.mpi) return s + " (no MPI launcher: a world of one)";
  const char* level = w.level >= MPI_THREAD_MULTIPLE ? "multiple" : w.level >= MPI_THREAD_SERIALIZED ? "serialized" : "lower";
  return s + " (" + w.version + ", thread level " + level + ")";
}

void barrier() {
  CallHeader h;
  h.kind = kBarrier;
  detail::check_same_call(h, "barrier");
}

void report_failure(const std::string& what) noexcept {
  try {
    init();
    World& w = W();
    Lock l(w.mu);
    if (!w.broken.empty()) return;  // already broken: the others know, or told us
    std::string msg = what.substr(0, 2000);
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    w.broken = "[distributed] rank " + std::to_string(w.rank) + " failed: " + msg;
    if (!w.mpi) return;
    for (int r = 0; r < w.size; ++r)
      if (r != w.rank) MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_CHAR, r, kFailTag, w.ctl);
  } catch (...) {  // never throws: it runs on an error path
  }
}

std::string broken_reason() {
  Lock l(W().mu);
  return W().broken;
}

// ---------------------------------------------------------------- collectives on arrays
namespace {
Array all_reduce_now(const Array& x, ReduceOp op) { return wait_result(start_all_reduce(x, op)); }
}  // namespace

Array all_reduce(const Array& x, ReduceOp op) {
  if (op != ReduceOp::sum && op != ReduceOp::mean) return all_reduce_now(x, op);
  if (!x.defined()) throw ValueError("[distributed.all_reduce] got an undefined array");
  if (!is_floating(x.dtype())) return all_reduce_now(x, op);
  // differentiable: the cotangent of every rank's result reaches every rank's input
  static const auto make = [](ReduceOp o) {
    return custom_vjp([o](const std::vector<Array>& xs) { return std::vector<Array>{all_reduce_now(xs[0], o)}; },
                      [o](const std::vector<Array>&, const std::vector<Array>&, const std::vector<Array>& cts) {
                        return std::vector<Array>{all_reduce(cts[0], o)};
                      });
  };
  static const ArraysFn sum_fn = make(ReduceOp::sum), mean_fn = make(ReduceOp::mean);
  return (op == ReduceOp::sum ? sum_fn : mean_fn)({x})[0];
}

Work all_reduce_async(const Array& x, ReduceOp op) {
  auto s = start_all_reduce(x, op);
  detail::advance(*s);
  return Work(s);
}

Array broadcast(const Array& x, int root) {
  auto s = new_state("broadcast");
  check_defined(x, s->name);
  if (root < 0 || root >= W().size)
    throw ValueError("[" + s->name + "] root " + std::to_string(root) + " is not a rank of this world of " +
                     std::to_string(W().size));
  s->header = header_of(kBroadcast, root, x);
  add_header_stages(*s);
  const std::size_t bytes = static_cast<std::size_t>(x.size()) * itemsize(x.dtype());
  s->stages.push_back([x, root, bytes](Work::State& st) {
    st.out = detail::host_buffer(bytes);
    if (W().rank == root && bytes) {
      st.send = detail::host_bytes(x, st.send_copy);
      std::memcpy(st.out.get(), st.send, bytes);
      st.send_copy.reset();
    }
    if (W().size == 1) return;
    const int count = as_count(static_cast<std::size_t>(x.size()), st.name);
    post(
        st, [&](MPI_Request* r) { return MPI_Ibcast(st.out.get(), count, unit_of(itemsize(x.dtype())), root, comm_of(st), r); },
        "MPI_Ibcast");
  });
  s->stages.push_back([x](Work::State& st) { st.result = detail::array_over(st.out, 0, x.shape(), x.dtype(), x); });
  return wait_result(s);
}

Array all_gather(const Array& x) {
  auto s = new_state("all_gather");
  check_defined(x, s->name);
  s->header = header_of(kAllGather, 0, x);
  add_header_stages(*s);
  const std::size_t n = static_cast<std::size_t>(x.size()), isz = itemsize(x.dtype());
  const int P = W().size;
  s->stages.push_back([x, n, isz, P](Work::State& st) {
    st.send = detail::host_bytes(x, st.send_copy);
    st.out = detail::host_buffer(n * isz * static_cast<std::size_t>(P));
    if (P == 1) {
      if (n) std::memcpy(st.out.get(), st.send, n * isz);
      return;
    }
    const int count = as_count(n, st.name);
    post(
        st,
        [&](MPI_Request* r) {
          return MPI_Iallgather(st.send, count, unit_of(isz), st.out.get(), count, unit_of(isz), comm_of(st), r);
        },
        "MPI_Iallgather");
  });
  s->stages.push_back([x, P](Work::State& st) {
    std::vector<std::int64_t> dims{P};
    dims.insert(dims.end(), x.shape().begin(), x.shape().end());
    st.result = detail::array_over(st.out, 0, Shape(dims), x.dtype(), x);
    st.send_copy.reset();
  });
  return wait_result(s);
}

Array reduce_scatter(const Array& x, ReduceOp op) {
  auto s = new_state("reduce_scatter");
  check_defined(x, s->name);
  const int P = W().size, me = W().rank;
  if (x.ndim() == 0 || x.shape()[0] % P != 0)
    throw ValueError("[" + s->name + "] axis 0 of the input shape " + x.shape().str() +
                     " must be a multiple of the world size " + std::to_string(P));
  s->header = header_of(kReduceScatter, static_cast<std::int32_t>(op), x);
  add_header_stages(*s);
  const std::int64_t rows = x.shape()[0] / P;
  const std::size_t n = static_cast<std::size_t>(x.size()), isz = itemsize(x.dtype()),
                    part = n / static_cast<std::size_t>(P);
  const DType d = x.dtype();
  as_count(part, s->name);
  s->stages.push_back([x, op, d, P, part, isz](Work::State& st) {
    refuse_reduce(st.name, op, d);
    st.send = detail::host_bytes(x, st.send_copy);
    st.out = detail::host_buffer(part * isz);
    if (P == 1) {
      detail::reduce_parts(st.out.get(), st.send, 0, 1, part, d, op);
      return;
    }
    st.recv = detail::host_buffer(part * isz * static_cast<std::size_t>(P));
    st.send_counts.assign(static_cast<std::size_t>(P), static_cast<int>(part));
    st.send_displs.resize(static_cast<std::size_t>(P));
    for (int j = 0; j < P; ++j) st.send_displs[static_cast<std::size_t>(j)] = static_cast<int>(part) * j;
    post(
        st,
        [&](MPI_Request* r) {
          return MPI_Ialltoallv(st.send, st.send_counts.data(), st.send_displs.data(), unit_of(isz), st.recv.get(),
                                st.send_counts.data(), st.send_displs.data(), unit_of(isz), comm_of(st), r);
        },
        "MPI_Ialltoallv");
  });
  s->stages.push_back([x, op, d, P, me, rows, part, isz](Work::State& st) {
    (void)me;
    if (P > 1) detail::reduce_parts(st.out.get(), st.recv.get(), part * isz, P, part, d, op);
    st.recv.reset();
    st.send_copy.reset();
    std::vector<std::int64_t> dims(x.shape().begin(), x.shape().end());
    dims[0] = rows;
    st.result = detail::array_over(st.out, 0, Shape(dims), d, x);
  });
  return wait_result(s);
}

// ---------------------------------------------------------------- collectives on containers
namespace {
struct Packed {
  DType dtype;
  std::vector<std::size_t> leaves;
  std::size_t bytes = 0;
};
// Leaves grouped into buckets of one dtype and at most bucket_bytes (a larger leaf alone).
std::vector<Packed> pack_plan(const std::vector<Array>& leaves, std::size_t bucket_bytes) {
  std::vector<Packed> out;
  std::vector<std::size_t> open(kNumDTypes, SIZE_MAX);  // the open bucket per dtype
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Array& a = leaves[i];
    const std::size_t b = static_cast<std::size_t>(a.size()) * itemsize(a.dtype());
    std::size_t& k = open[static_cast<std::size_t>(a.dtype())];
    if (k == SIZE_MAX || (out[k].bytes + b > bucket_bytes && !out[k].leaves.empty())) {
      k = out.size();
      out.push_back({a.dtype(), {}, 0});
    }
    out[k].leaves.push_back(i);
    out[k].bytes += b;
  }
  return out;
}
// c with its leaves replaced, in flatten() order, by `leaves`
Container rebuilt(const Container& c, const std::vector<Array>& leaves) {
  std::size_t k = 0;
  return c.map([&](const Array&) { return leaves[k++]; });
}
// The leaves of c in flatten() order, and the header of a call on them: the structure's hash
// over keys (no joined paths: nothing is allocated per leaf but the handle), dtypes and shapes.
void walk(const Container& c, std::uint64_t& h, std::vector<Array>& out, std::uint64_t& bytes) {
  if (c.is_leaf()) {
    const Array& a = c.array();
    if (!a.defined()) throw ValueError("[distributed] a leaf of the container is undefined");
    const std::int32_t dt = static_cast<std::int32_t>(a.dtype());
    h = detail::hash_bytes(&dt, sizeof dt, h);
    for (std::int64_t dim : a.shape()) h = detail::hash_bytes(&dim, sizeof dim, h);
    bytes += static_cast<std::uint64_t>(a.size()) * itemsize(a.dtype());
    out.push_back(a);
    return;
  }
  const char open = '{', close = '}';
  h = detail::hash_bytes(&open, 1, h);
  for (const auto& [k, child] : c.children()) {
    h = detail::hash_bytes(k.data(), k.size() + 1, h);
    walk(child, h, out, bytes);
  }
  h = detail::hash_bytes(&close, 1, h);
}
CallHeader container_header(std::int32_t kind, std::int32_t op, const Container& c, std::vector<Array>& leaves) {
  CallHeader h;
  h.kind = kind;
  h.op = op;
  h.ndim = -1;
  std::uint64_t s = 0xcbf29ce484222325ULL;
  walk(c, s, leaves, h.bytes);
  h.dims[0] = static_cast<std::int64_t>(leaves.size());
  h.structure = s;
  return h;
}
}  // namespace

Container all_reduce(const Container& c, ReduceOp op, std::size_t bucket_bytes) {
  std::vector<Array> leaves;
  const CallHeader h = container_header(kAllReduceC, static_cast<std::int32_t>(op), c, leaves);
  if (!leaves.empty()) check_defined(leaves[0], "distributed.all_reduce");
  // the header travels while the buckets are packed; nothing is sent before it is checked
  auto header = detail::start_header_check(h, "all_reduce");
  const auto plan = pack_plan(leaves, bucket_bytes);
  std::vector<std::shared_ptr<std::byte>> bufs;
  for (const Packed& b : plan) {
    auto buf = detail::host_buffer(b.bytes);
    std::size_t at = 0;
    for (std::size_t i : b.leaves) at += detail::copy_bytes(leaves[i], buf.get() + at);
    bufs.push_back(buf);
  }
  detail::wait(*header);
  std::vector<char> checked(kNumDTypes, 0);  // the refusal depends on the dtype only
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    char& seen = checked[static_cast<std::size_t>(leaves[i].dtype())];
    if (seen) continue;
    seen = 1;
    const std::string why = detail::reduce_refusal(op, leaves[i].dtype());
    if (!why.empty()) throw TypeError("[distributed.all_reduce] leaf '" + c.flatten()[i].first + "': " + why);
  }
  std::vector<std::shared_ptr<Work::State>> work;
  for (std::size_t k = 0; k < plan.size(); ++k)  // every bucket in flight at once
    work.push_back(detail::start_buffer_all_reduce(bufs[k], plan[k].bytes / itemsize(plan[k].dtype), plan[k].dtype, op));
  std::vector<Array> out(leaves.size());
  for (std::size_t k = 0; k < plan.size(); ++k) {
    detail::wait(*work[k]);
    std::size_t at = 0;
    for (std::size_t i : plan[k].leaves) {
      const Array& a = leaves[i];
      out[i] = detail::array_over(bufs[k], at, a.shape(), a.dtype(), a);
      at += static_cast<std::size_t>(a.size()) * itemsize(a.dtype());
    }
  }
  return rebuilt(c, out);
}

Container broadcast(const Container& c, int root, std::size_t bucket_bytes) {
  (void)bucket_bytes;
  std::vector<Array> leaves;
  const CallHeader h = container_header(kBroadcastC, root, c, leaves);
  init();
  if (root < 0 || root >= W().size)
    throw ValueError("[distributed.broadcast] root " + std::to_string(root) + " is not a rank of this world of " +
                     std::to_string(W().size));
  detail::check_same_call(h, "broadcast");
  if (W().size == 1) return c;
  // one packed buffer per dtype-bucket, sent with one MPI_Ibcast each
  const auto plan = pack_plan(leaves, bucket_bytes);
  std::vector<Array> out(leaves.size());
  for (const Packed& b : plan) {
    auto s = new_state("broadcast");
    s->out = detail::host_buffer(b.bytes);
    if (W().rank == root) {
      std::size_t at = 0;
      for (std::size_t i : b.leaves) at += detail::copy_bytes(leaves[i], s->out.get() + at);
    }
    const std::size_t n = b.bytes / itemsize(b.dtype);
    const int count = as_count(n, s->name);
    const std::size_t isz = itemsize(b.dtype);
    s->stages.push_back([count, isz, root](Work::State& st) {
      post(
          st, [&](MPI_Request* r) { return MPI_Ibcast(st.out.get(), count, unit_of(isz), root, comm_of(st), r); },
          "MPI_Ibcast");
    });
    detail::wait(*s);
    std::size_t at = 0;
    for (std::size_t i : b.leaves) {
      const Array& a = leaves[i];
      out[i] = detail::array_over(s->out, at, a.shape(), a.dtype(), a);
      at += static_cast<std::size_t>(a.size()) * itemsize(a.dtype());
    }
  }
  return rebuilt(c, out);
}

}  // namespace ivy::distributed
