// Self-check mode (-enzyme-check) on C++: operator overloading on a Vec3
// value type, an array of them duplicated (a local array of structs of
// doubles): no mismatch, and the results are unchanged.
// FLAGS: -fplugin=%plugin -mllvm -enzyme-check -mllvm -enzyme-check-abort
#include "check.h"
#include <cmath>
#include "cpp/vec3_ops.h"
}
