/* nvme.h: the kernel's NVMe admin passthrough (linux/nvme_ioctl.h, a
 * stable UAPI), written out here: musl's headers do not carry it, and one
 * command run through it (nvme.c). Used by
 * the health record's SMART log (run/evidence/health.c) and the discard
 * facts' Identify Namespace (run/target/discard.c). */
#ifndef FSB_RUN_TARGET_NVME_H
#define FSB_RUN_TARGET_NVME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

struct fsb_nvme_admin_cmd {
	uint8_t opcode;
	uint8_t flags;
	uint16_t rsvd1;
	uint32_t nsid;
	uint32_t cdw2;
	uint32_t cdw3;
	uint64_t metadata;
	uint64_t addr;
	uint32_t metadata_len;
	uint32_t data_len;
	uint32_t cdw10;
	uint32_t cdw11;
	uint32_t cdw12;
	uint32_t cdw13;
	uint32_t cdw14;
	uint32_t cdw15;
	uint32_t timeout_ms;
	uint32_t result;
};
_Static_assert(sizeof(struct fsb_nvme_admin_cmd) == 72, "struct nvme_admin_cmd is 72 bytes");
#define FSB_NVME_IOCTL_ADMIN_CMD _IOWR('N', 0x41, struct fsb_nvme_admin_cmd)

/* Run cmd on the NVMe node dev, for the namespace's own id as nsid when
 * ns: 0, -errno, or -EIO with the NVMe status in *status. */
int fsb_nvme_admin(const char *dev, struct fsb_nvme_admin_cmd *cmd, int ns, unsigned *status);
/* Why a command (what, "Identify Namespace") failed with e: a "not
 * available: ..." text into why. */
void fsb_nvme_why(char *why, size_t len, const char *what, const char *dev, int e, unsigned status);

#endif
