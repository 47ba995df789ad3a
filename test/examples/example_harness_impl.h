// Template definitions of example_harness.h.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace tcc::examples {

template <typename WantTol>
std::string compareViewTol(const Buffer &got, const View &v, WantTol want) {
  std::string report;
  int bad = 0;
  std::vector<uint8_t> inView(size_t(got.numel()), 0);
  for (int64_t i = 0; i < v.rows; ++i)
    for (int64_t j = 0; j < v.cols; ++j) {
      int64_t k = v.at(i, j);
      inView[size_t(k)] = 1;
      std::string e = "never written";
      if (got.init[size_t(k)]) {
        auto [value, tol] = want(i, j);
        e = checkClose(got.get(k), double(value), double(tol));
      }
      if (!e.empty() && bad++ < 5)
        report += "  [" + std::to_string(i) + ", " + std::to_string(j) + "]: " + e + "\n";
    }
  for (int64_t k = 0; k < got.numel(); ++k)
    if (!inView[size_t(k)] && got.init[size_t(k)] && bad++ < 5)
      report += "  element " + std::to_string(k) + " is outside the view but was written\n";
  if (bad)
    report = std::to_string(bad) + " mismatches in a " + std::to_string(v.rows) + "x" +
             std::to_string(v.cols) + " view of '" + got.name + "':\n" + report;
  return report;
}

template <typename Want>
std::string compareView(const Buffer &got, const View &v, Want want, double atol, double rtol) {
  return compareViewTol(got, v, [&](int64_t i, int64_t j) {
    double w = double(want(i, j));
    return std::pair<double, double>(w, atol + rtol * std::fabs(w));
  });
}

} // namespace tcc::examples
