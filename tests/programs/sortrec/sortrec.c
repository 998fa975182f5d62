/* Loops that only move values within a buffer of their own: their moves
 * are recorded as origins and their reverse is one scatter
 * (modes/reverse/moverec.rs), and a loop that must not be treated so.
 * Every partial is checked against a central finite difference.
 *
 * - insertion:  insertion sort of a copy (while loop of shifts, key in a
 *               register).
 * - selection:  selection sort with swaps (the minimum's index a running
 *               selection).
 * - pancake:    pancake sort: in-place reversals of data-dependent prefixes.
 * - rotate:     rotations by one, as many as the data says.
 * - dup:        a running maximum by copies in a stack array: a slot's
 *               value duplicated into later slots, overwritten slots never
 *               copied.
 * - scaled:     an insertion sort that halves what it shifts: arithmetic in
 *               the loop, so not a move region (taped as before). */
#include "../check.h"

enum { N = 9 };
static double W[N];

static double weigh(const double *s, int n) {
  double f = 0;
  for (int i = 0; i < n; i++) f += W[i] * s[i] + 0.05 * (i + 1) * s[i] * s[i];
  return f;
}

double insertion(const double *x, int n) {
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) {
      s[j + 1] = s[j];
      j--;
    }
    s[j + 1] = key;
  }
  double f = weigh(s, n);
  free(s);
  return f;
}

double selection(const double *x, int n) {
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = 2 * x[i];
  for (int i = 0; i < n - 1; i++) {
    int m = i;
    for (int j = i + 1; j < n; j++)
      if (s[j] < s[m]) m = j;
    double t = s[i];
    s[i] = s[m];
    s[m] = t;
  }
  double f = weigh(s, n);
  free(s);
  return f;
}

static void flip(double *s, int k) {
  for (int a = 0, b = k; a < b; a++, b--) {
    double t = s[a];
    s[a] = s[b];
    s[b] = t;
  }
}

double pancake(const double *x, int n) {
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = x[i] * x[i];
  for (int size = n; size > 1; size--) {
    int m = 0;
    for (int j = 1; j < size; j++)
      if (s[j] > s[m]) m = j;
    flip(s, m);
    flip(s, size - 1);
  }
  double f = weigh(s, n);
  free(s);
  return f;
}

double rotate(const double *x, int n) {
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = x[i];
  int turns = 0;
  while (s[0] > s[n - 1] && turns < n) {
    double t = s[0];
    for (int k = 0; k + 1 < n; k++) s[k] = s[k + 1];
    s[n - 1] = t;
    turns++;
  }
  double f = weigh(s, n);
  free(s);
  return f;
}

double dup(const double *x, int n) {
  double s[N];
  for (int i = 0; i < n; i++) s[i] = x[i] + 1;
  for (int i = 1; i < n; i++)
    if (s[i] < s[i - 1]) s[i] = s[i - 1];
  return weigh(s, n);
}

double scaled(const double *x, int n) {
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) {
      s[j + 1] = 0.5 * s[j];
      j--;
    }
    s[j + 1] = key;
  }
  double f = weigh(s, n);
  free(s);
  return f;
}

#define CHECK_ONE(f, x)                                                 \
  do {                                                                  \
    double dx_[N] = {0};                                                \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_, enzyme_const, N); \
    for (int i_ = 0; i_ < N; i_++) {                                    \
      char name_[64];                                                   \
      snprintf(name_, sizeof name_, "%s dx[%d]", #f, i_);               \
      CHECK(name_, dx_[i_], FD(x[i_], f(x, N), 1e-6), 1e-6);            \
    }                                                                   \
  } while (0)

int main(void) {
  /* distinct values, far apart against the step: no reordering under FD */
  static const int perm[N] = {4, 7, 1, 8, 0, 5, 3, 6, 2};
  double x[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.25 * perm[i] + 0.01 * i;
    W[i] = sin(1.3 * i + 0.4);
  }
  CHECK_ONE(insertion, x);
  CHECK_ONE(selection, x);
  CHECK_ONE(pancake, x);
  CHECK_ONE(rotate, x);
  CHECK_ONE(dup, x);
  CHECK_ONE(scaled, x);
  CHECK_DONE();
}
