// FLAGS: -ffast-math
// zero_points.c under -ffast-math: the guards are selects, so a NaN or inf
// the fast-math flags make poison sits only in the arm not taken.
#include "zero_points.c"
