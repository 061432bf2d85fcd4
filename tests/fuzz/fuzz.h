/* fuzz.h: what the fuzz targets share. Each target defines
 * LLVMFuzzerTestOneInput(); it is linked either with libFuzzer (clang,
 * -fsanitize=fuzzer: `make fuzz`) or with replay.c (any compiler, for
 * `make check-asan`, which runs the corpus and the regression inputs).
 *
 * A target checks what must hold for every input with FUZZ_CHECK: a failed
 * check prints what and aborts, which both drivers report as a crash with
 * the input that caused it.
 */
#ifndef FSB_FUZZ_H
#define FSB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

#endif
