#pragma once
// report.html: the whole map run in one self-contained page that opens
// offline in any browser. The page (report_page.html, embedded at build
// time) draws the maps on a canvas with plain JavaScript from the run's data,
// embedded as JSON in the page itself: no network, no external scripts or
// fonts, nothing but this one file.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "cumap/result.hpp"

namespace cumap {

// The page with the data it draws embedded as JSON (report_html.cpp says
// its layout): the maps from the result, the words and tables from the
// summary made from it. Matrices are in display order, their cells as
// uint16 codes, little-endian, in base64: {"lo": l, "step": s, "b64": ...},
// a value being lo + code * step (within step / 2 of what was measured);
// the top codes are kReportNotMeasured and kReportTimedOut. Unordered maps
// keep only the cells above the diagonal, row by row; ordered maps every cell.
std::string report_html(const MapResult& result, const RunSummary& summary);
inline constexpr int kReportNotMeasured = 65535;
inline constexpr int kReportTimedOut = 65534;

// Bytes in base64 (RFC 4648, padded), as the report pages embed data and pictures.
std::string base64(std::string_view bytes);

}  // namespace cumap
