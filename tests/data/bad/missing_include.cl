#include "does_not_exist.h"
kernel void k(global float* a) { a[0] = 1.0f; }
