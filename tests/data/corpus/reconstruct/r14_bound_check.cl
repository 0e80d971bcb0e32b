kernel void clip(global float* a) {
  int i = get_global_id(0);
  if (i < N_ELEMENTS) a[i] = fmin(a[i], 1.0f);
}
