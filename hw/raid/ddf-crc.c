/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: the DDF CRC.
 *
 * Reflected CRC-32 (polynomial 0xEDB88320) with the register starting at
 * 0 and no final inversion, which is what mdadm and LSI firmware store.
 * Structure CRCs are computed with the CRC field itself (bytes 4..7) taken
 * as 0xFF bytes.
 */
#include "raid/ddf.h"

static uint32_t crc_table[256];

static void crc_init(void)
{
    static gsize done;

    if (g_once_init_enter(&done)) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            }
            crc_table[i] = c;
        }
        g_once_init_leave(&done, 1);
    }
}

static uint32_t crc_update(uint32_t c, const uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        c = crc_table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
    }
    return c;
}

uint32_t ddf_crc32(const uint8_t *buf, size_t len)
{
    crc_init();
    return crc_update(0, buf, len);
}

uint32_t ddf_struct_crc(const uint8_t *buf, size_t len)
{
    static const uint8_t ff[4] = { 0xff, 0xff, 0xff, 0xff };
    uint32_t c;

    crc_init();
    if (len < 8) {
        return crc_update(0, buf, len);
    }
    c = crc_update(0, buf, 4);
    c = crc_update(c, ff, 4);
    return crc_update(c, buf + 8, len - 8);
}
