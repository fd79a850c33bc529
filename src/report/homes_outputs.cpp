#include "report/homes_outputs.hpp"

#include "publish/json_file.hpp"
#include "report/heatmap_png.hpp"
#include "report/homes_csv.hpp"
#include "report/homes_json.hpp"

namespace cumap {

void add_homes_outputs(const MapResult& r, PendingFiles& files) {
  files.add("homes.csv", [&r] { return homes_csv(r.homes); });
  files.add("homes.json", [&r] { return json_file_text(homes_json(r.homes)); });
  // One picture per device: its lines are its own memory, their classes its own.
  for (const HomesResult& h : r.homes) files.add(homes_heatmap_name(r, h), [&r, &h] { return homes_heatmap_png(r, h); });
}

}  // namespace cumap
