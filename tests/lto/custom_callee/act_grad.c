#include <math.h>
/* act has a body the optimizer must not see through: its derivative is
 * the registered one. */
double act(double x) { return tanh(x); }
int act_revs = 0;
typedef struct { double tape, primal; } tp;
static tp act_aug(double x) { tp r = {x, act(x)}; return r; }
static double act_rev(double x, double dret, double tape) {
  act_revs++;
  double t = tanh(tape);
  return dret * (1 - t * t);
}
void *__enzyme_register_gradient_act[] = {(void *)act, (void *)act_aug, (void *)act_rev};
