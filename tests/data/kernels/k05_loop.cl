kernel void prefix_sum(global const float* in, global float* out, const int n) {
  float acc = 0.0f;
  for (int j = 0; j < n; j++) {
    acc += in[j];
    out[j] = acc;
  }
}
