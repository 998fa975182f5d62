// LEVELS: O0 O2
// A tape given to the reverse sweep of another function aborts with a
// message (the program checks that it does).
#include "check.h"
#include <sys/wait.h>
#include <unistd.h>
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse_d(void *, ...);
double f(double x) { return x * x; }
double g(double x) { return sin(x); }
int main(void) {
  void *t = __enzyme_augmentfwd((void *)f, 2.0);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    __enzyme_reverse_d((void *)g, 2.0, 1.0, t);
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK("child aborted", WIFSIGNALED(st) ? 1 : 0, 1, 0);
  CHECK("right tape works", __enzyme_reverse_d((void *)f, 2.0, 1.0, t), 4.0, 1e-12);
  CHECK_DONE();
}
