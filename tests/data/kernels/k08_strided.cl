kernel void strided(global float* a, global const float* b, const int stride) {
  int i = get_global_id(0);
  a[i * stride] = b[i + 1];
  a[i * 2] = b[1 + 0];
  a[get_global_id(0)] = b[(i)];
}
