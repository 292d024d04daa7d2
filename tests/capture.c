/* capture.c: what the library says on stderr where it has no logger of yours to call (a NULL
   world, a call that takes no world), caught for the tests. POSIX's dup and dup2, in a file of
   its own so that the rest of the tests stay plain C99. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int capture_saved = -1;
static FILE* capture_file;

int fixture_stderr_begin(void) {
    fflush(stderr);
    if (!(capture_file = tmpfile())) return 0;
    capture_saved = dup(2);
    if (capture_saved < 0 || dup2(fileno(capture_file), 2) < 0) {
        fclose(capture_file);
        capture_file = NULL;
        return 0;
    }
    return 1;
}

size_t fixture_stderr_end(char* text, size_t size) {
    size_t got = 0;
    fflush(stderr);
    if (capture_saved >= 0) {
        dup2(capture_saved, 2);
        close(capture_saved);
        capture_saved = -1;
    }
    if (capture_file) {
        rewind(capture_file);
        got = fread(text, 1, size - 1, capture_file);
        fclose(capture_file);
        capture_file = NULL;
    }
    text[got] = '\0';
    return got;
}
