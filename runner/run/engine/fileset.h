/* fileset.h: the fileset of the file-server workload (fileserver.h),
 * as pure functions of a seed (fileset.c): the same files, sizes and
 * choices on every machine. */
#ifndef FSB_FILESET_H
#define FSB_FILESET_H

#include <stddef.h>
#include <stdint.h>

#define FSB_FSV_SHAPE 1.5	/* the gamma distribution's shape (filebench's `gamma:1.5`) */
#define FSB_FSV_PREALLOC 80	/* percent of the fileset made before the clock starts */

/* The next number of the splitmix64 state *s. */
uint64_t fsb_fsv_next(uint64_t *s);
/* A uniform number in (0, 1) from the splitmix64 state *s. */
double fsb_fsv_uniform(uint64_t *s);
/* A standard normal number (Marsaglia's polar method). */
double fsb_fsv_normal(uint64_t *s);
/* A gamma-distributed number of shape k > 0 and scale theta: mean
 * k theta, variance k theta^2 (Marsaglia and Tsang's method; for k < 1,
 * the k + 1 number times U^(1/k)). */
double fsb_fsv_gamma(uint64_t *s, double k, double theta);
/* The fileset's n sizes in bytes from seed: gamma of shape
 * FSB_FSV_SHAPE and the given mean, rounded to whole bytes. */
void fsb_fsv_sizes(uint64_t seed, uint32_t n, uint64_t mean, uint64_t *size);
/* Is file i of the fileset made before the clock starts (seed)? About
 * FSB_FSV_PREALLOC % of them are. */
int fsb_fsv_prealloc(uint64_t seed, uint32_t i);
/* An append's size: uniform from 1 to 2 mean - 1 bytes (mean 1: 1). */
uint64_t fsb_fsv_append_size(uint64_t *s, uint64_t mean);
/* Levels of directories above the files: the fewest with width^levels
 * >= n (at least 1). */
unsigned fsb_fsv_levels(uint32_t n, uint32_t width);
/* The directories of the tree (every level's). */
uint64_t fsb_fsv_dirs(uint32_t n, uint32_t width);
/* File i's path under FSB_FSV_DIR: "d0/d3/f67" (levels directories, the
 * deepest holding width files). Returns its length (snprintf's). */
int fsb_fsv_path(char *buf, size_t len, uint32_t i, uint32_t n, uint32_t width);

/* The bytes the longest of those paths takes, its NUL included. */
size_t fsb_fsv_path_max(uint32_t n, uint32_t width);

#endif
