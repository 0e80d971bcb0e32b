/* Helpers only: no kernel. */
float helper(float x) { return x * 0.5f; }
