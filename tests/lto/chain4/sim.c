void step(double *state, double k, double dt);
double simulate(double *state, double k, int steps) {
  for (int i = 0; i < steps; i++) step(state, k, 0.05);
  return state[0] * state[0] + 0.5 * state[1];
}
