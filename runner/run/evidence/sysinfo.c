/* sysinfo.c: host identity for the run_start record. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "run/evidence/sysinfo.h"

static void read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = 0;
	/* device-tree strings end in NUL; sysfs ones in a newline */
	buf[strcspn(buf, "\n")] = 0;
}

static void cpuinfo(char *model, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512], impl[64] = "", part[64] = "";

	model[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *v = colon + 1;
		while (*v == ' ')
			v++;
		v[strcspn(v, "\n")] = 0;
		if (!model[0] && (!strncmp(line, "model name", 10) || !strncmp(line, "Processor", 9) ||
				  !strncmp(line, "cpu model", 9)))
			snprintf(model, len, "%s", v);
		else if (!impl[0] && !strncmp(line, "CPU implementer", 15))
			snprintf(impl, sizeof(impl), "%s", v);
		else if (!part[0] && !strncmp(line, "CPU part", 8))
			snprintf(part, sizeof(part), "%s", v);
	}
	if (f)
		fclose(f);
	if (!model[0] && impl[0])
		snprintf(model, len, "arm implementer %s part %s", impl, part);
}

void fsb_sysinfo_json(struct fsb_rec *r, const char *key)
{
	struct utsname u;
	char buf[256], model[256];
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	static const char *const dmi[] = { K(sys_vendor), K(product_name), K(board_vendor),
					   K(board_name), K(bios_vendor), K(bios_version), K(bios_date) };

	rec_obj(r, key);
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = 0;
		rec_str(r, K(hostname), buf);
	}
	if (uname(&u) == 0) {
		rec_str(r, K(kernel), u.release);
		rec_str(r, K(kernel_build), u.version);
		rec_str(r, K(machine), u.machine);
	}
	cpuinfo(model, sizeof(model));
	rec_str(r, K(cpu_model), model);
	rec_u64(r, K(cpus), (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
	rec_u64(r, K(mem_bytes), pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0);
	rec_obj(r, K(dmi));
	for (size_t i = 0; i < sizeof(dmi) / sizeof(dmi[0]); i++) {
		char p[96];
		snprintf(p, sizeof(p), "/sys/class/dmi/id/%s", dmi[i]);
		read_line(p, buf, sizeof(buf));
		if (buf[0])
			rec_str(r, dmi[i], buf);
	}
	rec_close(r);
	read_line("/proc/device-tree/model", buf, sizeof(buf));
	if (buf[0])
		rec_str(r, K(dt_model), buf);
	rec_close(r);
}
