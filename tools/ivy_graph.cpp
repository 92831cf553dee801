// ivy-graph: reads a graph saved by ivy::save_graph, prints a summary (inputs, outputs,
// nodes per op, constants), and writes it as Graphviz DOT or, through Graphviz's `dot`
// program, as SVG.
//
//   ivy-graph FILE.json [--dot OUT.dot] [--svg OUT.svg] [--print] [--backend NAME]
//
// Errors go to stderr and the exit code is 1.
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "ivy/graph_io.hpp"

extern char** environ;

namespace {

struct ToolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string type_str(const ivy::Graph::Value& v) { return std::string(ivy::dtype_name(v.dtype)) + v.shape.str(); }

void print_summary(const ivy::Graph& g, const std::string& file) {
  std::cout << "graph " << file << "\n";
  std::cout << "inputs: " << g.input_ids.size() << "\n";
  for (std::size_t i = 0; i < g.input_ids.size(); ++i)
    std::cout << "  " << i << ": %" << g.input_ids[i] << " " << type_str(g.values[g.input_ids[i]]) << "\n";
  std::cout << "outputs: " << g.output_ids.size() << "\n";
  for (std::size_t i = 0; i < g.output_ids.size(); ++i)
    std::cout << "  " << i << ": %" << g.output_ids[i] << " " << type_str(g.values[g.output_ids[i]]) << "\n";
  std::map<std::string, int> per_op;
  for (const auto& n : g.nodes) ++per_op[ivy::op_info(n.op).name];
  std::vector<std::pair<std::string, int>> ops(per_op.begin(), per_op.end());
  // most frequent first, ties by name
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::cout << "nodes: " << g.nodes.size() << " (" << ops.size() << " distinct ops)\n";
  for (const auto& [name, count] : ops) std::cout << "  " << name << ": " << count << "\n";
  std::uint64_t bytes = 0;
  for (const auto& c : g.constants) bytes += static_cast<std::uint64_t>(c.size()) * ivy::itemsize(c.dtype());
  std::cout << "constants: " << g.constants.size() << " (" << bytes << " bytes)\n";
  for (std::size_t i = 0; i < g.constant_ids.size(); ++i)
    std::cout << "  %" << g.constant_ids[i] << " " << type_str(g.values[g.constant_ids[i]]) << "\n";
  std::cout << "values: " << g.values.size() << "\n";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw ToolError("cannot open " + path + " for writing: " + std::strerror(errno));
  f << text;
  f.close();
  if (!f) throw ToolError("writing " + path + " failed");
}

// The full path of `prog` on PATH, or "" when it is not there.
std::string find_on_path(const std::string& prog) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    std::size_t colon = p.find(':', start);
    if (colon == std::string::npos) colon = p.size();
    std::string dir = p.substr(start, colon - start);
    if (dir.empty()) dir = ".";
    const std::string full = dir + "/" + prog;
    struct stat st {};
    if (::stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(full.c_str(), X_OK) == 0) return full;
    start = colon + 1;
  }
  return {};
}

// Renders DOT text to SVG with `dot -Tsvg` (the DOT goes through a temporary file).
void write_svg(const std::string& dot_text, const std::string& out) {
  const std::string dot = find_on_path("dot");
  if (dot.empty())
    throw ToolError("--svg needs Graphviz's `dot` program, which is not on PATH (Debian: apt-get install graphviz)");
  const char* tmpdir = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/ivy-graph-XXXXXX.dot";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkstemps(name.data(), 4);
  if (fd < 0) throw ToolError("cannot create a temporary file for dot: " + std::string(std::strerror(errno)));
  const std::string tmp(name.data());
  struct Remove {
    std::string path;
    ~Remove() { std::remove(path.c_str()); }
  } remove_tmp{tmp};
  std::size_t done = 0;
  while (done < dot_text.size()) {
    const ssize_t n = ::write(fd, dot_text.data() + done, dot_text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      throw ToolError("writing " + tmp + " failed: " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);

  std::vector<std::string> args = {"dot", "-Tsvg", "-o", out, tmp};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, dot.c_str(), nullptr, nullptr, argv.data(), environ);
  if (rc != 0) throw ToolError("cannot run " + dot + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw ToolError("waiting for dot failed: " + std::string(std::strerror(errno)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw ToolError("dot -Tsvg failed (" +
                    (WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                       : "signal " + std::to_string(WTERMSIG(status))) +
                    ")");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Summarize a graph saved by ivy::save_graph and export it as Graphviz DOT or SVG"};
  std::string file, dot_out, svg_out, backend_name;
  bool print = false;
  app.add_option("file", file, "the graph (JSON written by ivy::save_graph)")->required();
  app.add_option("--dot", dot_out, "write the graph as Graphviz DOT to this file");
  app.add_option("--svg", svg_out, "render the graph to SVG with Graphviz's dot program");
  app.add_flag("--print", print, "print the graph's listing (one node per line)");
  app.add_option("--backend", backend_name, "the backend that holds the constants (default: ivy's default)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help prints and succeeds; a bad command line is an error like any other (exit 1)
    return app.exit(e) == 0 ? 0 : 1;
  }

  try {
    ivy::Backend backend = backend_name.empty() ? ivy::Backend{} : ivy::Backend(backend_name);
    ivy::Graph g = ivy::load_graph(file, backend);
    print_summary(g, file);
    if (print) std::cout << "\n" << g.str() << "\n";
    if (!dot_out.empty() || !svg_out.empty()) {
      const std::string dot = ivy::graph_to_dot(g);
      if (!dot_out.empty()) {
        write_file(dot_out, dot);
        std::cout << "wrote " << dot_out << "\n";
      }
      if (!svg_out.empty()) {
        write_svg(dot, svg_out);
        std::cout << "wrote " << svg_out << "\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "ivy-graph: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
