/* example_app.h: what every example shares, so that each example file shows only its concept.
   Opens an OpenGL 4.3 core context either in a GLFW window, or headless (--headless) through
   EGL's surfaceless platform with an offscreen framebuffer, loads glad, runs the frame loop,
   and in headless mode writes each frame as a PNG (--out DIR) and stops after --frames N.
   Then: an orbiting camera (perspective and look-at, column-major; drag to orbit, scroll to
   zoom), the box tank every particle example stands in (example_box_open, example_tank_begin),
   and the water, drawing and statistics line that the fluid examples share.
   Not part of the library: gpuparticle.h never opens windows or contexts. */
#ifndef EXAMPLE_APP_H
#define EXAMPLE_APP_H
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L   /* clock_gettime under -std=c99 */
#endif
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#include <time.h>
#include <sys/stat.h>
#include "gpuparticle.h"   /* declarations only; the example's own #include compiles the implementation */

typedef struct example_app {
    int width, height;       /* the framebuffer's pixels (a window's: as of example_begin_frame) */
    int headless;            /* --headless: EGL, offscreen, PNG frames */
    int frames;              /* --frames N: stop after N frames (0: until the window closes) */
    const char* out;         /* --out DIR: where frames go (headless always; a window when given) */
    int write_frames;
    int frame;               /* the frame being drawn, from 0 */
    unsigned particles;      /* --particles N: the example's size (0: its default) */
    int summation;           /* --summation: fluid examples sum their density (the paper's model) */
    double frame_end;        /* seconds (example_seconds) when the last frame was shown */
    double scroll;           /* mouse wheel, summed */
    double cursor[2];        /* where the cursor was at the last frame of a drag */
    int dragging;
    GLFWwindow* window;
    EGLDisplay display;
    EGLContext context;
    GLuint framebuffer, color, depth;
    GLuint box_program, box_vao;   /* example_draw_box's, made on first use */
} example_app;

static void example_usage(const char* name) {
    printf("usage: %s [--headless] [--frames N] [--out DIR] [--particles N] [--summation]\n"
           "  --headless     no window: render offscreen through EGL and write PNG frames\n"
           "  --frames N     stop after N frames (headless default 60)\n"
           "  --out DIR      write frames as PNG there (headless default build/frames;\n"
           "                 with a window, the window's own pixels)\n"
           "  --particles N  about N particles instead of the example's default (a real GPU\n"
           "                 takes hundreds of thousands)\n"
           "  --summation    fluid examples: the paper's summation density with a syrup's\n"
           "                 viscosity (0.02 m^2/s) instead of the default water (continuity)\n", name);
}

/* Monotonic wall-clock seconds. */
static double example_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void example_on_scroll(GLFWwindow* window, double dx, double dy) {
    (void)dx;
    ((example_app*)glfwGetWindowUserPointer(window))->scroll += dy;
}

/* The EGL getProcAddress, or GLFW's: what both glad and gpuparticle.h load through. */
static GLADapiproc example_get_proc(const char* name) { return (GLADapiproc)eglGetProcAddress(name); }

/* mkdir -p */
static void example_make_directory(const char* path) {
    char partial[512];
    size_t i;
    for (i = 0; path[i] && i + 1 < sizeof partial; ++i) {
        partial[i] = path[i];
        partial[i + 1] = 0;
        if (path[i + 1] == '/' || path[i + 1] == 0) mkdir(partial, 0755);
    }
}

/* Parses the arguments and opens the context. Returns 0 on success. */
static int example_open(example_app* app, const char* title, int argc, char** argv) {
    int i;
    memset(app, 0, sizeof *app);
    app->width = 960;
    app->height = 640;
    app->out = "build/frames";
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--headless") == 0) app->headless = 1;
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) app->frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) { app->out = argv[++i]; app->write_frames = 1; }
        else if (strcmp(argv[i], "--particles") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) app->particles = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--summation") == 0) app->summation = 1;
        else if (strcmp(argv[i], "--continuity") == 0) app->summation = 0;   /* the default since 0.4.0 */
        else { example_usage(argv[0]); return 1; }
    }
    app->frame_end = example_seconds();
    if (app->headless) {
        EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
            (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
        if (app->frames <= 0) app->frames = 60;
        app->write_frames = 1;
        app->display = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL) : EGL_NO_DISPLAY;
        if (app->display == EGL_NO_DISPLAY || !eglInitialize(app->display, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
            fprintf(stderr, "%s: no EGL display for headless rendering\n", title);
            return 1;
        }
        app->context = eglCreateContext(app->display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
        if (app->context == EGL_NO_CONTEXT ||
            !eglMakeCurrent(app->display, EGL_NO_SURFACE, EGL_NO_SURFACE, app->context)) {
            fprintf(stderr, "%s: no OpenGL 4.3 core context through EGL\n", title);
            return 1;
        }
        if (!gladLoadGL(example_get_proc)) return 1;
        /* An offscreen framebuffer stands in for the window. */
        glGenRenderbuffers(1, &app->color);
        glBindRenderbuffer(GL_RENDERBUFFER, app->color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, app->width, app->height);
        glGenRenderbuffers(1, &app->depth);
        glBindRenderbuffer(GL_RENDERBUFFER, app->depth);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, app->width, app->height);
        glGenFramebuffers(1, &app->framebuffer);
        glBindFramebuffer(GL_FRAMEBUFFER, app->framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, app->color);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, app->depth);
        example_make_directory(app->out);
        return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE ? 0 : 1;
    }
    if (!glfwInit()) {
        fprintf(stderr, "%s: no display for a window (try --headless)\n", title);
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    app->window = glfwCreateWindow(app->width, app->height, title, NULL, NULL);
    if (!app->window) {
        fprintf(stderr, "%s: no OpenGL 4.3 core window\n", title);
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(app->window);
    glfwSwapInterval(1);
    glfwSetWindowUserPointer(app->window, app);
    glfwSetScrollCallback(app->window, example_on_scroll);
    if (app->write_frames) example_make_directory(app->out);
    return gladLoadGL((GLADloadfunc)glfwGetProcAddress) ? 0 : 1;
}

/* CRC-32 and Adler-32, for the PNG writer below. */
static uint32_t example_crc(uint32_t crc, const unsigned char* p, size_t n) {
    size_t i;
    int k;
    crc = ~crc;
    for (i = 0; i < n; ++i) {
        crc ^= p[i];
        for (k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void example_chunk(FILE* f, const char* type, const unsigned char* data, uint32_t n) {
    unsigned char head[8] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16), (unsigned char)(n >> 8), (unsigned char)n,
                             (unsigned char)type[0], (unsigned char)type[1], (unsigned char)type[2], (unsigned char)type[3]};
    uint32_t crc = example_crc(example_crc(0, head + 4, 4), data, n);
    unsigned char tail[4] = {(unsigned char)(crc >> 24), (unsigned char)(crc >> 16), (unsigned char)(crc >> 8), (unsigned char)crc};
    fwrite(head, 1, 8, f);
    fwrite(data, 1, n, f);
    fwrite(tail, 1, 4, f);
}

/* Writes RGBA rows (bottom-up, as glReadPixels gives them) as an RGB PNG with stored (unpacked)
   deflate blocks: no compression library needed, any viewer reads it. */
static int example_write_png(const char* path, const unsigned char* rgba, int w, int h) {
    size_t row = (size_t)w * 3 + 1, raw_n = row * (size_t)h, blocks = (raw_n + 65534) / 65535;
    size_t z_n = 2 + raw_n + blocks * 5 + 4, i, o = 0;
    unsigned char* raw = (unsigned char*)malloc(raw_n);
    unsigned char* z = (unsigned char*)malloc(z_n);
    unsigned char ihdr[13] = {0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0};
    uint32_t a = 1, b = 0;
    int x, y;
    FILE* f = fopen(path, "wb");
    if (!f || !raw || !z) { free(raw); free(z); if (f) fclose(f); return 1; }
    for (y = 0; y < h; ++y) {
        unsigned char* r = raw + (size_t)y * row;
        const unsigned char* src = rgba + (size_t)(h - 1 - y) * (size_t)w * 4;
        r[0] = 0;
        for (x = 0; x < w; ++x) { r[1 + 3 * x] = src[4 * x]; r[2 + 3 * x] = src[4 * x + 1]; r[3 + 3 * x] = src[4 * x + 2]; }
    }
    z[o++] = 0x78; z[o++] = 0x01;
    for (i = 0; i < raw_n; i += 65535) {
        size_t n = raw_n - i < 65535 ? raw_n - i : 65535;
        z[o++] = i + n == raw_n;
        z[o++] = (unsigned char)n; z[o++] = (unsigned char)(n >> 8);
        z[o++] = (unsigned char)~n; z[o++] = (unsigned char)(~n >> 8);
        memcpy(z + o, raw + i, n);
        o += n;
    }
    for (i = 0; i < raw_n; ++i) { a = (a + raw[i]) % 65521u; b = (b + a) % 65521u; }
    z[o++] = (unsigned char)(b >> 8); z[o++] = (unsigned char)b; z[o++] = (unsigned char)(a >> 8); z[o++] = (unsigned char)a;
    ihdr[0] = (unsigned char)(w >> 24); ihdr[1] = (unsigned char)(w >> 16); ihdr[2] = (unsigned char)(w >> 8); ihdr[3] = (unsigned char)w;
    ihdr[4] = (unsigned char)(h >> 24); ihdr[5] = (unsigned char)(h >> 16); ihdr[6] = (unsigned char)(h >> 8); ihdr[7] = (unsigned char)h;
    fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
    example_chunk(f, "IHDR", ihdr, 13);
    example_chunk(f, "IDAT", z, (uint32_t)o);
    example_chunk(f, "IEND", NULL, 0);
    free(raw);
    free(z);
    return fclose(f) != 0;
}

/* Ends a frame: shows it, or writes build/frames/frame_NNNN.png. Returns 0 when the loop should stop. */
static int example_end_frame(example_app* app) {
    ++app->frame;
    if (app->write_frames) {
        char path[512];
        int w = app->width, h = app->height;
        unsigned char* rgba;
        if (app->window) glfwGetFramebufferSize(app->window, &w, &h);
        rgba = (unsigned char*)malloc((size_t)w * h * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
        snprintf(path, sizeof path, "%s/frame_%04d.png", app->out, app->frame - 1);
        if (example_write_png(path, rgba, w, h)) fprintf(stderr, "could not write %s\n", path);
        free(rgba);
    }
    if (!app->headless) {
        glfwSwapBuffers(app->window);
        glfwPollEvents();
        if (glfwGetKey(app->window, GLFW_KEY_ESCAPE) == GLFW_PRESS) glfwSetWindowShouldClose(app->window, 1);
        if (glfwWindowShouldClose(app->window)) return 0;
    }
    app->frame_end = example_seconds();
    return app->frames == 0 || app->frame < app->frames;
}

static void example_close(example_app* app) {
    if (app->box_program) glDeleteProgram(app->box_program);
    if (app->box_vao) glDeleteVertexArrays(1, &app->box_vao);
    if (app->headless) {
        glDeleteFramebuffers(1, &app->framebuffer);
        glDeleteRenderbuffers(1, &app->color);
        glDeleteRenderbuffers(1, &app->depth);
        eglMakeCurrent(app->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(app->display, app->context);
    } else {
        glfwDestroyWindow(app->window);
        glfwTerminate();
    }
    if (app->write_frames) printf("frames written to %s/frame_0000.png ... frame_%04d.png\n", app->out, app->frame - 1);
}

/* Compiles a vertex + fragment or a compute program; exits with the log on failure. */
static GLuint example_program(const char* vertex_or_compute, const char* fragment) {
    const char* sources[2] = {vertex_or_compute, fragment};
    GLenum types[2] = {fragment ? GL_VERTEX_SHADER : GL_COMPUTE_SHADER, GL_FRAGMENT_SHADER};
    GLuint program = glCreateProgram();
    GLint ok;
    int i;
    char log[4096];
    for (i = 0; i < (fragment ? 2 : 1); ++i) {
        GLuint s = glCreateShader(types[i]);
        glShaderSource(s, 1, &sources[i], NULL);
        glCompileShader(s);
        glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) { glGetShaderInfoLog(s, sizeof log, NULL, log); fprintf(stderr, "shader: %s\n", log); exit(1); }
        glAttachShader(program, s);
        glDeleteShader(s);
    }
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) { glGetProgramInfoLog(program, sizeof log, NULL, log); fprintf(stderr, "link: %s\n", log); exit(1); }
    return program;
}

/* The helpers below are static inline: an example that does not use them gets no warning. */

/* ---- camera: perspective and look-at, column-major (for glUniformMatrix4fv without transposing) */

typedef struct example_camera {
    float target[3];   /* the point it looks at and orbits, metres */
    float distance;    /* metres from the target */
    float yaw;         /* radians about +y; 0 puts the camera on the +z side, looking along -z */
    float pitch;       /* radians above the horizontal */
    float fov;         /* vertical field of view, radians */
} example_camera;

static inline void example_perspective(float m[16], float fov, float aspect, float near_, float far_) {
    float f = 1.0f / tanf(0.5f * fov);
    memset(m, 0, 16 * sizeof *m);
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (far_ + near_) / (near_ - far_);
    m[11] = -1.0f;
    m[14] = 2.0f * far_ * near_ / (near_ - far_);
}

/* The view matrix of an eye looking at target, +y up. */
static inline void example_look_at(float m[16], const float eye[3], const float target[3]) {
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]}, s[3], u[3], l;
    int k;
    l = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (k = 0; k < 3; ++k) f[k] /= l;
    l = sqrtf(f[0] * f[0] + f[2] * f[2]);                         /* side = forward x up */
    s[0] = -f[2] / l; s[1] = 0.0f; s[2] = f[0] / l;
    u[0] = s[1] * f[2] - s[2] * f[1];                             /* up = side x forward */
    u[1] = s[2] * f[0] - s[0] * f[2];
    u[2] = s[0] * f[1] - s[1] * f[0];
    memset(m, 0, 16 * sizeof *m);
    for (k = 0; k < 3; ++k) { m[4 * k + 0] = s[k]; m[4 * k + 1] = u[k]; m[4 * k + 2] = -f[k]; }
    m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    m[15] = 1.0f;
}

/* out = a * b */
static inline void example_multiply(float out[16], const float a[16], const float b[16]) {
    int r, c, k;
    for (c = 0; c < 4; ++c)
        for (r = 0; r < 4; ++r) {
            out[4 * c + r] = 0.0f;
            for (k = 0; k < 4; ++k) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
        }
}

static inline void example_camera_eye(const example_camera* camera, float eye[3]) {
    eye[0] = camera->target[0] + camera->distance * cosf(camera->pitch) * sinf(camera->yaw);
    eye[1] = camera->target[1] + camera->distance * sinf(camera->pitch);
    eye[2] = camera->target[2] + camera->distance * cosf(camera->pitch) * cosf(camera->yaw);
}

/* Moves the camera back along its line of sight until the eight corners of the box [lo, hi]
   are in view with a margin, at this aspect ratio. */
static inline void example_camera_fit(example_camera* camera, const float lo[3], const float hi[3], float aspect) {
    float view[16], projection[16], view_projection[16], eye[3];
    int corner, r, in_view = 0;
    camera->distance = 0.1f * (fabsf(hi[0] - lo[0]) + fabsf(hi[1] - lo[1]) + fabsf(hi[2] - lo[2]));
    while (!in_view && camera->distance < 1e6f) {
        camera->distance *= 1.03f;
        example_camera_eye(camera, eye);
        example_look_at(view, eye, camera->target);
        example_perspective(projection, camera->fov, aspect, 0.01f * camera->distance, 10.0f * camera->distance);
        example_multiply(view_projection, projection, view);
        for (in_view = 1, corner = 0; corner < 8; ++corner) {
            float p[4] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1], corner & 4 ? hi[2] : lo[2], 1.0f}, clip[4];
            for (r = 0; r < 4; ++r)
                clip[r] = view_projection[r] * p[0] + view_projection[4 + r] * p[1] + view_projection[8 + r] * p[2] + view_projection[12 + r];
            if (clip[3] <= 0.0f || fabsf(clip[0]) > 0.92f * clip[3] || fabsf(clip[1]) > 0.9f * clip[3]) in_view = 0;
        }
    }
}

/* Starts a frame: the mouse moves the camera (drag with the left button to orbit, scroll to
   zoom), the viewport covers the framebuffer, colour and depth are cleared to background, and
   view, projection and the eye's position are written for this frame. */
static inline void example_begin_frame(example_app* app, example_camera* camera, const float background[3],
                                       float view[16], float projection[16], float eye[3]) {
    if (app->window) {
        double x, y;
        glfwGetCursorPos(app->window, &x, &y);
        if (glfwGetMouseButton(app->window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS) {
            if (app->dragging) {
                camera->yaw -= 0.008f * (float)(x - app->cursor[0]);
                camera->pitch += 0.008f * (float)(y - app->cursor[1]);
                camera->pitch = camera->pitch > 1.5f ? 1.5f : camera->pitch < -1.5f ? -1.5f : camera->pitch;
            }
            app->dragging = 1;
        } else {
            app->dragging = 0;
        }
        app->cursor[0] = x;
        app->cursor[1] = y;
        camera->distance *= powf(0.9f, (float)app->scroll);
        app->scroll = 0.0;
        glfwGetFramebufferSize(app->window, &app->width, &app->height);
    }
    glViewport(0, 0, app->width, app->height);
    glClearColor(background[0], background[1], background[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    example_camera_eye(camera, eye);
    example_look_at(view, eye, camera->target);
    example_perspective(projection, camera->fov, (float)app->width / (float)(app->height > 0 ? app->height : 1),
                        0.02f * camera->distance, 20.0f * camera->distance);
}

/* The twelve edges of the box [lo, hi] as grey lines. */
static inline void example_draw_box(example_app* app, const float lo[3], const float hi[3],
                                    const float view[16], const float projection[16]) {
    static const char* vertex =
        "#version 430 core\n"
        "uniform mat4 view_projection; uniform vec3 lo, hi;\n"
        "const int corner[24] = int[24](0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7);\n"
        "void main() {\n"
        "    int c = corner[gl_VertexID];\n"   /* bit 0: x, bit 1: y, bit 2: z */
        "    vec3 t = vec3(float(c & 1), float((c >> 1) & 1), float((c >> 2) & 1));\n"
        "    gl_Position = view_projection * vec4(mix(lo, hi, t), 1.0);\n"
        "}\n";
    static const char* fragment =
        "#version 430 core\n"
        "out vec4 result;\n"
        "void main() { result = vec4(0.6, 0.62, 0.66, 1.0); }\n";
    float view_projection[16];
    if (!app->box_program) {
        app->box_program = example_program(vertex, fragment);
        glGenVertexArrays(1, &app->box_vao);
    }
    example_multiply(view_projection, projection, view);
    glUseProgram(app->box_program);
    glUniformMatrix4fv(glGetUniformLocation(app->box_program, "view_projection"), 1, GL_FALSE, view_projection);
    glUniform3fv(glGetUniformLocation(app->box_program, "lo"), 1, lo);
    glUniform3fv(glGetUniformLocation(app->box_program, "hi"), 1, hi);
    glBindVertexArray(app->box_vao);
    glDrawArrays(GL_LINES, 0, 24);
    glBindVertexArray(0);
    glUseProgram(0);
}

/* ---- the tank: a world whose walls are a closed box, and its frame ------------------------------ */

typedef struct example_tank {
    float min[3], max[3];     /* the tank's inside, metres */
    float spacing;            /* fluid examples: metres between particles at rest, the scene's resolution */
    float viscosity;          /* fluid examples: the water's, m^2/s; 0: the library's default */
    gp_world* world;          /* made by example_box_open (or example_tank_open) */
    example_camera camera;    /* which frames the tank */
    double shown;             /* seconds when the last frame's statistics were read */
} example_tank;

/* --particles N, or the example's default. */
static inline unsigned example_particles(const example_app* app, unsigned default_count) {
    return app->particles ? app->particles : default_count;
}

/* Creates the world in the app's context for any kind of particle: room for max_particles, a
   bounded grid of cells cell_size wide over the tank (a cell of margin all round) and the
   tank's walls, a box collider with inside = true; frames the camera on the tank. Fluid, grains
   and rigid bodies all meet these walls. Returns 0 on success; the library's logger said why not. */
static inline int example_box_open(example_app* app, example_tank* tank, uint32_t max_particles, float cell_size) {
    gp_world_desc desc;
    gp_collider_desc walls;
    gp_collider collider;
    int k;
    memset(&desc, 0, sizeof desc);
    memset(&walls, 0, sizeof walls);
    desc.max_particles = max_particles;
    desc.get_proc_address = app->headless ? eglGetProcAddress : glfwGetProcAddress;   /* both have gp's type */
    desc.grid.cell_size = cell_size;
    walls.shape = GP_SHAPE_BOX;
    walls.inside = true;
    for (k = 0; k < 3; ++k) {
        float size = tank->max[k] - tank->min[k];
        desc.grid.origin[k] = tank->min[k] - cell_size;   /* a cell of margin all round */
        desc.grid.dims[k] = (uint32_t)ceilf(size / cell_size) + 2;
        walls.center[k] = 0.5f * (tank->min[k] + tank->max[k]);
        walls.half_extents[k] = 0.5f * size;
    }
    if (gp_world_create(&desc, &tank->world) != GP_OK || gp_collider_add(tank->world, &walls, &collider) != GP_OK) return 1;
    /* The camera in front of the tank, a little to the right and above, the whole tank in view. */
    memcpy(tank->camera.target, walls.center, sizeof walls.center);
    tank->camera.target[1] -= 0.3f * walls.half_extents[1];
    tank->camera.fov = 0.75f;
    tank->camera.yaw = 0.45f;
    tank->camera.pitch = 0.42f;
    example_camera_fit(&tank->camera, tank->min, tank->max, (float)app->width / (float)app->height);
    app->frame_end = example_seconds();
    return 0;
}

/* The fluid examples' world: example_box_open with cells of the fluid's smoothing radius (the
   default, 2 spacings), and water (material 0) at the tank's spacing and viscosity with the
   library's other defaults (water: its density carried, the continuity model) or, with
   --summation, its density summed (the paper's) with a syrup's viscosity, 0.02 m^2/s, unless
   the tank sets one (the summation model gains energy at water's).
   Returns 0 on success; the library's logger said why not. */
static inline int example_tank_open(example_app* app, example_tank* tank, uint32_t max_particles) {
    gp_fluid_material water;
    memset(&water, 0, sizeof water);
    water.spacing = tank->spacing;
    water.viscosity = tank->viscosity;
    if (app->summation) {
        water.density_model = GP_DENSITY_SUMMATION;
        if (water.viscosity == 0.0f) water.viscosity = 0.02f;
    }
    if (example_box_open(app, tank, max_particles, 2.0f * tank->spacing)) return 1;
    return gp_fluid_material_set(tank->world, 0, &water) != GP_OK;
}

/* Destroys the tank's world, then closes the app (the world needs the context). Returns 0. */
static inline int example_tank_close(example_app* app, example_tank* tank) {
    gp_world_destroy(tank->world);
    example_close(app);
    return 0;
}

/* Starts a tank's frame: clears, draws the tank's edges with depth testing on, and zeroes draw
   but for this frame's view and projection, ready for gp_draw_particles or gp_draw_bodies. */
static inline void example_tank_begin(example_app* app, example_tank* tank, gp_draw_desc* draw) {
    static const float background[3] = {0.11f, 0.12f, 0.15f};
    float eye[3];
    memset(draw, 0, sizeof *draw);
    example_begin_frame(app, &tank->camera, background, draw->view, draw->projection, eye);
    glEnable(GL_DEPTH_TEST);
    example_draw_box(app, tank->min, tank->max, draw->view, draw->projection);
}

/* Shows one frame of a fluid example after its gp_world_step: reads the fluid's statistics
   (which waits for the step), clears, draws the tank's edges and the particles coloured by
   density (white where sparse, blue where dense, as in 001's figures 4 and 5), and prints
   one line. Returns 0 when a call failed. */
static inline int example_tank_show(example_app* app, example_tank* tank) {
    gp_fluid_stats stats;
    gp_draw_desc draw;
    double now, since = tank->shown > 0.0 ? tank->shown : app->frame_end;
    if (gp_fluid_stats_read(tank->world, &stats) != GP_OK) return 0;
    now = example_seconds();
    example_tank_begin(app, tank, &draw);
    draw.color_by = GP_COLOR_DENSITY;
    draw.range[0] = 700.0f;    /* kg/m^3: white at the free surface and in the spray, */
    draw.range[1] = 1000.0f;   /* blue in the bulk, at the rest density and above */
    if (gp_draw_particles(tank->world, &draw) != GP_OK) return 0;
    printf("frame %4d  particles %6u  substeps %3u  max speed %5.2f m/s  CFL %.2f  density %6.1f to %6.1f kg/m^3"
           "  step %6.1f ms  frame %6.1f ms\n", app->frame, gp_particle_count(tank->world), stats.substeps,
           stats.max_speed, stats.cfl, stats.min_density, stats.max_density,
           1000.0 * (now - app->frame_end), 1000.0 * (now - since));
    if (stats.nonfinite) printf("  %u particles stopped after an update that was not finite\n", stats.nonfinite);
    fflush(stdout);
    tank->shown = now;
    return 1;
}
#endif
