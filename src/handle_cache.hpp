// Result handles (a backend's ArrayImpl together with its shared_ptr control block: one
// block of one size per backend; on xtensor also small results with their data) recycled
// through a small per-thread free list: a handle costs a pointer pop instead of a
// malloc/free pair. The list is plain thread-local data
// (no guard on access); a thread_local flusher, set up on first use, returns the cached
// blocks when the thread ends, after which blocks go straight back to operator delete
// (arrays destroyed late, e.g. in static destructors). One list per Tag (per backend).
#pragma once

#include <cstddef>
#include <new>

namespace ivy::handles {

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

}  // namespace ivy::handles
