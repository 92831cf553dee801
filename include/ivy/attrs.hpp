// Primitive attributes. ops.def declares each attribute set; this header turns every set into
// a plain struct with real members, in ivy::attr:
//
//   attr::sort s;              // s.axis (int64), s.descending, s.stable (bool)
//   s.axis = 1;
//   dispatch(OpId::sort, {x}, s);
//
//   attr::reduce r;            // r.axes is std::optional<Dims>: absent means every axis
//
// Two handles carry a set without knowing its type:
//   AttrsRef  a non-owning reference (the set's tag and address), passed by value to dispatch,
//             meta functions, kernels and derivative rules; it never outlives the call.
//             ref.get<attr::sort>() is the set, checked against the tag.
//   Attrs     an owning copy, for what is kept: graph nodes, tape nodes, compiled steps. A set
//             of up to kInlineBytes lives inside it; a larger one in a heap block of exactly
//             its size.
// Equality, printing and JSON walk a set's fields by name (S::kFields, S::for_each), so they
// are written once for every set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "ivy/core.hpp"

namespace ivy {

// The value types an attribute may have, as ops.def spells them: int, bool, float, scalar,
// ints, dtype; each also as opt_<type> (an std::optional: absent is a value of its own).
enum class AttrType : std::uint8_t { Int, Bool, Float, Scalar, Ints, DType };
const char* attr_type_name(AttrType t);

// One attribute of a set: its name, value type and whether it is optional. A set's field list
// ends with an entry whose name is nullptr.
struct AttrField {
  const char* name = nullptr;
  AttrType type = AttrType::Int;
  bool optional = false;
};

// Every attribute set of ops.def, by name.
enum class AttrSet : std::uint8_t {
#define IVY_OP(...)
#define IVY_ATTRS(set, fields) set,
#include "ivy/ops.def"
#undef IVY_ATTRS
#undef IVY_OP
};
const char* attr_set_name(AttrSet s);

}  // namespace ivy

// ---- the generated set structs
#define IVY_ATTR_CXX_int std::int64_t
#define IVY_ATTR_CXX_bool bool
#define IVY_ATTR_CXX_float double
#define IVY_ATTR_CXX_scalar ::ivy::Scalar
#define IVY_ATTR_CXX_ints ::ivy::Dims
#define IVY_ATTR_CXX_dtype ::ivy::DType
#define IVY_ATTR_CXX_opt_int std::optional<std::int64_t>
#define IVY_ATTR_CXX_opt_ints std::optional<::ivy::Dims>
#define IVY_ATTR_CXX_opt_dtype std::optional<::ivy::DType>
namespace ivy::detail {
// An absent optional from a function that is not constexpr: GCC 12 constant-initializes a
// std::optional<Dims> built from std::nullopt or {} by clearing all of its 272 bytes, on
// every call that makes a set.
template <class T>
inline std::optional<T> absent() noexcept {
  return std::nullopt;
}
}  // namespace ivy::detail

// Defaults: 0, false, float32, an empty list or Scalar, absent. Written so that no member is
// zero-filled first.
#define IVY_ATTR_INIT_int = 0
#define IVY_ATTR_INIT_bool = false
#define IVY_ATTR_INIT_float = 0.0
#define IVY_ATTR_INIT_scalar
#define IVY_ATTR_INIT_ints
#define IVY_ATTR_INIT_dtype = ::ivy::DType::float32
#define IVY_ATTR_INIT_opt_int = ::ivy::detail::absent<std::int64_t>()
#define IVY_ATTR_INIT_opt_ints = ::ivy::detail::absent<::ivy::Dims>()
#define IVY_ATTR_INIT_opt_dtype = ::ivy::detail::absent<::ivy::DType>()
#define IVY_ATTR_FIELD_int ::ivy::AttrType::Int, false
#define IVY_ATTR_FIELD_bool ::ivy::AttrType::Bool, false
#define IVY_ATTR_FIELD_float ::ivy::AttrType::Float, false
#define IVY_ATTR_FIELD_scalar ::ivy::AttrType::Scalar, false
#define IVY_ATTR_FIELD_ints ::ivy::AttrType::Ints, false
#define IVY_ATTR_FIELD_dtype ::ivy::AttrType::DType, false
#define IVY_ATTR_FIELD_opt_int ::ivy::AttrType::Int, true
#define IVY_ATTR_FIELD_opt_ints ::ivy::AttrType::Ints, true
#define IVY_ATTR_FIELD_opt_dtype ::ivy::AttrType::DType, true

// Expands its argument, then pastes _END onto its last token.
#define IVY_PP_END(...) IVY_PP_END_(__VA_ARGS__)
#define IVY_PP_END_(...) __VA_ARGS__##_END

// A set's fields are a sequence (type, name)(type, name)...; each pair of macros below walks
// one by alternating between its two halves, and the _END names close the walk.
#define IVY_ATTR_DECL(type, name) ::ivy::AttrField{#name, IVY_ATTR_FIELD_##type},
#define IVY_ATTR_DECL_A(type, name) IVY_ATTR_DECL(type, name) IVY_ATTR_DECL_B
#define IVY_ATTR_DECL_B(type, name) IVY_ATTR_DECL(type, name) IVY_ATTR_DECL_A
#define IVY_ATTR_DECL_A_END
#define IVY_ATTR_DECL_B_END
#define IVY_ATTR_MEMBER(type, name) IVY_ATTR_CXX_##type name IVY_ATTR_INIT_##type;
#define IVY_ATTR_MEMBER_A(type, name) IVY_ATTR_MEMBER(type, name) IVY_ATTR_MEMBER_B
#define IVY_ATTR_MEMBER_B(type, name) IVY_ATTR_MEMBER(type, name) IVY_ATTR_MEMBER_A
#define IVY_ATTR_MEMBER_A_END
#define IVY_ATTR_MEMBER_B_END
#define IVY_ATTR_VISIT(type, name) f(kFields[i_++], s.name);
#define IVY_ATTR_VISIT_A(type, name) IVY_ATTR_VISIT(type, name) IVY_ATTR_VISIT_B
#define IVY_ATTR_VISIT_B(type, name) IVY_ATTR_VISIT(type, name) IVY_ATTR_VISIT_A
#define IVY_ATTR_VISIT_A_END
#define IVY_ATTR_VISIT_B_END

#define IVY_ATTR_SET_STRUCT(set, fields)                                                        \
  struct set {                                                                                  \
    static constexpr ::ivy::AttrSet kSet = ::ivy::AttrSet::set;                                 \
    static constexpr ::ivy::AttrField kFields[] = {IVY_PP_END(IVY_ATTR_DECL_A fields){}};       \
    static constexpr int kCount = static_cast<int>(sizeof(kFields) / sizeof(kFields[0])) - 1;    \
    IVY_PP_END(IVY_ATTR_MEMBER_A fields)                                                        \
    /* f(const AttrField&, member&) for each field in order; Self is the set, const or not */   \
    template <class Self, class F>                                                              \
    static void for_each([[maybe_unused]] Self& s, [[maybe_unused]] F&& f) {                    \
      [[maybe_unused]] int i_ = 0;                                                              \
      IVY_PP_END(IVY_ATTR_VISIT_A fields)                                                       \
    }                                                                                           \
    friend bool operator==(const set&, const set&) = default;                                   \
  };

namespace ivy::attr {
#define IVY_OP(...)
#define IVY_ATTRS(set, fields) IVY_ATTR_SET_STRUCT(set, fields)
#include "ivy/ops.def"
#undef IVY_ATTRS
#undef IVY_OP
}  // namespace ivy::attr

namespace ivy {

// True for the structs generated above.
template <class S>
concept AttrSetType = std::is_same_v<std::remove_cv_t<decltype(S::kSet)>, AttrSet> && std::is_class_v<S>;

class Attrs;

namespace detail {
[[noreturn]] void throw_wrong_attr_set(AttrSet have, AttrSet want);
inline constexpr attr::none kNoAttrSet{};

// What the type-erased handles need of a set: its size and how to copy, destroy and compare it.
struct AttrSetInfo {
  const char* name;
  const AttrField* fields;
  std::size_t size;
  void* (*clone)(const void* src, void* inline_buf);  // into inline_buf if it fits, else the heap
  void (*destroy)(void* p, bool on_heap) noexcept;
  bool (*equal)(const void* a, const void* b);
};
const AttrSetInfo& attr_set_info(AttrSet s);
}  // namespace detail

// A non-owning reference to one attribute set. Pass it by value; never keep it past the call
// that received it (copy it into an Attrs to keep it).
class AttrsRef {
 public:
  AttrsRef() noexcept : set_(AttrSet::none), p_(&detail::kNoAttrSet) {}
  template <AttrSetType S>
  AttrsRef(const S& s) noexcept : set_(S::kSet), p_(&s) {}  // NOLINT: implicit on purpose
  AttrsRef(const Attrs& a) noexcept;                        // NOLINT: implicit on purpose

  AttrSet set() const noexcept { return set_; }
  const void* data() const noexcept { return p_; }
  // The set as S; throws ivy::Error when the reference holds another set.
  template <AttrSetType S>
  const S& get() const {
    if (set_ != S::kSet) detail::throw_wrong_attr_set(set_, S::kSet);
    return *static_cast<const S*>(p_);
  }
  // Same set, equal fields.
  friend bool operator==(AttrsRef a, AttrsRef b) {
    return a.set_ == b.set_ && (a.p_ == b.p_ || detail::attr_set_info(a.set_).equal(a.p_, b.p_));
  }

 private:
  AttrSet set_;
  const void* p_;
};

// An owning copy of one attribute set, stored at the set's own size.
class Attrs {
 public:
  // Sets up to this size (most scalar-only sets) are stored inline.
  static constexpr std::size_t kInlineBytes = 40;

  Attrs() noexcept : set_(AttrSet::none), p_(buf_) { new (buf_) attr::none(); }
  template <AttrSetType S>
  Attrs(const S& s) : set_(S::kSet) {  // NOLINT: implicit on purpose
    if constexpr (sizeof(S) <= kInlineBytes && alignof(S) <= alignof(std::max_align_t))
      p_ = new (buf_) S(s);
    else
      p_ = new S(s);
  }
  Attrs(AttrsRef r) : set_(r.set()), p_(detail::attr_set_info(r.set()).clone(r.data(), buf_)) {}  // NOLINT
  Attrs(const Attrs& o) : Attrs(AttrsRef(o)) {}
  Attrs(Attrs&& o) noexcept : set_(o.set_) {
    if (o.on_heap()) {
      p_ = o.p_;
      o.reset_to_none();
    } else {
      p_ = detail::attr_set_info(set_).clone(o.p_, buf_);  // inline sets copy without throwing
    }
  }
  Attrs& operator=(const Attrs& o) {
    if (this != &o) {
      Attrs t(o);
      *this = std::move(t);
    }
    return *this;
  }
  Attrs& operator=(Attrs&& o) noexcept {
    if (this != &o) {
      release();
      new (this) Attrs(std::move(o));
    }
    return *this;
  }
  ~Attrs() { release(); }

  AttrSet set() const noexcept { return set_; }
  template <AttrSetType S>
  const S& get() const {
    if (set_ != S::kSet) detail::throw_wrong_attr_set(set_, S::kSet);
    return *static_cast<const S*>(p_);
  }
  template <AttrSetType S>
  S& get() {
    if (set_ != S::kSet) detail::throw_wrong_attr_set(set_, S::kSet);
    return *static_cast<S*>(p_);
  }
  friend bool operator==(const Attrs& a, const Attrs& b) { return AttrsRef(a) == AttrsRef(b); }

 private:
  friend class AttrsRef;
  bool on_heap() const noexcept { return p_ != static_cast<const void*>(buf_); }
  void release() noexcept { detail::attr_set_info(set_).destroy(p_, on_heap()); }
  void reset_to_none() noexcept {
    set_ = AttrSet::none;
    p_ = new (buf_) attr::none();
  }

  AttrSet set_;
  void* p_;  // buf_ or the heap block
  alignas(std::max_align_t) unsigned char buf_[kInlineBytes];
};

inline AttrsRef::AttrsRef(const Attrs& a) noexcept : set_(a.set_), p_(a.p_) {}

// Calls f(std::type_identity<attr::S>{}) for the set s; for code written once for every set.
template <class F>
decltype(auto) visit_attr_set(AttrSet s, F&& f) {
  switch (s) {
#define IVY_OP(...)
#define IVY_ATTRS(set, fields) \
  case AttrSet::set: return f(std::type_identity<attr::set>{});
#include "ivy/ops.def"
#undef IVY_ATTRS
#undef IVY_OP
  }
  return f(std::type_identity<attr::none>{});
}

// "axis=0, descending=false, stable=true": every field of the set, by name.
std::string attrs_str(AttrsRef a);

}  // namespace ivy
