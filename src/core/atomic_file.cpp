// AtomicFile (atomic_file.hpp).
#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>

#include "ivy/core.hpp"

namespace ivy::detail {

namespace {
// A fresh random suffix per call: the random device mixed with the time and the process id.
std::string temp_name(const std::string& path) {
  std::random_device rd;
  const std::uint64_t r = (static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^
                          static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                          (static_cast<std::uint64_t>(::getpid()) << 16);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(r));
  return path + ".tmp-" + buf;
}

// Makes a rename in the directory of `path` durable; best effort (some file systems refuse
// to fsync a directory, and the data itself is already synced).
void sync_directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}
}  // namespace

AtomicFile::AtomicFile(std::string path, std::string op)
    : path_(std::move(path)), op_(std::move(op)), temp_(temp_name(path_)) {
  f_ = std::fopen(temp_.c_str(), "wbx");
  if (!f_) done_ = true;  // nothing was created: nothing to remove (it could be someone else's)
  check(f_ != nullptr, "creating the temporary file");
}

AtomicFile::~AtomicFile() {
  if (f_) std::fclose(f_);
  if (!done_) std::remove(temp_.c_str());
}

void AtomicFile::check(bool ok, const char* step) {
  if (ok) return;
  const int err = errno;  // read before building the message can touch it
  throw ValueError("[" + op_ + "] " + path_ + ": " + step + " " + temp_ + " failed: " + std::strerror(err));
}

void AtomicFile::write(const void* data, std::size_t count) {
  check(count == 0 || std::fwrite(data, 1, count, f_) == count, "writing");
}

void AtomicFile::commit() {
  check(std::fflush(f_) == 0, "flushing");
  check(::fsync(::fileno(f_)) == 0, "fsync of");
  const int rc = std::fclose(f_);
  f_ = nullptr;
  check(rc == 0, "closing");
  check(std::rename(temp_.c_str(), path_.c_str()) == 0, "renaming over the target");
  done_ = true;
  sync_directory_of(path_);
}

}  // namespace ivy::detail
