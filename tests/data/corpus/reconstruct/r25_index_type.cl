kernel void copy_strided(global const float* a, global float* b, const INDEX_TYPE stride) {
  INDEX_TYPE i = get_global_id(0);
  b[i] = a[i * stride];
}
