#!/bin/sh
# step_by_step.sh [HEADER]: the header's STEP BY STEP is code that works, and README.md shows that
# code. One "ok NAME" or "FAIL NAME" line per check with indented reasons (read by
# tools/run_tests.sh); exits 1 when one fails.
#   - README.md's "## Using it" ```c block is the STEP BY STEP's text, line for line (indentation
#     aside);
#   - the STEP BY STEP, pasted as it is into a function of a GLFW + glad program (build/step_by_step/
#     main.c), compiles as C99 with -Wall -Wextra -Wpedantic -Werror;
#   - run in a 640x480 window under Xvfb, the frame it draws shows particles: more than 0.1% of
#     the pixels differ from the clear colour when it reaches gp_world_destroy.
set -u
H=${1:-gpuparticle.h}
B=build/step_by_step
mkdir -p "$B"
. tools/report.sh   # report NAME STATUS [LOG]

# The lines between "   STEP BY STEP" and "   THE PARTICLE STORE", without the blank lines around them,
# the comment's 7 spaces of indentation taken off. The first line's number goes to #line.
awk '/^   STEP BY STEP *$/ { on = 1; next } on && /^   THE PARTICLE STORE/ { exit }
     on && !started && /^[ \t]*$/ { next }
     on { if (!started) { started = 1; print NR > "/dev/stderr" } sub(/^       /, ""); print }' "$H" 2> "$B/first_line" |
    awk '{ line[NR] = $0 } NF { last = NR } END { for (i = 1; i <= last; ++i) print line[i] }' > "$B/snippet.c"

# ---- README.md shows the same code ----
awk '/^## Using it/ { on = 1; next } on && /^## / { exit } on && /^```c/ { code = 1; next } code && /^```/ { exit } code' README.md |
    sed 's/^[ \t]*//' > "$B/readme.c"
sed 's/^[ \t]*//' "$B/snippet.c" > "$B/snippet_unindented.c"
if [ ! -s "$B/snippet.c" ]; then echo "$H has no STEP BY STEP before THE PARTICLE STORE" > "$B/log"; s=1
elif [ ! -s "$B/readme.c" ]; then echo "README.md has no \`\`\`c block under \"## Using it\"" > "$B/log"; s=1
elif diff -u "$B/readme.c" "$B/snippet_unindented.c" > "$B/log"; then s=0
else echo "README.md's block (-) differs from $H's STEP BY STEP (+): paste the header's text" >> "$B/log"; s=1; fi
report "step by step: README.md's \"Using it\" is the header's STEP BY STEP" $s "$B/log"

# ---- it compiles, runs and draws ----
{
    cat << 'EOF'
/* Written by tools/step_by_step.sh: gpuparticle.h's STEP BY STEP as it is, in a GLFW window. */
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#define GPUPARTICLE_IMPLEMENTATION
#include "gpuparticle.h"
#include <stdio.h>
#include <stdlib.h>

#define CLEAR_R 64   /* the clear colour, exact in 8 bits */
#define CLEAR_G 128
#define CLEAR_B 192
static long lit = -1, pixels;

/* Before the snippet destroys its world: how many pixels of the back buffer are not the clear
   colour, and the last result of a gp_ call. */
static void capture(const gp_world* world) {
    GLint viewport[4];
    unsigned char* rgba;
    long i;
    glGetIntegerv(GL_VIEWPORT, viewport);
    pixels = (long)viewport[2] * viewport[3];
    rgba = (unsigned char*)malloc((size_t)pixels * 4);
    if (!rgba) return;
    glReadPixels(0, 0, viewport[2], viewport[3], GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    for (lit = i = 0; i < pixels; ++i)
        lit += abs(rgba[4 * i] - CLEAR_R) > 1 || abs(rgba[4 * i + 1] - CLEAR_G) > 1 || abs(rgba[4 * i + 2] - CLEAR_B) > 1;
    free(rgba);
    printf("the last gp_ call before gp_world_destroy: %s\n", gp_result_string(gp_world_last_result(world)));
}
#define gp_world_destroy(w) (capture(w), gp_world_destroy(w))

static int step_by_step(void) {
EOF
    echo "#line $(cat "$B/first_line") \"$H\""
    cat "$B/snippet.c"
    cat << 'EOF'
    return 0;
}

int main(void) {
    GLFWwindow* window;
    int width, height, r;
    if (!glfwInit()) { printf("glfwInit failed\n"); return 1; }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window = glfwCreateWindow(640, 480, "step by step", NULL, NULL);
    if (!window) { printf("no GL 4.3 core window\n"); glfwTerminate(); return 1; }
    glfwMakeContextCurrent(window);
    if (!gladLoadGL((GLADloadfunc)glfwGetProcAddress)) { printf("gladLoadGL failed\n"); return 1; }
    glfwGetFramebufferSize(window, &width, &height);
    glViewport(0, 0, width, height);
    glClearColor(CLEAR_R / 255.0f, CLEAR_G / 255.0f, CLEAR_B / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    r = step_by_step();
    glfwDestroyWindow(window);
    glfwTerminate();
    if (r != 0) { printf("the snippet returned %d before drawing\n", r); return 1; }
    if (lit < 0) { printf("the snippet never reached gp_world_destroy (or no memory for the read-back)\n"); return 1; }
    printf("%ld of %ld pixels (%.3f%%) differ from the clear colour\n", lit, pixels, 100.0 * lit / pixels);
    if (lit * 1000 <= pixels) { printf("the frame shows no particles (0.1%% of the pixels at least are wanted)\n"); return 1; }
    return 0;
}
EOF
} > "$B/main.c"
cc -std=c99 -Wall -Wextra -Wpedantic -Werror -Wshadow -I"$(dirname "$H")" -Ibuild/glad/include "$B/main.c" build/glad/src/gl.c \
    -o "$B/step_by_step" -lglfw -lEGL -lm -ldl > "$B/log" 2>&1
s=$?; report "step by step: it compiles as C99 in a GLFW program ($B/main.c)" $s "$B/log"
if [ $s -ne 0 ]; then echo "FAIL step by step: its frame shows particles (not built)"; exit 1; fi
if command -v xvfb-run > /dev/null 2>&1; then
    timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$B/step_by_step" > "$B/log" 2>&1
else
    echo "xvfb-run is missing (make deps installs it)" > "$B/log"; false
fi
report "step by step: in a window under Xvfb, its frame shows particles" $? "$B/log"
exit $failed
