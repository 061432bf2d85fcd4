/* variant.c: the built-in variants of the filesystems, one row each, and
 * the syntax of a column name and of a definition (see variant.h). Adding
 * a built-in variant is adding a row. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/fs/fs.h"
#include "run/fs/variant.h"

/* Marked unsafe: why, one line. */
#define NOBARRIER "no cache flush (FLUSH/FUA) to the disk: an fsync that returned may not be on " \
	"the medium, so a power cut loses acknowledged writes wherever the disk has a volatile " \
	"write cache; a QEMU kill does not show it, a real power cut or the launcher's cache disk " \
	"model does (runner/POWERCUTS.md)"

const struct fsb_variant fsb_variant_table[] = {
	{ "ext4:noatime", "", "noatime",
	  "no access-time update when a file is read (the default relatime writes the inode at the "
		"first read after a write)", NULL },
	{ "ext4:nojournal", "-O ^has_journal", "",
	  "no journal: metadata written once, no crash consistency",
	  "no journal: a power cut can leave metadata that e2fsck must repair, and a crash loses what was not synced" },
	{ "ext4:discard", "", "discard",
	  "online discard: each delete's freed blocks are discarded (TRIM) as the journal commits, "
		"instead of by fstrim (the default, nodiscard)", NULL },
	{ "ext4:nobarrier", "", "nobarrier",
	  "no write barriers: the journal's commits go to the disk without a cache flush", NOBARRIER },
	{ "xfs:agcount32", "-d agcount=32", "",
	  "32 allocation groups (mkfs.xfs makes 4 on one disk up to 4 TiB): more allocation in "
		"parallel; needs a target of 2.2 GiB or more (a group holds the 64 MiB log)", NULL },
	{ "btrfs:zstd", "", "compress=zstd",
	  "file data compressed with zstd", NULL },
	{ "f2fs:s4z4", "-s 4 -z 4", "",
	  "4 segments per section, 4 sections per zone (default 1 and 1): a larger unit of garbage collection", NULL },
	{ "f2fs:op10", "-o 10", "",
	  "10 % of the space overprovisioned for garbage collection (mkfs.f2fs picks the ratio "
		"from the size: 2 % of 10 GiB)", NULL },
	{ "f2fs:gc", "", "background_gc=on",
	  "background garbage collection on: the kernel's default, so this column is f2fs again "
		"unless mount_opts.f2fs turns it off", NULL },
	{ "f2fs:hotcold", "-e mp4,mkv,mov,jpg,png,zip,gz,xz,zst,tar,iso -E db,sqlite,log,wal", "",
	  "file extensions added to mkfs.f2fs's own lists: cold (-e: media and archives, written "
		"once, rarely read) and hot (-E: databases and logs, rewritten often), whose data "
		"goes to a log of its temperature so that GC moves less; the suite's files have no "
		"extension, pack's fsbench.sqlite is hot", NULL },
	{ "f2fs:nodiscard", "", "nodiscard",
	  "no online discard (f2fs discards freed segments by default): freed space reaches the "
		"disk only through fstrim", NULL },
	{ "f2fs:nobarrier", "", "nobarrier",
	  "no cache flush after f2fs's writes (checkpoints, fsync's node blocks)", NOBARRIER },
};
const size_t fsb_variant_count = sizeof(fsb_variant_table) / sizeof(fsb_variant_table[0]);

const struct fsb_variant *fsb_variant_builtin(const char *name)
{
	for (size_t i = 0; i < fsb_variant_count; i++)
		if (!strcmp(fsb_variant_table[i].name, name))
			return &fsb_variant_table[i];
	return NULL;
}

int fsb_variant_base(const char *name)
{
	char base[FSB_VARIANT_NAME_MAX];
	size_t n = strcspn(name, ":");

	if (n >= sizeof(base))
		return -1;
	memcpy(base, name, n);
	base[n] = 0;
	return fsb_fs_index(base);
}

int fsb_variant_name_check(const char *name, char *why, size_t len)
{
	const char *colon = strchr(name, ':');
	size_t n = colon ? (size_t)(colon - name) : strlen(name);

	if (fsb_variant_base(name) < 0) {
		if (colon)
			snprintf(why, len, "unknown base filesystem '%.*s' of variant '%.40s'; allowed: %s",
				 (int)(n > 20 ? 20 : n), name, name, fsb_fs_names());
		else
			snprintf(why, len, "unknown filesystem '%.40s'; allowed: %s, or a variant FS:NAME",
				 name, fsb_fs_names());
		return -1;
	}
	if (!colon)
		return 0;
	const char *s = colon + 1;
	size_t k = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (!*s || s[k] || k > FSB_VARIANT_SUFFIX_MAX) {
		snprintf(why, len, "bad variant name '%.40s'; allowed: FS:NAME, NAME 1 to %d of a-z, 0-9, _",
			 name, FSB_VARIANT_SUFFIX_MAX);
		return -1;
	}
	return 0;
}

/* One part's text into dst, or why it is too long. */
static int put_part(char *dst, size_t len, const char *part, const char *text, char *why, size_t wlen)
{
	if (strlen(text) >= len) {
		snprintf(why, wlen, "%s: too long; allowed: up to %zu characters", part, len - 1);
		return -1;
	}
	strcpy(dst, text);
	return 0;
}

/* KNOBS: KEY=VALUE[,KEY=VALUE...], KEY of a-z, 0-9, _ and VALUE of
 * A-Z, a-z, 0-9, _, . and - (a sysfs file's name and what is written to it) */
static int knobs_check(const char *k, char *why, size_t wlen)
{
	for (;;) {
		size_t key = strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_"), v;

		if (!key || k[key] != '=')
			break;
		v = strspn(k + key + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-");
		if (!v || (k[key + 1 + v] && k[key + 1 + v] != ','))
			break;
		k += key + 1 + v;
		if (!*k)
			return 0;
		k++;
	}
	snprintf(why, wlen, "sysfs:%.60s: bad at '%.20s'; allowed: sysfs:KEY=VALUE[,KEY=VALUE...], "
		 "KEY of a-z, 0-9, _ and VALUE of A-Z, a-z, 0-9, _, . and -", k, k);
	return -1;
}

int fsb_variant_parse(const char *val, char *mkfs, size_t mlen, char *mount, size_t olen,
		      char *why, size_t wlen)
{
	char sysfs[FSB_VARIANT_OPTS_MAX];

	return fsb_variant_parse_sysfs(val, mkfs, mlen, mount, olen, sysfs, sizeof(sysfs), why, wlen);
}

int fsb_variant_parse_sysfs(const char *val, char *mkfs, size_t mlen, char *mount, size_t olen,
			    char *sysfs, size_t slen, char *why, size_t wlen)
{
	/* the parts, each at most once */
	static const char allowed[] = "allowed: mkfs:ARGS, mount:OPTS, sysfs:KEY=VALUE, each at most once";
	const struct {
		const char *tag;
		char *dst;	/* NULL: mkfs's words, gathered in args */
		size_t len;
	} parts[] = { { "mkfs:", NULL, 0 }, { "mount:", mount, olen }, { "sysfs:", sysfs, slen } };
	enum { MKFS, MOUNT, SYSFS, NPARTS };
	char args[1024];
	size_t o = 0;
	unsigned have = 0;	/* bit i: parts[i] seen */
	int in_mkfs = 0;
	const char *p = val;

	mkfs[0] = mount[0] = sysfs[0] = 0;
	args[0] = 0;
	for (;;) {
		char word[1024];
		size_t n, i, t = 0;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		n = strcspn(p, " \t\n\r\f\v");
		if (n >= sizeof(word)) {
			snprintf(why, wlen, "too long");
			return -1;
		}
		memcpy(word, p, n);
		word[n] = 0;
		p += n;
		for (i = 0; i < NPARTS; i++)
			if (!strncmp(word, parts[i].tag, t = strlen(parts[i].tag)))
				break;
		if (i < NPARTS && have >> i & 1) {
			snprintf(why, wlen, "%s given twice; %s", parts[i].tag, allowed);
			return -1;
		}
		if (i < NPARTS) {
			have |= 1u << i;
			in_mkfs = i == MKFS;
		}
		if (i == MKFS) {
			if (!word[t])
				continue;
			memmove(word, word + t, n - t + 1);
		} else if (i < NPARTS) {
			if ((i == SYSFS && knobs_check(word + t, why, wlen) < 0) ||
			    put_part(parts[i].dst, parts[i].len, parts[i].tag, word + t, why, wlen) < 0)
				return -1;
			continue;
		} else if (!in_mkfs) {
			if (have >> MOUNT & 1)
				snprintf(why, wlen, "'%.40s' after mount:%.40s: mount options are "
					"one word, comma-separated without spaces",
					 word, mount);
			else
				snprintf(why, wlen, "'%.40s' begins none of mkfs:, mount:, sysfs:; %s", word, allowed);
			return -1;
		}
		int k = snprintf(args + o, sizeof(args) - o, "%s%s", o ? " " : "", word);
		if (k < 0 || (size_t)k >= sizeof(args) - o) {
			snprintf(why, wlen, "mkfs: too long");
			return -1;
		}
		o += (size_t)k;
	}
	if (!have) {
		snprintf(why, wlen, "empty; %s", allowed);
		return -1;
	}
	return put_part(mkfs, mlen, "mkfs:", args, why, wlen);
}

int fsb_variant_text_sysfs(char *buf, size_t len, const char *mkfs, const char *mount,
			   const char *sysfs)
{
	int n, k;

	if (!sysfs || !*sysfs)
		return fsb_variant_text(buf, len, mkfs, mount);
	n = *mkfs || *mount ? fsb_variant_text(buf, len, mkfs, mount) : 0;
	if (n < 0)
		return -1;
	k = snprintf(buf + n, len - (size_t)n, "%ssysfs:%s", n ? " " : "", sysfs);
	return k < 0 || (size_t)k >= len - (size_t)n ? -1 : n + k;
}

int fsb_variant_text(char *buf, size_t len, const char *mkfs, const char *mount)
{
	int n;

	if (*mkfs && *mount)
		n = snprintf(buf, len, "mkfs:%s mount:%s", mkfs, mount);
	else if (*mount)
		n = snprintf(buf, len, "mount:%s", mount);
	else
		n = snprintf(buf, len, "mkfs:%s", mkfs);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

void fsb_variant_names(char *buf, size_t len, int base)
{
	size_t o = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < fsb_variant_count && o < len; i++) {
		if (base >= 0 && fsb_variant_base(fsb_variant_table[i].name) != base)
			continue;
		int k = snprintf(buf + o, len - o, "%s%s", o ? "," : "", fsb_variant_table[i].name);
		if (k < 0)
			break;
		o += (size_t)k;
	}
}

const char *fsb_variant_all_columns(void)
{
	static char buf[512];

	if (!buf[0]) {
		size_t o = 0;
		for (size_t f = 0; f < fsb_fs_count; f++) {
			char v[256];
			if (fsb_fs_table[f].optional)
				continue;	/* as in the default list */
			fsb_variant_names(v, sizeof(v), (int)f);
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s%s%s", o ? "," : "",
					      fsb_fs_table[f].name, v[0] ? "," : "", v);
		}
	}
	return buf;
}

int fsb_variant_doc(FILE *f, enum fsb_doc_fmt fmt)
{
	if (fmt == DOC_MARKDOWN)
		fputs("| variant | base | mkfs | mount | what it changes | unsafe |\n|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < fsb_variant_count; i++) {
		const struct fsb_variant *v = &fsb_variant_table[i];
		const char *base = fsb_fs_table[fsb_variant_base(v->name)].name;

		if (fmt == DOC_TEXT) {
			fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\n", v->name, base, *v->mkfs ? v->mkfs : "-",
				*v->mount ? v->mount : "-", v->about, v->unsafe ? v->unsafe : "-");
		} else if (fmt == DOC_MARKDOWN) {
			fprintf(f, "| `%s` | %s | %s%s%s | %s%s%s | ", v->name, base,
				*v->mkfs ? "`" : "", *v->mkfs ? v->mkfs : "-", *v->mkfs ? "`" : "",
				*v->mount ? "`" : "", *v->mount ? v->mount : "-", *v->mount ? "`" : "");
			fsb_doc_put(f, fmt, v->about);
			fputs(" | ", f);
			if (v->unsafe) {
				fputs("**unsafe**: ", f);
				fsb_doc_put(f, fmt, v->unsafe);
			} else {
				fputc('-', f);
			}
			fputs(" |\n", f);
		} else {
			char text[1024];
			fputc('*', f);
			fsb_doc_put(f, fmt, v->name);
			fputs("*\n\t", f);
			snprintf(text, sizeof(text), "%s; mkfs: %s; mount: %s. %s%s%s", base,
				 *v->mkfs ? v->mkfs : "-", *v->mount ? v->mount : "-", v->about,
				 v->unsafe ? ". UNSAFE: " : "", v->unsafe ? v->unsafe : "");
			fsb_doc_put(f, fmt, text);
			fputs("\n\n", f);
		}
	}
	return ferror(f) || fflush(f) == EOF ? -1 : 0;
}
