// Reverse mode (C++): operator overloading on a small Vec3 value type
// (returned by value, compound assignment, unary minus, friend operators),
// differentiated w.r.t. Vec3 arguments passed by pointer.
#include "check.h"
#include <cmath>
#include "cpp/vec3_ops.h"
}
