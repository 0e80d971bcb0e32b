kernel void mask(global float* a, global const flag_t* keep) {
  int i = get_global_id(0);
  if (!keep[i]) a[i] = 0.0f;
}
