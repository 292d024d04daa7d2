/* example_app.h: what every example shares, so that each example file shows only its concept.
   Opens an OpenGL 4.3 core context either in a GLFW window, or headless (--headless) through
   EGL's surfaceless platform with an offscreen framebuffer, loads glad, runs the frame loop,
   and in headless mode writes each frame as a PNG (--out DIR) and stops after --frames N.
   Not part of the library: gpuparticle.h never opens windows or contexts. */
#ifndef EXAMPLE_APP_H
#define EXAMPLE_APP_H
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>

typedef struct example_app {
    int width, height;
    int headless;            /* --headless: EGL, offscreen, PNG frames */
    int frames;              /* --frames N: stop after N frames (0: until the window closes) */
    const char* out;         /* --out DIR: where frames go (headless always; a window when given) */
    int write_frames;
    int frame;               /* the frame being drawn, from 0 */
    GLFWwindow* window;
    EGLDisplay display;
    EGLContext context;
    GLuint framebuffer, color, depth;
} example_app;

static void example_usage(const char* name) {
    printf("usage: %s [--headless] [--frames N] [--out DIR]\n"
           "  --headless   no window: render offscreen through EGL and write PNG frames\n"
           "  --frames N   stop after N frames (headless default 60)\n"
           "  --out DIR    write frames as PNG there (headless default build/frames;\n"
           "               with a window, the window's own pixels)\n", name);
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
        else { example_usage(argv[0]); return 1; }
    }
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
    if (app->headless) return app->frame < app->frames;
    glfwSwapBuffers(app->window);
    glfwPollEvents();
    if (glfwGetKey(app->window, GLFW_KEY_ESCAPE) == GLFW_PRESS) glfwSetWindowShouldClose(app->window, 1);
    return !glfwWindowShouldClose(app->window) && (app->frames == 0 || app->frame < app->frames);
}

static void example_close(example_app* app) {
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
#endif
