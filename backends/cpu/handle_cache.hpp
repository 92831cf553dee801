// Result handles (a backend's ArrayImpl together with its shared_ptr control block: one
// block of one size per backend; on xtensor also small results with their data) recycled
// through a small per-thread free list: a handle costs a pointer pop instead of a
// malloc/free pair. The list is plain thread-local data
// (no guard on access); a thread_local flusher, set up on first use, returns the cached
// blocks when the thread ends, after which blocks go straight back to operator delete
// (arrays destroyed late, e.g. in static destructors). One list per Tag (per backend).
#pragma once

#include <bit>
#include <cstddef>
#include <new>

namespace ivy::cpu::handles {

struct Cache {
  void* head;
  int count;
  bool registered;
  bool dead;
};
// initial-exec: one %fs-relative load instead of a __tls_get_addr call (16 bytes of static
// TLS per list, which a dlopen'ed libivy gets from glibc's surplus, as libgomp does).
template <class Tag>
inline thread_local Cache t_cache __attribute__((tls_model("initial-exec")));
constexpr int kMaxCached = 64;

template <class Tag>
struct Flush {
  ~Flush() {
    Cache& c = t_cache<Tag>;
    while (c.head) {
      void* next = *static_cast<void**>(c.head);
      ::operator delete(c.head);
      c.head = next;
    }
    c.count = 0;
    c.dead = true;
  }
};
template <class Tag>
[[gnu::noinline]] void register_flush(Cache& c) {
  c.registered = true;
  static thread_local Flush<Tag> flush;
  (void)flush;
}

// A cached block of Tag's one size, or nullptr when the list is empty.
template <class Tag>
inline void* take() {
  Cache& c = t_cache<Tag>;
  void* p = c.head;
  if (p) {
    c.head = *static_cast<void**>(p);
    --c.count;
  }
  return p;
}
// Keeps block p (of Tag's one size) for reuse; false when the list is full or the thread is
// ending, and the caller frees it.
template <class Tag>
inline bool give(void* p) {
  Cache& c = t_cache<Tag>;
  if (c.dead || c.count >= kMaxCached) return false;
  if (!c.registered) register_flush<Tag>(c);
  *static_cast<void**>(p) = c.head;
  c.head = p;
  ++c.count;
  return true;
}

// The allocator for std::allocate_shared<Impl>(Alloc<Impl, Tag>(), ...).
template <class U, class Tag>
struct Alloc {
  using value_type = U;
  template <class V>
  struct rebind {
    using other = Alloc<V, Tag>;
  };
  Alloc() = default;
  template <class V>
  Alloc(const Alloc<V, Tag>&) {}  // NOLINT: rebinding
  U* allocate(std::size_t n) {
    if (n == 1)
      if (void* p = take<Tag>()) return static_cast<U*>(p);
    return static_cast<U*>(::operator new(n * sizeof(U)));
  }
  void deallocate(U* p, std::size_t n) {
    if (n != 1 || !give<Tag>(p)) ::operator delete(p);
  }
  template <class V>
  friend bool operator==(const Alloc&, const Alloc<V, Tag>&) { return true; }
};

// A per-thread list of freed blocks by exact size (a class value), at most Slots blocks and
// MaxBytes bytes. Tag separates the lists. The list itself is on the heap, made by the
// thread's first give (its thread-local part is a pointer and a flag, so that libivy's TLS
// stays small enough for a dlopen'ed libivy), and a thread_local flusher frees it with its
// blocks when the thread ends; after that, gives are refused and the caller frees.
template <class Tag, int Slots, std::size_t MaxBytes>
struct SizedList {
  void* ptr[Slots];
  std::size_t size[Slots];
  int n;
  std::size_t bytes;

  struct Tls {
    SizedList* list;
    bool dead;
  };
  static Tls& tls() {
    static thread_local Tls t;  // constant-initialized: no guard
    return t;
  }
  struct Flush {
    ~Flush() {
      Tls& t = tls();
      if (SizedList* l = t.list) {
        for (int i = 0; i < l->n; ++i) ::operator delete(l->ptr[i]);
        delete l;
        t.list = nullptr;
      }
      t.dead = true;
    }
  };
  [[gnu::noinline]] static SizedList* make(Tls& t) {
    static thread_local Flush flush;
    (void)flush;
    t.list = new SizedList{};
    return t.list;
  }
  // A waiting block of `want` bytes (a class value), or nullptr. The search starts at the
  // list's end, where the blocks freed last are.
  static void* take(std::size_t want) {
    SizedList* l = tls().list;
    if (!l) return nullptr;
    for (int i = l->n - 1; i >= 0; --i)
      if (l->size[i] == want) {
        void* p = l->ptr[i];
        --l->n;
        l->ptr[i] = l->ptr[l->n];
        l->size[i] = l->size[l->n];
        l->bytes -= want;
        return p;
      }
    return nullptr;
  }
  // Keeps block p of `bytes_of_p` bytes for reuse; false when the list is full or the thread
  // is ending, and the caller frees it.
  static bool give(void* p, std::size_t bytes_of_p) {
    Tls& t = tls();
    if (t.dead) return false;
    SizedList* l = t.list ? t.list : make(t);
    if (l->n >= Slots || l->bytes + bytes_of_p > MaxBytes) return false;
    l->ptr[l->n] = p;
    l->size[l->n] = bytes_of_p;
    ++l->n;
    l->bytes += bytes_of_p;
    return true;
  }
};

// n rounded up to a multiple of an eighth of the largest power of two <= n (64 at least).
constexpr std::size_t block_class(std::size_t n) {
  const int lg = std::bit_width(n) - 1;  // n > 0
  const std::size_t step = lg > 9 ? std::size_t{1} << (lg - 3) : 64;
  return (n + step - 1) & ~(step - 1);
}

// Larger blocks (an xtensor result's handle with its data, up to kMaxBlock bytes), recycled
// by size class: a block is allocated at its class's size (block_class: the size rounded up
// to an eighth of its power of two, at most 12.5 % more), and a freed block waits in a
// per-thread list of a few entries for the next request of its class. A 1e4-element float32
// result then costs a scan of those entries instead of malloc and free of a 40 KB chunk, whose
// chunk headers and bins are out of the L1 cache once the call's data has streamed through
// it. At most kBlockSlots blocks and kMaxBlockBytes bytes wait per thread.
namespace blocks {
constexpr std::size_t kMaxBlock = std::size_t{1} << 20;  // 1 MiB
constexpr std::size_t kMaxBlockBytes = std::size_t{4} << 20;
constexpr int kBlockSlots = 8;
using handles::block_class;
struct Tag;
using List = SizedList<Tag, kBlockSlots, kMaxBlockBytes>;
inline void* take(std::size_t size) { return List::take(size); }
inline bool give(void* p, std::size_t size) { return List::give(p, size); }
}  // namespace blocks

// Blocks above blocks::kMaxBlock (an xtensor result of more than 1 MiB), by the same size
// classes. glibc serves such sizes with mmap and returns them to the kernel on free (or trims
// the heap's top), so every new result of that size pays a page fault per 4 KiB it touches:
// in a training step of activations of a few MiB each, those faults took more time than the
// arithmetic. At most kLargeSlots blocks and kLargeBytes bytes wait per thread.
namespace large {
constexpr int kLargeSlots = 64;
constexpr std::size_t kLargeBytes = std::size_t{256} << 20;  // 256 MiB
struct Tag;
using List = SizedList<Tag, kLargeSlots, kLargeBytes>;
inline void* take(std::size_t size) { return List::take(size); }
inline bool give(void* p, std::size_t size) { return List::give(p, size); }
}  // namespace large

}  // namespace ivy::cpu::handles
