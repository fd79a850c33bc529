// report_html_sample OUT_FILE [UNITS (132)] [DEVICE_NAME] [DEVICES (1)]:
// writes the report.html of a fake H100-like map (fake_h100_result.hpp), for
// the browser test and for looking at the page of a full-size chip (or of a
// map across GPUs) without one.
#include <cstdio>
#include <fstream>
#include <string>

#include "fake_h100_result.hpp"
#include "core/run_summary.hpp"
#include "report/report_html.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: report_html_sample OUT_FILE [UNITS] [DEVICE_NAME] [DEVICES]\n");
    return 2;
  }
  const int units = argc > 2 ? std::stoi(argv[2]) : 132;
  const std::string name = argc > 3 ? argv[3] : "fake H100-like chip";
  const int devices = argc > 4 ? std::stoi(argv[4]) : 1;
  const cumap::MapResult r = cumap::test::fake_h100_result(units, name, devices);
  const std::string page = cumap::report_html(r, cumap::run_summary(r));
  std::ofstream(argv[1], std::ios::binary) << page;
  std::printf("%s: %zu bytes for %d units x %d device(s)\n", argv[1], page.size(), units, devices);
  return 0;
}
