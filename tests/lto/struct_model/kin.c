#include "types.h"
double kinetic(const particle *q) { return 0.5 * q->v * q->v * (1 + 0.1 * q->id); }
