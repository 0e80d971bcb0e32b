kernel void step(global float* u, const Params p) {
  int i = get_global_id(0);
  u[i] = u[i] + p.dt * p.alpha * (u[i] - p.mean);
}
