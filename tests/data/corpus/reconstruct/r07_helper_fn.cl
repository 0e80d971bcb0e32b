kernel void apply(global float* a) {
  int i = get_global_id(0);
  a[i] = transform(a[i]);
}
