// Line plots (barrier and contention latency against k): drawn, encoded as
// PNG and decoded back; the series' colours and marks are where the values
// put them.
#include <cmath>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "cumap/error.hpp"
#include "render/render.hpp"
#include "png_reader.hpp"

namespace cumap {
namespace {

// Okabe and Ito's blue and vermillion: the palette's first two colours.
constexpr Rgb kBlue{0, 114, 178};
constexpr Rgb kVermillion{213, 94, 0};

PlotSeries series(const std::string& label, int color, int dash, std::vector<double> y) {
  PlotSeries s;
  s.label = label;
  s.color = color;
  s.dash = dash;
  s.x = {2, 4, 8, 16};
  s.y = std::move(y);
  for (double v : s.y) {
    s.y_low.push_back(v * 0.9);
    s.y_high.push_back(v * 1.2);
  }
  return s;
}

std::vector<PlotPanel> two_panels() {
  return {PlotPanel{"one-side", {series("counter, near", 0, 0, {100, 150, 250, 400}),
                                 series("counter, far", 0, 1, {180, 230, 330, 480})}},
          PlotPanel{"spread", {series("flag, near", 1, 0, {90, 120, 200, 300})}}};
}

LinePlotStyle style() {
  LinePlotStyle s;
  s.title = "device - barrier: ns per episode";
  s.x_title = "participants k (SMs)";
  s.y_title = "ns per barrier episode";
  s.log_x = true;
  return s;
}

std::size_t pixels_of(const Image& image, Rgb color) {
  std::size_t n = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) n += image.pixel(x, y) == color;
  return n;
}

TEST(LinePlot, DrawsEverySeriesInItsColourBesideALegend) {
  const Image image = test::decode_png(encode_png(render_line_plot(two_panels(), style())));
  EXPECT_GT(image.width, 2 * 460) << "two panels side by side";
  EXPECT_GT(pixels_of(image, kBlue), 200u) << "the counter lines, markers and legend entries";
  EXPECT_GT(pixels_of(image, kVermillion), 100u) << "the flag line";
  // Mostly white, with ink: neither blank nor flooded.
  const std::size_t white = pixels_of(image, Rgb{255, 255, 255});
  const std::size_t all = static_cast<std::size_t>(image.width) * image.height;
  EXPECT_GT(white, all / 2);
  EXPECT_LT(white, all - 5000);
}

TEST(LinePlot, HigherValuesAreDrawnHigher) {
  // Two markers alone (no line between them): 100 ns at the first k, 1000
  // ns at the last. The legend's marker is further right than either.
  PlotPanel panel{"p", {series("s", 0, 0, {100, kNaN, kNaN, 1000})}};
  panel.series[0].y_low.clear();
  panel.series[0].y_high.clear();
  const Image image = render_line_plot({panel}, style());
  int left = image.width;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (image.pixel(x, y) == kBlue) left = std::min(left, x);
  double low_y = 0, high_y = 0;
  int low_n = 0, high_n = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = left; x < left + 470 && x < image.width; ++x) {
      if (image.pixel(x, y) != kBlue) continue;
      if (x < left + 20) low_y += y, ++low_n;
      else if (x > left + 400) high_y += y, ++high_n;
    }
  ASSERT_GT(low_n, 0);
  ASSERT_GT(high_n, 0);
  EXPECT_LT(high_y / high_n, low_y / low_n - 150) << "1000 ns sits far above 100 ns";
}

TEST(LinePlot, NotesAndEmptyPanelsAreDrawnAndNothingToDrawIsRefused) {
  LinePlotStyle s = style();
  const Image plain = render_line_plot(two_panels(), s);
  s.notes = {"No point for platform, own at one-side k=4: not supported here", "second note"};
  const Image noted = render_line_plot(two_panels(), s);
  EXPECT_GT(noted.height, plain.height) << "room for the notes";
  PlotPanel empty{"nothing measured", {series("s", 0, 0, {kNaN, kNaN, kNaN, kNaN})}};
  EXPECT_NO_THROW(render_line_plot({empty}, style()));
  EXPECT_THROW(render_line_plot({}, style()), UsageError);
}

// One note per reason: the same footnote given for six cases is drawn once.
TEST(LinePlot, RepeatedNotesAreDrawnOnce) {
  LinePlotStyle once = style(), repeated = style();
  once.notes = {"No point for platform, own: not supported here"};
  repeated.notes = std::vector<std::string>(6, once.notes.front());
  EXPECT_EQ(render_line_plot(two_panels(), repeated).height, render_line_plot(two_panels(), once).height);
}

// Medians spanning more than 10x (a 7 µs std::barrier beside 65 ns counters)
// get a logarithmic y axis, said in a note; a narrower span keeps the linear one.
TEST(LinePlot, MediansSpanningMoreThanTenTimesGetALogAxisAndSaySo) {
  const auto panel = [](std::vector<double> y) {
    PlotSeries s = series("counter, near", 0, 0, std::move(y));
    s.y_high = s.y;  // no whisker above the scale
    s.y_low = s.y;
    return std::vector<PlotPanel>{PlotPanel{"one-side", {s}}};
  };
  const Image narrow = render_line_plot(panel({800, 900, 1000, 7000}), style());
  const Image wide = render_line_plot(panel({65, 70, 80, 7000}), style());
  EXPECT_GT(wide.height, narrow.height) << "the log axis is named in a note";
  // On the log axis the 65 ns point stands clear of the bottom: its marker's
  // blue lies well above the bottom of the axis.
  const auto lowest_blue = [](const Image& image) {
    for (int y = image.height - 1; y >= 0; --y)
      for (int x = 0; x < image.width; ++x)
        if (image.pixel(x, y) == kBlue) return y;
    return -1;
  };
  const auto highest_blue = [](const Image& image) {
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x)
        if (image.pixel(x, y) == kBlue) return y;
    return -1;
  };
  EXPECT_GT(lowest_blue(wide) - highest_blue(wide), 100) << "the points are spread over the axis, not squashed";
}

// A whisker above the plot's top is cut at the frame with an arrowhead, and
// a note says what the arrowhead means.
TEST(LinePlot, WhiskersCutAtTheTopAreMarkedAndExplained) {
  std::vector<PlotPanel> cut = two_panels();
  cut[0].series[0].y_high[3] = 5000;  // far above the medians' scale
  EXPECT_GT(render_line_plot(cut, style()).height, render_line_plot(two_panels(), style()).height);
}

}  // namespace
}  // namespace cumap
