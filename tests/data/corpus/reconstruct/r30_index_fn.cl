kernel void permute(global const float* a, global float* b) {
  int i = get_global_id(0);
  b[i] = a[pick_index(i)];
}
