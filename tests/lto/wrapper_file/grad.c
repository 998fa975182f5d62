#include <enzyme/enzyme.h>
double rosen(double x, double y);
typedef struct { double dx, dy; } g2;
double grad_rosen(double x, double y, double *dy) {
  g2 g = ((g2(*)(void *, ...))__enzyme_autodiff)((void *)rosen, x, y);
  *dy = g.dy;
  return g.dx;
}
