// A C program compiled at -O2: after SROA and instcombine the struct copy
// moves through integers; clang's TBAA tags type it.
// RUN: %clang -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenzyme -passes=print-type-analysis -enzyme-function=scale -disable-output %t.ll 2>&1 | %FileCheck %s
struct particle { double mass; long id; double pos[3]; };

void scale(struct particle *p, int n, double f) {
  for (int i = 0; i < n; i++) {
    p[i].mass *= f;
    p[i].id += 1;
    for (int k = 0; k < 3; k++) p[i].pos[k] *= f;
  }
}

// CHECK-LABEL: types: scale
// CHECK-NEXT: arg ptr {{.*}}%0 : {[0]:Pointer, [0,0+40k]:Float@double, [0,8+40k]:Integer, [0,16+40k]:Float@double, [0,24+40k]:Float@double, [0,32+40k]:Float@double}
// CHECK-NEXT: arg i32 {{.*}}%1 : {[0]:Integer}
// CHECK-NEXT: arg double {{.*}}%2 : {[0]:Float@double}
