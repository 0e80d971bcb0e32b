kernel void reset(global struct Point* pts) {
  int i = get_global_id(0);
  pts[i].x = 0.0f;
  pts[i].y = 0.0f;
}
