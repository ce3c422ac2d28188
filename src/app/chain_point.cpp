#include "app/chain_point.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace ikpose::app {

bool ParseChainPoint(const std::string& text, const char* what, scene::ChainPoint* spec,
                     std::string* error) {
  const std::size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    *error = std::string(what) + " '" + text + "' is not CHAIN=x,y,z";
    return false;
  }
  spec->chain = text.substr(0, eq);
  const std::string numbers = text.substr(eq + 1);
  const char* p = numbers.c_str();
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(p, &end);
    if (end == p || errno == ERANGE) {
      *error = std::string(what) + " for " + spec->chain + " ('" + numbers +
               "') is not three numbers x,y,z";
      return false;
    }
    if (!std::isfinite(v)) {
      *error = std::string(what) + " for " + spec->chain + " is not a finite point ('" + numbers +
               "'): NaN and infinity are rejected";
      return false;
    }
    spec->point_ms[i] = static_cast<float>(v);
    p = end;
    if (i < 2) {
      if (*p != ',') {
        *error = std::string(what) + " for " + spec->chain + " ('" + numbers +
                 "') is not three numbers x,y,z";
        return false;
      }
      ++p;
    }
  }
  if (*p != '\0') {
    *error = std::string(what) + " for " + spec->chain + " ('" + numbers +
             "') has something after the third number";
    return false;
  }
  if (!std::isfinite(spec->point_ms.x) || !std::isfinite(spec->point_ms.y) ||
      !std::isfinite(spec->point_ms.z)) {
    *error = std::string(what) + " for " + spec->chain + " is out of range";
    return false;
  }
  return true;
}

}  // namespace ikpose::app
