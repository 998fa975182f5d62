/* The check the annotated-loop programs share: value and gradient of an
 * annotated function `f` against the same loop without the annotation
 * (`plain`, defined by the program), and against central differences. */
#ifndef ENZYME_RS_ANNOTATED_H
#define ENZYME_RS_ANNOTATED_H
#define CHECK_ONE(f, x, n)                                                     \
  do {                                                                         \
    char label[96];                                                            \
    double want = __enzyme_autodiff((void *)plain, x, n);                      \
    snprintf(label, sizeof label, "%s n=%ld value", #f, (long)(n));            \
    CHECK(label, f(x, n), plain(x, n), 1e-14);                                 \
    snprintf(label, sizeof label, "%s n=%ld gradient", #f, (long)(n));         \
    CHECK(label, __enzyme_autodiff((void *)f, x, n), want, 1e-12);             \
    snprintf(label, sizeof label, "%s n=%ld fd", #f, (long)(n));               \
    CHECK(label, want, (f(x + 1e-6, n) - f(x - 1e-6, n)) / 2e-6, 1e-6);        \
  } while (0)
#endif
