/* main.c: the linkage test. Links use_a.c and use_b.c, which only declare, against impl.c, which
   implements; the results prove the implementation was compiled and is the one called. Linking
   without impl.c must fail (the Makefile's check tries it), so no other copy can hide in a
   declaration-only include. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
const char* use_a(void);
uint32_t use_b(void);
int main(void) {
    int ok = strcmp(use_a(), "GP_ERROR_CAPACITY") == 0 && use_b() == 0x407fffffu;
    printf("linkage: %s\n", ok ? "ok" : "wrong results");
    return ok ? 0 : 1;
}
