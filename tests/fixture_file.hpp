// The JSON fixtures of tests/fixtures (written by the tests/gen_*.py scripts), loaded one way
// by every test file: the parsed document, or why it cannot be used, for the test to fail with
// (a missing or malformed file never reads as an empty, vacuously passing set of cases).
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#ifndef IVY_FIXTURES_DIR
#error "define IVY_FIXTURES_DIR"
#endif

namespace ivy::test_fixtures {

// What the file's top level must be.
enum class Layout {
  cases_list,      // an object with a "cases" list
  top_level_list,  // a list
  any,             // any JSON
};

struct Fixture {
  nlohmann::json doc;  // the parsed file; when `error` is set, an empty document of the layout
  std::string error;   // empty, or what is wrong and which script writes the file
  const nlohmann::json& cases() const { return doc.at("cases"); }
};

// IVY_FIXTURES_DIR/<file>, checked for `layout`; `generator` is the script under tests/ that
// writes it (named in the error).
inline Fixture load_fixture(const std::string& file, const std::string& generator, Layout layout = Layout::cases_list) {
  const std::string path = std::string(IVY_FIXTURES_DIR) + "/" + file;
  auto empty = [layout] {
    if (layout == Layout::top_level_list) return nlohmann::json::array();
    if (layout == Layout::cases_list) return nlohmann::json{{"cases", nlohmann::json::array()}};
    return nlohmann::json::object();
  };
  Fixture f;
  std::ifstream in(path);
  if (!in) {
    f.error = "cannot open " + path + " (run /usr/bin/python3 tests/" + generator + ")";
    f.doc = empty();
    return f;
  }
  try {
    f.doc = nlohmann::json::parse(in);
    if (layout == Layout::cases_list && !(f.doc.is_object() && f.doc.contains("cases") && f.doc["cases"].is_array()))
      throw std::runtime_error("no \"cases\" list at the top level");
    if (layout == Layout::top_level_list && !f.doc.is_array()) throw std::runtime_error("the top level is not a list");
  } catch (const std::exception& e) {
    f.error = "cannot parse " + path + ": " + e.what();
    f.doc = empty();
  }
  return f;
}

}  // namespace ivy::test_fixtures
