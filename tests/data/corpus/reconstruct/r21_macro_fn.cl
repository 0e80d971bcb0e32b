kernel void square(global float* a) {
  int i = get_global_id(0);
  a[i] = SQR(a[i]);
}
