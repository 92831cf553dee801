// A caching CPU allocator for LibTorch, installed when the torch backend registers.
//
// LibTorch's default CPU allocator takes every buffer from malloc, which serves large sizes
// with mmap and gives them back to the kernel on free: each new activation of a few MiB then
// pays a page fault per 4 KiB it touches (in a training step, more time than the arithmetic).
// This allocator keeps freed buffers above 1 MiB in the per-thread size-class lists of
// backends/cpu/handle_cache.hpp (cpu::handles::large, bounded per thread) and hands them to
// the next request of the same class; smaller buffers are plain operator new / delete.
// Buffers are 64-byte aligned, as LibTorch's. Tensors made before it was installed keep
// their own deleters. IVY_TORCH_CACHING_ALLOCATOR=0 in the environment leaves LibTorch's
// allocator alone.
#include <c10/core/CPUAllocator.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "handle_cache.hpp"
#include "torch_common.hpp"

namespace ivy::torch_backend {
namespace {

constexpr std::size_t kAlign = 64;
// Every buffer: [block start ... | Header | data (64-byte aligned) ...]. The header right
// before the data names the block and its class size (0: not cached), so the deleter gets
// the data pointer itself (LibTorch's raw_allocate/raw_deallocate need data == context).
struct Header {
  void* block;
  std::size_t size;
};
constexpr std::size_t kOverhead = kAlign + sizeof(Header);
struct TorchBlocks;  // the list's tag (separate from the xtensor backend's)
using List = cpu::handles::SizedList<TorchBlocks, cpu::handles::large::kLargeSlots, cpu::handles::large::kLargeBytes>;

void release(void* data) {
  const Header h = *(static_cast<Header*>(data) - 1);
  if (h.size == 0 || !List::give(h.block, h.size)) ::operator delete(h.block);
}

class CachingCpuAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(std::size_t n) const override {
    const bool cached = n > cpu::handles::blocks::kMaxBlock;
    const std::size_t size = cached ? cpu::handles::block_class(n + kOverhead) : n + kOverhead;
    void* block = cached ? List::take(size) : nullptr;
    if (!block) block = ::operator new(size);
    auto* data = reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(block) + sizeof(Header) + kAlign - 1) &
                                         ~static_cast<std::uintptr_t>(kAlign - 1));
    *(static_cast<Header*>(data) - 1) = Header{block, cached ? size : 0};
    return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release; }
};

}  // namespace

void install_caching_allocator() {
  static const bool installed = [] {
    const char* env = std::getenv("IVY_TORCH_CACHING_ALLOCATOR");
    if (env && std::strcmp(env, "0") == 0) return false;
    static CachingCpuAllocator alloc;
    c10::SetCPUAllocator(&alloc, /*priority=*/1);
    return true;
  }();
  (void)installed;
}

}  // namespace ivy::torch_backend
