#include "shapes.h"
#include <vector>
double scene_area(double scale) {
  std::vector<Circle> cs = {{0.5 * scale}, {1.0 * scale}};
  std::vector<Rect> rs = {{scale, 2.0}, {0.5, scale * scale}};
  double a = 0;
  for (const auto &c : cs) a += c.area();
  for (const auto &r : rs) a += r.area();
  return a;
}
