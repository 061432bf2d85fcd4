/* layout.c: FIEMAP of one directory's files, in name order and inode order,
 * and the `layout` record of it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "run/evidence/layout.h"
#include "run/core/context.h"
#include "run/core/names.h"

/* The kernel's FIEMAP interface (include/uapi/linux/fiemap.h), declared
 * here because musl has no kernel headers. */
struct fsb_fiemap_extent {
	uint64_t fe_logical;
	uint64_t fe_physical;
	uint64_t fe_length;
	uint64_t fe_reserved64[2];
	uint32_t fe_flags;
	uint32_t fe_reserved[3];
};

struct fsb_fiemap {
	uint64_t fm_start;
	uint64_t fm_length;
	uint32_t fm_flags;
	uint32_t fm_mapped_extents;
	uint32_t fm_extent_count;
	uint32_t fm_reserved;
	struct fsb_fiemap_extent fm_extents[];
};

#define FSB_FS_IOC_FIEMAP _IOWR('f', 11, struct fsb_fiemap)
#define FSB_FIEMAP_FLAG_SYNC 0x1u
#define FSB_FIEMAP_EXTENT_LAST 0x1u
#define FSB_FIEMAP_EXTENT_UNKNOWN 0x2u
#define FSB_FIEMAP_EXTENT_DATA_INLINE 0x200u
#define FSB_FIEMAP_EXTENT_NOT_ALIGNED 0x100u
#define NEXT 32

struct item {
	uint64_t ino;
	uint32_t idx;
	uint64_t phys, len;
	uint32_t extents;
	int is_inline;
};

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

void fsb_layout_order_stats(const uint64_t *phys, const uint64_t *len, size_t n,
			    struct fsb_layout_order *o)
{
	uint64_t *jump = malloc((n ? n : 1) * sizeof(*jump));
	size_t steps = 0, fwd = 0, near = 0, prev = (size_t)-1;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		if (phys[i] == UINT64_MAX)
			continue;
		if (prev != (size_t)-1) {
			uint64_t a = phys[prev], b = phys[i], end = a + len[prev];
			if (b > a)
				fwd++;
			if (b >= end && b - end <= FSB_LAYOUT_NEAR)
				near++;
			if (jump)
				jump[steps] = (b > a ? b - a : a - b) / 4096;
			steps++;
		}
		prev = i;
	}
	o->steps = (uint32_t)steps;
	if (steps) {
		o->forward = (double)fwd / (double)steps;
		o->near = (double)near / (double)steps;
		if (jump) {
			qsort(jump, steps, sizeof(*jump), cmp_u64);
			o->median_jump = jump[steps / 2];
		}
	}
	free(jump);
}

static int by_idx(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int by_ino(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

static void orders(struct item *it, size_t n, struct fsb_layout_order *o)
{
	uint64_t *p = malloc((n ? n : 1) * sizeof(*p)), *l = malloc((n ? n : 1) * sizeof(*l));

	if (!p || !l) {
		free(p);
		free(l);
		memset(o, 0, sizeof(*o));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		p[i] = it[i].phys;
		l[i] = it[i].len;
	}
	fsb_layout_order_stats(p, l, n, o);
	free(p);
	free(l);
}

/* The picture's samples of one order (see layout.h). */
static void sample(const struct item *it, size_t n, uint64_t *out, uint32_t *nout)
{
	size_t k = n < FSB_LAYOUT_PICTURE ? n : FSB_LAYOUT_PICTURE;

	*nout = 0;
	for (size_t i = 0; i < k; i++) {
		/* in 64 bits: i * n passes 2^32 on a 32-bit size_t from 2^24 files */
		const struct item *x = &it[n <= FSB_LAYOUT_PICTURE ? i :
					   (size_t)((uint64_t)i * n / FSB_LAYOUT_PICTURE)];
		if (x->phys != UINT64_MAX)
			out[(*nout)++] = x->phys / 4096;
	}
}

int fsb_layout_dir(int dfd, uint32_t files, struct fsb_layout *out)
{
	size_t cap = (size_t)files + 16, n = 0;
	struct item *it = calloc(cap, sizeof(*it));
	struct fsb_fiemap *fm = calloc(1, sizeof(*fm) + NEXT * sizeof(struct fsb_fiemap_extent));
	uint64_t extents_total = 0;
	int fd = dup(dfd), err = 0;
	DIR *d;
	struct dirent *e;

	memset(out, 0, sizeof(*out));
	if (!it || !fm || fd < 0 || !(d = fdopendir(fd))) {
		err = fd < 0 || (it && fm) ? -errno : -ENOMEM;
		if (fd >= 0)
			close(fd);
		free(it);
		free(fm);
		return err ? err : -ENOMEM;
	}
	while ((e = readdir(d)) && n < cap) {
		long idx = fsb_parse_name(e->d_name);
		if (idx < 0)
			continue;
		it[n].idx = (uint32_t)idx;
		it[n].ino = e->d_ino;
		it[n].phys = UINT64_MAX;
		n++;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		char name[12];
		int f;

		fsb_file_name(it[i].idx, name);
		f = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			continue;
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = 0;
		fm->fm_length = UINT64_MAX;
		fm->fm_flags = FSB_FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = NEXT;
		if (ioctl(f, FSB_FS_IOC_FIEMAP, fm) < 0) {
			err = -errno;
			close(f);
			if (err == -EOPNOTSUPP || err == -ENOTTY)
				break;
			err = 0;
			continue;
		}
		close(f);
		it[i].extents = fm->fm_mapped_extents;
		extents_total += fm->fm_mapped_extents;
		if (fm->fm_mapped_extents > out->extents_max)
			out->extents_max = fm->fm_mapped_extents;
		if (fm->fm_mapped_extents == 0)
			continue;
		const struct fsb_fiemap_extent *x = &fm->fm_extents[0];
		if (x->fe_flags & (FSB_FIEMAP_EXTENT_DATA_INLINE | FSB_FIEMAP_EXTENT_NOT_ALIGNED |
				   FSB_FIEMAP_EXTENT_UNKNOWN)) {
			it[i].is_inline = 1;
			out->inline_data++;
			continue;
		}
		it[i].phys = x->fe_physical;
		it[i].len = x->fe_length;
		out->mapped++;
	}
	if (err == -EOPNOTSUPP || err == -ENOTTY) {
		free(it);
		free(fm);
		return -EOPNOTSUPP;
	}
	out->files = (uint32_t)n;
	out->extents_mean = n ? (double)extents_total / (double)n : 0;
	qsort(it, n, sizeof(*it), by_idx);
	orders(it, n, &out->name);
	for (size_t i = 0; i < n && out->nfirst < FSB_LAYOUT_FIRST; i++)
		if (it[i].phys != UINT64_MAX)
			out->first_blocks[out->nfirst++] = it[i].phys / 4096;
	sample(it, n, out->name_blocks, &out->nname_blocks);
	qsort(it, n, sizeof(*it), by_ino);
	orders(it, n, &out->inode);
	sample(it, n, out->inode_blocks, &out->ninode_blocks);
	free(it);
	free(fm);
	return 0;
}

/* Where directory d0000's files sit on the disk, by name and by inode. */
void fsb_layout_record(struct fsb_ctx *c, const char *fs, const char *mnt, uint32_t files,
		       uint32_t round)
{
	struct fsb_layout lay;
	struct fsb_rec r;
	char dn[12];
	int dfd, e;

	fsb_dir_name(0, dn);
	dfd = openat(AT_FDCWD, mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	int sub = openat(dfd, dn, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(dfd);
	if (sub < 0)
		return;
	e = fsb_layout_dir(sub, files, &lay);
	close(sub);
	fsb_rec_start(c, &r, FSB_REC_layout);
	rec_str(&r, K(fs), fs);
	rec_u64(&r, K(round), round);
	rec_str(&r, K(dir), dn);
	if (e < 0) {
		rec_str(&r, K(error), e == -EOPNOTSUPP ? "no FIEMAP on this filesystem" : strerror(-e));
		fsb_emit(c, &r);
		return;
	}
	rec_u64(&r, K(files), lay.files);
	rec_u64(&r, K(mapped), lay.mapped);
	rec_u64(&r, K(inline), lay.inline_data);
	rec_dbl(&r, K(extents_mean), lay.extents_mean);
	rec_u64(&r, K(extents_max), lay.extents_max);
	for (int k = 0; k < 2; k++) {
		const struct fsb_layout_order *o = k ? &lay.inode : &lay.name;
		rec_obj(&r, k ? K(inode_order) : K(name_order));
		rec_u64(&r, K(steps), o->steps);
		rec_dbl(&r, K(forward), o->forward);
		rec_dbl(&r, K(near), o->near);
		rec_u64(&r, K(median_jump_blocks), o->median_jump);
		rec_close(&r);
	}
	rec_arr(&r, K(first_blocks));
	for (uint32_t i = 0; i < lay.nfirst; i++)
		rec_arr_u64(&r, lay.first_blocks[i]);
	rec_close(&r);
	rec_arr(&r, K(name_blocks));
	for (uint32_t i = 0; i < lay.nname_blocks; i++)
		rec_arr_u64(&r, lay.name_blocks[i]);
	rec_close(&r);
	rec_arr(&r, K(inode_blocks));
	for (uint32_t i = 0; i < lay.ninode_blocks; i++)
		rec_arr_u64(&r, lay.inode_blocks[i]);
	rec_close(&r);
	fsb_emit(c, &r);
}
