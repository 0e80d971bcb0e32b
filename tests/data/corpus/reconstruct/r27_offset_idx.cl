kernel void pick(global const float* a, global float* b) {
  b[get_global_id(0)] = a[OFFSET_IDX];
}
