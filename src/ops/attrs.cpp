// Attribute sets at run time: the per-set table behind Attrs and AttrsRef (size, copy,
// destroy, equality) and printing a set's fields by name.
#include <sstream>

#include "ivy/attrs.hpp"

namespace ivy {

const char* attr_type_name(AttrType t) {
  switch (t) {
    case AttrType::Int: return "int";
    case AttrType::Bool: return "bool";
    case AttrType::Float: return "float";
    case AttrType::Scalar: return "scalar";
    case AttrType::Ints: return "ints";
    case AttrType::DType: return "dtype";
  }
  return "?";
}

namespace detail {
namespace {
template <class S>
void* clone_set(const void* src, void* inline_buf) {
  const S& s = *static_cast<const S*>(src);
  if constexpr (sizeof(S) <= Attrs::kInlineBytes && alignof(S) <= alignof(std::max_align_t))
    return new (inline_buf) S(s);
  else
    return new S(s);
}
template <class S>
void destroy_set(void* p, bool on_heap) noexcept {
  if (on_heap)
    delete static_cast<S*>(p);
  else
    static_cast<S*>(p)->~S();
}
template <class S>
bool equal_sets(const void* a, const void* b) {
  return *static_cast<const S*>(a) == *static_cast<const S*>(b);
}

constexpr AttrSetInfo kSetInfo[] = {
#define IVY_OP(...)
#define IVY_ATTRS(set, fields) \
  {#set, attr::set::kFields, sizeof(attr::set), &clone_set<attr::set>, &destroy_set<attr::set>, &equal_sets<attr::set>},
#include "ivy/ops.def"
#undef IVY_ATTRS
#undef IVY_OP
};
constexpr int kSetCount = static_cast<int>(sizeof(kSetInfo) / sizeof(kSetInfo[0]));
}  // namespace

const AttrSetInfo& attr_set_info(AttrSet s) { return kSetInfo[static_cast<int>(s)]; }

void throw_wrong_attr_set(AttrSet have, AttrSet want) {
  throw ValueError(std::string("[Attrs] the attributes are set '") + attr_set_name(have) + "', read as set '" +
                   attr_set_name(want) + "'");
}
}  // namespace detail

const char* attr_set_name(AttrSet s) {
  const int i = static_cast<int>(s);
  return i >= 0 && i < detail::kSetCount ? detail::kSetInfo[i].name : "?";
}

namespace {
void put(std::ostream& os, std::int64_t v) { os << v; }
void put(std::ostream& os, bool v) { os << (v ? "true" : "false"); }
void put(std::ostream& os, double v) { os << v; }
void put(std::ostream& os, const Scalar& v) { os << v.str(); }
void put(std::ostream& os, const Dims& v) { os << v; }
void put(std::ostream& os, DType v) { os << dtype_name(v); }
template <class T>
void put(std::ostream& os, const std::optional<T>& v) {
  if (v)
    put(os, *v);
  else
    os << "none";
}
}  // namespace

std::string attrs_str(AttrsRef a) {
  std::ostringstream os;
  visit_attr_set(a.set(), [&]<class S>(std::type_identity<S>) {
    S::for_each(a.get<S>(), [&](const AttrField& f, const auto& v) {
      os << (&f == S::kFields ? "" : ", ") << f.name << "=";
      put(os, v);
    });
  });
  return os.str();
}

}  // namespace ivy
