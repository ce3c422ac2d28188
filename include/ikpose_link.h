/* ikpose_link.h: a running game sends its IK targets to ikpose, live, frame by frame.
 *
 * What: one header, C99 or C++, needing only the C library and POSIX sockets. ikpose listens
 * (`ikpose trace --listen 7777 --json`, or `ikpose view --listen 7777`); the game connects
 * once, sends one frame per game frame, and closes when done:
 *
 *     #include "ikpose_link.h"
 *
 *     ikpose_link link;
 *     if (ikpose_link_connect(&link, "127.0.0.1", 7777) != 0) puts(link.error);
 *
 *     ikpose_link_frame frame = {0};                  (each game frame)
 *     frame.time = seconds_since_start;
 *     ikpose_link_set_target(&frame, IKPOSE_LINK_LEFT_LEG, x, y, z);          (model space)
 *     ikpose_link_set_pole(&frame, IKPOSE_LINK_LEFT_LEG, px, py, pz);         (optional)
 *     ikpose_link_set_clip_time(&frame, animation_seconds);                   (optional)
 *     ikpose_link_set_ladder(&frame, lx, ly, lz);                             (optional)
 *     ikpose_link_set_ladder_size(&frame, 0.3f, 0.25f, 0.02f, 0.5f, 12);      (optional)
 *     ikpose_link_move_prop(&frame, 0, px, py, pz, yaw_degrees);              (optional)
 *     ikpose_link_send_frame(&link, &frame);
 *
 *     ikpose_link_close(&link);                       (ikpose then reports what it received)
 *
 * A frame is one line of ikpose's targets format (docs/DESIGN.md, "trace"):
 *   {"time": t, "limbs": {"left_leg": {"target": [x, y, z], "pole": [x, y, z]}},
 *    "clip_time": c, "ladder": {"base": [x, y, z], "rung_spacing": s, "first_rung_height": h,
 *    "rung_radius": r, "rail_width": w, "rung_count": n},
 *    "props": [{"index": i, "position": [x, y, z], "yaw_deg": a}]}
 * with times strictly increasing; the last three only when set (the ladder's sizes only with
 * ikpose_link_set_ladder_size: without them ikpose keeps its own ladder's, one sized to the
 * character or the scenario's). A limb left out keeps the target it was last sent; the clip time,
 * ladder and props are held the same way (the clip plays on from the time last sent). Floats are
 * written with 9 significant digits, which read back to the same float.
 *
 * Why: the situation that pops is inside the running game; sending it is cheaper than writing
 * a file, copying it and replaying it.
 *
 * Installed by `cmake --install` as <ikpose/ikpose_link.h>.
 *
 * Limits: every call blocks until the kernel has taken the bytes (a frame is under 1 KiB; the
 * socket buffer holds hundreds), so a game is slowed only when ikpose falls that far behind.
 * Not thread-safe: one thread sends on one link. Plain TCP, no encryption: keep it on
 * loopback or a trusted network. ikpose takes one game at a time; a second one is refused,
 * which ikpose_link_send_frame reports (-1, the reason in link.error). Every function returns
 * 0 or -1 and never raises SIGPIPE. Compile with POSIX visible (the default of gcc and clang;
 * with -std=c99 define _POSIX_C_SOURCE=200112L).
 */
#ifndef IKPOSE_LINK_H
#define IKPOSE_LINK_H

#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The limbs, in ikpose's names: "left_arm", "right_arm", "left_leg", "right_leg". */
enum {
  IKPOSE_LINK_LEFT_ARM = 0,
  IKPOSE_LINK_RIGHT_ARM = 1,
  IKPOSE_LINK_LEFT_LEG = 2,
  IKPOSE_LINK_RIGHT_LEG = 3,
  IKPOSE_LINK_LIMBS = 4
};

typedef struct ikpose_link_limb {
  int has_target; /* 0: this limb is not on this frame (it keeps its last target) */
  float target[3];
  int has_pole; /* with a target only */
  float pole[3];
} ikpose_link_limb;

/* A prop of ikpose's situation (its scenario's, then --prop's, counted from 0) moved. */
typedef struct ikpose_link_prop {
  int index;
  float position[3];
  float yaw_deg; /* about +Y */
} ikpose_link_prop;

#define IKPOSE_LINK_MAX_PROPS 8 /* moved in one frame */

typedef struct ikpose_link_frame {
  double time; /* seconds, after the previous frame's */
  ikpose_link_limb limbs[IKPOSE_LINK_LIMBS];
  int has_clip_time; /* the clip's time, seconds (ikpose's clip: --clip or the scenario's) */
  double clip_time;
  int has_ladder; /* where the game's ladder stands (floor point between the rails) */
  float ladder_base[3];
  int has_ladder_size; /* with has_ladder: its sizes, in model units */
  float ladder_rung_spacing;
  float ladder_first_rung_height; /* the lowest rung's axis above the base */
  float ladder_rung_radius;
  float ladder_rail_width; /* between the rails */
  int ladder_rung_count;
  int prop_count;
  ikpose_link_prop props[IKPOSE_LINK_MAX_PROPS];
} ikpose_link_frame;

typedef struct ikpose_link {
  int fd;          /* -1 when not connected */
  char error[256]; /* why the last call returned -1 */
} ikpose_link;

static inline void ikpose_link_set_target(ikpose_link_frame* frame, int limb, float x, float y,
                                          float z) {
  if (limb < 0 || limb >= IKPOSE_LINK_LIMBS) return;
  frame->limbs[limb].has_target = 1;
  frame->limbs[limb].target[0] = x;
  frame->limbs[limb].target[1] = y;
  frame->limbs[limb].target[2] = z;
}

static inline void ikpose_link_set_pole(ikpose_link_frame* frame, int limb, float x, float y,
                                        float z) {
  if (limb < 0 || limb >= IKPOSE_LINK_LIMBS) return;
  frame->limbs[limb].has_pole = 1;
  frame->limbs[limb].pole[0] = x;
  frame->limbs[limb].pole[1] = y;
  frame->limbs[limb].pole[2] = z;
}

static inline void ikpose_link_set_clip_time(ikpose_link_frame* frame, double seconds) {
  frame->has_clip_time = 1;
  frame->clip_time = seconds;
}

static inline void ikpose_link_set_ladder(ikpose_link_frame* frame, float x, float y, float z) {
  frame->has_ladder = 1;
  frame->ladder_base[0] = x;
  frame->ladder_base[1] = y;
  frame->ladder_base[2] = z;
}

/* The ladder's sizes (with ikpose_link_set_ladder): rungs `rung_spacing` apart, the first
 * `first_rung_height` above the base, `rung_count` rungs (1..1000) of radius `rung_radius`
 * between rails `rail_width` apart. ikpose refuses a frame with a size it cannot draw (a
 * spacing, width or count not over 0, a negative radius or height). */
static inline void ikpose_link_set_ladder_size(ikpose_link_frame* frame, float rung_spacing,
                                               float first_rung_height, float rung_radius,
                                               float rail_width, int rung_count) {
  frame->has_ladder_size = 1;
  frame->ladder_rung_spacing = rung_spacing;
  frame->ladder_first_rung_height = first_rung_height;
  frame->ladder_rung_radius = rung_radius;
  frame->ladder_rail_width = rail_width;
  frame->ladder_rung_count = rung_count;
}

/* Ignored past IKPOSE_LINK_MAX_PROPS moves in one frame. */
static inline void ikpose_link_move_prop(ikpose_link_frame* frame, int index, float x, float y,
                                         float z, float yaw_deg) {
  ikpose_link_prop* p;
  if (frame->prop_count < 0 || frame->prop_count >= IKPOSE_LINK_MAX_PROPS) return;
  p = &frame->props[frame->prop_count++];
  p->index = index;
  p->position[0] = x;
  p->position[1] = y;
  p->position[2] = z;
  p->yaw_deg = yaw_deg;
}

/* Internal: a number in JSON, whatever the C locale's decimal separator. */
static inline int ikpose_link_number_(char* out, size_t size, double value, int digits) {
  int n = snprintf(out, size, "%.*g", digits, value);
  int i;
  for (i = 0; i < n && (size_t)i < size; ++i) {
    if (out[i] == ',') out[i] = '.';
  }
  return n;
}

static inline int ikpose_link_fail_(ikpose_link* link, const char* what, int err) {
  if (err != 0) {
    snprintf(link->error, sizeof link->error, "%s: %s", what, strerror(err));
  } else {
    snprintf(link->error, sizeof link->error, "%s", what);
  }
  return -1;
}

/* Connects to ikpose at host (an address or a name) and port. 0, or -1 with link->error. */
static inline int ikpose_link_connect(ikpose_link* link, const char* host, unsigned short port) {
  struct addrinfo hints;
  struct addrinfo* found = NULL;
  struct addrinfo* a;
  char service[8];
  int status;
  int err = 0;
  link->fd = -1;
  link->error[0] = '\0';
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  snprintf(service, sizeof service, "%u", (unsigned)port);
  status = getaddrinfo(host, service, &hints, &found);
  if (status != 0) {
    snprintf(link->error, sizeof link->error, "ikpose_link: %s: %s", host, gai_strerror(status));
    return -1;
  }
  for (a = found; a != NULL; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
      int one = 1;
      /* A frame goes out when it is sent, not when the next one fills a packet. */
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#ifdef SO_NOSIGPIPE
      setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
      link->fd = fd;
      break;
    }
    err = errno;
    close(fd);
  }
  freeaddrinfo(found);
  if (link->fd < 0) return ikpose_link_fail_(link, "ikpose_link: cannot connect to ikpose", err);
  return 0;
}

/* Sends `size` bytes as they are: whole lines of the targets format, or a line the game
 * formats itself. 0, or -1 with link->error. */
static inline int ikpose_link_send_raw(ikpose_link* link, const char* bytes, size_t size) {
#ifdef MSG_NOSIGNAL
  const int flags = MSG_NOSIGNAL;
#else
  const int flags = 0;
#endif
  if (link->fd < 0) return ikpose_link_fail_(link, "ikpose_link: not connected", 0);
  while (size > 0) {
    ssize_t n = send(link->fd, bytes, size, flags);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ikpose_link_fail_(link, "ikpose_link: send", errno);
    }
    bytes += n;
    size -= (size_t)n;
  }
  return 0;
}

/* Sends one frame as one line. 0; -1 with link->error when a number is not finite, when
 * ikpose refused this game (another one is connected) or closed the link, or on a socket
 * error. */
static inline int ikpose_link_send_frame(ikpose_link* link, const ikpose_link_frame* frame) {
  static const char* const names[IKPOSE_LINK_LIMBS] = {"left_arm", "right_arm", "left_leg",
                                                       "right_leg"};
  /* the longest frame (four limbs with poles, a sized ladder, eight props, every number at its
   * longest) is 1820 bytes */
  char line[2048];
  size_t at = 0;
  int limb;
  int first = 1;
  char reply[200];
  ssize_t got;
  if (link->fd < 0) return ikpose_link_fail_(link, "ikpose_link: not connected", 0);
  /* ikpose writes to a game only to refuse it; a closed link reads as 0. */
  got = recv(link->fd, reply, sizeof reply - 1, MSG_DONTWAIT);
  if (got > 0) {
    reply[got] = '\0';
    reply[strcspn(reply, "\n")] = '\0';
    return ikpose_link_fail_(link, reply, 0);
  }
  if (got == 0) return ikpose_link_fail_(link, "ikpose_link: ikpose closed the link", 0);
  if (!isfinite(frame->time)) return ikpose_link_fail_(link, "ikpose_link: time not finite", 0);
  at += (size_t)snprintf(line + at, sizeof line - at, "{\"time\": ");
  at += (size_t)ikpose_link_number_(line + at, sizeof line - at, frame->time, 17);
  at += (size_t)snprintf(line + at, sizeof line - at, ", \"limbs\": {");
  for (limb = 0; limb < IKPOSE_LINK_LIMBS; ++limb) {
    const ikpose_link_limb* l = &frame->limbs[limb];
    int part;
    int i;
    if (!l->has_target) continue;
    for (part = 0; part < (l->has_pole ? 2 : 1); ++part) {
      const float* v = part == 0 ? l->target : l->pole;
      for (i = 0; i < 3; ++i) {
        if (!isfinite(v[i])) {
          return ikpose_link_fail_(link, "ikpose_link: target or pole not finite", 0);
        }
      }
      at += (size_t)snprintf(line + at, sizeof line - at,
                             part == 0 ? "%s\"%s\": {\"target\": [" : ", \"pole\": [",
                             first ? "" : ", ", names[limb]);
      for (i = 0; i < 3; ++i) {
        at += (size_t)ikpose_link_number_(line + at, sizeof line - at, v[i], 9);
        at += (size_t)snprintf(line + at, sizeof line - at, i < 2 ? ", " : "]");
      }
    }
    at += (size_t)snprintf(line + at, sizeof line - at, "}");
    first = 0;
  }
  at += (size_t)snprintf(line + at, sizeof line - at, "}");
  if (frame->has_clip_time) {
    if (!isfinite(frame->clip_time)) {
      return ikpose_link_fail_(link, "ikpose_link: clip time not finite", 0);
    }
    at += (size_t)snprintf(line + at, sizeof line - at, ", \"clip_time\": ");
    at += (size_t)ikpose_link_number_(line + at, sizeof line - at, frame->clip_time, 17);
  }
  if (frame->has_ladder) {
    at += (size_t)snprintf(line + at, sizeof line - at, ", \"ladder\": {\"base\": [");
    for (limb = 0; limb < 3; ++limb) {
      if (!isfinite(frame->ladder_base[limb])) {
        return ikpose_link_fail_(link, "ikpose_link: ladder not finite", 0);
      }
      at += (size_t)ikpose_link_number_(line + at, sizeof line - at, frame->ladder_base[limb], 9);
      at += (size_t)snprintf(line + at, sizeof line - at, limb < 2 ? ", " : "]");
    }
    if (frame->has_ladder_size) {
      static const char* const sizes[4] = {"rung_spacing", "first_rung_height", "rung_radius",
                                           "rail_width"};
      const float values[4] = {frame->ladder_rung_spacing, frame->ladder_first_rung_height,
                               frame->ladder_rung_radius, frame->ladder_rail_width};
      for (limb = 0; limb < 4; ++limb) {
        if (!isfinite(values[limb])) {
          return ikpose_link_fail_(link, "ikpose_link: ladder size not finite", 0);
        }
        at += (size_t)snprintf(line + at, sizeof line - at, ", \"%s\": ", sizes[limb]);
        at += (size_t)ikpose_link_number_(line + at, sizeof line - at, values[limb], 9);
      }
      at += (size_t)snprintf(line + at, sizeof line - at, ", \"rung_count\": %d",
                             frame->ladder_rung_count);
    }
    at += (size_t)snprintf(line + at, sizeof line - at, "}");
  }
  if (frame->prop_count > 0 && frame->prop_count <= IKPOSE_LINK_MAX_PROPS) {
    at += (size_t)snprintf(line + at, sizeof line - at, ", \"props\": [");
    for (limb = 0; limb < frame->prop_count; ++limb) {
      const ikpose_link_prop* p = &frame->props[limb];
      int i;
      if (!isfinite(p->yaw_deg) || !isfinite(p->position[0]) || !isfinite(p->position[1]) ||
          !isfinite(p->position[2])) {
        return ikpose_link_fail_(link, "ikpose_link: prop not finite", 0);
      }
      at += (size_t)snprintf(line + at, sizeof line - at, "%s{\"index\": %d, \"position\": [",
                             limb > 0 ? ", " : "", p->index);
      for (i = 0; i < 3; ++i) {
        at += (size_t)ikpose_link_number_(line + at, sizeof line - at, p->position[i], 9);
        at += (size_t)snprintf(line + at, sizeof line - at, i < 2 ? ", " : "], \"yaw_deg\": ");
      }
      at += (size_t)ikpose_link_number_(line + at, sizeof line - at, p->yaw_deg, 9);
      at += (size_t)snprintf(line + at, sizeof line - at, "}");
    }
    at += (size_t)snprintf(line + at, sizeof line - at, "]");
  }
  at += (size_t)snprintf(line + at, sizeof line - at, "}\n");
  if (at >= sizeof line) return ikpose_link_fail_(link, "ikpose_link: frame too long", 0);
  return ikpose_link_send_raw(link, line, at);
}

/* Ends the link: ikpose has everything sent before this call. 0, or -1 with link->error. */
static inline int ikpose_link_close(ikpose_link* link) {
  int status = 0;
  if (link->fd < 0) return 0;
  if (close(link->fd) != 0) status = ikpose_link_fail_(link, "ikpose_link: close", errno);
  link->fd = -1;
  return status;
}

#ifdef __cplusplus
}
#endif

#endif /* IKPOSE_LINK_H */
