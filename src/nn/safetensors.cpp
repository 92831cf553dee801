// Container::save / Container::load in the safetensors layout, written from its published
// description:
//
//   bytes 0..8      N, the header's length, an unsigned 64-bit little-endian integer
//   bytes 8..8+N    the header: a UTF-8 JSON object. Each tensor is an entry
//                   "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]};
//                   the optional "__metadata__" entry maps strings to strings. The header
//                   may end with spaces (ivy pads it so that the data starts 8-byte aligned).
//   bytes 8+N..     the data buffer: each tensor's elements, row-major, little-endian, at
//                   [begin, end) relative to the buffer's start. The ranges cover the buffer
//                   exactly: no holes, no overlaps.
//
// Names are the Container's paths ("conv1/weight"). ivy writes tensors in the order of
// Container::flatten (insertion order), each range right after the previous one.
//
// Dtype codes: BOOL, U8, I8, U16, I16, U32, I32, U64, I64, F16, BF16, F32, F64 (the published
// set) and two ivy extensions for complex dtypes, which the published set lacks:
// "C64" (complex64: real float32 then imaginary float32) and "C128" (complex128: two float64).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string_view>
#include <utility>

#include "ivy/container.hpp"
#include "core/atomic_file.hpp"
#include "core/byte_order.hpp"
#include "core/json_util.hpp"
#include "ivy/functional.hpp"

namespace ivy {

namespace {

using ojson = nlohmann::ordered_json;

// The largest header ivy reads (the reference implementation's limit, 100 MB).
constexpr std::uint64_t kMaxHeader = 100'000'000;
// JSON nesting deeper than this is rejected before parsing (a valid header nests 3 deep).
constexpr int kMaxDepth = 64;

struct Code {
  const char* name;
  DType dtype;
};
constexpr Code kCodes[] = {
    {"BOOL", DType::bool_},  {"U8", DType::uint8},      {"I8", DType::int8},         {"U16", DType::uint16},
    {"I16", DType::int16},   {"U32", DType::uint32},    {"I32", DType::int32},       {"U64", DType::uint64},
    {"I64", DType::int64},   {"F16", DType::float16},   {"BF16", DType::bfloat16},   {"F32", DType::float32},
    {"F64", DType::float64}, {"C64", DType::complex64}, {"C128", DType::complex128},
};

const char* code_of(DType d) {
  for (const auto& c : kCodes)
    if (c.dtype == d) return c.name;
  throw ValueError(std::string("[save] no safetensors code for dtype ") + dtype_name(d));
}
bool dtype_of_code(const std::string& s, DType& out) {
  for (const auto& c : kCodes)
    if (s == c.name) {
      out = c.dtype;
      return true;
    }
  return false;
}

std::string errno_text(int err) { return std::strerror(err); }

// ---------------------------------------------------------------- load helpers

[[noreturn]] void bad(const std::string& file, const std::string& why) {
  throw ValueError("[load] " + file + ": " + why);
}

// A JSON value as a non-negative integer that fits int64; false otherwise.
bool as_count(const ojson& v, std::uint64_t& out) {
  if (v.is_number_unsigned()) {
    out = v.get<std::uint64_t>();
  } else if (v.is_number_integer()) {
    auto s = v.get<std::int64_t>();
    if (s < 0) return false;
    out = static_cast<std::uint64_t>(s);
  } else {
    return false;
  }
  return out <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

struct Entry {
  std::string name;
  DType dtype;
  Shape shape;
  std::uint64_t begin, end;
};

// Validates one tensor entry of the header; every problem names the tensor.
Entry parse_entry(const std::string& file, const std::string& name, const ojson& v, std::uint64_t buffer_size) {
  const std::string t = "tensor '" + name + "': ";
  // the name: a Container path (non-empty components)
  if (name.empty()) bad(file, "a tensor has an empty name");
  {
    std::size_t start = 0;
    while (true) {
      std::size_t slash = name.find('/', start);
      std::size_t len = (slash == std::string::npos ? name.size() : slash) - start;
      if (len == 0) bad(file, t + "the name has an empty path component");
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
  }
  if (!v.is_object()) bad(file, t + "the entry is " + std::string(v.type_name()) + ", not an object");
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it.key() != "dtype" && it.key() != "shape" && it.key() != "data_offsets")
      bad(file, t + "unexpected field '" + it.key() + "' (allowed: dtype, shape, data_offsets)");
  for (const char* f : {"dtype", "shape", "data_offsets"})
    if (!v.contains(f)) bad(file, t + "missing field '" + f + "'");

  Entry e;
  e.name = name;
  const ojson& dt = v.at("dtype");
  if (!dt.is_string()) bad(file, t + "dtype is " + std::string(dt.type_name()) + ", not a string");
  if (!dtype_of_code(dt.get<std::string>(), e.dtype)) bad(file, t + "unknown dtype '" + dt.get<std::string>() + "'");

  const ojson& sh = v.at("shape");
  if (!sh.is_array()) bad(file, t + "shape is " + std::string(sh.type_name()) + ", not an array");
  if (sh.size() > static_cast<std::size_t>(kMaxRank))
    bad(file, t + "rank " + std::to_string(sh.size()) + " exceeds ivy's maximum " + std::to_string(kMaxRank));
  // numel, checked against overflow of the byte count (numel * itemsize must fit int64)
  const std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  // the product of the non-zero extents must fit too (strides are computed from it)
  std::uint64_t numel = 1;
  bool zero = false;
  for (const ojson& d : sh) {
    std::uint64_t n = 0;
    if (!as_count(d, n)) bad(file, t + "shape " + sh.dump() + " has an entry that is not a non-negative integer");
    e.shape.push_back(static_cast<std::int64_t>(n));
    if (n == 0) {
      zero = true;
      continue;
    }
    if (numel > limit / n) bad(file, t + "shape " + sh.dump() + " has too many elements");
    numel *= n;
  }
  if (zero) numel = 0;
  std::size_t isz = itemsize(e.dtype);
  if (numel > limit / isz) bad(file, t + "shape " + sh.dump() + " has too many bytes");
  std::uint64_t nbytes = numel * isz;

  const ojson& off = v.at("data_offsets");
  if (!off.is_array() || off.size() != 2)
    bad(file, t + "data_offsets " + off.dump() + " is not a list of two integers");
  if (!as_count(off[0], e.begin) || !as_count(off[1], e.end))
    bad(file, t + "data_offsets " + off.dump() + " are not non-negative integers");
  if (e.begin > e.end) bad(file, t + "data_offsets " + off.dump() + " begin after they end");
  if (e.end > buffer_size)
    bad(file,
        t + "data_offsets " + off.dump() + " end past the data buffer (" + std::to_string(buffer_size) + " bytes)");
  if (e.end - e.begin != nbytes)
    bad(file, t + "data_offsets " + off.dump() + " span " + std::to_string(e.end - e.begin) + " bytes but " +
                  dt.get<std::string>() + sh.dump() + " needs " + std::to_string(nbytes));
  return e;
}

}  // namespace

// ---------------------------------------------------------------- save

void Container::save(const std::string& path, const std::map<std::string, std::string>& metadata) const {
  if (path.empty()) throw ValueError("[save] empty file name");
  if (leaf_)
    throw ValueError("[save] " + path +
                     ": the container is a single leaf with no name; put it under a key "
                     "(Container c; c.set(\"name\", leaf))");
  auto leaves = flatten();

  // the header, in flatten order; offsets follow one another from 0
  ojson header = ojson::object();
  std::uint64_t offset = 0;
  for (const auto& [name, x] : leaves) {
    if (name == "__metadata__")
      throw ValueError("[save] " + path + ": the path '__metadata__' is reserved for the metadata entry");
    std::uint64_t nbytes = static_cast<std::uint64_t>(x.size()) * itemsize(x.dtype());
    ojson entry = ojson::object();
    entry["dtype"] = code_of(x.dtype());
    entry["shape"] = ojson::array();
    for (auto d : x.shape()) entry["shape"].push_back(d);
    entry["data_offsets"] = ojson::array({offset, offset + nbytes});
    header[name] = std::move(entry);
    offset += nbytes;
  }
  if (!metadata.empty()) {
    ojson m = ojson::object();
    for (const auto& [k, v] : metadata) m[k] = v;
    header["__metadata__"] = std::move(m);
  }
  std::string text;
  try {
    text = header.dump();
  } catch (const nlohmann::json::exception& e) {  // names or metadata that are not valid UTF-8
    throw ValueError("[save] " + path + ": cannot encode the header as JSON (" + e.what() + ")");
  }
  // pad with spaces so that the data buffer starts at a multiple of 8 bytes
  while ((8 + text.size()) % 8 != 0) text.push_back(' ');
  unsigned char len_bytes[8];
  for (int i = 0; i < 8; ++i)
    len_bytes[i] = static_cast<unsigned char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xFF);

  // written atomically: the target is either the old file or the complete new one
  detail::AtomicFile file(path, "save");
  auto put = [&](const void* p, std::size_t count) { file.write(p, count); };
  put(len_bytes, 8);
  put(text.data(), text.size());
  std::vector<unsigned char> buf;
  for (const auto& [name, x] : leaves) {
    std::size_t nbytes = static_cast<std::size_t>(x.size()) * itemsize(x.dtype());
    if (nbytes == 0) continue;
    buf.resize(nbytes);
    copy_to_host(x, buf.data());
    to_from_little_endian(buf.data(), nbytes, x.dtype());
    put(buf.data(), nbytes);
  }
  file.commit();
}

// ---------------------------------------------------------------- load

Container Container::load(const std::string& path, Backend backend, std::map<std::string, std::string>* metadata) {
  // the whole file
  std::string data;
  {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      int err = errno;
      bad(path, "cannot open: " + errno_text(err));
    }
    unsigned char chunk[1 << 16];
    while (true) {
      std::size_t n = std::fread(chunk, 1, sizeof chunk, f);
      data.append(reinterpret_cast<const char*>(chunk), n);
      if (n < sizeof chunk) break;
    }
    bool err = std::ferror(f) != 0;
    int e = errno;
    std::fclose(f);
    if (err) bad(path, "read error: " + errno_text(e));
  }
  return load_from_bytes(data, backend, metadata, path);
}

Container Container::load_from_bytes(std::string_view bytes, Backend backend,
                                     std::map<std::string, std::string>* metadata, const std::string& path) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint64_t size = bytes.size();
  if (size < 8) bad(path, "file is " + std::to_string(size) + " bytes, shorter than the 8-byte header length");
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | data[static_cast<std::size_t>(i)];
  if (n > size - 8)
    bad(path,
        "header length " + std::to_string(n) + " exceeds the " + std::to_string(size - 8) + " bytes that follow it");
  if (n > kMaxHeader)
    bad(path, "header length " + std::to_string(n) + " exceeds the limit of " + std::to_string(kMaxHeader));
  if (n < 2) bad(path, "header length " + std::to_string(n) + " is too short for a JSON object");
  const std::uint64_t buffer_size = size - 8 - n;
  const unsigned char* buffer = data + 8 + n;
  std::string_view text(bytes.data() + 8, static_cast<std::size_t>(n));

  // parse, rejecting nesting deeper than kMaxDepth and duplicate keys in any object (the
  // parser alone would keep the last)
  json_util::ParsedJson parsed = json_util::parse_json_rejecting_duplicates(text, kMaxDepth);
  switch (parsed.problem) {
    case json_util::JsonProblem::none: break;
    case json_util::JsonProblem::too_deep:
      bad(path, "header JSON nests deeper than " + std::to_string(kMaxDepth) + " levels");
    case json_util::JsonProblem::invalid: bad(path, "header is not valid JSON: " + parsed.detail);
    case json_util::JsonProblem::duplicate_key:
      bad(path, "header has the key '" + parsed.detail + "' twice in one object");
  }
  ojson header = std::move(parsed.value);
  if (!header.is_object()) bad(path, "header is a JSON " + std::string(header.type_name()) + ", not an object");

  // every entry
  std::vector<Entry> entries;
  std::map<std::string, std::string> meta;
  for (auto it = header.begin(); it != header.end(); ++it) {
    if (it.key() == "__metadata__") {
      const ojson& m = it.value();
      if (!m.is_object()) bad(path, "__metadata__ is " + std::string(m.type_name()) + ", not an object");
      for (auto mi = m.begin(); mi != m.end(); ++mi) {
        if (!mi.value().is_string())
          bad(path,
              "__metadata__ value of '" + mi.key() + "' is " + std::string(mi.value().type_name()) + ", not a string");
        meta[mi.key()] = mi.value().get<std::string>();
      }
      continue;
    }
    entries.push_back(parse_entry(path, it.key(), it.value(), buffer_size));
  }

  // the ranges tile the buffer: sorted by (begin, end), each starts where the last ended
  {
    std::vector<const Entry*> order;
    for (const auto& e : entries) order.push_back(&e);
    std::sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
      return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t cursor = 0;
    const Entry* prev = nullptr;
    for (const Entry* e : order) {
      if (e->begin < cursor)
        bad(path, "tensor '" + e->name + "' [" + std::to_string(e->begin) + ", " + std::to_string(e->end) +
                      ") overlaps tensor '" + prev->name + "' [" + std::to_string(prev->begin) + ", " +
                      std::to_string(prev->end) + ")");
      if (e->begin > cursor)
        bad(path, "the data buffer has a hole at bytes [" + std::to_string(cursor) + ", " + std::to_string(e->begin) +
                      ") that no tensor covers");
      cursor = e->end;
      prev = e;
    }
    if (cursor != buffer_size)
      bad(path, "the data buffer has " + std::to_string(buffer_size - cursor) + " bytes after the last tensor (at " +
                    std::to_string(cursor) + ") that no tensor covers");
  }

  // names: no leaf is also a prefix of another name (exact duplicates were caught above)
  {
    std::set<std::string> names;
    for (const auto& e : entries) names.insert(e.name);
    for (const auto& e : entries)
      for (std::size_t slash = e.name.find('/'); slash != std::string::npos; slash = e.name.find('/', slash + 1))
        if (names.count(e.name.substr(0, slash)))
          bad(path, "tensor '" + e.name.substr(0, slash) + "' is also a prefix of tensor '" + e.name + "'");
  }

  // values that ivy cannot hold: bool bytes other than 0 and 1
  for (const auto& e : entries)
    if (e.dtype == DType::bool_)
      for (std::uint64_t i = e.begin; i < e.end; ++i)
        if (buffer[i] > 1)
          bad(path, "tensor '" + e.name + "' (BOOL) has the byte " + std::to_string(buffer[i]) + " at element " +
                        std::to_string(i - e.begin) + "; booleans are 0 or 1");

  // the backend must hold every dtype before anything is built
  Backend b = backend ? backend : current_backend();
  for (const auto& e : entries)
    if (is_unsupported(b, "asarray", e.dtype))
      throw NotImplementedError("[load] " + path + ": tensor '" + e.name + "' has dtype " + dtype_name(e.dtype) +
                                ", which backend " + b.name() + " does not support");

  // build: each tensor's bytes are copied to an aligned buffer (offsets need not be aligned)
  std::vector<std::pair<std::string, Array>> leaves;
  leaves.reserve(entries.size());
  std::vector<std::uint64_t> aligned;
  for (const auto& e : entries) {
    std::size_t nbytes = static_cast<std::size_t>(e.end - e.begin);
    aligned.assign((nbytes + 7) / 8 + 1, 0);
    auto* p = reinterpret_cast<unsigned char*>(aligned.data());
    if (nbytes) std::memcpy(p, buffer + e.begin, nbytes);
    to_from_little_endian(p, nbytes, e.dtype);
    leaves.emplace_back(e.name, ivy::asarray(static_cast<const void*>(p), e.dtype, e.shape, std::nullopt, Device{}, b));
  }
  Container out = from_pairs(leaves);
  if (metadata) *metadata = std::move(meta);
  return out;
}

}  // namespace ivy
