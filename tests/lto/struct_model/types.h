typedef struct { double k, c; } params;
typedef struct { double x, v; int id; } particle;
