// Generated fused kernels: source generation, the compiler run, the on-disk cache and loading.
#include "trace/codegen.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "cpu_isa.hpp"
#include "ivy/log.hpp"

extern char** environ;

namespace ivy::codegen {

// backends/cpu/scalar_ops.hpp's text, embedded at build time (generated/scalar_ops_text.cpp)
extern const char* const kScalarOpsText;

namespace {
using fusion::FOp;
using fusion::InputRead;
using fusion::Instr;
using fusion::Program;

// What every generated source starts with after scalar_ops.hpp: the runtime struct (the same
// layout as codegen::Runtime) and the ABI tag libivy checks after loading.
constexpr const char* kPrelude = R"(struct ivy_rt {
  const void* program;
  void (*gather)(const void*, int, const void*, std::int64_t, std::int64_t, void*);
  void (*unary_f32)(int, float*, const float*, std::int64_t);
  void (*log1p_f32)(float*, const float*, std::int64_t);
  void (*binary_f32)(int, float*, const float*, const float*, std::int64_t, int);
};
namespace sops = ivy::cpu::sops;
extern "C" int ivy_codegen_abi() { return 1; }
)";
static_assert(kAbi == 1, "kPrelude's ivy_codegen_abi and struct ivy_rt follow kAbi");

const char* ctype(DType d) {
  switch (d) {
    case DType::bool_: return "unsigned char";
    case DType::int32: return "std::int32_t";
    case DType::int64: return "std::int64_t";
    case DType::float32: return "float";
    default: return "double";
  }
}

// The float32 functions computed by vec_math's block functions (and float64 by libm): calls
// that end a fused loop. Their numbers in Runtime's unary_f32 / binary_f32.
int vmath_unary(FOp op) {
  switch (op) {
    case FOp::sin: return 0;
    case FOp::cos: return 1;
    case FOp::tan: return 2;
    case FOp::exp: return 3;
    case FOp::expm1: return 4;
    case FOp::log: return 5;
    case FOp::log2: return 6;
    case FOp::log10: return 7;
    case FOp::sinh: return 8;
    case FOp::cosh: return 9;
    case FOp::tanh: return 10;
    case FOp::asin: return 11;
    case FOp::acos: return 12;
    case FOp::atan: return 13;
    case FOp::asinh: return 14;
    case FOp::acosh: return 15;
    case FOp::atanh: return 16;
    default: return -1;
  }
}
int vmath_binary(FOp op) {
  switch (op) {
    case FOp::pow: return 0;
    case FOp::atan2: return 1;
    case FOp::hypot: return 2;
    case FOp::logaddexp: return 3;
    default: return -1;
  }
}
bool is_call(const Instr& in) {
  if (!is_real_floating(in.dt)) return false;
  return vmath_unary(in.op) >= 0 || vmath_binary(in.op) >= 0 || in.op == FOp::log1p;
}
const char* op_name(FOp f) { return fusion::fop_name(f); }

// The expression of one instruction given its operands' expressions (inline operations and
// float64 libm calls; float32 calls are emitted by the caller).
std::string expr(const Instr& in, const std::string& a, const std::string& b, const std::string& c) {
  switch (in.op) {
    case FOp::convert: return std::string("sops::convert<") + ctype(in.dt) + ">(" + a + ")";
    case FOp::where: return "sops::where(" + a + ", " + b + ", " + c + ")";
    case FOp::logaddexp: return "sops::logaddexp(" + a + ", " + b + ")";
    case FOp::pow:
    case FOp::atan2:
    case FOp::hypot: return std::string("__builtin_") + op_name(in.op) + "(" + a + ", " + b + ")";
    default: break;
  }
  if (is_call(in)) return std::string("__builtin_") + op_name(in.op) + "(" + a + ")";  // float64: libm's
  if (!b.empty()) return std::string("sops::") + op_name(in.op) + "(" + a + ", " + b + ")";
  return std::string("sops::") + op_name(in.op) + "(" + a + ")";
}

// Elements per chunk: each chunk's intermediate values that cross a loop live in stack
// buffers of this many elements (kept within 128 KiB).
std::int64_t chunk_elements(std::size_t buffers) {
  std::int64_t b = 512;
  while (b > 16 && static_cast<std::size_t>(b) * 8 * buffers > (std::size_t{128} << 10)) b /= 2;
  return b;
}

}  // namespace

std::string kernel_source(const Program& p, const std::string& name) {
  const std::size_t n_in = p.input_values.size();
  const std::size_t n_regs = p.reg_dtype.size();
  const bool row_mode = p.row >= 64;
  // level of each register: 0 one value for the call, 1 one value per chunk, 2 per element
  std::vector<int> level(n_regs, 2);
  std::vector<char> gathered(n_in, 0);
  for (std::size_t i = 0; i < n_in; ++i) {
    const InputRead& r = p.reads[i];
    if (r.kind == InputRead::scalar) level[i] = 0;
    else if (r.kind == InputRead::broadcast) {
      if (row_mode) level[i] = r.strides.back() == 0 ? 1 : 2;
      else gathered[i] = 1;
    }
  }
  for (const Instr& in : p.code) {
    int l = 0;
    for (int r : {in.a, in.b, in.c})
      if (r >= 0) l = std::max(l, level[static_cast<std::size_t>(r)]);
    level[static_cast<std::size_t>(in.dst)] = l;
  }
  // segments: runs of per-element inline instructions, split at per-element calls
  std::vector<int> segment(n_regs, -1);
  int seg = 0;
  for (const Instr& in : p.code) {
    if (level[static_cast<std::size_t>(in.dst)] < 2) continue;
    if (is_call(in)) {
      ++seg;
      segment[static_cast<std::size_t>(in.dst)] = seg;
      ++seg;
    } else {
      segment[static_cast<std::size_t>(in.dst)] = seg;
    }
  }
  // per-element instruction results kept in a chunk buffer: outputs, call operands and
  // results, and values read in a later segment
  std::vector<char> buffered(n_regs, 0);
  for (int r : p.output_regs)
    if (level[static_cast<std::size_t>(r)] == 2) buffered[static_cast<std::size_t>(r)] = 1;
  for (const Instr& in : p.code) {
    const std::size_t d = static_cast<std::size_t>(in.dst);
    if (level[d] < 2) continue;
    if (is_call(in)) buffered[d] = 1;
    for (int r : {in.a, in.b, in.c}) {
      if (r < static_cast<int>(n_in) || level[static_cast<std::size_t>(r)] < 2) continue;
      if (is_call(in) || segment[static_cast<std::size_t>(r)] != segment[d]) buffered[static_cast<std::size_t>(r)] = 1;
    }
  }
  std::size_t n_buffers = static_cast<std::size_t>(std::count(buffered.begin(), buffered.end(), 1)) +
                          static_cast<std::size_t>(std::count(gathered.begin(), gathered.end(), 1));
  const std::int64_t B = chunk_elements(n_buffers);

  std::ostringstream s;
  auto T = [&](int r) { return ctype(p.reg_dtype[static_cast<std::size_t>(r)]); };
  // the value of register r at element k of the chunk, from inside segment `at`
  auto val = [&](int r, int at) -> std::string {
    const std::size_t u = static_cast<std::size_t>(r);
    if (level[u] < 2) return "r" + std::to_string(r);
    if (u < n_in) {
      if (gathered[u]) return "g" + std::to_string(r) + "[k]";
      return "x" + std::to_string(r) + "[k]";
    }
    if (segment[u] == at) return "r" + std::to_string(r);
    return "b" + std::to_string(r) + "[k]";
  };
  // a pointer to register r's chunk values (a call's operand)
  auto ptr = [&](int r) -> std::string {
    const std::size_t u = static_cast<std::size_t>(r);
    if (level[u] < 2) return "&r" + std::to_string(r);
    if (u < n_in) return (gathered[u] ? "g" : "x") + std::to_string(r);
    return "b" + std::to_string(r);
  };
  // a scalar statement for an instruction of level 0 or 1
  auto scalar_instr = [&](const Instr& in) {
    const std::string d = "r" + std::to_string(in.dst);
    const std::string a = in.a >= 0 ? "r" + std::to_string(in.a) : "";
    const std::string b = in.b >= 0 ? "r" + std::to_string(in.b) : "";
    const std::string c = in.c >= 0 ? "r" + std::to_string(in.c) : "";
    if (is_call(in) && in.dt == DType::float32) {
      s << "    float " << d << ";\n";
      if (in.op == FOp::log1p) s << "    rt->log1p_f32(&" << d << ", &" << a << ", 1);\n";
      else if (vmath_unary(in.op) >= 0) s << "    rt->unary_f32(" << vmath_unary(in.op) << ", &" << d << ", &" << a << ", 1);\n";
      else s << "    rt->binary_f32(" << vmath_binary(in.op) << ", &" << d << ", &" << a << ", &" << b << ", 1, 0);\n";
    } else {
      s << "    const " << ctype(in.dt) << " " << d << " = " << expr(in, a, b, c) << ";\n";
    }
  };

  s << "// " << p.str() << "\n";
  s << "extern \"C\" void " << name
    << "(const void* const* in, void* const* out, std::int64_t begin, std::int64_t end, const ivy_rt* rt) {\n";
  s << "  (void)rt;\n";
  for (std::size_t i = 0; i < n_in; ++i)
    s << "  const " << T(static_cast<int>(i)) << "* const in" << i << " = static_cast<const " << T(static_cast<int>(i))
      << "*>(in[" << i << "]);\n";
  // values for the whole call
  for (std::size_t i = 0; i < n_in; ++i)
    if (level[i] == 0) s << "  const " << T(static_cast<int>(i)) << " r" << i << " = in" << i << "[0];\n";
  for (const Instr& in : p.code)
    if (level[static_cast<std::size_t>(in.dst)] == 0) scalar_instr(in);
  for (std::size_t r = 0; r < n_regs; ++r)
    if (buffered[r]) s << "  alignas(64) " << T(static_cast<int>(r)) << " b" << r << "[" << B << "];\n";
  for (std::size_t i = 0; i < n_in; ++i)
    if (gathered[i]) s << "  alignas(64) " << T(static_cast<int>(i)) << " g" << i << "[" << B << "];\n";
  s << "  for (std::int64_t start = begin; start < end;) {\n";
  s << "    std::int64_t n = end - start < " << B << " ? end - start : " << B << ";\n";
  if (row_mode) s << "    if (" << p.row << " - start % " << p.row << " < n) n = " << p.row << " - start % " << p.row << ";\n";
  s << "    {\n";
  // this chunk's inputs
  for (std::size_t i = 0; i < n_in; ++i) {
    const InputRead& r = p.reads[i];
    const std::string t = T(static_cast<int>(i));
    if (r.kind == InputRead::full) {
      s << "    const " << t << "* __restrict x" << i << " = in" << i << " + start;\n";
    } else if (gathered[i]) {
      s << "    rt->gather(rt->program, " << i << ", in" << i << ", start, n, g" << i << ");\n";
    } else if (r.kind == InputRead::broadcast) {
      // the input's element at output position `start` (its dims and strides are constants)
      s << "    std::int64_t off" << i << " = 0;\n    {\n      std::int64_t rem = start;\n";
      for (std::size_t d = r.dims.size(); d-- > 0;) {
        s << "      off" << i << " += (rem % " << r.dims[d] << ") * " << r.strides[d] << ";";
        if (d) s << " rem /= " << r.dims[d] << ";";
        s << "\n";
      }
      s << "    }\n";
      if (level[i] == 1) s << "    const " << t << " r" << i << " = in" << i << "[off" << i << "];\n";
      else s << "    const " << t << "* __restrict x" << i << " = in" << i << " + off" << i << ";\n";
    }
  }
  for (const Instr& in : p.code)
    if (level[static_cast<std::size_t>(in.dst)] == 1) scalar_instr(in);
  // the segments, in instruction order
  int open = -1;  // the segment whose loop is open
  auto close_loop = [&]() {
    if (open >= 0) s << "    }\n";
    open = -1;
  };
  for (const Instr& in : p.code) {
    const std::size_t d = static_cast<std::size_t>(in.dst);
    if (level[d] < 2) continue;
    const int at = segment[d];
    if (is_call(in)) {
      close_loop();
      if (in.dt == DType::float32) {
        if (in.op == FOp::log1p) {
          s << "    rt->log1p_f32(b" << d << ", " << ptr(in.a) << ", n);\n";
        } else if (vmath_unary(in.op) >= 0) {
          s << "    rt->unary_f32(" << vmath_unary(in.op) << ", b" << d << ", " << ptr(in.a) << ", n);\n";
        } else {
          const bool ua = level[static_cast<std::size_t>(in.a)] < 2, ub = level[static_cast<std::size_t>(in.b)] < 2;
          s << "    rt->binary_f32(" << vmath_binary(in.op) << ", b" << d << ", " << ptr(in.a) << ", " << ptr(in.b)
            << ", n, " << (ub ? 1 : ua ? 2 : 0) << ");\n";
        }
      } else {
        s << "    for (std::int64_t k = 0; k < n; ++k) b" << d << "[k] = "
          << expr(in, val(in.a, at), in.b >= 0 ? val(in.b, at) : "", "") << ";\n";
      }
      continue;
    }
    if (open != at) {
      close_loop();
      s << "    for (std::int64_t k = 0; k < n; ++k) {\n";
      open = at;
    }
    s << "      const " << ctype(in.dt) << " r" << d << " = "
      << expr(in, val(in.a, at), in.b >= 0 ? val(in.b, at) : "", in.c >= 0 ? val(in.c, at) : "") << ";\n";
    if (buffered[d]) s << "      b" << d << "[k] = r" << d << ";\n";
  }
  close_loop();
  s << "    }\n";
  // the outputs, after every read of this chunk's inputs (an output may be an input's buffer)
  for (std::size_t j = 0; j < p.output_regs.size(); ++j) {
    const int r = p.output_regs[j];
    const std::string t = T(r);
    if (level[static_cast<std::size_t>(r)] == 2)
      s << "    __builtin_memcpy(static_cast<" << t << "*>(out[" << j << "]) + start, b" << r << ", static_cast<std::size_t>(n) * sizeof("
        << t << "));\n";
    else
      s << "    for (std::int64_t k = 0; k < n; ++k) static_cast<" << t << "*>(out[" << j << "])[start + k] = r" << r << ";\n";
  }
  s << "    start += n;\n  }\n}\n";
  return s.str();
}

// ---------------------------------------------------------------- compiling and caching
namespace {

bool env_off(const char* name) {
  const char* v = std::getenv(name);
  return v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0);
}

// Two FNV-1a hashes with different offsets: 128 bits, as 32 hex digits.
std::string hash_hex(const std::string& text) {
  std::uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
  for (unsigned char ch : text) {
    h1 = (h1 ^ ch) * 0x100000001b3ull;
    h2 = (h2 ^ ch) * 0x100000001b3ull;
    h2 ^= h2 >> 29;
  }
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h1),
                static_cast<unsigned long long>(h2));
  return buf;
}

// Creates dir and its missing parents (mode 0700), then checks that it is a directory that
// only this user may write; returns "" on success, else why not.
std::string make_private_dir(const std::string& dir) {
  for (std::size_t pos = 1; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    const std::string part = dir.substr(0, pos);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return "cannot create " + part + ": " + std::strerror(errno);
  }
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) return "cannot stat " + dir + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return dir + " is not a directory";
  if (st.st_uid != ::geteuid()) return dir + " belongs to another user";
  if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0)
    return dir + " is open to other users and cannot be made private: " + std::strerror(errno);
  return "";
}

std::string home_directory() {
  if (const char* h = std::getenv("HOME"); h && *h) return h;
  if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_dir) return pw->pw_dir;
  return "";
}

// The cache directory: IVY_CACHE_DIR, else $XDG_CACHE_HOME/ivy/kernels, else
// ~/.cache/ivy/kernels (absolute paths only).
std::string cache_path() {
  if (const char* d = std::getenv("IVY_CACHE_DIR"); d && d[0] == '/') return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && x[0] == '/') return std::string(x) + "/ivy/kernels";
  const std::string home = home_directory();
  if (home.empty() || home[0] != '/') return "";
  return home + "/.cache/ivy/kernels";
}

// Runs argv (no shell) with stdout and stderr into `log_path`; returns its exit status, or -1.
int run_process(const std::vector<std::string>& argv, const std::string& log_path) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const std::string& path, std::size_t limit) {
  std::ifstream f(path, std::ios::binary);
  std::string s(limit, '\0');
  f.read(s.data(), static_cast<std::streamsize>(limit));
  s.resize(static_cast<std::size_t>(f.gcount()));
  return s;
}

bool write_new_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += static_cast<std::size_t>(w);
  }
  return ::close(fd) == 0 && done == text.size();
}

// The compiler, its identity (version text) and the flags, found once per process.
struct Toolchain {
  std::string cxx, identity, error;
  std::vector<std::string> flags;
};
const Toolchain& toolchain(const std::string& dir) {
  static std::mutex m;
  static std::map<std::string, std::unique_ptr<Toolchain>> known;  // by compiler: IVY_CXX may change
  const char* env = std::getenv("IVY_CXX");
  const std::string cxx = env && *env ? env : IVY_CODEGEN_CXX;
  std::lock_guard<std::mutex> lock(m);
  auto& slot = known[cxx];
  if (slot) return *slot;
  slot = std::make_unique<Toolchain>([&] {
    Toolchain r;
    r.cxx = cxx;
    std::istringstream fl(IVY_CODEGEN_FLAGS);
    for (std::string f; fl >> f;) r.flags.push_back(f);
#if IVY_AVX2
    if (cpu::isa::kAvx512) r.flags.insert(r.flags.end(), {"-march=x86-64-v4", "-mprefer-vector-width=512"});
    else if (cpu::isa::kAvx2) r.flags.push_back("-march=x86-64-v3");
#endif
    const std::string log = dir + "/version." + std::to_string(::getpid()) + ".txt";
    const int rc = run_process({r.cxx, "--version"}, log);
    r.identity = read_text(log, 4096);
    ::unlink(log.c_str());
    if (rc != 0) r.error = "the compiler " + r.cxx + " does not run (IVY_CXX names another)";
    return r;
  }());
  return *slot;
}

// Deletes the oldest libraries but `keep` until the cache holds at most 3/4 of its bound
// (bytes, from IVY_COMPILE_CACHE_MB, 256 by default), and files a crashed compile left over an
// hour ago.
void prune(const std::string& dir, const std::string& keep) {
  std::uint64_t bound = 256ull << 20;
  if (const char* v = std::getenv("IVY_COMPILE_CACHE_MB"); v && *v) bound = std::strtoull(v, nullptr, 10) << 20;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  struct Entry {
    std::string path;
    std::uint64_t size;
    std::int64_t mtime;
  };
  std::vector<Entry> libs;
  std::uint64_t total = 0;
  const std::int64_t now = static_cast<std::int64_t>(::time(nullptr));
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 2 || name[0] != 'k') continue;
    const std::string path = dir + "/" + name;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    const bool lib = name.size() > 3 && name.compare(name.size() - 3, 3, ".so") == 0 && name.find('.') == name.size() - 3;
    if (!lib) {
      if (now - st.st_mtime > 3600) ::unlink(path.c_str());  // kept sources too
      continue;
    }
    libs.push_back({path, static_cast<std::uint64_t>(st.st_size), static_cast<std::int64_t>(st.st_mtime)});
    total += static_cast<std::uint64_t>(st.st_size);
  }
  ::closedir(d);
  if (total <= bound) return;
  std::sort(libs.begin(), libs.end(), [](const Entry& a, const Entry& b) { return a.mtime < b.mtime; });
  for (const Entry& e : libs) {
    if (total <= bound / 4 * 3) break;
    if (e.path != keep && ::unlink(e.path.c_str()) == 0) total -= e.size;
  }
}

std::mutex g_mutex;                                    // guards the two below
std::map<std::string, std::weak_ptr<void>> g_loaded;   // this process's libraries by key
std::set<std::string> g_warned;                       // the failures already reported

// Logs a failure once per process and `subject` (a compiler, a directory, compiling).
void warn_once(const std::string& subject, const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_warned.insert(subject).second) return;
  }
  log_message(LogLevel::warning, "[compile] generated kernels are off, fused groups run interpreted loops: " + why);
}

}  // namespace

bool enabled() { return !env_off("IVY_COMPILE_CODEGEN"); }

std::string cache_directory() {
  const std::string dir = cache_path();
  if (dir.empty() || !make_private_dir(dir).empty()) return "";
  return dir;
}

Outcome prepare(const std::vector<Program*>& programs) {
  Outcome out;
  if (programs.empty() || !enabled()) return out;
  const auto t0 = std::chrono::steady_clock::now();
  auto done = [&] {
    out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };
  const std::string dir = cache_path();
  if (dir.empty()) {
    warn_once("cache", "no cache directory (set IVY_CACHE_DIR or HOME)");
    return done();
  }
  if (const std::string why = make_private_dir(dir); !why.empty()) {
    warn_once(dir, why);
    return done();
  }
  const Toolchain& tc = toolchain(dir);
  if (!tc.error.empty()) {
    warn_once(tc.cxx, tc.error);
    return done();
  }
  std::string source = std::string(kScalarOpsText) + kPrelude;
  for (std::size_t i = 0; i < programs.size(); ++i) source += kernel_source(*programs[i], "ivy_fused_" + std::to_string(i));
  std::string key_text = source + '\n' + tc.cxx + '\n' + tc.identity;
  for (const auto& f : tc.flags) key_text += ' ' + f;
  const std::string key = hash_hex(key_text);
  const std::string lib = dir + "/k" + key + ".so";

  std::shared_ptr<void> handle;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (auto it = g_loaded.find(key); it != g_loaded.end()) handle = it->second.lock();
  }
  out.cached = handle != nullptr;
  if (!handle) {
    struct stat st;
    if (::stat(lib.c_str(), &st) == 0) {
      out.cached = true;
      ::utimensat(AT_FDCWD, lib.c_str(), nullptr, 0);  // recently used: pruned last
    } else {
      // compile into names of this process and thread, then rename into place: concurrent
      // compiles of one key each write their own files, and the last rename wins whole
      std::ostringstream tag;
      tag << ::getpid() << "." << std::hash<std::thread::id>{}(std::this_thread::get_id());
      const std::string stem = dir + "/k" + key + "." + tag.str();
      const std::string src = stem + ".cpp", tmp = stem + ".tmp", log = stem + ".log";
      if (!write_new_file(src, source)) {
        warn_once(dir, "cannot write " + src + ": " + std::strerror(errno));
        return done();
      }
      std::vector<std::string> argv{tc.cxx};
      argv.insert(argv.end(), tc.flags.begin(), tc.flags.end());
      argv.insert(argv.end(), {"-o", tmp, src});
      const int rc = run_process(argv, log);
      const std::string messages = read_text(log, 2000);
      // IVY_COMPILE_KEEP_SOURCE=1 keeps the source beside its library (k<key>.cpp, for reading)
      if (const char* keep = std::getenv("IVY_COMPILE_KEEP_SOURCE"); keep && std::strcmp(keep, "1") == 0 && rc == 0)
        ::rename(src.c_str(), (dir + "/k" + key + ".cpp").c_str());
      else
        ::unlink(src.c_str());
      ::unlink(log.c_str());
      if (rc != 0 || ::rename(tmp.c_str(), lib.c_str()) != 0) {
        ::unlink(tmp.c_str());
        warn_once("compile", "compiling a fused kernel failed (" + tc.cxx + ", exit status " + std::to_string(rc) + "): " + messages);
        return done();
      }
      prune(dir, lib);
    }
    void* h = ::dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = ::dlerror();
      warn_once("load", "cannot load " + lib + ": " + (e ? e : "?"));
      return done();
    }
    auto abi = reinterpret_cast<int (*)()>(::dlsym(h, "ivy_codegen_abi"));
    if (!abi || abi() != kAbi) {
      ::dlclose(h);
      ::unlink(lib.c_str());
      warn_once("load", lib + " is not a kernel library of this ivy");
      return done();
    }
    handle = std::shared_ptr<void>(h, [](void* p) { ::dlclose(p); });
    std::lock_guard<std::mutex> lock(g_mutex);
    g_loaded[key] = handle;
  }
  std::vector<Program::Kernel> fns;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    void* f = ::dlsym(handle.get(), ("ivy_fused_" + std::to_string(i)).c_str());
    if (!f) {
      warn_once("load", lib + " lacks ivy_fused_" + std::to_string(i));
      return done();
    }
    fns.push_back(reinterpret_cast<Program::Kernel>(f));
  }
  for (std::size_t i = 0; i < programs.size(); ++i) {
    programs[i]->kernel = fns[i];
    programs[i]->library = handle;
  }
  out.kernels = static_cast<int>(programs.size());
  return done();
}

}  // namespace ivy::codegen
