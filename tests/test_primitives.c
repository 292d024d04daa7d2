/* test_primitives.c: prefix sum, stream compaction, indirect arguments, bitonic sort and copy
   against the CPU reference, at every length of fixture_lengths and every input pattern. */
#include "fixture.h"
#include <math.h>

/* First index where a and b differ, or -1. */
static long first_difference(const uint32_t* a, const uint32_t* b, uint32_t count) {
    uint32_t i;
    for (i = 0; i < count; ++i)
        if (a[i] != b[i]) return (long)i;
    return -1;
}

static void check_scan(gp_world* w, const uint32_t* input, uint32_t n, int in_place, const char* what) {
    uint32_t* expected = (uint32_t*)malloc((size_t)n * 4 + 4);
    uint32_t in = fixture_buffer(w, input, n ? n : 1);
    uint32_t out = in_place ? in : fixture_buffer(w, NULL, n ? n : 1);
    uint32_t* got;
    long d;
    gp_result r = gp_scan_exclusive(w, in, out, n);
    CHECKF(r == GP_OK, "scan %s n=%u: %s", what, n, gp_result_string(r));
    cpu_scan_exclusive(input, expected, n);
    got = fixture_read(w, out, n);
    d = first_difference(got, expected, n);
    CHECKF(d < 0, "scan %s n=%u%s: element %ld is %u, expected %u", what, n, in_place ? " in place" : "", d,
           d < 0 ? 0 : got[d], d < 0 ? 0 : expected[d]);
    if (!in_place) {   /* the input is left as it was */
        uint32_t* after = fixture_read(w, in, n);
        CHECKF(first_difference(after, input, n) < 0, "scan %s n=%u changed its input", what, n);
        free(after);
        gp_buffer_destroy(w, out);
    }
    gp_buffer_destroy(w, in);
    free(got);
    free(expected);
}

static void test_scan_against_cpu(void) {
    gp_world* w = fixture_world(NULL);
    uint32_t l, p;
    if (!w) return;
    for (l = 0; l < FIXTURE_LENGTHS; ++l)
        for (p = 0; p < PATTERN_COUNT; ++p) {
            uint32_t n = fixture_lengths[l];
            uint32_t* input = fixture_words((fixture_pattern)p, n, 0, 11 + l * 7 + p);
            check_scan(w, input, n, (l + p) % 3 == 0, fixture_pattern_names[p]);
            free(input);
        }
    gp_world_destroy(w);
}

/* Sums that wrap around 2^32, and the largest values everywhere. */
static void test_scan_wraps_modulo_2_32(void) {
    gp_world* w = fixture_world(NULL);
    uint32_t n = 70001, i;
    uint32_t* input = (uint32_t*)malloc(n * 4);
    if (!w) return;
    for (i = 0; i < n; ++i) input[i] = 0xffffffffu - (i & 7);
    check_scan(w, input, n, 0, "all-large");
    free(input);
    gp_world_destroy(w);
}

/* Beyond 65,535 workgroups of the first level, and three levels of block sums. */
static void test_scan_16m(void) {
    gp_world* w = fixture_world(NULL);
    uint32_t n = (1u << 24) + 3;
    uint32_t* input;
    if (!w) return;
    input = fixture_words(PATTERN_RANDOM, n, 1000, 99);
    check_scan(w, input, n, 1, "random 16M");
    free(input);
    gp_world_destroy(w);
}

static void test_compact_against_cpu(void) {
    gp_world* w = fixture_world(NULL);
    uint32_t l, p, z;
    if (!w) return;
    for (l = 0; l < FIXTURE_LENGTHS; ++l)
        for (p = 0; p < PATTERN_COUNT + 1; ++p) {
            uint32_t n = fixture_lengths[l];
            /* random: about half zeros, any non-zero value; sorted: zeros then ones; reversed: ones
               then zeros; all-equal: all kept; the extra round: all zero. */
            uint32_t* flags = p == PATTERN_COUNT ? (uint32_t*)calloc((size_t)n + 1, 4)
                                                 : fixture_words((fixture_pattern)p, n, p == PATTERN_RANDOM ? 0 : 2, 5 + l + 13 * p);
            uint32_t* expected = (uint32_t*)malloc((size_t)n * 4 + 4);
            uint32_t expected_count, words[4], *got;
            uint32_t fb, ib, cb;
            gp_result r;
            if (p == PATTERN_RANDOM)
                for (z = 0; z < n; ++z) flags[z] = (flags[z] & 1) ? flags[z] : 0;
            if (p == PATTERN_EQUAL) for (z = 0; z < n; ++z) flags[z] = 0x80000000u;
            expected_count = cpu_compact(flags, n, expected);
            fb = fixture_buffer(w, flags, n ? n : 1);
            /* indices pre-filled with a sentinel: nothing past the count may be written */
            for (z = expected_count; z < n; ++z) expected[z] = 0xdeadbeefu;
            {
                uint32_t* sentinel = (uint32_t*)malloc((size_t)n * 4 + 4);
                for (z = 0; z < n; ++z) sentinel[z] = 0xdeadbeefu;
                ib = fixture_buffer(w, sentinel, n ? n : 1);
                free(sentinel);
            }
            words[0] = words[1] = words[2] = words[3] = 0xdeadbeefu;
            cb = fixture_buffer(w, words, 4);
            r = gp_compact(w, fb, n, ib, cb, 8);
            CHECKF(r == GP_OK, "compact %s n=%u: %s", fixture_pattern_names[p % PATTERN_COUNT], n, gp_result_string(r));
            got = fixture_read(w, ib, n);
            gp_buffer_read(w, cb, 0, sizeof words, words);
            CHECKF(words[2] == expected_count, "compact p=%u n=%u: count %u, expected %u", p, n, words[2], expected_count);
            CHECKF(words[0] == 0xdeadbeefu && words[1] == 0xdeadbeefu && words[3] == 0xdeadbeefu,
                   "compact p=%u n=%u wrote beside its count word", p, n);
            CHECKF(first_difference(got, expected, n) < 0, "compact p=%u n=%u: indices differ at %ld", p, n,
                   first_difference(got, expected, n));
            gp_buffer_destroy(w, fb);
            gp_buffer_destroy(w, ib);
            gp_buffer_destroy(w, cb);
            free(got);
            free(flags);
            free(expected);
        }
    gp_world_destroy(w);
}

/* The count gp_compact leaves on the GPU drives an indirect dispatch of exactly that many
   invocations' worth of workgroups, including a count that needs more than 65,535 groups. */
static void test_compact_count_drives_indirect_dispatch(void) {
    static const char* source =
        "#version 430 core\n"
        "layout(local_size_x = 64) in;\n"
        "layout(std430, binding = 0) buffer c { uint count; uint hits; uint invocations; uint beyond; };\n"
        "void main() {\n"
        "    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;\n"
        "    atomicAdd(invocations, 1u);\n"
        "    if (i < count) atomicAdd(hits, 1u); else atomicAdd(beyond, 1u);\n"
        "}\n";
    const uint32_t counts[] = {0, 1, 1000, 65535u * 64u + 100u};
    gp_world* w = fixture_world(NULL);
    GLuint shader, program;
    GLint ok = 0;
    uint32_t c;
    if (!w) return;
    shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    CHECK(ok);
    for (c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        uint32_t n = counts[c], i, words[4] = {0, 0, 0, 0}, args[3];
        uint32_t* flags = (uint32_t*)malloc((size_t)n * 4 + 4);
        uint32_t fb, ib, cb, ab, groups = (n + 63) / 64;
        for (i = 0; i < n; ++i) flags[i] = 1;
        fb = fixture_buffer(w, flags, n ? n : 1);
        ib = fixture_buffer(w, NULL, n ? n : 1);
        cb = fixture_buffer(w, words, 4);
        ab = fixture_buffer(w, NULL, 3);
        CHECK(gp_compact(w, fb, n, ib, cb, 0) == GP_OK);
        CHECK(gp_indirect_args(w, cb, 0, 64, ab, 0) == GP_OK);
        gp_buffer_read(w, ab, 0, sizeof args, args);
        CHECKF(args[0] * args[1] >= groups && (args[1] == 0 || args[0] * (args[1] - 1) < groups) && args[2] == 1 && args[0] <= 65535,
               "n=%u: args %u %u %u for %u groups", n, args[0], args[1], args[2], groups);
        /* The user's own indirect dispatch: no glMemoryBarrier, the library issued it. */
        glUseProgram(program);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, cb);
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, ab);
        glDispatchComputeIndirect(0);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);   /* ours, before our own readback */
        gp_buffer_read(w, cb, 0, sizeof words, words);
        CHECKF(words[0] == n && words[1] == n, "n=%u: count %u, hits %u", n, words[0], words[1]);
        CHECKF(words[2] == args[0] * args[1] * 64u, "n=%u: %u invocations for args %u x %u", n, words[2], args[0], args[1]);
        gp_buffer_destroy(w, fb); gp_buffer_destroy(w, ib); gp_buffer_destroy(w, cb); gp_buffer_destroy(w, ab);
        free(flags);
    }
    glUseProgram(0);
    glDeleteProgram(program);
    glDeleteShader(shader);
    gp_world_destroy(w);
}

static void check_sort(gp_world* w, uint32_t n, fixture_pattern p, uint32_t range, gp_sort_order order, uint64_t seed) {
    uint32_t* keys = fixture_words(p, n, range, seed);
    uint32_t* values = fixture_words(PATTERN_RANDOM, n, 0, seed + 1000);
    uint32_t kb = fixture_buffer(w, keys, n ? n : 1), vb = fixture_buffer(w, values, n ? n : 1);
    uint32_t *got_keys, *got_values;
    gp_result r = gp_sort_pairs(w, kb, vb, n, order);
    CHECKF(r == GP_OK, "sort n=%u: %s", n, gp_result_string(r));
    cpu_sort_pairs(keys, values, n, order == GP_SORT_DESCENDING);
    got_keys = fixture_read(w, kb, n);
    got_values = fixture_read(w, vb, n);
    CHECKF(first_difference(got_keys, keys, n) < 0 && first_difference(got_values, values, n) < 0,
           "sort %s %s n=%u: keys differ at %ld, values at %ld", fixture_pattern_names[p],
           order == GP_SORT_DESCENDING ? "descending" : "ascending", n,
           first_difference(got_keys, keys, n), first_difference(got_values, values, n));
    gp_buffer_destroy(w, kb);
    gp_buffer_destroy(w, vb);
    free(keys); free(values); free(got_keys); free(got_values);
}

static void test_sort_against_cpu(void) {
    gp_world* w = fixture_world(NULL);
    uint32_t l, p;
    if (!w) return;
    for (l = 0; l < FIXTURE_LENGTHS; ++l)
        for (p = 0; p < PATTERN_COUNT; ++p) {
            uint32_t n = fixture_lengths[l];
            check_sort(w, n, (fixture_pattern)p, 0, (l + p) % 2 ? GP_SORT_DESCENDING : GP_SORT_ASCENDING, 3 + l * 5 + p);
            if (n <= 65537) check_sort(w, n, (fixture_pattern)p, 0, (l + p) % 2 ? GP_SORT_ASCENDING : GP_SORT_DEFAULT, 7 + l * 5 + p);
        }
    /* Few distinct keys: long runs broken by value. Lengths around the shared-memory block. */
    check_sort(w, 100003, PATTERN_RANDOM, 5, GP_SORT_ASCENDING, 77);
    check_sort(w, 511, PATTERN_RANDOM, 3, GP_SORT_DESCENDING, 78);
    check_sort(w, 513, PATTERN_REVERSED, 0, GP_SORT_ASCENDING, 79);
    check_sort(w, 1025, PATTERN_RANDOM, 0, GP_SORT_DESCENDING, 80);
    gp_world_destroy(w);
}

/* gp_float_sort_key orders like the floats, negatives, zeros and infinities included. */
static void test_float_sort_key_is_monotonic(void) {
    const float values[] = {-INFINITY, -3.0e38f, -1.0f, -1.0e-30f, -0.0f, 0.0f, 1.0e-38f, 0.5f, 1.0f, 2.0f, 3.0e38f, INFINITY};
    size_t i;
    for (i = 1; i < sizeof values / sizeof values[0]; ++i) {
        uint32_t a = gp_float_sort_key(values[i - 1]), b = gp_float_sort_key(values[i]);
        CHECKF(values[i - 1] == values[i] ? a <= b : a < b, "key(%g) = %08x, key(%g) = %08x",
               (double)values[i - 1], a, (double)values[i], b);
    }
}

static void test_copy_against_cpu(void) {
    gp_world* w = fixture_world(NULL);
    uint32_t l;
    if (!w) return;
    for (l = 0; l < FIXTURE_LENGTHS; ++l) {
        uint32_t n = fixture_lengths[l];
        uint32_t* input = fixture_words(PATTERN_RANDOM, n, 0, 400 + l);
        uint32_t in = fixture_buffer(w, input, n ? n : 1), out = fixture_buffer(w, NULL, n ? n : 1);
        uint32_t* got;
        CHECK(gp_copy(w, in, out, n) == GP_OK);
        got = fixture_read(w, out, n);
        CHECKF(first_difference(got, input, n) < 0, "copy n=%u", n);
        gp_buffer_destroy(w, in); gp_buffer_destroy(w, out);
        free(input); free(got);
    }
    gp_world_destroy(w);
}

/* Bad buffers and parameters: a clear result, a message naming the problem, nothing written. */
static void test_primitives_reject_bad_input(void) {
    gp_world* w = fixture_world(NULL);
    uint32_t small, big, words[4] = {1, 2, 3, 4};
    if (!w) return;
    small = fixture_buffer(w, words, 4);
    big = fixture_buffer(w, NULL, 100);
    CHECK(gp_scan_exclusive(w, small, big, 5) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_scan_exclusive(w, 987654, big, 5) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_scan_exclusive(w, big, small, 5) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_sort_pairs(w, big, big, 10, GP_SORT_ASCENDING) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_sort_pairs(w, big, small, 10, GP_SORT_ASCENDING) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_sort_pairs(w, big, small, 2, (gp_sort_order)9) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_NOT_AN_ENUM_VALUE));
    CHECK(gp_compact(w, big, 10, big, small, 0) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_compact(w, small, 4, big, small, 0) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_compact(w, small, 4, big, big, 2) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_compact(w, small, 4, big, big, 8) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_compact(w, small, 4, big, small, 16) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_indirect_args(w, small, 0, 0, big, 0) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_ARGUMENT_OUT_OF_RANGE));
    CHECK(gp_indirect_args(w, small, (size_t)-4, 64, big, 0) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_compact(w, small, 4, big, small, (size_t)-4) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_indirect_args(w, small, 8, 64, small, 0) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_indirect_args(w, small, 0, 64, small, 8) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_copy(w, big, small, 5) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_buffer_read(w, small, 8, 16, words) == GP_ERROR_INVALID_ARGUMENT);
    CHECK(gp_buffer_read(w, small, (size_t)-8, 16, words) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_buffer_write(w, small, 4, (size_t)-1, words) == GP_ERROR_INVALID_ARGUMENT && fixture_logged_item(GP_LOG_ITEM_BUFFER_INVALID));
    CHECK(gp_world_last_result(w) == GP_ERROR_INVALID_ARGUMENT);
    /* the small buffer is untouched by all of that */
    gp_buffer_read(w, small, 0, sizeof words, words);
    CHECK(words[0] == 1 && words[1] == 2 && words[2] == 3 && words[3] == 4);
    CHECK(gp_scan_exclusive(NULL, small, big, 1) == GP_ERROR_INVALID_ARGUMENT);
    gp_buffer_destroy(w, small);
    gp_buffer_destroy(w, big);
    gp_world_destroy(w);
}

/* The library restores the user's program and leaves GL without errors. */
static void test_primitives_restore_program(void) {
    static const char* source = "#version 430 core\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    gp_world* w = fixture_world(NULL);
    GLuint shader, program;
    GLint current = 0;
    uint32_t a, b;
    if (!w) return;
    shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    glUseProgram(program);
    a = fixture_buffer(w, NULL, 1000);
    b = fixture_buffer(w, NULL, 1000);
    CHECK(gp_scan_exclusive(w, a, b, 1000) == GP_OK);
    CHECK(gp_sort_pairs(w, a, b, 1000, GP_SORT_DEFAULT) == GP_OK);
    glGetIntegerv(GL_CURRENT_PROGRAM, &current);
    CHECK(current == (GLint)program);
    CHECK(glGetError() == GL_NO_ERROR);
    glUseProgram(0);
    glDeleteProgram(program);
    glDeleteShader(shader);
    gp_buffer_destroy(w, a);
    gp_buffer_destroy(w, b);
    gp_world_destroy(w);
}

const gp_test_case primitive_tests[] = {
    {"scan_against_cpu", test_scan_against_cpu},
    {"scan_wraps_modulo_2_32", test_scan_wraps_modulo_2_32},
    {"scan_16m", test_scan_16m},
    {"compact_against_cpu", test_compact_against_cpu},
    {"compact_count_drives_indirect_dispatch", test_compact_count_drives_indirect_dispatch},
    {"sort_against_cpu", test_sort_against_cpu},
    {"float_sort_key_is_monotonic", test_float_sort_key_is_monotonic},
    {"copy_against_cpu", test_copy_against_cpu},
    {"primitives_reject_bad_input", test_primitives_reject_bad_input},
    {"primitives_restore_program", test_primitives_restore_program},
};
const int primitive_test_count = (int)(sizeof primitive_tests / sizeof primitive_tests[0]);
