#pragma once
// report.html: the whole map run in one self-contained page that opens
// offline in any browser. The page (report_page.html, embedded at build
// time) draws the maps on a canvas with plain JavaScript from the run's data,
// embedded as JSON in the page itself: no network, no external scripts or
// fonts, nothing but this one file.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cumap/result.hpp"

namespace cumap {

// The data the page draws, as it embeds it (see report_html.cpp for the
// layout). Matrices are in display order, their cells as uint16 codes,
// little-endian, in base64: {"lo": l, "step": s, "b64": ...}, a value being
// lo + code * step (within step / 2 of what was measured); the top codes are
// kReportNotMeasured and kReportTimedOut. Unordered maps keep only the cells
// above the diagonal, row by row; ordered maps every cell.
nlohmann::json report_data(const MapResult& result);
inline constexpr int kReportNotMeasured = 65535;
inline constexpr int kReportTimedOut = 65534;

// The page with `report_data(result)` in it.
std::string report_html(const MapResult& result);

// Bytes in base64 (RFC 4648, padded), as the report pages embed data and pictures.
std::string base64(std::string_view bytes);

}  // namespace cumap
