double force(double x, double v, double k);
void step(double *state, double k, double dt) {
  double a = force(state[0], state[1], k);
  state[1] += dt * a;
  state[0] += dt * state[1];
}
