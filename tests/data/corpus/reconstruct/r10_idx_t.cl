kernel void gather(global const float* src, global float* dst, global const int* map) {
  idx_t i = get_global_id(0);
  dst[i] = src[map[i]];
}
