// Primitive attributes: the flat storage every primitive call carries, and the named, typed
// views that ops.def's attribute sets generate over it.
//
// Code reads and writes attributes only through a view of the primitive's set:
//
//   Attrs a;
//   attr::sort w(a);           // writable view: w.axis, w.descending, w.stable
//   w.axis = 1;
//   const Attrs& c = a;
//   attr::sort(c).axis;         // read-only view
//
// A view is a struct of references into the Attrs it was made from; it costs nothing at run
// time. The storage is private: only this header maps a named attribute to its slot.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "ivy/core.hpp"

namespace ivy {

// The types an attribute may have, as ops.def spells them: int, bool, float, scalar, ints, dtype.
enum class AttrType : std::uint8_t { Int, Bool, Float, Scalar, Ints, DType };
const char* attr_type_name(AttrType t);

// One attribute of a set: its name and type. Sets end with an entry whose name is nullptr.
struct AttrField {
  const char* name = nullptr;
  AttrType type = AttrType::Int;
};

namespace detail {
struct AttrSlots;
// How many attributes of each type the storage holds (the largest set's need).
inline constexpr int kAttrSlots[] = {/*Int*/ 3, /*Bool*/ 4, /*Float*/ 1, /*Scalar*/ 3, /*Ints*/ 4, /*DType*/ 1};
}  // namespace detail

class Attrs {
 public:
  // User-provided, so that Attrs{} runs it instead of zero-filling the Dims storage first.
  Attrs() noexcept {}
  friend bool operator==(const Attrs&, const Attrs&) = default;

 private:
  friend struct detail::AttrSlots;
  // Dims and Scalar initialize themselves: no zero-fill of their storage first
  std::array<Dims, 4> ints_;
  std::array<Scalar, 3> scalars_;
  std::array<std::int64_t, 3> int_{};
  double float_ = 0;
  DType dtype_ = DType::float32;
  std::array<bool, 4> bool_{};
};

namespace detail {
template <AttrType T> struct attr_value;
template <> struct attr_value<AttrType::Int> { using type = std::int64_t; };
template <> struct attr_value<AttrType::Bool> { using type = bool; };
template <> struct attr_value<AttrType::Float> { using type = double; };
template <> struct attr_value<AttrType::Scalar> { using type = Scalar; };
template <> struct attr_value<AttrType::Ints> { using type = Dims; };
template <> struct attr_value<AttrType::DType> { using type = DType; };
template <AttrType T> using attr_value_t = typename attr_value<T>::type;
// A reference to an attribute's value, const when the view is over a const Attrs.
template <class A, AttrType T>
using attr_ref = std::conditional_t<std::is_const_v<A>, const attr_value_t<T>&, attr_value_t<T>&>;

// The storage slot of field i of a set: how many fields of its type come before it.
constexpr int slot_of(const AttrField* fields, int i) {
  int s = 0;
  for (int k = 0; k < i; ++k) s += fields[k].type == fields[i].type;
  return s;
}
constexpr bool names_equal(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
// The slot of the field called `name`; a field that is not in the set fails to compile.
constexpr int slot_named(const AttrField* fields, const char* name) {
  for (int i = 0; fields[i].name; ++i)
    if (names_equal(fields[i].name, name)) return slot_of(fields, i);
  throw "attribute not in its set";
}
// True when every type's slot count fits the storage and no name repeats.
constexpr bool set_fits(const AttrField* fields) {
  for (int i = 0; fields[i].name; ++i) {
    if (slot_of(fields, i) >= kAttrSlots[static_cast<int>(fields[i].type)]) return false;
    for (int k = 0; k < i; ++k)
      if (names_equal(fields[k].name, fields[i].name)) return false;
  }
  return true;
}

struct AttrSlots {
  template <AttrType T, int S, class A>
  static attr_ref<A, T> get(A& a) {
    static_assert(S >= 0 && S < kAttrSlots[static_cast<int>(T)]);
    if constexpr (T == AttrType::Int) return a.int_[S];
    else if constexpr (T == AttrType::Bool) return a.bool_[S];
    else if constexpr (T == AttrType::Float) return a.float_;
    else if constexpr (T == AttrType::Scalar) return a.scalars_[S];
    else if constexpr (T == AttrType::Ints) return a.ints_[S];
    else return a.dtype_;
  }
  // Run-time access by type and slot, for code that walks a set (printing, serialization).
  static const void* at(const Attrs& a, AttrType t, int slot);
  static void* at(Attrs& a, AttrType t, int slot);
};
}  // namespace detail

// The value of field `i` of `fields` in `a`, by type (reflection: printing, serialization).
template <AttrType T>
const detail::attr_value_t<T>& attr_value(const Attrs& a, const AttrField* fields, int i) {
  return *static_cast<const detail::attr_value_t<T>*>(detail::AttrSlots::at(a, T, detail::slot_of(fields, i)));
}
template <AttrType T>
detail::attr_value_t<T>& attr_value(Attrs& a, const AttrField* fields, int i) {
  return *static_cast<detail::attr_value_t<T>*>(detail::AttrSlots::at(a, T, detail::slot_of(fields, i)));
}
// "axis=0, descending=false, stable=true": every field of the set, by name.
std::string attrs_str(const AttrField* fields, const Attrs& a);

}  // namespace ivy

// ---- the generated views (one class template per attribute set of ops.def, in ivy::attr)
#define IVY_ATTR_TYPE_int ::ivy::AttrType::Int
#define IVY_ATTR_TYPE_bool ::ivy::AttrType::Bool
#define IVY_ATTR_TYPE_float ::ivy::AttrType::Float
#define IVY_ATTR_TYPE_scalar ::ivy::AttrType::Scalar
#define IVY_ATTR_TYPE_ints ::ivy::AttrType::Ints
#define IVY_ATTR_TYPE_dtype ::ivy::AttrType::DType

// Expands its argument, then pastes _END onto its last token.
#define IVY_PP_END(...) IVY_PP_END_(__VA_ARGS__)
#define IVY_PP_END_(...) __VA_ARGS__##_END

// A set's fields are a sequence (type, name)(type, name)...; each pair of macros below walks
// one by alternating between its two halves, and the _END names close the walk.
#define IVY_ATTR_DECL(type, name) ::ivy::AttrField{#name, IVY_ATTR_TYPE_##type},
#define IVY_ATTR_DECL_A(type, name) IVY_ATTR_DECL(type, name) IVY_ATTR_DECL_B
#define IVY_ATTR_DECL_B(type, name) IVY_ATTR_DECL(type, name) IVY_ATTR_DECL_A
#define IVY_ATTR_DECL_A_END
#define IVY_ATTR_DECL_B_END
#define IVY_ATTR_MEMBER(type, name)                  \
  ::ivy::detail::attr_ref<A, IVY_ATTR_TYPE_##type> name = \
      ::ivy::detail::AttrSlots::get<IVY_ATTR_TYPE_##type, ::ivy::detail::slot_named(kFields, #name)>(raw_);
#define IVY_ATTR_MEMBER_A(type, name) IVY_ATTR_MEMBER(type, name) IVY_ATTR_MEMBER_B
#define IVY_ATTR_MEMBER_B(type, name) IVY_ATTR_MEMBER(type, name) IVY_ATTR_MEMBER_A
#define IVY_ATTR_MEMBER_A_END
#define IVY_ATTR_MEMBER_B_END

#define IVY_ATTR_SET_VIEW(set, fields)                                                        \
  template <class A>                                                                          \
  struct set {                                                                                \
    static_assert(std::is_same_v<std::remove_const_t<A>, ::ivy::Attrs>);                      \
    static constexpr ::ivy::AttrField kFields[] = {IVY_PP_END(IVY_ATTR_DECL_A fields){}}; \
    static constexpr int kCount = static_cast<int>(sizeof(kFields) / sizeof(kFields[0])) - 1;  \
    static_assert(::ivy::detail::set_fits(kFields), "attribute set " #set " does not fit Attrs"); \
    A& raw_;                                                                                  \
    explicit set(A& a) : raw_(a) {}                                                           \
    IVY_PP_END(IVY_ATTR_MEMBER_A fields)                                                \
  };                                                                                          \
  template <class A>                                                                          \
  set(A&) -> set<A>;

namespace ivy::attr {
#define IVY_OP(...)
#define IVY_ATTRS(set, fields) IVY_ATTR_SET_VIEW(set, fields)
#include "ivy/ops.def"
#undef IVY_ATTRS
#undef IVY_OP
}  // namespace ivy::attr
