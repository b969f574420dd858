/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: the reference CRC-32C (raid/crc32c.h), one table lookup per
 * byte; the build without ISA-L runs the journal's checksums on it.
 */
#include <glib.h>
#include "raid/crc32c.h"

#define CRC32C_POLY 0x82F63B78u     /* Castagnoli, bit-reversed */

static uint32_t crc32c_table[256];

static void crc32c_init(void)
{
    static gsize done;

    if (g_once_init_enter(&done)) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;

            for (int k = 0; k < 8; k++) {
                c = (c >> 1) ^ (c & 1 ? CRC32C_POLY : 0);
            }
            crc32c_table[i] = c;
        }
        g_once_init_leave(&done, 1);
    }
}

uint32_t raid_crc32c_ref(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    crc32c_init();
    while (len--) {
        crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    }
    return crc;
}
