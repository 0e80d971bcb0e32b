#include "cycle_a.h"
kernel void k(global float* a) { a[0] = 1.0f; }
