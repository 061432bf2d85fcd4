/* cmd_run.c: `fsbench run` and `fsbench config`: options, layers, safety,
 * the run's first and last records. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "run/fs.h"
#include "fsbench.h"
#include "log/log.h"
#include "run/suite.h"
#include "run/sysinfo.h"
#include "run/target.h"

static const char run_usage[] =
	"usage: fsbench run --target DEV [options]    format DEV and run the suite on it\n"
	"       fsbench run --dir DIR [options]       run in an existing directory (warm cache)\n"
	"       fsbench config --show [options]       print the merged settings and their sources\n"
	"       fsbench config --get KEY [options]    print one merged setting\n"
	"\n"
	"options:\n"
	"  --target SPEC       the disk to destroy: /dev/NAME, path:P, partlabel:L, serial:S,\n"
	"                      wwn:W or model:GLOB (exactly one disk must match)\n"
	"  --dir DIR           an existing directory instead of a target: no mkfs, no remount\n"
	"  --fs LIST           filesystems, e.g. ext4,xfs (default: the profile's)\n"
	"  --profile NAME      seed (SUITE.md reference workload) or smoke (CI-sized)\n"
	"  --log PATH          crash-safe results log: file, raw partition or partlabel:NAME\n"
	"  --yes               really format the target (otherwise: say what would be destroyed)\n"
	"  --config FILE       read key = value settings from FILE\n"
	"  --cmdline[=FILE]    read fsbench.KEY=VALUE words from /proc/cmdline (or FILE)\n"
	"  --KEY=VALUE         any setting below, e.g. --rounds=1 --mount_opts.ext4=noatime\n"
	"  -h, --help          this help\n"
	"\n"
	"Layers, lowest first: defaults < profile < --config < --cmdline < options.\n"
	"\n"
	"settings:\n";

static int usage_error(const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, arg);
	fsb_msg("fsbench: %s", msg);
	fsb_msg("fsbench: try 'fsbench run --help'");
	return EXIT_USAGE;
}

/* Parse the command line into layers and merge them. Returns -1 after
 * printing help (exit 0), an exit code > 0 on error, 0 when cfg is ready. */
static int parse(int argc, char **argv, struct fsb_config *cfg, int *show, const char **get)
{
	static struct fsb_layer lfile, lcmd, lcli;
	struct fsb_layer *layers[3];
	struct fsb_cfgerr err;
	const char *config_file = NULL, *cmdline_file = NULL;
	size_t nl = 0;
	int rc = 0;

	lfile.src = SRC_FILE;
	lcmd.src = SRC_CMDLINE;
	lcli.src = SRC_CLI;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char key[128], *eq;
		const char *val;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			dprintf(1, "%s", run_usage);
			fsb_config_help(1);
			return -1;
		}
		if (show && !strcmp(a, "--show")) {
			*show = 1;
			continue;
		}
		if (get && !strcmp(a, "--get")) {
			if (i + 1 >= argc)
				return usage_error("config: option '%s' needs a key", a);
			*get = argv[++i];
			continue;
		}
		if (!strcmp(a, "--yes") || !strcmp(a, "-y")) {
			if (fsb_layer_add(&lcli, "yes", "1", "command line", &err) < 0)
				return usage_error("%s", err.msg);
			continue;
		}
		if (!strncmp(a, "--cmdline", 9) && (a[9] == 0 || a[9] == '=')) {
			cmdline_file = a[9] ? a + 10 : "/proc/cmdline";
			continue;
		}
		if (strncmp(a, "--", 2) != 0 || !a[2])
			return usage_error("run: unexpected argument '%s'", a);
		snprintf(key, sizeof(key), "%s", a + 2);
		eq = strchr(key, '=');
		if (eq) {
			*eq = 0;
			val = strchr(a, '=') + 1;
		} else {
			if (!strcmp(key, "config") || fsb_config_known(key)) {
				if (i + 1 >= argc)
					return usage_error("run: option '%s' needs a value", a);
				val = argv[++i];
			} else {
				val = NULL;
			}
		}
		if (!strcmp(key, "config")) {
			config_file = val;
			continue;
		}
		if (!fsb_config_known(key))
			return usage_error("run: unknown option '%s' (see 'fsbench run --help')", a);
		char where[160];
		snprintf(where, sizeof(where), "command line --%s", key);
		if (fsb_layer_add(&lcli, key, val, where, &err) < 0)
			return usage_error("%s", err.msg);
	}
	if (config_file) {
		if (fsb_layer_file(&lfile, config_file, &err) < 0) {
			fsb_msg("fsbench: %s", err.msg);
			rc = EXIT_USAGE;
			goto out;
		}
		layers[nl++] = &lfile;
	}
	if (cmdline_file) {
		if (fsb_layer_cmdline(&lcmd, cmdline_file, &err) < 0) {
			fsb_msg("fsbench: %s", err.msg);
			rc = EXIT_USAGE;
			goto out;
		}
		layers[nl++] = &lcmd;
	}
	layers[nl++] = &lcli;
	if (fsb_config_merge(cfg, layers, nl, &err) < 0) {
		fsb_msg("fsbench: config %s", err.msg);
		rc = EXIT_USAGE;
	}
out:
	fsb_layer_free(&lfile);
	fsb_layer_free(&lcmd);
	fsb_layer_free(&lcli);
	return rc;
}

int cmd_config(int argc, char **argv)
{
	static struct fsb_config cfg;
	const char *get = NULL;
	char val[FSB_PATH_MAX + 8];
	int show = 0, rc = parse(argc, argv, &cfg, &show, &get);

	if (rc < 0)
		return EXIT_OK;
	if (rc)
		return rc;
	if (get) {
		if (fsb_config_get(&cfg, get, val, sizeof(val)) < 0)
			return usage_error("config --get %s: unknown key", get);
		printf("%s\n", val);
		return EXIT_OK;
	}
	if (!show)
		return usage_error("config: nothing to do; use 'fsbench config --show|--get KEY [options]'%s", "");
	fsb_config_show(&cfg, 1);
	return EXIT_OK;
}

static uint64_t new_run_id(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id) || !id) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		id = ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 16);
		id ^= (uint64_t)(uintptr_t)&ts;
	}
	return id;
}

static uint64_t need_bytes(const struct fsb_config *cfg)
{
	uint64_t files = (uint64_t)cfg->dirs * cfg->files;
	uint64_t data = files * ((cfg->file_size + 4095) / 4096 * 4096);
	uint64_t need = files * 16384 + 2 * data;

	return need < (1ull << 30) ? (1ull << 30) : need;
}

static void run_start(struct fsb_ctx *c, const struct fsb_disk *t)
{
	static char cfgjson[8192];
	struct fsb_rec r;

	fsb_rec_start(c, &r, "run_start");
	rec_str(&r, "tool", "fsbench");
	rec_str(&r, "version", FSB_VERSION);
	/* a refusal before the target was resolved is still a device run */
	rec_str(&r, "mode", t || c->cfg.target[0] ? "device" : "dir");
	rec_u64(&r, "time_unix", (uint64_t)time(NULL));
	fsb_sysinfo_json(&r, "host");
	if (t)
		fsb_disk_json(&r, "target", t);
	else {
		rec_obj(&r, "target");
		rec_str(&r, "path", c->cfg.target[0] ? "" : c->cfg.dir);
		rec_close(&r);
	}
	if (fsb_config_json(&c->cfg, cfgjson, sizeof(cfgjson)) > 0)
		rec_raw(&r, "config", cfgjson);
	if (c->cfg.log[0])
		rec_str(&r, "log", c->log_dev);
	fsb_emit(c, &r);
}

static int run_end(struct fsb_ctx *c, const char *status, int code)
{
	struct fsb_rec r;

	fsb_rec_start(c, &r, "run_end");
	rec_str(&r, "status", status);
	rec_u64(&r, "exit_code", (uint64_t)code);
	rec_dbl(&r, "seconds", fsb_now() - c->t0);
	rec_u64(&r, "fs_ok", (uint64_t)c->fs_ok);
	rec_u64(&r, "fs_failed", (uint64_t)c->fs_failed);
	fsb_emit(c, &r);
	return code;
}

static int open_log(struct fsb_ctx *c)
{
	if (!c->cfg.log[0])
		return 0;
	int e = fsb_log_open(&c->log, c->log_dev, c->run_id, c->cfg.log_size);
	if (e < 0) {
		fsb_msg("fsbench: log %s: %s", c->log_dev, strerror(-e));
		c->log = NULL;
		return -1;
	}
	return 0;
}

/* A refusal: message on stderr, and records (with every disk seen) on
 * stdout and in the log unless the log is what is wrong. */
static int refuse(struct fsb_ctx *c, const struct fsb_disk *t, const char *why, int use_log)
{
	struct fsb_rec r;

	fsb_msg("fsbench: refusing: %s", why);
	if (use_log && open_log(c) < 0)
		use_log = 0;
	run_start(c, t);
	fsb_rec_start(c, &r, "error");
	rec_str(&r, "op", "target");
	rec_str(&r, "file", c->cfg.target[0] ? c->cfg.target : c->cfg.dir);
	rec_i64(&r, "errno", 0);
	rec_str(&r, "msg", why);
	rec_bool(&r, "fatal", 1);
	rec_bool(&r, "refused", 1);
	fsb_disks_json(&r, "disks");
	fsb_emit(c, &r);
	run_end(c, "refused", EXIT_REFUSED);
	if (c->log)
		fsb_log_close(c->log);
	return EXIT_REFUSED;
}

int cmd_run(int argc, char **argv)
{
	static struct fsb_ctx ctx;
	struct fsb_ctx *c = &ctx;
	static struct fsb_disk target;
	char why[1024], sz[32], sig[128];
	int rc = parse(argc, argv, &c->cfg, NULL, NULL);

	if (rc < 0)
		return EXIT_OK;
	if (rc)
		return rc;
	c->run_id = new_run_id();
	c->t0 = fsb_now();
	c->out_fd = 1;
	if (!c->cfg.target[0] && !c->cfg.dir[0])
		return usage_error("run: no target: name the disk to format with --target DEV, "
				   "or a directory with --dir DIR%s", "");

	/* the log: resolved first, so the target can be checked against it */
	if (c->cfg.log[0]) {
		if (!strncmp(c->cfg.log, "partlabel:", 10)) {
			struct fsb_disk ld;
			if (fsb_disk_resolve(c->cfg.log, &ld, why, sizeof(why)) < 0) {
				fsb_msg("fsbench: log %s", why);
				return EXIT_SYSTEM;
			}
			snprintf(c->log_dev, sizeof(c->log_dev), "%.500s", ld.path);
		} else {
			snprintf(c->log_dev, sizeof(c->log_dev), "%.500s", c->cfg.log);
		}
		/* never create a regular file where a device node was meant */
		struct stat lst;
		if (!strncmp(c->log_dev, "/dev/", 5) && stat(c->log_dev, &lst) < 0) {
			fsb_msg("fsbench: log %s: %s (a log under /dev must be an existing device)",
				c->log_dev, strerror(errno));
			return EXIT_SYSTEM;
		}
	}

	if (c->cfg.dir[0]) {
		struct stat st;
		struct statvfs vf;
		uint64_t need = (uint64_t)c->cfg.dirs * c->cfg.files *
				((c->cfg.file_size + 4095) / 4096 * 4096);
		if (stat(c->cfg.dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			snprintf(why, sizeof(why), "dir %.500s: %s", c->cfg.dir,
				 errno && !S_ISDIR(st.st_mode) ? "not a directory" : strerror(errno));
			if (stat(c->cfg.dir, &st) < 0)
				snprintf(why, sizeof(why), "dir %.500s: %s", c->cfg.dir, strerror(errno));
			return refuse(c, NULL, why, 1);
		}
		if (statvfs(c->cfg.dir, &vf) == 0 && (uint64_t)vf.f_bavail * vf.f_frsize < need) {
			snprintf(why, sizeof(why), "dir %.500s: too small for the profile: %s free, needs %s",
				 c->cfg.dir, fsb_human((uint64_t)vf.f_bavail * vf.f_frsize, sz, sizeof(sz)),
				 fsb_human(need, sig, sizeof(sig)));
			return refuse(c, NULL, why, 1);
		}
		fsb_msg("fsbench: --dir %s: no mkfs and no remount: stat and read phases run with a warm cache",
			c->cfg.dir);
		if (open_log(c) < 0)
			return EXIT_SYSTEM;
		run_start(c, NULL);
		fsb_note(c, "dir mode: no mkfs, no remount; the stat and read phases run with a warm cache");
		fsb_suite_run(c, NULL);
	} else {
		if (fsb_disk_resolve(c->cfg.target, &target, why, sizeof(why)) < 0)
			return refuse(c, NULL, why, 1);
		if (fsb_target_check(&target, c->log_dev, need_bytes(&c->cfg), why, sizeof(why)) < 0)
			return refuse(c, &target, why, strstr(why, "holds the log") == NULL);
		if (!c->cfg.yes) {
			fsb_msg("fsbench: would destroy %s (%s%s%s%s%s, now holds %s) with mkfs %s",
				target.path, fsb_human(target.size, sz, sizeof(sz)),
				target.model[0] ? ", " : "", target.model,
				target.loop_backing[0] ? ", backing file " : "", target.loop_backing,
				fsb_disk_signature(target.path, sig, sizeof(sig)), c->cfg.fs);
			fsb_msg("fsbench: nothing done; add --yes (or yes=1) to go ahead");
			return EXIT_REFUSED;
		}
		if (open_log(c) < 0)
			return EXIT_SYSTEM;
		run_start(c, &target);
		fsb_suite_run(c, &target);
	}
	rc = run_end(c, c->failed ? "failed" : "ok", c->failed ? EXIT_FAIL : EXIT_OK);
	if (c->log)
		fsb_log_close(c->log);
	return rc;
}
