// ivy::Array: a cheap, shared handle to an array owned by one backend.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ivy/core.hpp"

namespace ivy {

struct BackendImpl;

// A backend, by handle. Null means "not chosen".
class Backend {
 public:
  constexpr Backend() = default;
  constexpr explicit Backend(const BackendImpl* p) : p_(p) {}
  Backend(const char* name);  // NOLINT: implicit on purpose, Backend b = "torch"
  Backend(std::string_view name);
  Backend(const std::string& name) : Backend(std::string_view(name)) {}  // NOLINT: as const char*
  const char* name() const;
  const BackendImpl* impl() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  friend bool operator==(Backend a, Backend b) { return a.p_ == b.p_; }

 private:
  const BackendImpl* p_ = nullptr;
};
std::ostream& operator<<(std::ostream& os, Backend b);

// What every backend's array derives from. The metadata lives here, so that reading
// shape/dtype never calls into the backend.
class ArrayImpl {
 public:
  ArrayImpl(const Shape& s, DType d, Device dev, const BackendImpl* b) : shape(s), dtype(d), device(dev), backend(b) {}
  ArrayImpl(std::span<const std::int64_t> s, DType d, Device dev, const BackendImpl* b)
      : shape(s), dtype(d), device(dev), backend(b) {}
  virtual ~ArrayImpl() = default;
  Shape shape;
  DType dtype;
  Device device;
  const BackendImpl* backend;
};

class Array;

// Index items, in the spirit of LibTorch's x.index({Slice(1, None), Ellipsis, 0}).
inline constexpr std::nullopt_t None = std::nullopt;
struct Slice {
  std::optional<std::int64_t> start, stop, step;
  Slice(std::optional<std::int64_t> start_ = std::nullopt, std::optional<std::int64_t> stop_ = std::nullopt,
        std::optional<std::int64_t> step_ = std::nullopt)
      : start(start_), stop(stop_), step(step_) {}
};
struct EllipsisT {};
inline constexpr EllipsisT Ellipsis{};
struct NewAxisT {};
inline constexpr NewAxisT newaxis{};

class Index;

class Array {
 public:
  Array() = default;
  explicit Array(std::shared_ptr<ArrayImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_ != nullptr; }
  const Shape& shape() const { return impl_->shape; }
  DType dtype() const { return impl_->dtype; }
  Device device() const { return impl_->device; }
  Backend backend() const { return Backend(impl_->backend); }
  std::int64_t ndim() const { return static_cast<std::int64_t>(impl_->shape.size()); }
  std::int64_t size() const { return impl_->shape.numel(); }
  ArrayImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<ArrayImpl>& impl_ptr() const { return impl_; }

  // Host access (copies). item() needs exactly one element.
  template <class T> T item() const;
  template <class T> std::vector<T> to_vector() const;
  Scalar item_scalar() const;

  Array T() const;   // reverse all axes (ndim <= 2 as the standard asks)
  Array mT() const;  // swap the last two axes

  // Indexing: x[i], x.index({...}); assignment: x.index_put({...}, v).
  Array operator[](const Index& i) const;
  Array index(std::initializer_list<Index> items) const;
  Array index(const std::vector<Index>& items) const;
  void index_put(std::initializer_list<Index> items, const Array& value);
  void index_put(const std::vector<Index>& items, const Array& value);
  void index_put(std::initializer_list<Index> items, Scalar value);

  // In-place operators rebind this handle to the result, cast back to this dtype
  // (the standard requires the result to be castable to it).
  Array& operator+=(const Array& o);
  Array& operator-=(const Array& o);
  Array& operator*=(const Array& o);
  Array& operator/=(const Array& o);
  Array& operator%=(const Array& o);
  Array& operator&=(const Array& o);
  Array& operator|=(const Array& o);
  Array& operator^=(const Array& o);
  Array& operator<<=(const Array& o);
  Array& operator>>=(const Array& o);
  Array& operator+=(Scalar o);
  Array& operator-=(Scalar o);
  Array& operator*=(Scalar o);
  Array& operator/=(Scalar o);

  static Array from_scalar(Scalar s, DType d);

 private:
  std::shared_ptr<ArrayImpl> impl_;
};

class Index {
 public:
  enum Kind : std::uint8_t { Integer, SliceK, EllipsisK, NewAxisK, ArrayK };
  Index(std::int64_t i) : kind_(Integer), i_(i) {}  // NOLINT
  Index(int i) : kind_(Integer), i_(i) {}           // NOLINT
  Index(Slice s) : kind_(SliceK), s_(s) {}          // NOLINT
  Index(EllipsisT) : kind_(EllipsisK) {}            // NOLINT
  Index(NewAxisT) : kind_(NewAxisK) {}              // NOLINT
  Index(std::nullopt_t) : kind_(NewAxisK) {}        // NOLINT  (the standard's None)
  Index(Array a) : kind_(ArrayK), a_(std::move(a)) {}  // NOLINT
  Kind kind() const { return kind_; }
  std::int64_t integer() const { return i_; }
  const Slice& slice() const { return s_; }
  const Array& array() const { return a_; }

 private:
  Kind kind_;
  std::int64_t i_ = 0;
  Slice s_;
  Array a_;
};

std::ostream& operator<<(std::ostream& os, const Array& a);

// Backend-independent host copy: contiguous row-major bytes of x in dtype x.dtype().
void copy_to_host(const Array& x, void* dst);

template <class T>
T Array::item() const {
  auto v = to_vector<T>();
  if (v.size() != 1)
    throw ValueError("[item] needs an array with exactly one element, got shape " + shape().str());
  return v[0];
}

}  // namespace ivy
