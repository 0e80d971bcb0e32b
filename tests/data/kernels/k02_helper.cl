float scale(float x, float s) { return x * s + 1.0f; }

kernel void apply(global float* data, const float s) {
  int i = get_global_id(0);
  data[i] = scale(data[i], s) - scale(s, 2.0f);
}
