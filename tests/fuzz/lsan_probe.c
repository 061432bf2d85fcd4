/* lsan_probe.c: a program that leaks on purpose. `make check-asan` runs it
 * first: when LeakSanitizer reports this leak, the unit tests and replays
 * run with leak checking; when it cannot (e.g. under ptrace, or where the
 * sanitizer runtime cannot stop the process's threads), check-asan says so
 * and runs them without it. */
#include <stdio.h>
#include <stdlib.h>

void *volatile lsan_probe_ptr;

int main(void)
{
	lsan_probe_ptr = malloc(4096);
	lsan_probe_ptr = NULL;	/* the only pointer to it is gone */
	puts("lsan_probe: leaked 4096 bytes");
	return 0;
}
