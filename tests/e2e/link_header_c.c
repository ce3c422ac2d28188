/* include/ikpose_link.h compiles as strict C99 with POSIX visible, warnings as errors: a game
 * written in C can include it. Built, not run (the e2e tests run the header from C++). */
#include "ikpose_link.h"

int ikpose_link_c_check(void);

int ikpose_link_c_check(void) {
  ikpose_link link;
  ikpose_link_frame frame = {0};
  if (ikpose_link_connect(&link, "127.0.0.1", 7777) != 0) return 1;
  frame.time = 0.5;
  ikpose_link_set_target(&frame, IKPOSE_LINK_LEFT_LEG, 0.1f, 0.4f, -0.3f);
  ikpose_link_set_pole(&frame, IKPOSE_LINK_LEFT_LEG, 0.1f, 0.5f, 1.0f);
  ikpose_link_set_ladder(&frame, 0.0f, 0.0f, 0.4f);
  ikpose_link_set_ladder_size(&frame, 0.3f, 0.25f, 0.02f, 0.5f, 12);
  if (ikpose_link_send_frame(&link, &frame) != 0) return 1;
  return ikpose_link_close(&link);
}
