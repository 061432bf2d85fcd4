/* test_schema.c: the record schema table (log/schema.c), the checker of a
 * record against it (log/validate.c), its names as identifiers
 * (log/fields.h), and records built by the runner's own emitters checked
 * against it. */
#include <stdlib.h>
#include <string.h>

#include "log/record.h"
#include "log/schema.h"
#include "log/validate.h"
#include "run/evidence/health.h"
#include "run/evidence/sysinfo.h"
#include "run/stores/fio.h"
#include "run/target/target.h"
#include "unit.h"

struct got {
	int n;
	char all[4096];
};

static void collect(void *arg, const char *msg)
{
	struct got *g = arg;
	size_t o = strlen(g->all);

	g->n++;
	snprintf(g->all + o, sizeof(g->all) - o, "%s\n", msg);
}

static struct got check(const char *text, unsigned flags)
{
	struct got g = { 0 };
	int n = fsb_check_text(text, strlen(text), flags, collect, &g);
	CHECK(n == g.n);
	return g;
}

/* A record built with the writer, checked; the violations named. */
static struct got check_rec(struct fsb_rec *r)
{
	CHECK(rec_end(r) > 0);
	return check(r->buf, 0);
}

static void common(struct fsb_rec *r, enum fsb_rec_type t)
{
	rec_begin(r, fsb_rec_types[t].name);
	rec_str(r, K(run_id), "00112233445566aa");
	rec_u64(r, K(seq), 3);
	rec_dbl(r, K(t), 1.25);
}

static void test_table(void)
{
	char used[FSB_K_N] = { 0 };
	static const char *const all[] = {
#define NAME_(n) #n,
		FSB_FIELD_NAMES(NAME_)
#undef NAME_
	};

	/* every type has a row, found by its name */
	for (int t = 0; t < FSB_REC_N; t++) {
		CHECK(fsb_rec_types[t].name && fsb_rec_types[t].shape && fsb_rec_types[t].meaning);
		CHECK(fsb_rec_lookup(fsb_rec_types[t].name) == t);
		CHECK(fsb_rec_types[t].since >= 1 && fsb_rec_types[t].since <= FSB_SCHEMA);
	}
	CHECK(fsb_rec_lookup("nosuch") == -1);
	CHECK_STR(FSB_REC_NAME(phase), "phase");
	CHECK_STR(K(lat_ns), "lat_ns");

	/* every field: a name of the list, a type, a meaning; each name of
	 * the list used by some row (the list is the union, nothing more) */
	const struct fsb_shape *stack[64];
	int top = 0;
	stack[top++] = &fsb_rec_common;
	for (int t = 0; t < FSB_REC_N; t++)
		stack[top++] = fsb_rec_types[t].shape;
	while (top > 0) {
		const struct fsb_shape *s = stack[--top];
		for (size_t i = 0; i < s->n; i++) {
			const struct fsb_field *f = &s->f[i];
			size_t k;
			for (k = 0; k < FSB_K_N && strcmp(all[k], f->name); k++)
				;
			CHECK(k < FSB_K_N);
			if (k < FSB_K_N)
				used[k] = 1;
			CHECK(f->types != 0 && f->meaning && f->meaning[0] && f->unit);
			CHECK(f->since >= 1 && f->since <= FSB_SCHEMA);
			/* a shape is given exactly for an object or array of objects */
			CHECK(!f->sub == !(f->types & (FSB_J_OBJ | FSB_J_ARR_OBJ)));
			if (f->sub && !f->sub->open && top < 64)
				stack[top++] = f->sub;
			/* a name once per shape */
			for (size_t j = 0; j < i; j++)
				CHECK(strcmp(s->f[j].name, f->name) != 0);
		}
	}
	for (size_t k = 0; k < FSB_K_N; k++) {
		if (!used[k])
			fprintf(stderr, "FAIL: log/fields.h: %s is in no row of log/schema.c\n", all[k]);
		CHECK(used[k]);
	}
}

static void test_checker(void)
{
	/* a record, the checker's flags, how many violations (-1: not counted)
	 * and what their messages hold */
	static const struct {
		const char *text;
		unsigned flags;
		int n;
		const char *has[3];
	} cases[] = {
		{ "{\"schema\":1,\"type\":\"phase_start\",\"run_id\":\"a\",\"seq\":1,\"t\":0.5,"
		  "\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\"}",
		  0, 0, { NULL } },
		/* an unknown field, at its path */
		{ "{\"schema\":1,\"type\":\"phase_start\",\"run_id\":\"a\",\"seq\":1,\"t\":0.5,"
		  "\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\",\"phaze\":2}",
		  0, 1, { "phase_start: unknown field \"phaze\"" } },
		/* a required field missing; a wrong JSON type; an integer that is not */
		{ "{\"schema\":1,\"type\":\"phase_start\",\"run_id\":\"a\",\"seq\":\"1\",\"t\":0.5,"
		  "\"fs\":\"ext4\",\"round\":1.5}",
		  0, 3, { "phase_start: required field \"phase\" missing",
			  "phase_start: field \"seq\" is a string; the schema says integer",
			  "field \"round\" is a number; the schema says integer" } },
		/* nested: an object's fields by path, an array's objects by index */
		{ "{\"schema\":1,\"type\":\"error\",\"run_id\":\"a\",\"seq\":1,\"t\":0,\"op\":\"target\","
		  "\"errno\":0,\"msg\":\"no\",\"fatal\":true,\"refused\":true,"
		  "\"disks\":[{\"path\":\"/dev/sda\",\"model\":\"m\",\"serial\":\"s\",\"size_bytes\":1,"
		  "\"transport\":\"sata\"},{\"path\":\"/dev/sdb\",\"modle\":\"m\"}]}",
		  0, -1, { "error: unknown field \"disks[1].modle\"",
			   "error: required field \"disks[1].serial\" missing" } },
		/* a number may be null (not finite), an integer where a number is */
		{ "{\"schema\":1,\"type\":\"run_end\",\"run_id\":\"a\",\"seq\":1,\"t\":null,\"status\":\"ok\","
		  "\"exit_code\":0,\"seconds\":3,\"fs_ok\":1,\"fs_failed\":0}",
		  0, 0, { NULL } },
		/* an object or a string: either; an array of the wrong kind: not */
		{ "{\"schema\":1,\"type\":\"layout\",\"run_id\":\"a\",\"seq\":1,\"t\":0,\"fs\":\"x\","
		  "\"round\":1,\"dir\":\"d0000\",\"first_blocks\":[1,\"2\"]}",
		  0, 1, { "field \"first_blocks\" is an array" } },
		/* unknown type, not JSON, no type */
		{ "{\"type\":\"nosuch\"}", 0, -1, { "nosuch: unknown record type" } },
		{ "{\"schema\":1,", 0, -1, { "record: not JSON:" } },
		{ "[1]", 0, -1, { "not a JSON object" } },
		/* --names: only unknown names count */
		{ "{\"type\":\"phase_start\",\"fs\":3,\"phaze\":1}",
		  FSB_CHECK_NAMES, 1, { "unknown field \"phaze\"" } },
		/* run_start's config is open: every setting */
		{ "{\"schema\":1,\"type\":\"note\",\"run_id\":\"a\",\"seq\":0,\"t\":0,\"msg\":\"m\"}",
		  0, 0, { NULL } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct got g = check(cases[i].text, cases[i].flags);

		if (cases[i].n >= 0)
			CHECK_EQ_U(g.n, cases[i].n);
		for (size_t k = 0; k < 3 && cases[i].has[k]; k++)
			CHECK_CONTAINS(g.all, cases[i].has[k]);
	}
}

/* Records built by the runner's emitters (the helpers a unit test can
 * reach with made-up inputs), each checked against the table. */
static void test_emitters(void)
{
	static struct fsb_rec r;
	static struct fsb_health before, after;
	static struct fsb_disk d;
	struct got g;

	/* health: nothing available (a loop device), then every part */
	fsb_health_none(&before, "loop device");
	common(&r, FSB_REC_health);
	fsb_health_json(&r, "before", &before, NULL);
	g = check_rec(&r);
	if (g.n)
		fprintf(stderr, "health (none):\n%s", g.all);
	CHECK_EQ_U(g.n, 0);
	memset(&after, 0, sizeof(after));
	after.have_smart = 1;
	after.smart.counter[0].hi = 1;	/* beyond 64 bits: a string */
	after.have_pcie = after.have_temp = after.have_ata = after.ata_tried = 1;
	after.ata.nattr = 1;
	after.ata.attr[0].id = 5;
	after.ata.status = 1;
	after.ata.have_errlog = 1;
	snprintf(after.pcie_speed, sizeof(after.pcie_speed), "8.0 GT/s PCIe");
	snprintf(after.pcie_max_speed, sizeof(after.pcie_max_speed), "8.0 GT/s PCIe");
	snprintf(after.temp_source, sizeof(after.temp_source), "nvme smart log");
	before = after;
	common(&r, FSB_REC_health);
	fsb_health_json(&r, "after", &after, &before);
	g = check_rec(&r);
	if (g.n)
		fprintf(stderr, "health (all parts):\n%s", g.all);
	CHECK_EQ_U(g.n, 0);
	CHECK(strstr(r.buf, "\"delta\":{\"nvme_smart\":{") != NULL);
	CHECK(strstr(r.buf, "\"attributes\":[{\"id\":5") != NULL);

	/* run_start's target and host, a refusal's disks */
	memset(&d, 0, sizeof(d));
	snprintf(d.path, sizeof(d.path), "/dev/loop7");
	snprintf(d.partlabel, sizeof(d.partlabel), "p");
	snprintf(d.loop_backing, sizeof(d.loop_backing), "/tmp/x");
	snprintf(d.pcie_speed, sizeof(d.pcie_speed), "8 GT/s");
	common(&r, FSB_REC_run_start);
	rec_str(&r, K(tool), "fsbench");
	rec_str(&r, K(version), "0");
	rec_str(&r, K(mode), "device");
	rec_u64(&r, K(time_unix), 1);
	fsb_sysinfo_json(&r, K(host));
	fsb_disk_json(&r, K(target), &d);
	g = check_rec(&r);
	if (g.n)
		fprintf(stderr, "run_start:\n%s", g.all);
	CHECK_EQ_U(g.n, 0);
	common(&r, FSB_REC_error);
	rec_str(&r, K(op), "target");
	rec_i64(&r, K(errno), 0);
	rec_str(&r, K(msg), "refused");
	rec_bool(&r, K(fatal), 1);
	rec_bool(&r, K(refused), 1);
	fsb_disks_json(&r, K(disks));
	g = check_rec(&r);
	if (g.n)
		fprintf(stderr, "error (refused):\n%s", g.all);
	CHECK_EQ_U(g.n, 0);

	/* a fio record's read and write */
	static struct fsb_fio_dir fd;
	memset(&fd, 0, sizeof(fd));
	fd.have_pct = 1;
	common(&r, FSB_REC_fill);
	rec_str(&r, K(fs), "ext4");
	rec_u64(&r, K(fill_pct), 90);
	rec_u64(&r, K(delete_pct), 10);
	rec_u64(&r, K(seed), 1);
	rec_u64(&r, K(fs_bytes), 1);
	rec_u64(&r, K(probe_size), 1);
	rec_u64(&r, K(runtime), 1);
	fsb_fio_dir_json(&r, K(before), &fd);
	fsb_fio_dir_json(&r, K(after), &fd);
	rec_str(&r, K(status), "ok");
	g = check_rec(&r);
	if (g.n)
		fprintf(stderr, "fill:\n%s", g.all);
	CHECK_EQ_U(g.n, 0);

	/* and a misspelt name at run time (a name built, not written as
	 * K()): the checker names the record and the field */
	common(&r, FSB_REC_note);
	rec_str(&r, K(msg), "m");
	rec_str(&r, "mgs", "m");
	g = check_rec(&r);
	CHECK_EQ_U(g.n, 1);
	CHECK_CONTAINS(g.all, "note: unknown field \"mgs\"");
}

/* The docs: a Markdown row per type and per field, nested by path. */
static void test_doc(void)
{
	char *buf = NULL;
	size_t len = 0;
	const char *bad = NULL;
	FILE *f = open_memstream(&buf, &len);
	static const char *const names[] = { "phase", "error" };

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fsb_schema_doc(f, DOC_MARKDOWN, names, 2, &bad) == 0);
	fclose(f);
	CHECK_CONTAINS(buf, "| type | field | JSON type | required | unit | meaning |");
	CHECK_CONTAINS(buf, "| `phase` | | | | | a phase's result (schema 1) |");
	CHECK_CONTAINS(buf, "| | `lat_ns.p99` | integer | required | ns |");
	CHECK_CONTAINS(buf, "| | `disks[].path` | string | required |");
	CHECK(strstr(buf, "`run_start`") == NULL);
	free(buf);
	static const char *const nosuch[] = { "phase", "nosuch" };
	f = open_memstream(&buf, &len);
	CHECK(fsb_schema_doc(f, DOC_MARKDOWN, nosuch, 2, &bad) < 0);
	CHECK_STR(bad, "nosuch");
	fclose(f);
	free(buf);
}

UNIT_MAIN(test_table, test_checker, test_emitters, test_doc)
