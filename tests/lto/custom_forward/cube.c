double cube(double x) { return x * x * x; }
int cube_fwds = 0;
static double cube_fwd(double x, double dx) { cube_fwds++; return 3 * x * x * dx; }
void *__enzyme_register_derivative_cube[] = {(void *)cube, (void *)cube_fwd};
