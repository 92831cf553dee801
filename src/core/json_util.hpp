// Strict JSON parsing for ivy's readers (the safetensors header, graph JSON): internal to
// libivy. The callers word their own messages; this reports what is wrong.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ivy::json_util {

enum class JsonProblem {
  none,
  too_deep,       // brackets nest deeper than the limit
  invalid,        // the parser rejected the text
  duplicate_key,  // an object repeats a key
};

struct ParsedJson {
  nlohmann::ordered_json value;  // the document; meaningful only when problem is none
  JsonProblem problem = JsonProblem::none;
  std::string detail;  // invalid: the parser's message; duplicate_key: the first repeated key
};

// Parses `text`, reporting the first of these problems, checked in this order: '{' and '['
// nesting deeper than max_depth, found by a scan before the parser runs (strings and their
// escapes are skipped, so brackets inside strings do not count); a parse error; a key that
// appears twice in one object (the parser alone would keep the last), the first such key in
// document order.
ParsedJson parse_json_rejecting_duplicates(std::string_view text, int max_depth);

}  // namespace ivy::json_util
