// Internal: a JSON object built in place, one emplace per field, for the fields of every entry of
// a large container. An initializer list ({{"k", v}, ...}) builds each pair as a temporary array
// first: on a level of 7,001 Oni instances that was half the instructions of opening it.
#pragma once

#include <string_view>
#include <utility>

#include "assay/options.h"
#include "formats/serialise.h"

namespace assay::detail {

class JsonObject {
 public:
  explicit JsonObject(std::size_t fields) : j_(Json::object()) { object().reserve(fields); }
  template <class V>
  JsonObject& add(std::string_view key, V&& value) {
    object().emplace(std::string(key), Json(std::forward<V>(value)));
    return *this;
  }
  [[nodiscard]] Json take() { return std::move(j_); }  // once, at the end

 private:
  Json::object_t& object() { return j_.get_ref<Json::object_t&>(); }
  Json j_;
};

}  // namespace assay::detail
