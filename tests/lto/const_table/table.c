const double table[5] = {0.0, 1.5, -0.5, 2.0, 1.0};
double gain = 1.25;
