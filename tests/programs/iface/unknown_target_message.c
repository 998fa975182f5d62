// An indirect call being differentiated whose target turns out, at run
// time, to be none of its candidates (here j0 from libm, found through
// dlsym) stops the program with a message on stderr naming the function,
// the source line and the target. The program catches the abort, reads
// its own stderr back and checks the message.
#include "check.h"
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
typedef double (*fn)(double);
static double sq(double x) { return x * x; }
fn volatile pick;
__attribute__((noinline)) double apply(fn g, double x) { return g(x) * x; } // line 14
double f(double x) { return apply(pick, x); }
static FILE *err;

static void on_abort(int sig) {
  (void)sig;
  char buf[2048] = {0};
  fflush(stderr);
  rewind(err);
  size_t n = fread(buf, 1, sizeof buf - 1, err);
  buf[n] = 0;
  int ok = strstr(buf, "enzyme-rs: an indirect call in function 'apply'") &&
           strstr(buf, "unknown_target_message.c:14") &&
           strstr(buf, "not one of its candidates") && strstr(buf, "'sq'") &&
           strstr(buf, "the target: j0");
  printf("%s message: %s\n", ok ? "ok  " : "FAIL", buf);
  fflush(stdout);
  _exit(ok ? 0 : 1);
}

int main(void) {
  pick = sq;
  CHECK("through sq", __enzyme_autodiff((void *)f, 2.0), 12.0, 1e-12);
  err = tmpfile();
  dup2(fileno(err), 2);
  signal(SIGABRT, on_abort);
  pick = (fn)dlsym(RTLD_DEFAULT, "j0");
  double d = __enzyme_autodiff((void *)f, 2.0);
  printf("FAIL: no abort (got %g)\n", d);
  return 1;
}
