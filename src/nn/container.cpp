// ivy::Container: the tree (keys, paths, set/erase), flatten/unflatten, leafwise maps and
// arithmetic, reductions, moving between backends and the printout. save/load (safetensors)
// are in safetensors.cpp.
//
// Invariants kept by every member: a Container is either a leaf (leaf_ set, no children) or a
// node (leaf_ null); keys of a node are unique, non-empty and free of '/'; a leaf's array is
// defined.
#include "ivy/container.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>

#include "ivy/functional.hpp"

namespace ivy {

// The private parts of Container that the builders here fill directly.
struct ContainerAccess {
  static std::vector<std::pair<std::string, Container>>& children(Container& c) { return c.children_; }
};

namespace {

const char* kC = "[container] ";

std::string quoted(const std::string& s) { return "'" + s + "'"; }
std::string where(const std::string& path) { return path.empty() ? std::string("the root") : quoted(path); }
std::string join(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "/" + key;
}

void check_key(const std::string& key, const char* what) {
  if (key.empty()) throw ValueError(std::string(kC) + what + ": empty key");
  if (key.find('/') != std::string::npos)
    throw ValueError(std::string(kC) + what + ": key " + quoted(key) + " contains '/' (use a path with set/at)");
}

// "a/b/c" -> {"a", "b", "c"}; "" -> {} (the root). Empty components ("a//b", "/a", "a/") are
// errors naming the path.
std::vector<std::string> split_path(const std::string& path, const char* what) {
  std::vector<std::string> parts;
  if (path.empty()) return parts;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = path.find('/', start);
    std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty()) throw ValueError(std::string(kC) + what + ": path " + quoted(path) + " has an empty component");
    parts.push_back(std::move(part));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return parts;
}

}  // namespace

// ---------------------------------------------------------------- construction and access

Container::Container() = default;

Container::Container(Array leaf) {
  if (!leaf.defined()) throw ValueError(std::string(kC) + "a leaf needs a defined array");
  leaf_ = std::make_shared<const Array>(std::move(leaf));
}

Container Container::from_pairs(const std::vector<std::pair<std::string, Array>>& leaves) {
  Container c;
  for (const auto& [path, arr] : leaves) {
    if (path.empty()) throw ValueError(std::string(kC) + "from_pairs: empty path (a node's leaves need names)");
    split_path(path, "from_pairs");
    // Walk the existing prefixes: a leaf on the way, or anything at the path itself, is a
    // conflict (a duplicate, or a name that is both a leaf and a node).
    const Container* cur = &c;
    std::size_t pos = 0;
    while (true) {
      std::size_t slash = path.find('/', pos);
      std::string key = path.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
      auto it =
          std::find_if(cur->children_.begin(), cur->children_.end(), [&](const auto& kv) { return kv.first == key; });
      if (it == cur->children_.end()) break;
      std::string sofar = path.substr(0, slash);
      if (slash == std::string::npos) {
        if (it->second.is_leaf()) throw ValueError(std::string(kC) + "from_pairs: duplicate path " + quoted(path));
        throw ValueError(std::string(kC) + "from_pairs: path " + quoted(path) +
                         " is a leaf and also a prefix of an earlier path");
      }
      if (it->second.is_leaf())
        throw ValueError(std::string(kC) + "from_pairs: " + quoted(sofar) + " is a leaf and also a prefix of " +
                         quoted(path));
      cur = &it->second;
      pos = slash + 1;
    }
    c.set(path, Container(arr));
  }
  return c;
}

Container Container::from_map(const std::map<std::string, Array>& leaves) {
  return from_pairs(std::vector<std::pair<std::string, Array>>(leaves.begin(), leaves.end()));
}

bool Container::is_leaf() const { return leaf_ != nullptr; }

const Array& Container::array() const {
  if (!leaf_)
    throw TypeError(std::string(kC) + "array(): this is a node with " + std::to_string(children_.size()) +
                    " children, not a leaf");
  return *leaf_;
}

std::vector<std::string> Container::keys() const {
  std::vector<std::string> k;
  k.reserve(children_.size());
  for (const auto& kv : children_) k.push_back(kv.first);
  return k;
}

std::int64_t Container::num_leaves() const {
  if (leaf_) return 1;
  std::int64_t n = 0;
  for (const auto& kv : children_) n += kv.second.num_leaves();
  return n;
}

bool Container::empty() const { return !leaf_ && children_.empty(); }

const Container& Container::at(const std::string& path) const {
  const Container* cur = this;
  std::string sofar;
  for (const std::string& key : split_path(path, "at")) {
    if (cur->leaf_)
      throw IndexError(std::string(kC) + "no entry at " + quoted(path) + ": " + where(sofar) + " is a leaf");
    auto it =
        std::find_if(cur->children_.begin(), cur->children_.end(), [&](const auto& kv) { return kv.first == key; });
    if (it == cur->children_.end())
      throw IndexError(std::string(kC) + "no entry at " + quoted(path) + ": no key " + quoted(key) + " under " +
                       where(sofar));
    cur = &it->second;
    sofar = join(sofar, key);
  }
  return *cur;
}

Container& Container::at(const std::string& path) {
  return const_cast<Container&>(static_cast<const Container&>(*this).at(path));
}

bool Container::contains(const std::string& path) const {
  const Container* cur = this;
  for (const std::string& key : split_path(path, "contains")) {
    if (cur->leaf_) return false;
    auto it =
        std::find_if(cur->children_.begin(), cur->children_.end(), [&](const auto& kv) { return kv.first == key; });
    if (it == cur->children_.end()) return false;
    cur = &it->second;
  }
  return true;
}

Container& Container::operator[](const std::string& key) {
  check_key(key, "operator[]");
  if (leaf_) throw TypeError(std::string(kC) + "operator[" + quoted(key) + "]: this is a leaf, not a node");
  for (auto& kv : children_)
    if (kv.first == key) return kv.second;
  children_.emplace_back(key, Container());
  return children_.back().second;
}

void Container::set(const std::string& path, Container value) {
  std::vector<std::string> parts = split_path(path, "set");
  if (parts.empty()) {  // the root itself
    *this = std::move(value);
    return;
  }
  Container* cur = this;
  std::string sofar;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (cur->leaf_)
      throw ValueError(std::string(kC) + "set " + quoted(path) + ": " + where(sofar) + " is a leaf, not a node");
    auto it = std::find_if(cur->children_.begin(), cur->children_.end(),
                           [&](const auto& kv) { return kv.first == parts[i]; });
    if (i + 1 == parts.size()) {
      if (it != cur->children_.end())
        it->second = std::move(value);  // replaced in place: the key keeps its position
      else
        cur->children_.emplace_back(parts[i], std::move(value));
      return;
    }
    if (it == cur->children_.end()) {
      cur->children_.emplace_back(parts[i], Container());
      cur = &cur->children_.back().second;
    } else {
      cur = &it->second;
    }
    sofar = join(sofar, parts[i]);
  }
}

bool Container::erase(const std::string& path) {
  std::vector<std::string> parts = split_path(path, "erase");
  if (parts.empty()) throw ValueError(std::string(kC) + "erase: empty path (the root cannot be erased)");
  Container* cur = this;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (cur->leaf_) return false;
    auto it = std::find_if(cur->children_.begin(), cur->children_.end(),
                           [&](const auto& kv) { return kv.first == parts[i]; });
    if (it == cur->children_.end()) return false;
    if (i + 1 == parts.size()) {
      cur->children_.erase(it);
      return true;
    }
    cur = &it->second;
  }
  return false;
}

// ---------------------------------------------------------------- flatten

namespace {
void flatten_into(const Container& c, const std::string& prefix, std::vector<std::pair<std::string, Array>>& out) {
  if (c.is_leaf()) {
    out.emplace_back(prefix, c.array());
    return;
  }
  for (const auto& [k, child] : c.children()) flatten_into(child, join(prefix, k), out);
}
}  // namespace

std::vector<std::pair<std::string, Array>> Container::flatten() const {
  std::vector<std::pair<std::string, Array>> out;
  if (leaf_) {
    out.emplace_back("", *leaf_);
    return out;
  }
  for (const auto& [k, child] : children_) flatten_into(child, k, out);
  return out;
}

std::map<std::string, Array> Container::to_map() const {
  auto flat = flatten();
  return {flat.begin(), flat.end()};
}

// ---------------------------------------------------------------- maps

namespace {

Array checked(Array r, const std::string& path, const char* what) {
  if (!r.defined())
    throw ValueError(std::string(kC) + what + ": the function returned an undefined array for " + where(path));
  return r;
}

Container map_rec(const Container& c, const std::string& path,
                  const std::function<Array(const std::string&, const Array&)>& fn) {
  if (c.is_leaf()) return Container(checked(fn(path, c.array()), path, "map"));
  Container out;
  // c's keys are distinct: appended as they are, without a lookup each (linear, not quadratic)
  auto& kids = ContainerAccess::children(out);
  kids.reserve(c.children().size());
  for (const auto& [k, child] : c.children()) kids.emplace_back(k, map_rec(child, join(path, k), fn));
  return out;
}

// First difference between the structures of a and b below `path`, or "" when they agree
// (keys are matched by name; their order may differ).
std::string first_difference(const Container& a, const Container& b, const std::string& path) {
  if (a.is_leaf() != b.is_leaf())
    return where(path) + " is a " + (a.is_leaf() ? "leaf" : "node") + " in the first container but a " +
           (b.is_leaf() ? "leaf" : "node") + " in the second";
  if (a.is_leaf()) return "";
  std::vector<std::string> ka = a.keys(), kb = b.keys();
  for (const auto& k : ka)
    if (std::find(kb.begin(), kb.end(), k) == kb.end())
      return quoted(join(path, k)) + " is in the first container but not in the second";
  for (const auto& k : kb)
    if (std::find(ka.begin(), ka.end(), k) == ka.end())
      return quoted(join(path, k)) + " is in the second container but not in the first";
  for (const auto& k : ka) {
    std::string d = first_difference(a.at(k), b.at(k), join(path, k));
    if (!d.empty()) return d;
  }
  return "";
}

Container map2_rec(const Container& a, const Container& b, const std::string& path,
                   const std::function<Array(const Array&, const Array&)>& fn) {
  if (a.is_leaf()) return Container(checked(fn(a.array(), b.array()), path, "map2"));
  Container out;
  for (const auto& [k, child] : a.children()) out.set(k, map2_rec(child, b.at(k), join(path, k), fn));
  return out;
}

}  // namespace

namespace {
// map without paths: the keys on the way down are kept as pointers and joined only for an
// error's message
Container map_keys(const Container& c, std::vector<const std::string*>& keys, const std::function<Array(const Array&)>& fn) {
  if (c.is_leaf()) {
    Array r = fn(c.array());
    if (!r.defined()) {
      std::string path;
      for (const std::string* k : keys) path = join(path, *k);
      checked(r, path, "map");
    }
    return Container(std::move(r));
  }
  Container out;
  auto& kids = ContainerAccess::children(out);
  kids.reserve(c.children().size());
  for (const auto& [k, child] : c.children()) {
    keys.push_back(&k);
    kids.emplace_back(k, map_keys(child, keys, fn));
    keys.pop_back();
  }
  return out;
}
}  // namespace

Container Container::map(const std::function<Array(const Array&)>& fn) const {
  std::vector<const std::string*> keys;
  return map_keys(*this, keys, fn);
}

Container Container::map_with_paths(const std::function<Array(const std::string& path, const Array&)>& fn) const {
  return map_rec(*this, "", fn);
}

Container Container::map2(const Container& a, const Container& b,
                          const std::function<Array(const Array&, const Array&)>& fn) {
  std::string d = first_difference(a, b, "");
  if (!d.empty()) throw ValueError(std::string(kC) + "structures differ: " + d);
  return map2_rec(a, b, "", fn);
}

bool Container::same_structure(const Container& other) const { return first_difference(*this, other, "").empty(); }

// ---------------------------------------------------------------- arithmetic

Container operator+(const Container& a, const Container& b) {
  return Container::map2(a, b, [](const Array& x, const Array& y) { return x + y; });
}
Container operator-(const Container& a, const Container& b) {
  return Container::map2(a, b, [](const Array& x, const Array& y) { return x - y; });
}
Container operator*(const Container& a, const Container& b) {
  return Container::map2(a, b, [](const Array& x, const Array& y) { return x * y; });
}
Container operator/(const Container& a, const Container& b) {
  return Container::map2(a, b, [](const Array& x, const Array& y) { return x / y; });
}
Container operator+(const Container& a, Scalar s) {
  return a.map([&](const Array& x) { return x + s; });
}
Container operator-(const Container& a, Scalar s) {
  return a.map([&](const Array& x) { return x - s; });
}
Container operator*(const Container& a, Scalar s) {
  return a.map([&](const Array& x) { return x * s; });
}
Container operator/(const Container& a, Scalar s) {
  return a.map([&](const Array& x) { return x / s; });
}
Container operator*(Scalar s, const Container& a) {
  return a.map([&](const Array& x) { return s * x; });
}
Container operator-(const Container& a) {
  return a.map([](const Array& x) { return -x; });
}

// ---------------------------------------------------------------- reductions

Container Container::sum() const {
  return map([](const Array& x) { return ivy::sum(x); });
}

Container Container::mean() const {
  return map([](const Array& x) { return ivy::mean(x); });
}

Array Container::global_sum_of_squares() const {
  Array total;
  for (const auto& [path, x] : flatten()) {
    // |x|^2 for complex leaves (a real result), x^2 otherwise
    Array sq = is_complex(x.dtype()) ? ivy::square(ivy::abs(x)) : ivy::square(x);
    Array s = ivy::sum(sq);
    total = total.defined() ? total + s : s;
  }
  if (!total.defined()) return ivy::asarray(Scalar(0.0), default_float_dtype());
  return total;
}

// ---------------------------------------------------------------- backends

Container Container::to_backend(Backend b) const {
  if (!b) throw ValueError(std::string(kC) + "to_backend: no backend given");
  return map_with_paths([&](const std::string& path, const Array& x) -> Array {
    if (is_unsupported(b, "asarray", x.dtype()))
      throw NotImplementedError(std::string(kC) + "to_backend: " + where(path) + " has dtype " + dtype_name(x.dtype()) +
                                ", which backend " + b.name() + " does not support");
    // Always a copy: the same backend copies with astype; another backend gets the host bytes.
    if (x.backend() == b) return ivy::astype(x, x.dtype(), /*copy=*/true);
    std::vector<unsigned char> buf(static_cast<std::size_t>(x.size()) * itemsize(x.dtype()));
    if (!buf.empty()) copy_to_host(x, buf.data());
    return ivy::asarray(static_cast<const void*>(buf.data()), x.dtype(), x.shape(), std::nullopt, x.device(), b);
  });
}

// ---------------------------------------------------------------- printing

namespace {
std::string leaf_text(const Array& x) {
  std::string s = dtype_name(x.dtype());
  s += "[";
  for (std::size_t i = 0; i < x.shape().size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(x.shape()[i]);
  }
  return s + "]";
}

void str_rec(const Container& c, int indent, std::string& out) {
  for (const auto& [k, child] : c.children()) {
    out.append(static_cast<std::size_t>(indent), ' ');
    if (child.is_leaf()) {
      out += k + ": " + leaf_text(child.array()) + "\n";
    } else {
      out += k + "/\n";
      str_rec(child, indent + 2, out);
    }
  }
}
}  // namespace

std::string Container::str() const {
  if (leaf_) return leaf_text(*leaf_) + "\n";
  if (children_.empty()) return "(empty)\n";
  std::string out;
  str_rec(*this, 0, out);
  return out;
}

std::ostream& operator<<(std::ostream& os, const Container& c) { return os << c.str(); }

}  // namespace ivy
