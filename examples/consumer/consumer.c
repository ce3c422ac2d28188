/* A C program that links the installed ikpose package and solves limbs read from stdin.
 *
 * Input, one case per line, whitespace-separated numbers:
 *   12 numbers  ax ay az bx by bz cx cy cz tx ty tz            ikpose_solve_two_bone
 *   15 numbers  the same, then the pole px py pz              ikpose_solve_limb_pole
 * Output, one line per case: "ok" and the new knee and foot (6 numbers, printed with 9
 * significant digits, enough to read back the same float), or "error CODE MESSAGE".
 * `consumer --version` prints the header's and the library's versions and fails when they
 * differ. `consumer --natural` solves one leg with the natural knee policy and prints its knee.
 * Blank lines are skipped; a line with another count of numbers is an error line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ikpose/ikpose.h>

#define MAX_NUMBERS 16

/* A leg standing at rest (hip 1 m up, the knee a little forward, facing +z), lifted so the foot
 * comes forward: with the natural policy the knee goes forward and up, never backward. */
static int NaturalLeg(void) {
  static const float rest_hip[3] = {0.1f, 1.f, 0.f}, rest_knee[3] = {0.1f, 0.5f, 0.03f},
                     rest_foot[3] = {0.1f, 0.f, 0.f}, forward[3] = {0.f, 0.f, 1.f};
  static const float target[3] = {0.1f, 0.5f, 0.4f};
  ikpose_natural_bend bend;
  float knee[3], foot[3], rotations[8];
  int code = ikpose_natural_bend_from_rest(rest_hip, rest_knee, rest_foot, NULL, forward, 1, &bend);
  if (code == IKPOSE_OK) {
    code = ikpose_solve_limb_natural(&bend, NULL, rest_hip, rest_knee, rest_foot, target, 0.f, knee,
                                     foot, rotations);
  }
  if (code != IKPOSE_OK) {
    printf("error %d %s\n", code, ikpose_error_message(code));
    return 1;
  }
  printf("knee %.9g %.9g %.9g foot %.9g %.9g %.9g\n", knee[0], knee[1], knee[2], foot[0], foot[1],
         foot[2]);
  return 0;
}

static int ReadNumbers(const char* line, float* numbers) {
  int count = 0;
  const char* p = line;
  for (;;) {
    char* end = NULL;
    double value = strtod(p, &end);
    if (end == p) break;
    if (count == MAX_NUMBERS) return -1;
    numbers[count++] = (float)value;
    p = end;
  }
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') ++p;
  return *p == '\0' ? count : -1;
}

int main(int argc, char** argv) {
  char line[1024];
  float n[MAX_NUMBERS];
  float b_out[3], c_out[3];
  int failures = 0;
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    printf("header %s (%ld), library %ld\n", IKPOSE_VERSION_STRING, (long)IKPOSE_VERSION_NUMBER,
           ikpose_version());
    return ikpose_version() == IKPOSE_VERSION_NUMBER ? 0 : 1;
  }
  if (argc > 1 && strcmp(argv[1], "--natural") == 0) return NaturalLeg();
  while (fgets(line, sizeof line, stdin) != NULL) {
    int code;
    const int count = ReadNumbers(line, n);
    if (count == 0) continue;
    if (count == 12) {
      code = ikpose_solve_two_bone(n, n + 3, n + 6, n + 9, b_out, c_out);
    } else if (count == 15) {
      code = ikpose_solve_limb_pole(n, n + 3, n + 6, n + 9, n + 12, b_out, c_out, NULL);
    } else {
      printf("error -1 expected 12 or 15 numbers\n");
      ++failures;
      continue;
    }
    if (code != IKPOSE_OK) {
      printf("error %d %s\n", code, ikpose_error_message(code));
      ++failures;
      continue;
    }
    printf("ok %.9g %.9g %.9g %.9g %.9g %.9g\n", b_out[0], b_out[1], b_out[2], c_out[0], c_out[1],
           c_out[2]);
  }
  return failures == 0 ? 0 : 1;
}
