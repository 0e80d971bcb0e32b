kernel void integrate(global Body* bodies, const SimConfig cfg) {
  int i = get_global_id(0);
  bodies[i].vx += cfg.g * cfg.dt;
  bodies[i].x += bodies[i].vx * cfg.dt;
}
