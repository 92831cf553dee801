// Atomic file writes for ivy's savers (safetensors, graph JSON): internal to libivy.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace ivy::detail {

// Writes `path` through a temporary file next to it (created exclusively, with a random
// name), synced and renamed over the target by commit(): the target is either the old file
// or the complete new one, never a partial write. Without commit() the destructor closes
// and removes the temporary. Failures throw ValueError "[op] path: <step> <temporary> failed:
// <errno text>".
class AtomicFile {
 public:
  AtomicFile(std::string path, std::string op);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t count);
  void commit();  // flush, fsync, close, rename over the target, sync its directory

 private:
  void check(bool ok, const char* step);
  std::string path_, op_, temp_;
  std::FILE* f_ = nullptr;
  bool done_ = false;  // renamed, or never created: nothing to remove
};

}  // namespace ivy::detail
