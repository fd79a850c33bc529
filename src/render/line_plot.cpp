// Line plots (barrier and contention latency against k), drawn with the
// heatmaps' canvas and font. Debian packages no C++ plotting library that
// writes a PNG without a GUI toolkit or a Python runtime behind it, and a
// few lines, markers, ticks and a legend are little code on the canvas.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "render/canvas.hpp"
#include "render/color_scale.hpp"
#include "render/font.hpp"
#include "render/heatmap_parts.hpp"

namespace cumap {
namespace {

using render::Font;
using render::TextExtent;

constexpr int kMargin = 18;
constexpr int kPlotWidth = 460;
constexpr int kPlotHeight = 300;
constexpr int kPanelGap = 36;   // between two panels, either way
constexpr int kGap = 8;         // between an axis and its labels, labels and titles
constexpr int kTick = 5;
constexpr int kLegendSample = 40;  // the line drawn before each legend entry
constexpr double kLineWidth = 2.2;
constexpr Rgb kGrid{226, 226, 226};

// Okabe and Ito's palette: told apart with every common colour-vision
// deficiency, and dark enough on white (their yellow left out).
constexpr Rgb kPalette[] = {{0, 114, 178},   {213, 94, 0},   {0, 158, 115}, {204, 121, 167},
                            {230, 159, 0},   {86, 180, 233}, {0, 0, 0}};
Rgb palette(int i) { return kPalette[static_cast<std::size_t>(std::abs(i)) % std::size(kPalette)]; }

int blend(double coverage) { return static_cast<int>(std::lround(std::clamp(coverage, 0.0, 1.0) * 255)); }

// An anti-aliased thick segment; `travelled` carries the dash pattern from one segment to the next.
void draw_segment(Image& image, double x0, double y0, double x1, double y1, Rgb color, int dash, double& travelled) {
  const double dx = x1 - x0, dy = y1 - y0, length = std::hypot(dx, dy);
  const double on = dash == 1 ? 9.0 : 2.5, period = dash == 1 ? 15.0 : 6.0;
  const double reach = kLineWidth / 2 + 1;
  for (int py = static_cast<int>(std::floor(std::min(y0, y1) - reach)); py <= std::max(y0, y1) + reach; ++py)
    for (int px = static_cast<int>(std::floor(std::min(x0, x1) - reach)); px <= std::max(x0, x1) + reach; ++px) {
      const double t = length > 0 ? std::clamp(((px - x0) * dx + (py - y0) * dy) / (length * length), 0.0, 1.0) : 0;
      const double d = std::hypot(px - (x0 + t * dx), py - (y0 + t * dy));
      if (dash != 0 && std::fmod(travelled + t * length, period) > on) continue;
      render::blend_pixel(image, px, py, color, blend(kLineWidth / 2 + 0.5 - d));
    }
  travelled += length;
}

// A marker per dash style, so that lines tell apart without colour too: a
// disc (solid), a square (dashed), a diamond (dotted), on a white rim.
void draw_marker(Image& image, double cx, double cy, Rgb color, int dash) {
  const auto shape = [&](double radius, Rgb fill) {
    for (int py = static_cast<int>(cy - radius - 1); py <= cy + radius + 1; ++py)
      for (int px = static_cast<int>(cx - radius - 1); px <= cx + radius + 1; ++px) {
        const double ax = std::abs(px - cx), ay = std::abs(py - cy);
        const double d = dash == 0 ? std::hypot(ax, ay) : dash == 1 ? std::max(ax, ay) : (ax + ay) / 1.3;
        render::blend_pixel(image, px, py, fill, blend(radius + 0.5 - d));
      }
  };
  shape(5.5, render::kWhite);
  shape(4.0, color);
}

// Tick values 0, step, 2 step, ... up to the first at or above `top`, with
// step 1, 2, 2.5 or 5 times a power of ten: about five of them.
std::vector<double> nice_ticks(double top) {
  if (!(top > 0)) top = 1;
  const double raw = top / 5, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude * 10;
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (raw <= m * magnitude) {
      step = m * magnitude;
      break;
    }
  std::vector<double> ticks;
  for (int i = 0; i == 0 || ticks.back() < top * 0.999; ++i) ticks.push_back(i * step);
  return ticks;
}


constexpr double kLogYSpan = 10.0;

// A logarithmic axis from the decade at or below `bottom` to the one at or
// above `top`: its decades, with 2 and 5 times them where there are few.
std::vector<double> log_ticks(double bottom, double top) {
  const int first = static_cast<int>(std::floor(std::log10(bottom) + 1e-9));
  const int last = static_cast<int>(std::ceil(std::log10(top) - 1e-9));
  std::vector<double> ticks;
  for (int e = first; e <= last; ++e)
    for (double m : last - first <= 3 ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
      const double v = m * std::pow(10.0, e);
      if (v >= std::pow(10.0, first) && v <= std::pow(10.0, last) * (1 + 1e-9)) ticks.push_back(v);
    }
  return ticks;
}

struct Scale {
  double x_low = 0, x_high = 1;  // in plot units (log2 for log_x)
  std::vector<double> y_ticks;
  std::vector<std::string> y_labels;  // render::format_ticks of y_ticks
  bool log_x = false;
  // Medians spanning more than kLogYSpan: a logarithmic y axis, so that a
  // 7 µs std::barrier does not squash 65 ns counters onto the axis.
  bool log_y = false;
  double y_low = 0.0;  // the axis' bottom (0 on a linear axis)
  double x_of(double x) const { return log_x ? std::log2(x) : x; }
};

Scale make_scale(const std::vector<PlotPanel>& panels, bool log_x) {
  Scale s;
  s.log_x = log_x;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, top = 0;
  double bottom = std::numeric_limits<double>::infinity();  // the smallest positive median
  for (const PlotPanel& p : panels)
    for (const PlotSeries& series : p.series)
      for (std::size_t i = 0; i < series.x.size() && i < series.y.size(); ++i) {
        if (log_x && !(series.x[i] > 0)) continue;
        lo = std::min(lo, s.x_of(series.x[i]));
        hi = std::max(hi, s.x_of(series.x[i]));
        if (std::isfinite(series.y[i])) top = std::max(top, series.y[i]);
        if (std::isfinite(series.y[i]) && series.y[i] > 0) bottom = std::min(bottom, series.y[i]);
      }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (hi - lo < 1e-9) lo -= 1, hi += 1;
  // Room either side, so that the first and last markers clear the frame.
  const double pad = (hi - lo) * 0.05;
  s.x_low = lo - pad;
  s.x_high = hi + pad;
  // Medians set the scale; whiskers above it are cut at the frame (and marked).
  if (std::isfinite(bottom) && top > kLogYSpan * bottom) {
    s.log_y = true;
    s.y_ticks = log_ticks(bottom, top);
    s.y_low = s.y_ticks.front();
    for (double v : s.y_ticks) s.y_labels.push_back(fmt::format("{:g}", v));
    return s;
  }
  s.y_ticks = nice_ticks(top * 1.05);
  s.y_labels = render::format_ticks(s.y_ticks);
  return s;
}

// Where one panel's plot area is, and what maps into it.
struct Area {
  int x = 0, y = 0;
  const Scale* scale = nullptr;
  double px(double x_value) const {
    return x + (scale->x_of(x_value) - scale->x_low) / (scale->x_high - scale->x_low) * kPlotWidth;
  }
  double py(double y_value) const {
    if (!scale->log_y) return y + kPlotHeight - y_value / scale->y_ticks.back() * kPlotHeight;
    // Values at or below zero have no place on a log axis: below the frame, clipped to it.
    if (!(y_value > 0)) return y + kPlotHeight + 1;
    const double low = std::log10(scale->y_low), high = std::log10(scale->y_ticks.back());
    return y + kPlotHeight - (std::log10(y_value) - low) / (high - low) * kPlotHeight;
  }
};

struct TextSizes {
  int title = 0, panel_title = 0, tick = 0, axis_title = 0, legend = 0;
  int y_label_width = 0, legend_width = 0;
};

// Every series' legend entry once, in order of first appearance.
std::vector<const PlotSeries*> legend_entries(const std::vector<PlotPanel>& panels) {
  std::vector<const PlotSeries*> entries;
  std::set<std::string> seen;
  for (const PlotPanel& p : panels)
    for (const PlotSeries& s : p.series)
      if (seen.insert(s.label).second) entries.push_back(&s);
  return entries;
}

void draw_axes(Image& image, Font& font, const Area& a, const PlotPanel& panel, const LinePlotStyle& style,
               const std::vector<double>& x_ticks, const TextSizes& t) {
  const Scale& s = *a.scale;
  const TextExtent digits = font.measure("0123456789", render::kTickLabelPx);
  for (std::size_t i = 0; i < s.y_ticks.size(); ++i) {
    const int y = static_cast<int>(std::lround(a.py(s.y_ticks[i])));
    render::fill_rect(image, a.x, y, kPlotWidth, 1, kGrid);
    render::fill_rect(image, a.x - kTick, y, kTick, 1, render::kInk);
    const std::string& text = s.y_labels[i];
    const int width = font.measure(text, render::kTickLabelPx).width;
    font.draw(image, text, render::kTickLabelPx, a.x - kTick - 4 - width, y + (digits.ascent - digits.descent) / 2,
              render::kInk);
  }
  int free_from = std::numeric_limits<int>::min();  // x labels must not overlap: later ones give way
  for (double v : x_ticks) {
    const int x = static_cast<int>(std::lround(a.px(v)));
    render::fill_rect(image, x, a.y + kPlotHeight, 1, kTick, render::kInk);
    const std::string text = fmt::format("{:g}", v);
    const int width = font.measure(text, render::kTickLabelPx).width;
    if (x - width / 2 < free_from) continue;
    font.draw(image, text, render::kTickLabelPx, x - width / 2, a.y + kPlotHeight + kTick + 3 + digits.ascent,
              render::kInk);
    free_from = x + width / 2 + 6;
  }
  // The frame's left and bottom edges: the axes.
  render::fill_rect(image, a.x - 1, a.y, 1, kPlotHeight + 1, render::kInk);
  render::fill_rect(image, a.x - 1, a.y + kPlotHeight, kPlotWidth + 1, 1, render::kInk);
  const TextExtent title = font.measure(panel.title, render::kPanelTitlePx);
  font.draw(image, panel.title, render::kPanelTitlePx, a.x + (kPlotWidth - title.width) / 2, a.y - kGap - title.descent,
            render::kInk);
  const int x_title_width = font.measure(style.x_title, render::kAxisTitlePx).width;
  font.draw(image, style.x_title, render::kAxisTitlePx, a.x + (kPlotWidth - x_title_width) / 2,
            a.y + kPlotHeight + kTick + 3 + t.tick + kGap + font.measure("Ag", render::kAxisTitlePx).ascent,
            render::kInk);
  const int y_title_width = font.measure(style.y_title, render::kAxisTitlePx).width;
  font.draw(image, style.y_title, render::kAxisTitlePx,
            a.x - kTick - 4 - t.y_label_width - kGap - font.measure("Ag", render::kAxisTitlePx).descent,
            a.y + (kPlotHeight + y_title_width) / 2, render::kInk, render::TextDirection::Up);
}

// Whether any whisker reaches above the plot's top tick (drawn cut, with an arrowhead).
bool any_whisker_clipped(const std::vector<PlotPanel>& panels, const Scale& scale) {
  for (const PlotPanel& p : panels)
    for (const PlotSeries& s : p.series)
      for (double high : s.y_high)
        if (std::isfinite(high) && high > scale.y_ticks.back() * (1 + 1e-9)) return true;
  return false;
}

void draw_series(Image& image, const Area& a, const PlotSeries& s, double dodge) {
  const Rgb color = palette(s.color);
  const double bottom = a.y + kPlotHeight, top = a.y;
  const auto clip = [&](double y) { return std::clamp(y, top, bottom); };
  if (s.y_low.size() == s.y.size() && s.y_high.size() == s.y.size())
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y_low[i]) || !std::isfinite(s.y_high[i])) continue;
      const int x = static_cast<int>(std::lround(a.px(s.x[i]) + dodge));
      const int y0 = static_cast<int>(std::lround(clip(a.py(s.y_high[i]))));
      const int y1 = static_cast<int>(std::lround(clip(a.py(s.y_low[i]))));
      for (int y = y0; y <= y1; ++y) render::blend_pixel(image, x, y, color, 170);
      for (int y : {y0, y1})
        for (int dx = -3; dx <= 3; ++dx) render::blend_pixel(image, x + dx, y, color, 170);
      // A whisker cut at the frame ends in an arrowhead pointing on, not a cap.
      if (a.py(s.y_high[i]) < top)
        for (int dy = 0; dy <= 4; ++dy)
          for (int dx = -dy; dx <= dy; ++dx) render::blend_pixel(image, x + dx, y0 + dy, color, 255);
    }
  double travelled = 0;
  for (std::size_t i = 1; i < s.x.size() && i < s.y.size(); ++i)
    if (std::isfinite(s.y[i - 1]) && std::isfinite(s.y[i]))
      draw_segment(image, a.px(s.x[i - 1]) + dodge, clip(a.py(s.y[i - 1])), a.px(s.x[i]) + dodge, clip(a.py(s.y[i])),
                   color, s.dash, travelled);
  for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
    if (std::isfinite(s.y[i])) draw_marker(image, a.px(s.x[i]) + dodge, clip(a.py(s.y[i])), color, s.dash);
}

void draw_no_values(Image& image, Font& font, const Area& a) {
  const std::string text = "no value measured";
  const TextExtent e = font.measure(text, render::kAxisTitlePx);
  font.draw(image, text, render::kAxisTitlePx, a.x + (kPlotWidth - e.width) / 2, a.y + kPlotHeight / 2, render::kInk);
}

void draw_legend(Image& image, Font& font, int x, int y, const std::vector<const PlotSeries*>& entries, int pitch) {
  const TextExtent e = font.measure("Ag", render::kLegendPx);
  for (const PlotSeries* s : entries) {
    double travelled = 0;
    const double mid = y + pitch / 2.0;
    draw_segment(image, x, mid, x + kLegendSample, mid, palette(s->color), s->dash, travelled);
    draw_marker(image, x + kLegendSample / 2.0, mid, palette(s->color), s->dash);
    font.draw(image, s->label, render::kLegendPx, x + kLegendSample + kGap,
              static_cast<int>(mid) + (e.ascent - e.descent) / 2, render::kInk);
    y += pitch;
  }
}

// The picture of `panels` on `scale`, notes as `style` has them.
Image draw_line_plot(const std::vector<PlotPanel>& panels, const LinePlotStyle& style, Font& font,
                     const Scale& scale) {
  std::set<double> x_values;
  for (const PlotPanel& p : panels)
    for (const PlotSeries& s : p.series) x_values.insert(s.x.begin(), s.x.end());
  if (style.log_x) std::erase_if(x_values, [](double x) { return !(x > 0); });
  const std::vector<double> x_ticks(x_values.begin(), x_values.end());
  const std::vector<const PlotSeries*> entries = legend_entries(panels);

  TextSizes t;
  t.title = style.title.empty() ? 0 : font.measure("Ag", render::kTitlePx).height();
  t.panel_title = font.measure("Ag", render::kPanelTitlePx).height();
  t.tick = font.measure("0123456789", render::kTickLabelPx).height();
  t.axis_title = font.measure("Ag", render::kAxisTitlePx).height();
  t.legend = font.measure("Ag", render::kLegendPx).height();
  for (const std::string& label : scale.y_labels)
    t.y_label_width = std::max(t.y_label_width, font.measure(label, render::kTickLabelPx).width);
  for (const PlotSeries* s : entries)
    t.legend_width = std::max(t.legend_width, kLegendSample + kGap + font.measure(s->label, render::kLegendPx).width);

  const int columns = std::clamp(style.panels_per_row, 1, static_cast<int>(panels.size()));
  const int rows = (static_cast<int>(panels.size()) + columns - 1) / columns;
  const int left = t.axis_title + kGap + t.y_label_width + 4 + kTick;  // y title and tick labels
  const int above = t.panel_title + kGap;
  const int below = kTick + 3 + t.tick + kGap + t.axis_title;
  const int cell_width = left + kPlotWidth + kPanelGap;
  const int cell_height = above + kPlotHeight + below + kPanelGap;
  const int legend_pitch = std::max(t.legend + 8, 20);
  const int top = kMargin + (t.title > 0 ? t.title + 2 * kGap : 0);
  const int figure_width = std::max(kMargin + columns * cell_width + t.legend_width + kMargin,
                             2 * kMargin + font.measure(style.title, render::kTitlePx).width);
  const int note_pitch = t.legend + 6;
  const int notes_top = std::max(top + rows * cell_height, top + above + static_cast<int>(entries.size()) * legend_pitch);
  const int height = notes_top + static_cast<int>(style.notes.size()) * note_pitch + kMargin;
  int notes_width = 0;
  for (const std::string& note : style.notes)
    notes_width = std::max(notes_width, font.measure(note, render::kLegendPx).width);
  const int width = std::max(figure_width, 2 * kMargin + notes_width);

  Image image = render::blank_image(width, height, render::kWhite);
  if (!style.title.empty())
    font.draw(image, style.title, render::kTitlePx, kMargin, kMargin + font.measure("Ag", render::kTitlePx).ascent,
              render::kInk);
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const int column = static_cast<int>(i) % columns, row = static_cast<int>(i) / columns;
    const Area area{kMargin + column * cell_width + left, top + row * cell_height + above, &scale};
    draw_axes(image, font, area, panels[i], style, x_ticks, t);
    const std::vector<PlotSeries>& series = panels[i].series;
    bool any = false;
    for (std::size_t k = 0; k < series.size(); ++k) {
      // Series at the same x stand a little apart, so that their markers and whiskers stay visible.
      const double dodge = (static_cast<double>(k) - (series.size() - 1) / 2.0) * 2.5;
      draw_series(image, area, series[k], dodge);
      any = any || std::any_of(series[k].y.begin(), series[k].y.end(), [](double v) { return std::isfinite(v); });
    }
    if (!any) draw_no_values(image, font, area);
  }
  draw_legend(image, font, kMargin + columns * cell_width, top + above, entries, legend_pitch);
  for (std::size_t i = 0; i < style.notes.size(); ++i)
    font.draw(image, style.notes[i], render::kLegendPx, kMargin,
              notes_top + static_cast<int>(i) * note_pitch + font.measure("Ag", render::kLegendPx).ascent, render::kInk);
  return image;
}

}  // namespace

Image render_line_plot(const std::vector<PlotPanel>& panels, const LinePlotStyle& style) {
  if (panels.empty()) throw UsageError("line plot: nothing to draw (no panels)");
  Font font(render::default_font_path());
  const Scale scale = make_scale(panels, style.log_x);
  // Each note once, in the order first given (one per case would repeat it),
  // and what the axis does when it is not plain.
  LinePlotStyle shown = style;
  shown.notes.clear();
  for (const std::string& note : style.notes)
    if (std::find(shown.notes.begin(), shown.notes.end(), note) == shown.notes.end()) shown.notes.push_back(note);
  if (scale.log_y) shown.notes.push_back("The y axis is logarithmic: the medians span more than 10x.");
  if (any_whisker_clipped(panels, scale))
    shown.notes.push_back("A whisker ending in an arrowhead runs beyond the top of the plot.");
  return draw_line_plot(panels, shown, font, scale);
}


}  // namespace cumap
