kernel void blend(global const float* a, global const float* b, global float* c) {
  int i = get_global_id(0);
  c[i] = mix_values(a[i], b[i]);
}
