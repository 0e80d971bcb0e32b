kernel void sum_rows(global const float* m, global float* out) {
  int r = get_global_id(0);
  float s = 0.0f;
  for (int c = 0; c < N; c++) s += m[r * N + c];
  out[r] = s;
}
