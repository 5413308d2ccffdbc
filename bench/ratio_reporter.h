// Console output plus ratios printed from the same run (docs/PERFORMANCE.md: never an absolute
// time alone). Each bench gives the function that prints its ratios from time()/cpu().
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  using PrintRatios = std::function<void(const RatioReporter&)>;
  explicit RatioReporter(PrintRatios print) : print_(std::move(print)) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      times_[r.benchmark_name()] = r.GetAdjustedRealTime();
      cpu_[r.benchmark_name()] = r.GetAdjustedCPUTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    print_(*this);
  }
  // The run named `key`, or whose name continues `key` with "/..." (min_time, process_time...
  // suffixes vary by library version); a key ending in '/' matches any continuation. 0 if none ran.
  [[nodiscard]] double time(std::string_view key) const { return find(times_, key); }
  [[nodiscard]] double cpu(std::string_view key) const { return find(cpu_, key); }

 private:
  static double find(const std::map<std::string, double>& m, std::string_view key) {
    for (const auto& [n, v] : m)
      if (n == key || (n.starts_with(key) && (key.ends_with('/') || n[key.size()] == '/'))) return v;
    return 0.0;
  }
  PrintRatios print_;
  std::map<std::string, double> times_, cpu_;
};

// benchmark's main with the reporter.
inline int run_with_ratios(int argc, char** argv, RatioReporter::PrintRatios print) {
  benchmark::Initialize(&argc, argv);
  RatioReporter rep(std::move(print));
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();
  return 0;
}

}  // namespace assay::bench
