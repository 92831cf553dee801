// Attribute reflection: slots by type, and printing a set's attributes by name.
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
void* AttrSlots::at(Attrs& a, AttrType t, int slot) {
  if (slot < 0 || slot >= kAttrSlots[static_cast<int>(t)])
    throw ValueError(std::string("[Attrs] no ") + attr_type_name(t) + " slot " + std::to_string(slot));
  switch (t) {
    case AttrType::Int: return &a.int_[slot];
    case AttrType::Bool: return &a.bool_[slot];
    case AttrType::Float: return &a.float_;
    case AttrType::Scalar: return &a.scalars_[slot];
    case AttrType::Ints: return &a.ints_[slot];
    case AttrType::DType: return &a.dtype_;
  }
  return nullptr;
}
const void* AttrSlots::at(const Attrs& a, AttrType t, int slot) { return at(const_cast<Attrs&>(a), t, slot); }
}  // namespace detail

std::string attrs_str(const AttrField* fields, const Attrs& a) {
  std::ostringstream os;
  for (int i = 0; fields[i].name; ++i) {
    os << (i ? ", " : "") << fields[i].name << "=";
    switch (fields[i].type) {
      case AttrType::Int: os << attr_value<AttrType::Int>(a, fields, i); break;
      case AttrType::Bool: os << (attr_value<AttrType::Bool>(a, fields, i) ? "true" : "false"); break;
      case AttrType::Float: os << attr_value<AttrType::Float>(a, fields, i); break;
      case AttrType::Scalar: os << attr_value<AttrType::Scalar>(a, fields, i).str(); break;
      case AttrType::Ints: os << attr_value<AttrType::Ints>(a, fields, i); break;
      case AttrType::DType: os << dtype_name(attr_value<AttrType::DType>(a, fields, i)); break;
    }
  }
  return os.str();
}

}  // namespace ivy
