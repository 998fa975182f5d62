/* The struct returns and prototyped entry points the edge/ tests share:
 * __enzyme_autodiff returning two or three adjoints, vector forward mode
 * of width 2, and float versions (prototypes, not `...`: a variadic call
 * would pass the floats as doubles). */
#ifndef ENZYME_RS_EDGE_RETURNS_H
#define ENZYME_RS_EDGE_RETURNS_H
typedef struct { double a, b; } d2;
typedef struct { double a, b, c; } d3;
typedef struct { float a, b; } f2;
typedef struct { double d[2]; } v2;
d2 __enzyme_autodiff_d2(void *, ...) __asm__("__enzyme_autodiff");
d3 __enzyme_autodiff_d3(void *, ...) __asm__("__enzyme_autodiff");
f2 __enzyme_autodiff_f2(void *, float, float) __asm__("__enzyme_autodiff");
float __enzyme_autodiff_f(void *, float) __asm__("__enzyme_autodiff");
float __enzyme_fwddiff_f(void *, float, float, float, float) __asm__("__enzyme_fwddiff");
v2 __enzyme_fwddiff_v2(void *, ...) __asm__("__enzyme_fwddiff");
#endif
