/* The recursive radix-2 FFT the fftsort/ programs differentiate (the
 * benchmark's shape, bench/problems/fft.h): out[0..2m) <- FFT of the m
 * complex values in[0], in[s], ...; tw holds the twiddles of the top-level
 * size, ts its stride at this level. Included, not a program: by the
 * fftsort/ programs, joinroute/joins.c and the lit tests
 * lit/reverse/fft_{inplace,drop_params}.c, lit/tape/{distinct_fft,join_route}.c. */
#ifndef FFTSORT_FFT_KERNEL_H
#define FFTSORT_FFT_KERNEL_H
static void fft_rec(const double *in, int s, double *out, int m, const double *tw, int ts) {
  if (m == 1) {
    out[0] = in[0];
    out[1] = in[1];
    return;
  }
  int h = m / 2;
  fft_rec(in, 2 * s, out, h, tw, 2 * ts);
  fft_rec(in + 2 * s, 2 * s, out + 2 * h, h, tw, 2 * ts);
  for (int k = 0; k < h; k++) {
    double wr = tw[2 * k * ts], wi = tw[2 * k * ts + 1];
    double *e = out + 2 * k, *o = out + 2 * (k + h);
    double tr = wr * o[0] - wi * o[1], ti = wr * o[1] + wi * o[0];
    double er = e[0], ei = e[1];
    e[0] = er + tr;
    e[1] = ei + ti;
    o[0] = er - tr;
    o[1] = ei - ti;
  }
}
#endif
