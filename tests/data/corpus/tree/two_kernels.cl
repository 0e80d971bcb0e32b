// Two kernels sharing a header; each isolated unit keeps only what it uses.
#include "common.h"

constant float kGain = 2.0f;

float unused_helper(float a) { return a + 1.0f; }

kernel void energy(global const pair_t* p, global float* e) {
  int i = get_global_id(0);
  e[i] = sq(p[i].x) + sq(p[i].y);
}

kernel void amplify(global float* a) {
  int i = get_global_id(0);
#if BLOCK > 32
  a[i] = a[i] * kGain;
#else
  a[i] = 0.0f;
#endif
}
