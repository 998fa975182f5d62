/* lstm: sequence loss of a stacked LSTM (bench-spec.md, "LSTM").
 * x = [per layer: Wf Wi Wo Wc (b each), bf bi bo bc (b each)] x l,
 *     then w_in, w_out, b_out (b each). Sequence and initial state are
 * constants. Size: l c b. */
#define PROBLEM_NAME "lstm"
#define PROB_FD_TOL 1e-5
typedef struct {
  int l, c, b;
  double *seq;    /* c*b */
  double *state;  /* initial h (l*b) then cell (l*b) */
  double *x;
  double *store, *h, *cell, *xin, *dh, *dc, *da; /* scratch for the hand gradient */
  char size[64];
} ctx_t;

#define LSTM_SIGMOID(z) (1.0 / (1.0 + exp(-(z))))

static REAL objective(const REAL *x, const ctx_t *c) {
  const int L = c->l, C = c->c, B = c->b;
  const REAL *w_in = x + 8 * B * L, *w_out = w_in + B, *b_out = w_out + B;
  REAL *h = NEW_REAL(L * B), *cell = NEW_REAL(L * B), *xin = NEW_REAL(B), *y = NEW_REAL(B);
  for (int j = 0; j < L * B; j++) { h[j] = c->state[j]; cell[j] = c->state[L * B + j]; }
  REAL loss = 0;
  for (int t = 0; t < C - 1; t++) {
    const double *s = c->seq + (size_t)t * B, *sn = s + B;
    for (int j = 0; j < B; j++) xin[j] = s[j] * w_in[j];
    const REAL *inp = xin;
    for (int l = 0; l < L; l++) {
      const REAL *W = x + 8 * B * l, *bias = W + 4 * B;
      REAL *hl = h + l * B, *cl = cell + l * B;
      for (int j = 0; j < B; j++) {
        REAL forget = LSTM_SIGMOID(inp[j] * W[j] + bias[j]);
        REAL ingate = LSTM_SIGMOID(hl[j] * W[B + j] + bias[B + j]);
        REAL outgate = LSTM_SIGMOID(inp[j] * W[2 * B + j] + bias[2 * B + j]);
        REAL change = tanh(hl[j] * W[3 * B + j] + bias[3 * B + j]);
        cl[j] = cl[j] * forget + ingate * change;
        hl[j] = outgate * tanh(cl[j]);
      }
      inp = hl;
    }
    for (int j = 0; j < B; j++) y[j] = inp[j] * w_out[j] + b_out[j];
    REAL mx = y[0];
    for (int j = 1; j < B; j++)
      if (y[j] > mx) mx = y[j];
    REAL se = 0;
    for (int j = 0; j < B; j++) se += exp(y[j] - mx);
    REAL lse = mx + log(se);
    for (int j = 0; j < B; j++) loss -= sn[j] * (y[j] - lse);
  }
  DEL_REAL(h); DEL_REAL(cell); DEL_REAL(xin); DEL_REAL(y);
  return loss / (double)(B * (C - 1));
}

/* Backpropagation through time over stored gate values. */
static void hand_grad(const ctx_t *c, const double *x, double *g) {
  const int L = c->l, C = c->c, B = c->b, T = C - 1;
  const double *w_in = x + 8 * B * L, *w_out = w_in + B, *b_out = w_out + B;
  double *gw_in = g + 8 * B * L, *gw_out = gw_in + B, *gb_out = gw_out + B;
  double *h = c->h, *cell = c->cell, *xin = c->xin, *dh = c->dh, *dc = c->dc, *da = c->da;
  memcpy(h, c->state, sizeof(double) * L * B);
  memcpy(cell, c->state + L * B, sizeof(double) * L * B);
  for (int t = 0; t < T; t++) {
    const double *s = c->seq + (size_t)t * B;
    for (int j = 0; j < B; j++) xin[j] = s[j] * w_in[j];
    const double *inp = xin;
    for (int l = 0; l < L; l++) {
      const double *W = x + 8 * B * l, *bias = W + 4 * B;
      double *hl = h + l * B, *cl = cell + l * B;
      double *st = c->store + ((size_t)t * L + l) * 8 * B;
      for (int j = 0; j < B; j++) {
        double f = 1.0 / (1.0 + exp(-(inp[j] * W[j] + bias[j])));
        double i = 1.0 / (1.0 + exp(-(hl[j] * W[B + j] + bias[B + j])));
        double o = 1.0 / (1.0 + exp(-(inp[j] * W[2 * B + j] + bias[2 * B + j])));
        double gg = tanh(hl[j] * W[3 * B + j] + bias[3 * B + j]);
        st[j] = inp[j]; st[B + j] = hl[j]; st[2 * B + j] = cl[j];
        st[3 * B + j] = f; st[4 * B + j] = i; st[5 * B + j] = o; st[6 * B + j] = gg;
        cl[j] = cl[j] * f + i * gg;
        double tc = tanh(cl[j]);
        st[7 * B + j] = tc;
        hl[j] = o * tc;
      }
      inp = hl;
    }
  }
  memset(g, 0, sizeof(double) * (8 * B * L + 3 * B));
  memset(dh, 0, sizeof(double) * L * B);
  memset(dc, 0, sizeof(double) * L * B);
  const double scale = 1.0 / ((double)B * T);
  for (int t = T - 1; t >= 0; t--) {
    const double *sn = c->seq + (size_t)(t + 1) * B;
    const double *top = c->store + ((size_t)t * L + L - 1) * 8 * B;
    double mx = -INFINITY, se = 0, ssum = 0;
    for (int j = 0; j < B; j++) {
      double y = top[5 * B + j] * top[7 * B + j] * w_out[j] + b_out[j];
      da[j] = y;
      if (y > mx) mx = y;
    }
    for (int j = 0; j < B; j++) { se += exp(da[j] - mx); ssum += sn[j]; }
    for (int j = 0; j < B; j++) {
      double p = exp(da[j] - mx) / se;
      double dy = -scale * (sn[j] - p * ssum);
      gw_out[j] += dy * top[5 * B + j] * top[7 * B + j];
      gb_out[j] += dy;
      da[j] = dy * w_out[j];
    }
    for (int l = L - 1; l >= 0; l--) {
      const double *W = x + 8 * B * l;
      double *gW = g + 8 * B * l, *gb = gW + 4 * B;
      const double *st = c->store + ((size_t)t * L + l) * 8 * B;
      for (int j = 0; j < B; j++) {
        double X = st[j], hp = st[B + j], cp = st[2 * B + j], f = st[3 * B + j], i = st[4 * B + j];
        double o = st[5 * B + j], gg = st[6 * B + j], tc = st[7 * B + j];
        double dhn = dh[l * B + j] + da[j];
        double dcn = dc[l * B + j] + dhn * o * (1 - tc * tc);
        double dzo = dhn * tc * o * (1 - o);
        double dzf = dcn * cp * f * (1 - f);
        double dzi = dcn * gg * i * (1 - i);
        double dzg = dcn * i * (1 - gg * gg);
        gW[j] += dzf * X;          gb[j] += dzf;
        gW[B + j] += dzi * hp;     gb[B + j] += dzi;
        gW[2 * B + j] += dzo * X;  gb[2 * B + j] += dzo;
        gW[3 * B + j] += dzg * hp; gb[3 * B + j] += dzg;
        dh[l * B + j] = dzi * W[B + j] + dzg * W[3 * B + j];
        dc[l * B + j] = dcn * f;
        da[j] = dzf * W[j] + dzo * W[2 * B + j];
      }
    }
    const double *s = c->seq + (size_t)t * B;
    for (int j = 0; j < B; j++) gw_in[j] += da[j] * s[j];
  }
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->l = argc > 0 ? atoi(argv[0]) : 2;
  c->c = argc > 1 ? atoi(argv[1]) : 1024;
  c->b = argc > 2 ? atoi(argv[2]) : 14;
  int L = c->l, C = c->c, B = c->b, np = 8 * B * L + 3 * B;
  c->x = (double *)malloc(sizeof(double) * np);
  c->seq = (double *)malloc(sizeof(double) * (size_t)C * B);
  c->state = (double *)malloc(sizeof(double) * 2 * L * B);
  c->store = (double *)malloc(sizeof(double) * (size_t)C * L * 8 * B);
  c->h = (double *)malloc(sizeof(double) * L * B);
  c->cell = (double *)malloc(sizeof(double) * L * B);
  c->dh = (double *)malloc(sizeof(double) * L * B);
  c->dc = (double *)malloc(sizeof(double) * L * B);
  c->xin = (double *)malloc(sizeof(double) * B);
  c->da = (double *)malloc(sizeof(double) * B);
  rng_seed(13);
  for (int i = 0; i < np; i++) c->x[i] = rng_unif(-1, 1);
  for (size_t i = 0; i < (size_t)C * B; i++) c->seq[i] = rng_u01();
  for (int i = 0; i < 2 * L * B; i++) c->state[i] = rng_unif(-1, 1);
  snprintf(c->size, sizeof c->size, "l=%d c=%d b=%d", L, C, B);
}
static int prob_nin(const ctx_t *c) { return 8 * c->b * c->l + 3 * c->b; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
