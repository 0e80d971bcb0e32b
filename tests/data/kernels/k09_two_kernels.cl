int clamp_index(int i, int n) { return i < n ? i : n - 1; }

kernel void gather(global const int* idx, global const float* src, global float* dst, const int n) {
  int i = get_global_id(0);
  dst[i] = src[clamp_index(idx[i], n)];
}

kernel void fill(global float* dst, const float v) {
  dst[get_global_id(0)] = v;
}
