kernel void broken(global float* a) {
  int i = get_global_id(0)
  a[i] = 1.0f;
  a[1] = a[0] * 2.0f;
}
