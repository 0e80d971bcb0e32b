kernel void lognormal(global const float* x, global float* y, const float mu, const float sigma) {
  int i = get_global_id(0);
  float z = (log(x[i]) - mu) / sigma;
  y[i] = exp(-0.5f * z * z) / (x[i] * sigma * sqrt(2.0f * M_PI_F));
}
