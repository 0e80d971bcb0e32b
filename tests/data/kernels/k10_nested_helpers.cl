float sq(float x) { return x * x; }
float norm2(float a, float b) { return sqrt(sq(a) + sq(b)); }

kernel void magnitude(global const float2* v, global float* m) {
  int i = get_global_id(0);
  float2 p = v[i];
  m[i] = norm2(p.x, p.y);
}
