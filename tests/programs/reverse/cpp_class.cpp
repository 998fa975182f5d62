// Reverse mode (C++): a small vector class with operator overloading,
// references and a member function, differentiated through a free function.
#include "check.h"
struct Vec3 {
  double x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  Vec3 cross(const Vec3 &o) const {
    return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x};
  }
};
static double energy(const Vec3 &a, const Vec3 &b) {
  Vec3 c = a.cross(b) + a * 0.5;
  return c.dot(c) + std::sqrt(b.dot(b));
}
extern "C" double f(Vec3 *a, Vec3 *b) { return energy(*a, *b); }
int main() {
  Vec3 a{1, 2, -0.5}, b{0.3, -1, 2}, da{0, 0, 0}, db{0, 0, 0};
  __enzyme_autodiff((void *)f, &a, &da, &b, &db);
  CHECK("dax", da.x, FD(a.x, f(&a, &b), 1e-6), 1e-6);
  CHECK("day", da.y, FD(a.y, f(&a, &b), 1e-6), 1e-6);
  CHECK("daz", da.z, FD(a.z, f(&a, &b), 1e-6), 1e-6);
  CHECK("dbx", db.x, FD(b.x, f(&a, &b), 1e-6), 1e-6);
  CHECK("dby", db.y, FD(b.y, f(&a, &b), 1e-6), 1e-6);
  CHECK("dbz", db.z, FD(b.z, f(&a, &b), 1e-6), 1e-6);
  CHECK_DONE();
}
