#include <math.h>
/* Large enough (several hundred instructions) that ThinLTO's importer
 * skips it at its default limit. */
double big(const double *x, int n) {
  double s = 0;
  s += sin(x[0%n] * 1.0) * exp(-x[0%n]) + sqrt(1 + s*s*0.0e-3);
  s += sin(x[1%n] * 2.0) * exp(-x[2%n]) + sqrt(1 + s*s*1.0e-3);
  s += sin(x[2%n] * 3.0) * exp(-x[4%n]) + sqrt(1 + s*s*2.0e-3);
  s += sin(x[3%n] * 4.0) * exp(-x[1%n]) + sqrt(1 + s*s*3.0e-3);
  s += sin(x[4%n] * 5.0) * exp(-x[3%n]) + sqrt(1 + s*s*4.0e-3);
  s += sin(x[5%n] * 6.0) * exp(-x[0%n]) + sqrt(1 + s*s*5.0e-3);
  s += sin(x[6%n] * 7.0) * exp(-x[2%n]) + sqrt(1 + s*s*6.0e-3);
  s += sin(x[7%n] * 8.0) * exp(-x[4%n]) + sqrt(1 + s*s*7.0e-3);
  s += sin(x[8%n] * 9.0) * exp(-x[1%n]) + sqrt(1 + s*s*8.0e-3);
  s += sin(x[9%n] * 10.0) * exp(-x[3%n]) + sqrt(1 + s*s*9.0e-3);
  s += sin(x[10%n] * 11.0) * exp(-x[0%n]) + sqrt(1 + s*s*10.0e-3);
  s += sin(x[11%n] * 12.0) * exp(-x[2%n]) + sqrt(1 + s*s*11.0e-3);
  s += sin(x[12%n] * 13.0) * exp(-x[4%n]) + sqrt(1 + s*s*12.0e-3);
  s += sin(x[13%n] * 14.0) * exp(-x[1%n]) + sqrt(1 + s*s*13.0e-3);
  s += sin(x[14%n] * 15.0) * exp(-x[3%n]) + sqrt(1 + s*s*14.0e-3);
  s += sin(x[15%n] * 16.0) * exp(-x[0%n]) + sqrt(1 + s*s*15.0e-3);
  s += sin(x[16%n] * 17.0) * exp(-x[2%n]) + sqrt(1 + s*s*16.0e-3);
  s += sin(x[17%n] * 18.0) * exp(-x[4%n]) + sqrt(1 + s*s*17.0e-3);
  s += sin(x[18%n] * 19.0) * exp(-x[1%n]) + sqrt(1 + s*s*18.0e-3);
  s += sin(x[19%n] * 20.0) * exp(-x[3%n]) + sqrt(1 + s*s*19.0e-3);
  s += sin(x[20%n] * 21.0) * exp(-x[0%n]) + sqrt(1 + s*s*20.0e-3);
  s += sin(x[21%n] * 22.0) * exp(-x[2%n]) + sqrt(1 + s*s*21.0e-3);
  s += sin(x[22%n] * 23.0) * exp(-x[4%n]) + sqrt(1 + s*s*22.0e-3);
  s += sin(x[23%n] * 24.0) * exp(-x[1%n]) + sqrt(1 + s*s*23.0e-3);
  s += sin(x[24%n] * 25.0) * exp(-x[3%n]) + sqrt(1 + s*s*24.0e-3);
  s += sin(x[25%n] * 26.0) * exp(-x[0%n]) + sqrt(1 + s*s*25.0e-3);
  s += sin(x[26%n] * 27.0) * exp(-x[2%n]) + sqrt(1 + s*s*26.0e-3);
  s += sin(x[27%n] * 28.0) * exp(-x[4%n]) + sqrt(1 + s*s*27.0e-3);
  s += sin(x[28%n] * 29.0) * exp(-x[1%n]) + sqrt(1 + s*s*28.0e-3);
  s += sin(x[29%n] * 30.0) * exp(-x[3%n]) + sqrt(1 + s*s*29.0e-3);
  s += sin(x[30%n] * 31.0) * exp(-x[0%n]) + sqrt(1 + s*s*30.0e-3);
  s += sin(x[31%n] * 32.0) * exp(-x[2%n]) + sqrt(1 + s*s*31.0e-3);
  s += sin(x[32%n] * 33.0) * exp(-x[4%n]) + sqrt(1 + s*s*32.0e-3);
  s += sin(x[33%n] * 34.0) * exp(-x[1%n]) + sqrt(1 + s*s*33.0e-3);
  s += sin(x[34%n] * 35.0) * exp(-x[3%n]) + sqrt(1 + s*s*34.0e-3);
  s += sin(x[35%n] * 36.0) * exp(-x[0%n]) + sqrt(1 + s*s*35.0e-3);
  s += sin(x[36%n] * 37.0) * exp(-x[2%n]) + sqrt(1 + s*s*36.0e-3);
  s += sin(x[37%n] * 38.0) * exp(-x[4%n]) + sqrt(1 + s*s*37.0e-3);
  s += sin(x[38%n] * 39.0) * exp(-x[1%n]) + sqrt(1 + s*s*38.0e-3);
  s += sin(x[39%n] * 40.0) * exp(-x[3%n]) + sqrt(1 + s*s*39.0e-3);
  return s;
}
