/* test_health.c: decoding the NVMe SMART / health log page (filled by the
 * NVMe base specification's offsets), the difference of two, and the
 * health record's members; the same for the ATA SMART attribute data, the
 * summary error log and the SMART RETURN STATUS sense (by ACS-3's and
 * SAT's offsets). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "lib/jsonr.h"
#include "report/output.h"
#include "log/record.h"
#include "run/evidence/health.h"
#include "records.h"
#include "unit.h"

/* A 128-bit little-endian counter at off. */
static void put128(uint8_t *buf, unsigned off, uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < 8; i++) {
		buf[off + i] = (uint8_t)(lo >> (8 * i));
		buf[off + 8 + i] = (uint8_t)(hi >> (8 * i));
	}
}

static void fill(uint8_t *buf, uint64_t written, uint64_t media)
{
	memset(buf, 0, FSB_NVME_SMART_LEN);
	buf[0] = 0x04;			/* critical warning: reliability degraded */
	buf[1] = 0x3c;			/* 316 K = 0x013c: 42.85 C */
	buf[2] = 0x01;
	buf[3] = 100;			/* available spare */
	buf[4] = 10;			/* its threshold */
	buf[5] = 3;			/* percentage used */
	put128(buf, 32, 1234, 0);	/* data units read */
	put128(buf, 48, written, 0);	/* data units written */
	put128(buf, 64, 5000, 0);	/* host read commands */
	put128(buf, 80, 0xffffffffffffffffull, 0);	/* host write commands */
	put128(buf, 96, 7, 0);		/* controller busy time */
	put128(buf, 112, 11, 0);	/* power cycles */
	put128(buf, 128, 99, 0);	/* power on hours */
	put128(buf, 144, 2, 0);		/* unsafe shutdowns */
	put128(buf, 160, media, 0);	/* media and data integrity errors */
	put128(buf, 176, 6, 0);		/* error log entries */
	buf[191] = 0;
	buf[200] = 0xee;		/* beyond the counters: ignored */
}

static const struct jsonr *parse_rec(struct fsb_rec *r, struct jsonr_doc **doc)
{
	int n = rec_end(r);

	if (n < 0 || jsonr_parse(r->buf, (size_t)n, doc, NULL) < 0)
		return NULL;
	return jsonr_root(*doc);
}

/* The health record of h (when "before" or "after", against prev), read
 * back (checked); *doc to free. */
static const struct jsonr *health_rec(struct fsb_rec *r, const char *when,
				      const struct fsb_health *h, const struct fsb_health *prev,
				      struct jsonr_doc **doc)
{
	rec_begin(r, "health");
	fsb_health_json(r, when, h, prev);
	const struct jsonr *j = parse_rec(r, doc);
	CHECK(j != NULL);
	return j;
}

/* An ATA SMART attribute entry i (12 bytes from offset 2). */
static void put_attr(uint8_t *buf, int i, uint8_t id, uint8_t cur, uint8_t worst, uint64_t raw)
{
	uint8_t *e = buf + 2 + 12 * i;

	e[0] = id;
	e[1] = 0x33;		/* flags: prefailure, online, ... */
	e[2] = 0x00;
	e[3] = cur;
	e[4] = worst;
	for (int k = 0; k < 6; k++)
		e[5 + k] = (uint8_t)(raw >> (8 * k));
	e[11] = 0;
}

/* The checksum byte 511: the 512 bytes sum to 0. */
static void put_sum(uint8_t *buf)
{
	uint8_t sum = 0;

	for (int i = 0; i < 511; i++)
		sum = (uint8_t)(sum + buf[i]);
	buf[511] = (uint8_t)(0x100 - sum);
}

static void fill_ata(uint8_t *buf, uint64_t realloc, uint64_t pending, uint64_t crc)
{
	memset(buf, 0, FSB_ATA_SMART_LEN);
	buf[0] = 0x10;				/* revision 16 */
	put_attr(buf, 0, 1, 200, 200, 0);	/* raw read error rate */
	put_attr(buf, 1, 5, 100, 100, realloc);
	put_attr(buf, 2, 9, 98, 98, 12345);
	put_attr(buf, 3, 12, 99, 99, 321);
	/* entry 4 unused: id 0 */
	put_attr(buf, 5, 187, 100, 100, 0);
	put_attr(buf, 6, 194, 64, 40, 0x002d0012002full);	/* 47 C, min/max packed above */
	put_attr(buf, 7, 197, 100, 100, pending);
	put_attr(buf, 8, 198, 100, 100, 0);
	put_attr(buf, 9, 199, 200, 200, crc);
	put_attr(buf, 29, 241, 100, 100, 0xa1b2c3d4e5f6ull);	/* the last entry, 48-bit raw */
	buf[362] = 0x82;			/* offline data collection status: beyond the table */
	put_sum(buf);
}

/* h emptied, of the disk dev on the bus transport. */
static void health_of(struct fsb_health *h, const char *dev, const char *transport)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->device, sizeof(h->device), "%s", dev);
	snprintf(h->transport, sizeof(h->transport), "%s", transport);
}

static void fill_errlog(uint8_t *buf, uint16_t count)
{
	memset(buf, 0, FSB_ATA_SMART_LEN);
	buf[0] = 1;			/* version */
	buf[1] = count ? 3 : 0;		/* error log index */
	buf[452] = (uint8_t)count;
	buf[453] = (uint8_t)(count >> 8);
	put_sum(buf);
}

static void test_ata(void)
{
	uint8_t buf[FSB_ATA_SMART_LEN], log[FSB_ATA_SMART_LEN];
	struct fsb_ata_smart a;
	const struct fsb_ata_attr *t;

	/* the attribute table, by ACS-3's offsets */
	fill_ata(buf, 8, 2, 0);
	CHECK_EQ_U(fsb_ata_smart_decode(buf, sizeof(buf), &a), 0);
	CHECK_EQ_U(a.revision, 16);
	CHECK_EQ_U(a.nattr, 10);	/* the unused entry is skipped */
	CHECK_EQ_U(a.attr[0].id, 1);
	CHECK_EQ_U(a.attr[0].flags, 0x33);
	CHECK_EQ_U(a.attr[4].id, 187);
	CHECK((t = fsb_ata_attr_find(&a, 5)) != NULL);
	CHECK_EQ_U(t ? t->raw : 0, 8);
	CHECK((t = fsb_ata_attr_find(&a, 9)) != NULL);
	CHECK_EQ_U(t ? t->current : 0, 98);
	CHECK_EQ_U(t ? t->raw : 0, 12345);
	CHECK((t = fsb_ata_attr_find(&a, 194)) != NULL);
	CHECK_EQ_U(t ? t->worst : 0, 40);
	CHECK_EQ_U(t ? t->raw : 0, 0x002d0012002full);
	CHECK((t = fsb_ata_attr_find(&a, 241)) != NULL);
	CHECK_EQ_U(t ? t->raw : 0, 0xa1b2c3d4e5f6ull);
	CHECK(fsb_ata_attr_find(&a, 0) == NULL);
	CHECK(fsb_ata_attr_find(&a, 196) == NULL);
	CHECK_EQ_U(a.have_errlog, 0);
	CHECK_EQ_U((unsigned long long)(a.status + 1), 0);	/* unknown */
	CHECK_EQ_U(fsb_ata_smart_decode(buf, 511, &a), (unsigned long long)-EINVAL);
	buf[100] ^= 1;		/* a bad checksum is refused, never decoded */
	CHECK_EQ_U(fsb_ata_smart_decode(buf, sizeof(buf), &a), (unsigned long long)-EBADMSG);

	/* the summary error log: the device error count at 452-453 */
	fill_ata(buf, 8, 2, 0);
	CHECK_EQ_U(fsb_ata_smart_decode(buf, sizeof(buf), &a), 0);
	fill_errlog(log, 0x0102);
	CHECK_EQ_U(fsb_ata_errlog_decode(log, sizeof(log), &a), 0);
	CHECK_EQ_U(a.have_errlog, 1);
	CHECK_EQ_U(a.error_count, 258);
	CHECK_EQ_U(a.errlog_index, 3);
	log[3] ^= 0x40;
	CHECK_EQ_U(fsb_ata_errlog_decode(log, sizeof(log), &a), (unsigned long long)-EBADMSG);

	/* SMART RETURN STATUS: the ATA Status Return descriptor's LBA mid/high */
	uint8_t sense[32] = { 0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 14, 0x09, 0x0c, 0, 0,
			      0, 0, 0, 0, 0, 0x4f, 0, 0xc2, 0, 0x50 };
	CHECK_EQ_U(fsb_ata_status_decode(sense, sizeof(sense)), 1);
	sense[17] = 0xf4;
	sense[19] = 0x2c;
	CHECK_EQ_U(fsb_ata_status_decode(sense, sizeof(sense)), 0);
	sense[17] = 0x00;
	CHECK_EQ_U(fsb_ata_status_decode(sense, sizeof(sense)), (unsigned long long)-EPROTO);
	sense[8] = 0x02;	/* another descriptor */
	CHECK_EQ_U(fsb_ata_status_decode(sense, sizeof(sense)), (unsigned long long)-ENODATA);
	sense[0] = 0x70;	/* fixed format */
	CHECK_EQ_U(fsb_ata_status_decode(sense, sizeof(sense)), (unsigned long long)-ENODATA);

	/* the record and the difference */
	static struct fsb_health before, after;
	struct fsb_rec r;
	struct jsonr_doc *doc = NULL;
	const struct jsonr *j;

	health_of(&before, "/dev/sda", "sata");
	strcpy(before.smart_why, "not available: not an NVMe disk (transport sata)");
	strcpy(before.pcie_why, "not available: PCI device 0000:00:1f.2 reports no link");
	strcpy(before.temp_why, "not available: no hwmon temperature for the disk in sysfs");
	before.ata_tried = 1;
	before.have_ata = 1;
	fill_ata(buf, 8, 2, 0);
	CHECK_EQ_U(fsb_ata_smart_decode(buf, sizeof(buf), &before.ata), 0);
	fill_errlog(log, 4);
	CHECK_EQ_U(fsb_ata_errlog_decode(log, sizeof(log), &before.ata), 0);
	before.ata.status = 1;
	after = before;
	fill_ata(buf, 10, 0, 3);	/* 2 more reallocated, 2 pending resolved, 3 CRC */
	CHECK_EQ_U(fsb_ata_smart_decode(buf, sizeof(buf), &after.ata), 0);
	fill_errlog(log, 5);
	CHECK_EQ_U(fsb_ata_errlog_decode(log, sizeof(log), &after.ata), 0);
	after.ata.status = 1;

	j = health_rec(&r, "before", &before, NULL, &doc);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.revision"), 0), 16);
	CHECK_STR(jsonr_str(jsonr_path(j, "ata_smart.overall")), "passed");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.reallocated_sectors"), 99), 8);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.power_on_hours"), 0), 12345);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.power_cycles"), 0), 321);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.reported_uncorrectable"), 99), 0);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.temperature_celsius"), 0), 47);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.current_pending_sectors"), 0), 2);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.offline_uncorrectable"), 99), 0);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.udma_crc_errors"), 99), 0);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "ata_smart.error_count"), 0), 4);
	const struct jsonr *list = jsonr_path(j, "ata_smart.attributes");
	CHECK(jsonr_is(list, JSONR_ARR));
	CHECK_EQ_U(list ? list->len : 0, 10);
	if (list && list->len == 10) {
		const struct jsonr *last = jsonr_at(list, 9);
		CHECK_EQ_U(jsonr_u64(jsonr_get(last, "id"), 0), 241);
		CHECK_EQ_U(jsonr_u64(jsonr_get(last, "current"), 0), 100);
		CHECK_EQ_U(jsonr_u64(jsonr_get(last, "worst"), 0), 100);
		CHECK_EQ_U(jsonr_u64(jsonr_get(last, "raw"), 0), 0xa1b2c3d4e5f6ull);
		CHECK_EQ_U(jsonr_u64(jsonr_get(jsonr_at(list, 5), "id"), 0), 194);
		CHECK_EQ_U(jsonr_u64(jsonr_get(jsonr_at(list, 5), "worst"), 0), 40);
	}
	CHECK_CONTAINS(jsonr_str(jsonr_get(j, "nvme_smart")), "not an NVMe disk");
	jsonr_free(doc);

	j = health_rec(&r, "after", &after, &before, &doc);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.ata_smart.reallocated_sectors"), 0), 2);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.ata_smart.reported_uncorrectable"), 9), 0);
	CHECK(jsonr_num(jsonr_path(j, "delta.ata_smart.current_pending_sectors"), 0) == -2);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.ata_smart.offline_uncorrectable"), 9), 0);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.ata_smart.udma_crc_errors"), 0), 3);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.ata_smart.error_count"), 0), 1);
	CHECK(jsonr_path(j, "delta.ata_smart.power_on_hours") == NULL);
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "delta.nvme_smart")), "not an NVMe disk");
	jsonr_free(doc);

	/* the error log unreadable after: its reason, the attributes still compared */
	after.ata.have_errlog = 0;
	strcpy(after.ata.error_why, "not available: SMART READ LOG 0x01: SCSI status 0x2, sense key 0xb");
	after.ata.status = -1;
	j = health_rec(&r, "after", &after, &before, &doc);
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "ata_smart.error_count")), "SMART READ LOG 0x01");
	CHECK(jsonr_path(j, "ata_smart.overall") == NULL);
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "delta.ata_smart.error_count")), "SMART READ LOG");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.ata_smart.reallocated_sectors"), 0), 2);
	jsonr_free(doc);

	/* SG_IO refused after: the reason, in the record and its difference */
	after.have_ata = 0;
	strcpy(after.ata_why, "not available: ATA PASS-THROUGH (SG_IO) on /dev/sda: Operation not permitted");
	j = health_rec(&r, "after", &after, &before, &doc);
	CHECK_CONTAINS(jsonr_str(jsonr_get(j, "ata_smart")), "SG_IO");
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "delta.ata_smart")), "SG_IO");
	jsonr_free(doc);
}

/* Records as the runner writes them: an NVMe run (the after record with
 * its difference), and a loop run (every part not available). */
#define NVME_BEFORE "{\"schema\":1,\"type\":\"health\",\"run_id\":\"a1\",\"seq\":1,\"when\":\"before\"," \
	"\"device\":\"/dev/nvme0n1\",\"transport\":\"nvme\",\"nvme_smart\":{\"critical_warning\":0," \
	"\"temperature_k\":323,\"available_spare\":100,\"percentage_used\":1,\"data_units_read\":1," \
	"\"data_units_written\":0,\"media_errors\":0,\"bytes_read\":512000,\"bytes_written\":0}," \
	"\"ata_smart\":\"not available: an NVMe disk has no ATA SMART\"," \
	"\"pcie_link\":{\"device\":\"0000:01:00.0\",\"speed\":\"8.0 GT/s PCIe\",\"width\":\"2\"," \
	"\"max_speed\":\"8.0 GT/s PCIe\",\"max_width\":\"4\",\"at_max\":false}," \
	"\"temperature\":{\"celsius\":49.85,\"source\":\"nvme smart log\"}}\n"
#define NVME_PHASE "{\"type\":\"phase\",\"run_id\":\"a1\",\"fs\":\"ext4\",\"round\":1," \
	"\"phase\":\"create\",\"seconds\":1,\"files\":2000,\"bytes\":8192000}\n"
#define NVME_AFTER "{\"schema\":1,\"type\":\"health\",\"run_id\":\"a1\",\"seq\":9,\"when\":\"after\"," \
	"\"device\":\"/dev/nvme0n1\",\"transport\":\"nvme\",\"nvme_smart\":{\"critical_warning\":0," \
	"\"temperature_k\":325,\"available_spare\":99,\"percentage_used\":1,\"data_units_read\":3," \
	"\"data_units_written\":40,\"media_errors\":\"18446744073709551616\",\"bytes_read\":1536000," \
	"\"bytes_written\":20480000},\"ata_smart\":\"not available: an NVMe disk has no ATA SMART\"," \
	"\"pcie_link\":{\"device\":\"0000:01:00.0\",\"speed\":\"8.0 GT/s PCIe\",\"width\":\"2\"," \
	"\"max_speed\":\"8.0 GT/s PCIe\",\"max_width\":\"4\",\"at_max\":false}," \
	"\"temperature\":{\"celsius\":51.85,\"source\":\"nvme smart log\"}," \
	"\"delta\":{\"nvme_smart\":{\"data_units_read\":2,\"data_units_written\":40," \
	"\"bytes_read\":1024000,\"bytes_written\":20480000,\"media_errors\":\"18446744073709551616\"," \
	"\"new_critical_warning\":0,\"available_spare\":-1,\"percentage_used\":0}," \
	"\"temperature_celsius\":2,\"pcie_link_changed\":false}}\n"
#define LOOP_NA "\"not available: a loop device (the disk under its backing file is not the target)\""
#define LOOP_AFTER "{\"schema\":1,\"type\":\"health\",\"run_id\":\"b2\",\"seq\":9,\"when\":\"after\"," \
	"\"device\":\"/dev/loop3\",\"transport\":\"loop\",\"nvme_smart\":" LOOP_NA ",\"ata_smart\":" \
	LOOP_NA ",\"pcie_link\":" LOOP_NA ",\"temperature\":" LOOP_NA ",\"delta\":{\"nvme_smart\":" \
	LOOP_NA ",\"temperature_celsius\":" LOOP_NA "}}\n"

static int load_text(struct rep_set *set, const char *text, char *err, size_t errlen)
{
	return unit_load_records(set, text, "mem.jsonl", err, errlen);
}

/* The row whose first cell (reader) or second (data) is key; -1 if none. */
static long find_row(const struct rep_table *t, size_t col, const char *key)
{
	for (size_t i = 0; i < t->nrows; i++) {
		const struct rep_cell *c = rep_table_cell(t, i, col);
		if (c && c->kind == CELL_TEXT && !strcmp(c->text, key))
			return (long)i;
	}
	return -1;
}

static const char *text_of(const struct rep_table *t, const struct rep_writer *w, long row,
			   size_t col)
{
	static char buf[4][REP_CELL_BUF];
	static unsigned next;
	const struct rep_cell *c = row < 0 ? NULL : rep_table_cell(t, (size_t)row, col);
	return c ? rep_cell_text(w, c, buf[next++ % 4], sizeof(buf[0])) : "(none)";
}

/* A cell of the health table: its row by the name in its first cell, its
 * column, its text. */
struct row_want {
	const char *row;
	size_t col;
	const char *is;
};

/* Each cell of want as w shows it, a check each; ROWS_CHECK(t, w, want). */
static void rows_check(const struct rep_table *t, const struct rep_writer *w,
		       const struct row_want *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int failed = unit_fail;

		CHECK_STR(text_of(t, w, find_row(t, 0, want[i].row), want[i].col), want[i].is);
		if (unit_fail != failed)
			fprintf(stderr, "  the row %s, column %zu\n", want[i].row, want[i].col);
	}
}
#define ROWS_CHECK(t, w, want) rows_check(t, w, want, sizeof(want) / sizeof(want[0]))

static void test_report(void)
{
	const struct rep_writer *md = rep_writer_find("md"), *csv = rep_writer_find("csv");
	struct rep_set set;
	struct rep_table t;
	char err[256];

	CHECK_EQ_U(load_text(&set, NVME_BEFORE NVME_PHASE NVME_AFTER LOOP_AFTER, err, sizeof(err)), 0);
	const struct rep_run *r = rep_find(&set, "a1");
	CHECK(r != NULL);
	if (!r)
		return;
	/* as data: one value per row, keyed by the record's names */
	CHECK_EQ_U(rep_table_health(r, &t), 0);
	rep_table_view(&t, REP_VIEW_DATA);
	CHECK_EQ_U(t.ncols, 4);
	static const struct row_want nvme[] = {
		{ "nvme_smart.data_units_written", 1, "0" },
		{ "nvme_smart.data_units_written", 2, "40" },
		{ "nvme_smart.data_units_written", 3, "40" },
		{ "nvme_smart.bytes_written", 3, "20480000" },
		{ "suite_bytes_created", 3, "8192000" },
		{ "nvme_smart.media_errors", 2, "18446744073709551616" },
		{ "nvme_smart.media_errors", 3, "18446744073709551616" },
		{ "nvme_smart.available_spare", 3, "-1" },
		{ "nvme_smart.temperature_k", 2, "325" },
		{ "nvme_smart.temperature_k", 3, "" },	/* no difference recorded */
		{ "pcie_link.max_width", 2, "4" },
		{ "temperature_celsius", 3, "2.0" },
	};
	ROWS_CHECK(&t, csv, nvme);
	rep_table_free(&t);

	/* for a reader: the link below its maximum says so */
	CHECK_EQ_U(rep_table_health(r, &t), 0);
	rep_table_view(&t, REP_VIEW_READ);
	long row = find_row(&t, 0, "PCIe link (max)");
	CHECK_STR(text_of(&t, md, row, 1), "8.0 GT/s PCIe x2 (max 8.0 GT/s PCIe x4): below its maximum");
	row = find_row(&t, 0, "data units written (512,000 bytes)");
	CHECK_STR(text_of(&t, md, row, 3), "40");
	rep_table_free(&t);

	/* a loop run: the reasons, never a number */
	r = rep_find(&set, "b2");
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ_U(rep_table_health(r, &t), 0);
		rep_table_view(&t, REP_VIEW_DATA);
		row = find_row(&t, 0, "nvme_smart");
		CHECK_CONTAINS(text_of(&t, csv, row, 2), "not available: a loop device");
		CHECK_STR(text_of(&t, csv, row, 1), "");	/* no before record */
		row = find_row(&t, 0, "temperature_celsius");
		CHECK_CONTAINS(text_of(&t, csv, row, 2), "not available: a loop device");
		CHECK_EQ_U(find_row(&t, 0, "nvme_smart.data_units_written"), (unsigned long long)-1);
		rep_table_free(&t);
	}
	rep_free(&set);

	/* a run without health records has no rows (the section is left out) */
	CHECK_EQ_U(load_text(&set, NVME_PHASE, err, sizeof(err)), 0);
	CHECK_EQ_U(rep_table_health(rep_find(&set, NULL), &t), 0);
	CHECK_EQ_U(t.nrows, 0);
	rep_table_free(&t);
	rep_free(&set);

	/* "when" is before or after */
	CHECK_EQ_U(load_text(&set, "{\"type\":\"health\",\"run_id\":\"c\",\"when\":\"during\"}\n",
			     err, sizeof(err)), (unsigned long long)-EBADMSG);
	CHECK_STR(err, "mem.jsonl:1: health record: \"when\" must be \"before\" or \"after\"");
	rep_free(&set);
}

/* A SATA run: the ATA SMART rows with their difference. */
#define SATA_HEAD(when) "{\"schema\":1,\"type\":\"health\",\"run_id\":\"s3\",\"when\":\"" when "\"," \
	"\"device\":\"/dev/sda\",\"transport\":\"sata\"," \
	"\"nvme_smart\":\"not available: not an NVMe disk (transport sata)\","
#define SATA_BEFORE SATA_HEAD("before") "\"ata_smart\":{\"revision\":16,\"overall\":\"passed\"," \
	"\"reallocated_sectors\":8,\"power_on_hours\":12345,\"current_pending_sectors\":2," \
	"\"udma_crc_errors\":0,\"temperature_celsius\":47,\"error_count\":4," \
	"\"attributes\":[{\"id\":5,\"current\":100,\"worst\":100,\"raw\":8}]}}\n"
#define SATA_AFTER SATA_HEAD("after") "\"ata_smart\":{\"revision\":16,\"overall\":\"passed\"," \
	"\"reallocated_sectors\":10,\"power_on_hours\":12346,\"current_pending_sectors\":0," \
	"\"udma_crc_errors\":3,\"temperature_celsius\":49," \
	"\"error_count\":\"not available: SMART READ LOG 0x01: bad checksum\"," \
	"\"attributes\":[{\"id\":5,\"current\":100,\"worst\":100,\"raw\":10}]}," \
	"\"delta\":{\"nvme_smart\":\"not available: not an NVMe disk (transport sata)\"," \
	"\"ata_smart\":{\"reallocated_sectors\":2,\"current_pending_sectors\":-2," \
	"\"udma_crc_errors\":3,\"error_count\":\"not available: SMART READ LOG 0x01: bad checksum\"}}}\n"

static void test_report_ata(void)
{
	const struct rep_writer *csv = rep_writer_find("csv");
	struct rep_set set;
	struct rep_table t;
	char err[256];

	CHECK_EQ_U(load_text(&set, SATA_BEFORE SATA_AFTER, err, sizeof(err)), 0);
	const struct rep_run *r = rep_find(&set, "s3");
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ_U(rep_table_health(r, &t), 0);
		rep_table_view(&t, REP_VIEW_DATA);
		static const struct row_want ata[] = {
			{ "ata_smart.reallocated_sectors", 1, "8" },
			{ "ata_smart.reallocated_sectors", 2, "10" },
			{ "ata_smart.reallocated_sectors", 3, "2" },
			{ "ata_smart.current_pending_sectors", 3, "-2" },
			{ "ata_smart.reported_uncorrectable", 1, "" },	/* the disk has no 187 */
			{ "ata_smart.error_count", 1, "4" },
			{ "ata_smart.error_count", 3, "" },
			{ "ata_smart.power_on_hours", 2, "12346" },
			{ "ata_smart.power_on_hours", 3, "" },	/* no difference recorded */
			{ "ata_smart.overall", 1, "passed" },
		};
		ROWS_CHECK(&t, csv, ata);
		CHECK_CONTAINS(text_of(&t, csv, find_row(&t, 0, "ata_smart.error_count"), 2),
			       "not available: SMART READ LOG 0x01");
		CHECK_EQ_U(find_row(&t, 0, "ata_smart"), (unsigned long long)-1);
		rep_table_free(&t);
	}
	rep_free(&set);
}

int main(int argc, char **argv)
{
	uint8_t buf[FSB_NVME_SMART_LEN];
	struct fsb_nvme_smart a, b;
	struct fsb_u128 d[FSB_SMART_NCOUNTERS];
	char num[48];
	uint64_t bytes;
	(void)argc;

	/* decoding by the spec's offsets */
	fill(buf, 2000, 0);
	CHECK_EQ_U(fsb_nvme_smart_decode(buf, sizeof(buf), &a), 0);
	CHECK_EQ_U(a.critical_warning, 4);
	CHECK_EQ_U(a.temperature_k, 316);
	CHECK_EQ_U(a.available_spare, 100);
	CHECK_EQ_U(a.available_spare_threshold, 10);
	CHECK_EQ_U(a.percentage_used, 3);
	CHECK_EQ_U(a.counter[FSB_SMART_DATA_UNITS_READ].lo, 1234);
	CHECK_EQ_U(a.counter[FSB_SMART_DATA_UNITS_WRITTEN].lo, 2000);
	CHECK_EQ_U(a.counter[FSB_SMART_HOST_READ_COMMANDS].lo, 5000);
	CHECK_EQ_U(a.counter[FSB_SMART_HOST_WRITE_COMMANDS].lo, UINT64_MAX);
	CHECK_EQ_U(a.counter[FSB_SMART_HOST_WRITE_COMMANDS].hi, 0);
	CHECK_EQ_U(a.counter[FSB_SMART_CONTROLLER_BUSY_TIME].lo, 7);
	CHECK_EQ_U(a.counter[FSB_SMART_POWER_CYCLES].lo, 11);
	CHECK_EQ_U(a.counter[FSB_SMART_POWER_ON_HOURS].lo, 99);
	CHECK_EQ_U(a.counter[FSB_SMART_UNSAFE_SHUTDOWNS].lo, 2);
	CHECK_EQ_U(a.counter[FSB_SMART_MEDIA_ERRORS].lo, 0);
	CHECK_EQ_U(a.counter[FSB_SMART_ERROR_LOG_ENTRIES].lo, 6);
	CHECK_EQ_U(fsb_nvme_smart_decode(buf, 511, &b), (unsigned long long)-EINVAL);

	/* the difference; the host write count carries into the upper half */
	fill(buf, 2000 + 5000, 3);
	put128(buf, 80, 9, 1);	/* 2^64 + 9: ten more than 2^64 - 1 */
	CHECK_EQ_U(fsb_nvme_smart_decode(buf, sizeof(buf), &b), 0);
	CHECK_EQ_U(b.counter[FSB_SMART_HOST_WRITE_COMMANDS].hi, 1);
	CHECK_EQ_U(fsb_nvme_smart_delta(&a, &b, d), 0);
	CHECK_EQ_U(d[FSB_SMART_DATA_UNITS_WRITTEN].lo, 5000);
	CHECK_EQ_U(d[FSB_SMART_MEDIA_ERRORS].lo, 3);
	CHECK_EQ_U(d[FSB_SMART_HOST_WRITE_COMMANDS].lo, 10);
	CHECK_EQ_U(d[FSB_SMART_HOST_WRITE_COMMANDS].hi, 0);
	CHECK_EQ_U(d[FSB_SMART_POWER_CYCLES].lo, 0);
	/* a counter that went backwards is flagged, never a huge difference */
	CHECK_EQ_U(fsb_nvme_smart_delta(&b, &a, d),
		   (1u << FSB_SMART_DATA_UNITS_WRITTEN) | (1u << FSB_SMART_HOST_WRITE_COMMANDS) |
		   (1u << FSB_SMART_MEDIA_ERRORS));
	CHECK_EQ_U(d[FSB_SMART_DATA_UNITS_WRITTEN].lo, 0);

	/* data units are 1000 x 512 bytes */
	CHECK_EQ_U(fsb_nvme_units_bytes((struct fsb_u128){ 5000, 0 }, &bytes), 0);
	CHECK_EQ_U(bytes, 5000ull * 512000ull);
	CHECK_EQ_U(fsb_nvme_units_bytes((struct fsb_u128){ 0, 1 }, &bytes),
		   (unsigned long long)-EOVERFLOW);
	CHECK_EQ_U(fsb_nvme_units_bytes((struct fsb_u128){ UINT64_MAX / 1000, 0 }, &bytes),
		   (unsigned long long)-EOVERFLOW);

	/* 128-bit counts in decimal */
	CHECK_STR(fsb_u128_text((struct fsb_u128){ 0, 0 }, num, sizeof(num)), "0");
	CHECK_STR(fsb_u128_text((struct fsb_u128){ 1234567, 0 }, num, sizeof(num)), "1234567");
	CHECK_STR(fsb_u128_text((struct fsb_u128){ 0, 1 }, num, sizeof(num)),
		  "18446744073709551616");
	CHECK_STR(fsb_u128_text((struct fsb_u128){ UINT64_MAX, UINT64_MAX }, num, sizeof(num)),
		  "340282366920938463463374607431768211455");

	/* the record: values, bytes and the difference */
	static struct fsb_health before, after;
	struct fsb_rec r;
	struct jsonr_doc *doc = NULL;
	const struct jsonr *j;

	health_of(&before, "/dev/nvme0n1", "nvme");
	before.have_smart = 1;
	before.smart = a;
	strcpy(before.ata_why, "not available: an NVMe disk has no ATA SMART");
	before.have_temp = 1;
	before.temp_mc = 316 * 1000 - 273150;
	strcpy(before.temp_source, "nvme smart log");
	strcpy(before.pcie_why, "not available: no PCIe device with a link above /dev/nvme0n1 in sysfs");
	after = before;
	after.smart = b;
	after.smart.critical_warning = 0x05;
	after.temp_mc += 2000;

	j = health_rec(&r, "before", &before, NULL, &doc);
	CHECK_STR(jsonr_str(jsonr_get(j, "when")), "before");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "nvme_smart.data_units_written"), 0), 2000);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "nvme_smart.bytes_written"), 0), 2000ull * 512000);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "nvme_smart.temperature_k"), 0), 316);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "nvme_smart.critical_warning"), 9), 4);
	CHECK(jsonr_num(jsonr_path(j, "temperature.celsius"), 0) > 42.84 &&
	      jsonr_num(jsonr_path(j, "temperature.celsius"), 0) < 42.86);
	CHECK_CONTAINS(jsonr_str(jsonr_get(j, "pcie_link")), "not available: ");
	CHECK(jsonr_get(j, "delta") == NULL);
	jsonr_free(doc);

	j = health_rec(&r, "after", &after, &before, &doc);
	/* 2^64 + 9 does not fit in a JSON integer a reader trusts: digits */
	CHECK_STR(jsonr_str(jsonr_path(j, "nvme_smart.host_write_commands")),
		  "18446744073709551625");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.nvme_smart.data_units_written"), 0), 5000);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.nvme_smart.bytes_written"), 0), 5000ull * 512000);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.nvme_smart.media_errors"), 0), 3);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.nvme_smart.host_write_commands"), 0), 10);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.nvme_smart.new_critical_warning"), 9), 1);
	CHECK(jsonr_num(jsonr_path(j, "delta.temperature_celsius"), 0) > 1.99 &&
	      jsonr_num(jsonr_path(j, "delta.temperature_celsius"), 0) < 2.01);
	CHECK(jsonr_path(j, "delta.nvme_smart.went_backwards") == NULL);
	/* an NVMe disk's difference has no ATA part */
	CHECK(jsonr_path(j, "delta.ata_smart") == NULL);
	CHECK_STR(jsonr_str(jsonr_get(j, "ata_smart")), "not available: an NVMe disk has no ATA SMART");
	jsonr_free(doc);

	/* nothing to read: every part says so, the difference too */
	fsb_health_none(&before, "dir mode: the directory is not a disk of its own");
	fsb_health_none(&after, "dir mode: the directory is not a disk of its own");
	j = health_rec(&r, "after", &after, &before, &doc);
	CHECK_STR(jsonr_str(jsonr_get(j, "nvme_smart")),
		  "not available: dir mode: the directory is not a disk of its own");
	CHECK_CONTAINS(jsonr_str(jsonr_get(j, "ata_smart")), "not available: dir mode");
	CHECK_CONTAINS(jsonr_str(jsonr_get(j, "temperature")), "not available: dir mode");
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "delta.nvme_smart")), "not available: dir mode");
	jsonr_free(doc);

	test_ata();
	test_report();
	test_report_ata();
	return unit_done(argv[0]);
}
