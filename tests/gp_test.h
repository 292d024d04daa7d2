/* gp_test.h: the smallest test runner that does the job. A test is a function that records
   failed checks with CHECK; main runs the tests named on the command line (all without any) and
   prints one line per test and the closing "N passed, N failed". */
#ifndef GP_TEST_H
#define GP_TEST_H
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct gp_test_case { const char* name; void (*run)(void); } gp_test_case;

extern int gp_test_failures;   /* failed checks in the running test (defined where GP_TEST_MAIN is) */

#define CHECK(cond) CHECKF(cond, "%s", #cond)
#define CHECKF(cond, ...)                                                            \
    do {                                                                             \
        if (!(cond)) {                                                               \
            if (gp_test_failures < 8) {                                              \
                fprintf(stderr, "    %s:%d: ", __FILE__, __LINE__);                  \
                fprintf(stderr, __VA_ARGS__);                                        \
                fprintf(stderr, "\n");                                               \
            }                                                                        \
            ++gp_test_failures;                                                      \
        }                                                                            \
    } while (0)

#ifdef GP_TEST_MAIN
int gp_test_failures;

/* Runs the cases whose name contains one of the arguments (all when there are none); counts a
   case as passed when it recorded no failed check; each line ends with the case's wall-clock
   seconds and the process's CPU seconds in it (llvmpipe's threads included), which say where
   the suite's time goes (it must stay under 10 minutes on llvmpipe) even on a loaded machine.
   Returns the process exit code. */
/* Two or more runs side by side share the tests: GP_TEST_CLAIMS=DIR, and each run takes a test
   only when it is the first to create DIR/N for the test's number N (fopen's exclusive "x" mode),
   so a run that finishes a test takes the next one nobody has: `make test` runs two, each with
   one llvmpipe thread, so that one's shader compiles and host work overlap the other's GPU work.
   GP_TEST_SHARD=k/n instead takes every n-th test from the k-th. */
static int gp_test_in_shard(void) {
    static int counter = 0;
    const char* shard = getenv("GP_TEST_SHARD");
    const char* claims = getenv("GP_TEST_CLAIMS");
    int k = 0, n = 1, mine;
    if (claims) {
        char path[4096];
        FILE* f;
        snprintf(path, sizeof path, "%s/%d", claims, counter++);
        f = fopen(path, "wx");
        if (f) fclose(f);
        return f != NULL;
    }
    if (shard && (sscanf(shard, "%d/%d", &k, &n) != 2 || n < 1 || k < 0 || k >= n)) { k = 0; n = 1; }
    mine = counter % n == k;
    ++counter;
    return mine;
}

static double gp_test_wall_seconds(void) {   /* main.c asks for POSIX's monotonic clock */
#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 199309L
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec * 1e-9;
#else
    return (double)time(NULL);
#endif
}

static int gp_test_main(const gp_test_case* cases, int n, int argc, char** argv, int* passed, int* failed) {
    int i, a;
    for (i = 0; i < n; ++i) {
        int wanted = argc <= 1;
        for (a = 1; a < argc; ++a) wanted |= strstr(cases[i].name, argv[a]) != NULL;
        if (!wanted || !gp_test_in_shard()) continue;
        double start = gp_test_wall_seconds();
        clock_t cpu = clock();
        gp_test_failures = 0;
        cases[i].run();
        printf("%s %s (%.1f s, %.1f s CPU)\n", gp_test_failures ? "FAIL" : "ok  ", cases[i].name,
               gp_test_wall_seconds() - start, (double)(clock() - cpu) / CLOCKS_PER_SEC);
        fflush(stdout);
        if (gp_test_failures) ++*failed; else ++*passed;
    }
    return *failed ? 1 : 0;
}
#endif
#endif
