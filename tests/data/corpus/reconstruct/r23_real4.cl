kernel void shade(global REAL4* c, global float* lum) {
  int i = get_global_id(0);
  lum[i] = 0.3f * c[i].x + 0.59f * c[i].y + 0.11f * c[i].z;
}
