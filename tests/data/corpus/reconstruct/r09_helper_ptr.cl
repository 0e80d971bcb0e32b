kernel void rows(global float* m, global float* out) {
  int i = get_global_id(0);
  out[i] = sum_row(m, i);
}
