kernel void affine(global float* a) {
  int i = get_global_id(0);
  a[i] = a[i] * SCALE + OFFSET;
}
