// Encodings the graph JSON writer, reader and DOT output share (internal to libivy): base64,
// half floats, and doubles, Scalars and int64 as the schema's JSON values
// (include/ivy/graph_io.hpp). Byte order is core/byte_order.hpp.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "ivy/core.hpp"

namespace ivy::graph_io_detail {

using ojson = nlohmann::ordered_json;

// ---------------------------------------------------------------- base64

// Standard base64 with '=' padding to a multiple of 4 characters.
std::string base64_encode(const unsigned char* p, std::size_t n);
// The inverse of base64_encode, strict: only its output is accepted (length a multiple of
// 4, alphabet characters, '=' only as the last one or two, unused bits of the last group
// zero). Returns an empty string on success, else what is wrong.
std::string base64_decode(std::string_view s, std::vector<unsigned char>& out);

// The float16 whose bits are `h`, as a float (exact; a NaN keeps its payload).
float half_to_float(std::uint16_t h);

// ---------------------------------------------------------------- doubles and scalars

// A double as JSON: finite values as numbers (the writer emits the shortest text that reads
// back to the same bits; -0.0 keeps its sign), the others as strings (the schema's list).
ojson double_to_json(double v);
// double_to_json's inverse (a JSON integer is read as the double nearest to it). Returns
// false when `j` is none of the forms the schema allows.
bool json_to_double(const ojson& j, double& out);

// A Scalar as its constructors make one from a double or a complex<double>, all fields set.
Scalar float_scalar(double v);
Scalar complex_scalar(std::complex<double> v);

// A Scalar as the schema's one-key object, which keeps its kind. An Int scalar made from a
// uint64 above int64's range holds the bits in `i` (negative) and the value in `d`
// (positive): it is written as that unsigned value.
ojson scalar_to_json(const Scalar& s);
// Reads a JSON integer that fits int64; false for anything else.
bool json_to_int64(const ojson& j, std::int64_t& out);

}  // namespace ivy::graph_io_detail
