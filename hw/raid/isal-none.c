/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: the stand-in for its ISA-L backend (isal.c) in a build
 * without ISA-L (meson found no libisal, or -Disal=disabled).  It takes
 * no parity work, so the front end (parity.c) runs every request,
 * RAID_PARITY_ISAL ones included, on the reference code (parity-ref.c),
 * and CRC-32C runs on the table (crc32c.c).  Same results, slower.
 */
#include "parity-int.h"
#include "raid/crc32c.h"

bool raid_parity_have_isal(void)
{
    return false;
}

bool raid_isal_gen(const RaidStripeBufs *b, size_t len)
{
    return false;
}

bool raid_isal_combine(const RaidCombine *c, size_t len)
{
    return false;
}

bool raid_isal_mul_xor(uint8_t *dst, const uint8_t *src, uint8_t coef,
                       size_t len)
{
    return false;
}

uint32_t raid_crc32c(uint32_t crc, const void *buf, size_t len)
{
    return raid_crc32c_ref(crc, buf, len);
}
