kernel void advance(global Particle* p, const float dt) {
  int i = get_global_id(0);
  p[i].x += p[i].vx * dt;
  p[i].y += p[i].vy * dt;
}
