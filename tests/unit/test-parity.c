/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the parity code: GF(2^8) arithmetic against hand-computed
 * values, ISA-L against the reference on random data (aligned, unaligned
 * and DDF exponent sets), recovery of every one- and two-strip loss, and
 * the read-modify-write update.
 */
#include <string.h>
#include <glib.h>
#include "raid/parity.h"

static void test_gf(void)
{
    /* g^0..g^8: shifting left, reducing by 0x11d past bit 7 */
    static const uint8_t pow[] = { 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x1d };

    for (unsigned i = 0; i < G_N_ELEMENTS(pow); i++) {
        g_assert_cmphex(raid_gf_exp(i), ==, pow[i]);
    }
    g_assert_cmphex(raid_gf_exp(255), ==, 1);
    g_assert_cmphex(raid_gf_mul(0x80, 2), ==, 0x1d);
    g_assert_cmphex(raid_gf_mul(0x53, 0), ==, 0);
    g_assert_cmphex(raid_gf_mul(3, 3), ==, 5);         /* (x+1)^2 = x^2+1 */
    for (unsigned a = 1; a < 256; a++) {
        g_assert_cmphex(raid_gf_mul(a, raid_gf_inv(a)), ==, 1);
    }
}

/*
 * P and Q worked out by hand, byte by byte, for D0 at exponent 0 and D1
 * at exponent 3 (as when D1 sits on member 3 in DDF ordering).
 */
static void test_q_known(void)
{
    uint8_t *d0 = raid_buf_alloc(64), *d1 = raid_buf_alloc(64);
    uint8_t *p = raid_buf_alloc(64), *q = raid_buf_alloc(64);
    RaidStripeBufs b = { .ndata = 2, .data = { d0, d1 }, .exp = { 0, 3 },
                         .p = p, .q = q };

    for (int impl = 0; impl < 2; impl++) {
        memset(d0, 0, 64);
        memset(d1, 0, 64);
        d0[0] = 0x01;
        d1[0] = 0x01;           /* Q = 1 ^ 8 = 09, P = 0 */
        d0[1] = 0x80;
        d1[1] = 0x20;           /* Q = 80 ^ (20 * 8 = 100 -> 1d) = 9d */
        d1[2] = 0xff;           /* Q = ff * 8 */
        raid_parity_gen(impl, &b, 64);
        g_assert_cmphex(p[0], ==, 0x00);
        g_assert_cmphex(q[0], ==, 0x09);
        g_assert_cmphex(p[1], ==, 0xa0);
        g_assert_cmphex(q[1], ==, 0x9d);
        g_assert_cmphex(p[2], ==, 0xff);
        /* ff*2 = 1fe^11d = e3; *2 = 1c6^11d = db; *2 = 1b6^11d = ab */
        g_assert_cmphex(q[2], ==, 0xab);
        g_assert_cmphex(q[3], ==, 0);
    }
    raid_buf_free(d0);
    raid_buf_free(d1);
    raid_buf_free(p);
    raid_buf_free(q);
}

typedef struct Stripe {
    RaidStripeBufs b;
    uint8_t *save[RAID_PARITY_MAX_DATA + 2];
    size_t len;
    uint8_t *block;
} Stripe;

static void stripe_init(Stripe *s, GRand *r, uint32_t ndata, bool q,
                        bool ddf_exps, size_t len, size_t misalign)
{
    size_t stride = len + 64;
    uint32_t n = ndata + 2;

    memset(s, 0, sizeof(*s));
    s->len = len;
    s->block = raid_buf_alloc(stride * (ndata + 2) + 64);
    s->b.ndata = ndata;
    for (uint32_t i = 0; i < ndata + 2; i++) {
        uint8_t *buf = s->block + i * stride + misalign;

        for (size_t j = 0; j < len; j++) {
            buf[j] = g_rand_int(r);
        }
        if (i < ndata) {
            s->b.data[i] = buf;
        } else if (i == ndata) {
            s->b.p = buf;
        } else if (q) {
            s->b.q = buf;
        }
        s->save[i] = g_malloc(len);
    }
    /* DDF: exponents are the members' positions, skipping P and Q. */
    for (uint32_t i = 0, e = 0; i < ndata; i++, e++) {
        if (ddf_exps) {
            uint32_t p = g_rand_int_range(r, 0, n);

            if (e == p || e == (p + n - 1) % n) {
                e++;
            }
            if (e == p || e == (p + n - 1) % n) {
                e++;
            }
        }
        s->b.exp[i] = e;
    }
}

static void stripe_save(Stripe *s)
{
    for (uint32_t i = 0; i < s->b.ndata; i++) {
        memcpy(s->save[i], s->b.data[i], s->len);
    }
    memcpy(s->save[s->b.ndata], s->b.p, s->len);
    if (s->b.q) {
        memcpy(s->save[s->b.ndata + 1], s->b.q, s->len);
    }
}

static uint8_t *strip_ptr(Stripe *s, int idx)
{
    return idx == RAID_STRIP_P ? s->b.p : idx == RAID_STRIP_Q ? s->b.q :
           s->b.data[idx];
}

static uint8_t *saved(Stripe *s, int idx)
{
    return idx == RAID_STRIP_P ? s->save[s->b.ndata] :
           idx == RAID_STRIP_Q ? s->save[s->b.ndata + 1] : s->save[idx];
}

static void stripe_free(Stripe *s)
{
    for (uint32_t i = 0; i < s->b.ndata + 2; i++) {
        g_free(s->save[i]);
    }
    raid_buf_free(s->block);
}

/*
 * ISA-L and the reference produce the same P and Q (without ISA-L: the
 * fallback of RAID_PARITY_ISAL requests does).
 */
static void test_gen_match(void)
{
    GRand *r = g_rand_new_with_seed(1);
    static const size_t lens[] = { 64, 512, 4096, 65536, 1000, 96 };

    for (unsigned li = 0; li < G_N_ELEMENTS(lens); li++) {
        for (uint32_t ndata = 1; ndata <= 30; ndata += (ndata < 6 ? 1 : 7)) {
            for (int ddf = 0; ddf < 2; ddf++) {
                for (size_t mis = 0; mis <= 8; mis += 8) {
                    Stripe s;
                    uint8_t *p = g_malloc(lens[li]), *q = g_malloc(lens[li]);

                    stripe_init(&s, r, ndata, true, ddf, lens[li], mis);
                    raid_parity_gen(RAID_PARITY_REF, &s.b, s.len);
                    memcpy(p, s.b.p, s.len);
                    memcpy(q, s.b.q, s.len);
                    memset(s.b.p, 0xa5, s.len);
                    memset(s.b.q, 0x5a, s.len);
                    raid_parity_gen(RAID_PARITY_ISAL, &s.b, s.len);
                    g_assert_cmpmem(p, s.len, s.b.p, s.len);
                    g_assert_cmpmem(q, s.len, s.b.q, s.len);
                    /* single parity */
                    s.b.q = NULL;
                    memset(s.b.p, 0xa5, s.len);
                    raid_parity_gen(RAID_PARITY_ISAL, &s.b, s.len);
                    g_assert_cmpmem(p, s.len, s.b.p, s.len);
                    stripe_free(&s);
                    g_free(p);
                    g_free(q);
                }
            }
        }
    }
    g_rand_free(r);
}

/* Every one- and two-strip loss is recovered, by both implementations. */
static void test_recover_all(void)
{
    GRand *r = g_rand_new_with_seed(2);

    for (uint32_t ndata = 1; ndata <= 12; ndata++) {
        for (int impl = 0; impl < 2; impl++) {
            for (int qlevel = 0; qlevel < 2; qlevel++) {
                Stripe s;
                int ids[RAID_PARITY_MAX_DATA + 2], nids = 0;

                stripe_init(&s, r, ndata, qlevel, qlevel, 4096 + 64 * impl,
                            0);
                raid_parity_gen(RAID_PARITY_REF, &s.b, s.len);
                stripe_save(&s);
                for (int i = 0; i < (int)ndata; i++) {
                    ids[nids++] = i;
                }
                ids[nids++] = RAID_STRIP_P;
                if (qlevel) {
                    ids[nids++] = RAID_STRIP_Q;
                }
                /* j == i: a single loss; j > i: pairs (RAID 6 only) */
                for (int i = 0; i < nids; i++) {
                    for (int j = i; j < (qlevel ? nids : i + 1); j++) {
                        int a = ids[i];
                        int b = j == i ? RAID_STRIP_NONE : ids[j];

                        memset(strip_ptr(&s, a), 0xee, s.len);
                        if (b != RAID_STRIP_NONE) {
                            memset(strip_ptr(&s, b), 0x77, s.len);
                        }
                        g_assert_true(raid_parity_recover(impl, &s.b, a, b,
                                                          s.len));
                        g_assert_cmpmem(strip_ptr(&s, a), s.len, saved(&s, a),
                                        s.len);
                        if (b != RAID_STRIP_NONE) {
                            g_assert_cmpmem(strip_ptr(&s, b), s.len,
                                            saved(&s, b), s.len);
                        }
                    }
                }
                if (!qlevel && ndata >= 2) {
                    /* two losses and Q are not recoverable with P only */
                    g_assert_false(raid_parity_recover(impl, &s.b, 0, 1,
                                                       s.len));
                    g_assert_false(raid_parity_recover(impl, &s.b,
                                   RAID_STRIP_Q, RAID_STRIP_NONE, s.len));
                }
                g_assert_false(raid_parity_recover(impl, &s.b, ndata,
                                                   RAID_STRIP_NONE, s.len));
                stripe_free(&s);
            }
        }
    }
    g_rand_free(r);
}

/* P ^= delta, Q ^= g^e * delta gives the parity of the new data. */
static void test_delta(void)
{
    GRand *r = g_rand_new_with_seed(3);

    for (int impl = 0; impl < 2; impl++) {
        Stripe s;
        uint8_t *delta = raid_buf_alloc(8192), *p2 = g_malloc(8192);
        uint8_t *q2 = g_malloc(8192);

        stripe_init(&s, r, 5, true, true, 8192, 0);
        raid_parity_gen(RAID_PARITY_REF, &s.b, s.len);
        memcpy(delta, s.b.data[3], s.len);
        for (size_t j = 0; j < s.len; j++) {
            s.b.data[3][j] = g_rand_int(r);
        }
        raid_xor_into(delta, s.b.data[3], s.len);
        raid_parity_apply_delta(impl, s.b.p, s.b.q, s.b.exp[3], delta, s.len);
        memcpy(p2, s.b.p, s.len);
        memcpy(q2, s.b.q, s.len);
        raid_parity_gen(RAID_PARITY_REF, &s.b, s.len);
        g_assert_cmpmem(p2, s.len, s.b.p, s.len);
        g_assert_cmpmem(q2, s.len, s.b.q, s.len);
        stripe_free(&s);
        raid_buf_free(delta);
        g_free(p2);
        g_free(q2);
    }
    g_rand_free(r);
}

/*
 * The library has the backend this build was configured with (meson
 * passes RAID_TEST_EXPECT_ISAL): ISA-L when found, the reference code
 * alone with -Disal=disabled.  In the latter, the tests above run
 * RAID_PARITY_ISAL requests on the reference code: they check that the
 * fallback gives the same parity.
 */
static void test_backend(void)
{
#ifndef RAID_TEST_EXPECT_ISAL
#error "meson.build passes RAID_TEST_EXPECT_ISAL"
#endif
    g_test_message("parity backend: %s",
                   raid_parity_have_isal() ? "ISA-L" : "reference only");
    g_assert_cmpint(raid_parity_have_isal(), ==, RAID_TEST_EXPECT_ISAL);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/raid/parity/backend", test_backend);
    g_test_add_func("/raid/parity/gf", test_gf);
    g_test_add_func("/raid/parity/q-known", test_q_known);
    g_test_add_func("/raid/parity/gen-isal-vs-ref", test_gen_match);
    g_test_add_func("/raid/parity/recover-all", test_recover_all);
    g_test_add_func("/raid/parity/delta", test_delta);
    return g_test_run();
}
