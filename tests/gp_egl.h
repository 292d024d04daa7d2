/* gp_egl.h: a headless OpenGL context for the tests and the benchmark, through EGL's surfaceless
   platform (Mesa's llvmpipe on a machine without a GPU, the vendor's driver where there is one).
   Not part of the library: gpuparticle.h never creates contexts. */
#ifndef GP_EGL_H
#define GP_EGL_H
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>

typedef struct gp_egl {
    EGLDisplay display;
    EGLContext context;
} gp_egl;

/* Makes a core-profile context of the given version current. Returns 0 on success. */
static inline int gp_egl_open(gp_egl* egl, int major, int minor) {
    EGLint context_attributes[] = {
        EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    egl->display = EGL_NO_DISPLAY;
    egl->context = EGL_NO_CONTEXT;
    if (get_display) egl->display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (egl->display == EGL_NO_DISPLAY) egl->display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (egl->display == EGL_NO_DISPLAY || !eglInitialize(egl->display, NULL, NULL)) {
        fprintf(stderr, "gp_egl: no EGL display (0x%x)\n", eglGetError());
        return 1;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "gp_egl: EGL has no desktop OpenGL\n");
        return 1;
    }
    egl->context = eglCreateContext(egl->display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, context_attributes);
    if (egl->context == EGL_NO_CONTEXT) {
        fprintf(stderr, "gp_egl: no OpenGL %d.%d core context (0x%x)\n", major, minor, eglGetError());
        return 1;
    }
    if (!eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl->context)) {
        fprintf(stderr, "gp_egl: eglMakeCurrent failed (0x%x)\n", eglGetError());
        return 1;
    }
    return 0;
}

static inline void gp_egl_close(gp_egl* egl) {
    if (egl->display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (egl->context != EGL_NO_CONTEXT) eglDestroyContext(egl->display, egl->context);
    egl->context = EGL_NO_CONTEXT;
}
#endif
