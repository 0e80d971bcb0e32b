kernel void select_positive(global const float* a, global float* b) {
  int i = get_global_id(0);
  if (is_valid(a[i])) b[i] = a[i];
}
