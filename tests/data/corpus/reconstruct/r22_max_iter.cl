kernel void mandel(global int* out, const float cx, const float cy) {
  float x = 0.0f, y = 0.0f;
  int n = 0;
  while (n < MAX_ITER && x * x + y * y < 4.0f) {
    float t = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = t;
    n++;
  }
  out[get_global_id(0)] = n;
}
