kernel void norm(global vec_t* v, global float* out) {
  int i = get_global_id(0);
  out[i] = sqrt(v[i].x * v[i].x + v[i].y * v[i].y);
}
