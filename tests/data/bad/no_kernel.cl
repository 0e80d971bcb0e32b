float helper(float x) { return x * 2.0f; }
