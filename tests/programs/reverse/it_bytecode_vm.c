// Reverse: a tiny stack-machine interpreter (switch on opcodes read from
// an int program, a double stack written and read at a data-dependent
// stack pointer, a backward jump for a loop) evaluating an expression of
// the active inputs.
#include "check.h"
enum { PUSHX, PUSHC, ADD, MUL, SIN, DUP, SWAP, DEC_JNZ, HALT };
__attribute__((noinline)) double run(const int *code, const double *consts, const double *x) {
  double st[32];
  int sp = 0, pc = 0, counter = 3;
  for (;;) {
    int op = code[pc++];
    switch (op) {
    case PUSHX: st[sp++] = x[code[pc++]]; break;
    case PUSHC: st[sp++] = consts[code[pc++]]; break;
    case ADD: sp--; st[sp - 1] += st[sp]; break;
    case MUL: sp--; st[sp - 1] *= st[sp]; break;
    case SIN: st[sp - 1] = sin(st[sp - 1]); break;
    case DUP: st[sp] = st[sp - 1]; sp++; break;
    case SWAP: { double t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
    case DEC_JNZ: { int target = code[pc++]; if (--counter > 0) pc = target; } break;
    default: return st[sp - 1];
    }
  }
}
int main(void) {
  /* acc = x0; repeat 3 times: acc = sin(acc) * x1 + c0; result acc * x2 */
  int code[] = {PUSHX, 0, /* loop: */ SIN, PUSHX, 1, MUL, PUSHC, 0, ADD, DEC_JNZ, 2, PUSHX, 2, SWAP, MUL, HALT};
  double consts[1] = {0.3}, x[3] = {0.7, 1.4, -0.8}, dx[3] = {0};
  __enzyme_autodiff((void *)run, enzyme_const, code, enzyme_const, consts, enzyme_dup, x, dx);
  double a = x[0];
  for (int k = 0; k < 3; k++) a = sin(a) * x[1] + 0.3;
  CHECK("primal", run(code, consts, x), a * x[2], 1e-12);
  for (int i = 0; i < 3; i++) CHECK("dx fd", dx[i], FD(x[i], run(code, consts, x), 1e-6), 1e-6);
  CHECK_DONE();
}
