// Crash safety of ivy's file writers (Container::save's safetensors, save_graph's JSON): a
// child process saving two versions of a file in turn is killed with SIGKILL at random
// moments, and the file must always load as the complete old or the complete new version;
// a save that runs out of room (RLIMIT_FSIZE) must throw an ivy::Error naming the file and
// leave the old version in place. Its own executable: it forks.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "ivy/container.hpp"
#include "ivy/graph_io.hpp"
#include "ivy/ivy.hpp"

namespace fs = std::filesystem;
using ivy::Array;
using ivy::Container;

namespace {

// A scratch folder of this process's own, removed at the end.
class Scratch {
 public:
  Scratch() : dir_(fs::temp_directory_path() / ("ivy_crash_" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~Scratch() { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // removes the temporaries that killed writers left next to `keep`
  void remove_all_but(const std::string& keep) const {
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().string() != keep) fs::remove(e.path());
  }

 private:
  fs::path dir_;
};

// Version v of the checkpoint: four float32 arrays of 64K elements, every element v, and
// metadata version=v (1 MiB of data).
Container checkpoint(int v) {
  std::vector<std::pair<std::string, Array>> leaves;
  for (const char* name : {"layer0/weight", "layer0/bias", "layer1/weight", "layer1/bias"})
    leaves.emplace_back(name, ivy::full({256, 256}, static_cast<double>(v), ivy::float32));
  return Container::from_pairs(leaves);
}

// Which version the file holds: 1 or 2 when it is one of them in full, else -1.
int version_of(const std::string& path) {
  std::map<std::string, std::string> meta;
  const Container c = Container::load(path, {}, &meta);
  const int v = std::atoi(meta["version"].c_str());
  if (v != 1 && v != 2) return -1;
  int leaves = 0;
  for (const auto& [name, x] : c.flatten()) {
    ++leaves;
    if (x.size() != 256 * 256 || !ivy::all(ivy::equal(x, static_cast<double>(v))).item<bool>()) return -1;
  }
  return leaves == 4 ? v : -1;
}

void save_version(const Container& c, int v, const std::string& path) {
  c.save(path, {{"version", std::to_string(v)}});
}

// The graph of version v: y = x * v + v, as JSON.
ivy::Graph graph_of(int v) {
  return ivy::trace([v](const Array& x) { return x * static_cast<double>(v) + static_cast<double>(v); },
                    ivy::ones({3}, ivy::float64));
}
int graph_version(const std::string& path) {
  const ivy::Graph g = ivy::load_graph(path);
  const auto y = g.run({ivy::zeros({3}, ivy::float64)})[0].to_vector<double>();
  return (y == std::vector<double>(3, 1.0)) ? 1 : (y == std::vector<double>(3, 2.0)) ? 2 : -1;
}

// Writes version 1 (save(1)) and checks it, times one save, then runs `trials` kills of a
// child that saves versions 2 and 1 in turn forever, each after a random delay of up to six
// saves' worth (the child also pays for its fork and the copy-on-write of its first writes);
// after each kill, `check` must name version 1 or 2.
template <class Save, class Check>
void kill_trials(const Scratch& s, const std::string& file, int trials, const Save& save, const Check& check) {
  save(1);
  ASSERT_EQ(check(file), 1);
  const auto t0 = std::chrono::steady_clock::now();
  save(1);
  const auto one = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
  const auto max_delay = std::max(one * 6, std::chrono::microseconds(5000));
  std::mt19937 rng(12345);
  int seen[3] = {0, 0, 0};
  for (int t = 0; t < trials; ++t) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0) << "fork failed";
    if (pid == 0) {
      for (int v = 2;; v = 3 - v) save(v);  // killed by the parent
    }
    const auto delay = std::chrono::microseconds(
        std::uniform_int_distribution<std::int64_t>(0, max_delay.count() - 1)(rng));
    std::this_thread::sleep_for(delay);
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    int v = -1;
    try {
      v = check(file);
    } catch (const std::exception& e) {
      FAIL() << "trial " << t << " (killed after " << delay.count() << " us): loading failed: " << e.what();
    }
    ASSERT_TRUE(v == 1 || v == 2) << "trial " << t << " (killed after " << delay.count() << " us): a torn file";
    ++seen[v];
    s.remove_all_but(file);
  }
  // the kills landed both before and after commits, so both versions were seen
  EXPECT_GT(seen[1], 0);
  EXPECT_GT(seen[2], 0);
  std::printf("%s: %d kills within %lld us, the file held version 1 %d times and version 2 %d times, never torn\n",
              file.c_str(), trials, static_cast<long long>(max_delay.count()), seen[1], seen[2]);
}

TEST(CrashSafety, KilledContainerSavesLeaveTheOldOrTheNewFile) {
  ivy::BackendScope scope(ivy::default_backend());
  Scratch s;
  const std::string file = s.path("checkpoint.safetensors");
  const Container a = checkpoint(1), b = checkpoint(2);
  kill_trials(s, file, 500, [&](int v) { save_version(v == 1 ? a : b, v, file); }, version_of);
}

TEST(CrashSafety, KilledGraphSavesLeaveTheOldOrTheNewFile) {
  ivy::BackendScope scope(ivy::default_backend());
  Scratch s;
  const std::string file = s.path("graph.json");
  const ivy::Graph g1 = graph_of(1), g2 = graph_of(2);
  kill_trials(s, file, 250, [&](int v) { ivy::save_graph(v == 1 ? g1 : g2, file); }, graph_version);
}

// A child whose files may not grow past 64 KiB tries to save the 1 MiB version 2 over
// version 1: the save must throw an ivy::Error naming the file, and version 1 must remain.
TEST(CrashSafety, AFullDiskGivesAClearErrorAndKeepsTheOldFile) {
  ivy::BackendScope scope(ivy::default_backend());
  Scratch s;
  const std::string file = s.path("checkpoint.safetensors");
  const Container a = checkpoint(1), b = checkpoint(2);
  save_version(a, 1, file);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // writes past the limit fail with EFBIG instead
    rlimit lim{64 * 1024, 64 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    try {
      save_version(b, 2, file);
    } catch (const ivy::Error& e) {
      const std::string m = e.what();
      std::_Exit(m.rfind("[save] " + file, 0) == 0 && m.find("File too large") != std::string::npos ? 0 : 3);
    } catch (...) {
      std::_Exit(4);
    }
    std::_Exit(5);  // no error at all
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the child did not exit normally";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: error without the file or the cause, 4: not an ivy::Error, 5: no error";
  EXPECT_EQ(version_of(file), 1);
  // and the failed save removed its temporary
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(file).parent_path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

}  // namespace
