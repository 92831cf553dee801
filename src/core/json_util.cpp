// Strict JSON parsing (declared, with its contract, in json_util.hpp).
#include "core/json_util.hpp"

#include <set>
#include <utility>
#include <vector>

namespace ivy::json_util {

ParsedJson parse_json_rejecting_duplicates(std::string_view text, int max_depth) {
  using ojson = nlohmann::ordered_json;
  ParsedJson out;

  // the nesting scan: a too-deep text never reaches the (recursive) parser
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (ch == '\\')
        escaped = true;
      else if (ch == '"')
        in_string = false;
      continue;
    }
    if (ch == '"') {
      in_string = true;
    } else if (ch == '{' || ch == '[') {
      if (++depth > max_depth) {
        out.problem = JsonProblem::too_deep;
        return out;
      }
    } else if (ch == '}' || ch == ']') {
      --depth;
    }
  }

  // the keys seen so far in each object being parsed, innermost last
  std::vector<std::set<std::string>> seen;
  std::string duplicate;
  auto cb = [&](int, ojson::parse_event_t ev, ojson& parsed) {
    if (ev == ojson::parse_event_t::object_start) {
      seen.emplace_back();
    } else if (ev == ojson::parse_event_t::object_end) {
      if (!seen.empty()) seen.pop_back();
    } else if (ev == ojson::parse_event_t::key && !seen.empty()) {
      const std::string& k = parsed.get_ref<const std::string&>();
      if (!seen.back().insert(k).second && duplicate.empty()) duplicate = k;
    }
    return true;
  };
  try {
    out.value = ojson::parse(text.begin(), text.end(), cb);
  } catch (const nlohmann::json::exception& e) {
    out.problem = JsonProblem::invalid;
    out.detail = e.what();
    return out;
  }
  if (!duplicate.empty()) {
    out.problem = JsonProblem::duplicate_key;
    out.detail = std::move(duplicate);
  }
  return out;
}

}  // namespace ivy::json_util
