/* load_bus.c: the bus parts of a `health` record (bus, sata_link, usb, mmc,
 * scsi: run/evidence/bus.h) as one line for the report's health table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

static const char *s(const struct jsonr *o, const char *key)
{
	const char *v = jsonr_str(jsonr_get(o, key));
	return v ? v : "?";
}

/* "sata: ata1 at 1.5 Gbps (limit <unknown>); ATA QEMU HARDDISK 2.5+";
 * NULL without a `bus` (a record from before the bus parts). */
char *ld_bus_summary(const struct jsonr *rec)
{
	const char *bus = jsonr_str(jsonr_get(rec, "bus"));
	const struct jsonr *o;
	char buf[512];
	size_t n;

	if (!bus)
		return NULL;
	n = (size_t)snprintf(buf, sizeof(buf), "%s", bus);
	if (n < sizeof(buf) && jsonr_is(o = jsonr_get(rec, "sata_link"), JSONR_OBJ))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "; %s at %s (limit %s)", s(o, "port"),
				      s(o, "speed"), s(o, "limit"));
	if (n < sizeof(buf) && jsonr_is(o = jsonr_get(rec, "usb"), JSONR_OBJ))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "; USB %s, %g Mbit/s, version %s, %s",
				      s(o, "device"), jsonr_num(jsonr_get(o, "speed_mbps"), 0),
				      s(o, "version"), s(o, "transport"));
	if (n < sizeof(buf) && jsonr_is(o = jsonr_get(rec, "mmc"), JSONR_OBJ))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "; %s card %s (manfid %s, %s), timing %s",
				      s(o, "type"), s(o, "name"), s(o, "manfid"), s(o, "date"),
				      jsonr_str(jsonr_get(o, "timing")) ? s(o, "timing") : s(o, "timing_why"));
	if (n < sizeof(buf) && jsonr_is(o = jsonr_get(rec, "scsi"), JSONR_OBJ))
		snprintf(buf + n, sizeof(buf) - n, "; SCSI %s %s %s", s(o, "vendor"), s(o, "model"),
			 s(o, "rev"));
	return strdup(buf);
}
