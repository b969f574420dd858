/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fuzz target for the DDF decoder (libFuzzer entry point; also linked
 * into ddf-replay for the regression corpus under meson test).
 *
 * Input: one DDF copy (header sector first, then its sections).  The
 * header CRC is recomputed first and, while the low bit of the last
 * header byte (reserved, 0xFF) is set, the CRCs of the sections and
 * configuration records too, so mutations reach the field checks instead
 * of stopping at a CRC mismatch; with the bit clear the CRC checks
 * themselves are exercised.  A decoded copy is
 * also turned into a configuration and re-encoded.
 */
#include "raid/ddf.h"
#include "ddf-fuzz.h"

#include <string.h>

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static void fix_crc(uint8_t *buf, size_t size, uint64_t off, uint64_t len)
{
    if (len >= 8 && off <= size && len <= size - off) {
        put32(buf + off + 4, ddf_struct_crc(buf + off, len));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf;
    DdfHeader h;
    DdfMeta *m;
    bool fix;

    if (size < 512 || size > 8u << 20) {
        return 0;
    }
    fix = data[0x1ff] & 1;
    buf = g_memdup2(data, size);
    fix_crc(buf, size, 0, 512);
    if (!ddf_decode_header(buf, &h, NULL) || h.type == DDF_HDR_ANCHOR) {
        g_free(buf);
        return 0;
    }
    if (fix) {
        for (int s = 0; s < 5; s++) {
            if (s == DDF_SEC_CONF) {
                for (uint32_t r = 0; r + h.cfg_rec_len <= h.sec_len[s];
                     r += h.cfg_rec_len) {
                    fix_crc(buf, size, (uint64_t)(h.sec_off[s] + r) * 512,
                            (uint64_t)h.cfg_rec_len * 512);
                }
            } else {
                fix_crc(buf, size, (uint64_t)h.sec_off[s] * 512,
                        (uint64_t)h.sec_len[s] * 512);
            }
        }
    }
    m = ddf_decode_copy(&h, buf, size, NULL);
    if (m) {
        uint64_t sectors = 1ull << 24;
        int pd = -1;
        RaidConfig *cfg = ddf_config_from_meta(&m, &sectors, 1, m->ctrl_guid,
                                               &pd, NULL);

        if (cfg && pd >= 0) {
            DdfMeta *again = ddf_meta_from_config(cfg, pd, 1, 1);
            uint32_t n = ddf_copy_sectors(again);
            uint8_t *out = g_malloc((size_t)n * 512);

            ddf_encode_copy(again, DDF_HDR_PRIMARY, out);
            g_free(out);
            ddf_meta_free(again);
        }
        raid_config_free(cfg);
        ddf_meta_free(m);
    }
    g_free(buf);
    return 0;
}
