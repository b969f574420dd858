/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit test of the RAID core's CRC-32C (raid/crc32c.h), the cache
 * journal's checksum: the standard check value, independence from how the
 * data is split, and raid_crc32c() (ISA-L when built with it) against the
 * table reference, so that journals written with and without ISA-L read
 * the same.
 */
#include <glib.h>
#include <string.h>
#include "raid/crc32c.h"

/* The standard check value of CRC-32C, and of a 32-byte zero block. */
static void test_known(void)
{
    static const uint8_t zeros[32];
    const char *s = "123456789";

    g_assert_cmphex(~raid_crc32c(~0u, s, strlen(s)), ==, 0xE3069283);
    g_assert_cmphex(~raid_crc32c_ref(~0u, s, strlen(s)), ==, 0xE3069283);
    /* RFC 3720, B.4: 32 bytes of zeros */
    g_assert_cmphex(~raid_crc32c(~0u, zeros, sizeof(zeros)), ==, 0x8A9136AA);
    g_assert_cmphex(raid_crc32c(1234, s, 0), ==, 1234);
}

/* Random data, lengths and start values: split or not, both agree. */
static void test_vs_ref(void)
{
    GRand *r = g_rand_new_with_seed(7);
    g_autofree uint8_t *buf = g_malloc(70000);

    for (size_t i = 0; i < 70000; i++) {
        buf[i] = g_rand_int(r);
    }
    for (int t = 0; t < 300; t++) {
        size_t off = g_rand_int_range(r, 0, 64);
        size_t len = g_rand_int_range(r, 0, t < 10 ? 70000 - 64 : 5000);
        size_t cut = g_rand_int_range(r, 0, len + 1);
        uint32_t init = g_rand_int(r);
        uint32_t ref = raid_crc32c_ref(init, buf + off, len);
        uint32_t whole, split;

        whole = raid_crc32c(init, buf + off, len);
        split = raid_crc32c(raid_crc32c(init, buf + off, cut),
                            buf + off + cut, len - cut);
        g_assert_cmphex(whole, ==, ref);
        g_assert_cmphex(split, ==, ref);
    }
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/raid/crc32c/known", test_known);
    g_test_add_func("/raid/crc32c/vs-ref", test_vs_ref);
    return g_test_run();
}
