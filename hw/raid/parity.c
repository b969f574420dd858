/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: parity front end.  Turns generation, recovery and
 * read-modify-write updates into GF(2^8) linear combinations and runs them
 * on ISA-L (isal.c: xor_gen, pq_gen, ec_encode_data, gf_vect_mad)
 * or on the reference code in parity-ref.c.  A build without ISA-L links
 * isal-none.c instead, and everything runs on the reference code.
 */
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "parity-int.h"

void *raid_buf_alloc(size_t len)
{
    void *p = NULL;

    if (posix_memalign(&p, 64, MAX(len, (size_t)64))) {
        g_error("raid: out of memory for a %zu-byte buffer", len);
    }
    return p;
}

void raid_buf_free(void *p)
{
    free(p);
}

void raid_xor_into(uint8_t *dst, const uint8_t *src, size_t len)
{
    size_t i = 0;

    if (!(((uintptr_t)dst | (uintptr_t)src) & 7)) {
        uint64_t *d = (uint64_t *)dst;
        const uint64_t *s = (const uint64_t *)src;

        for (; i + 8 <= len; i += 8) {
            d[i / 8] ^= s[i / 8];
        }
    }
    for (; i < len; i++) {
        dst[i] ^= src[i];
    }
}

void raid_parity_gen(RaidParityImpl impl, const RaidStripeBufs *b,
                     size_t len)
{
    g_assert(b->ndata >= 1 && b->ndata <= RAID_PARITY_MAX_DATA);
    if (impl != RAID_PARITY_ISAL || !raid_isal_gen(b, len)) {
        raid_ref_gen(b, len);
    }
}


static void combine(RaidParityImpl impl, const RaidCombine *c, size_t len)
{
    if (impl != RAID_PARITY_ISAL || !raid_isal_combine(c, len)) {
        raid_ref_combine(c, len);
    }
}

static void add_src(RaidCombine *c, uint8_t *buf, uint8_t c0, uint8_t c1)
{
    c->src[c->nsrc] = buf;
    c->coef[0][c->nsrc] = c0;
    c->coef[1][c->nsrc] = c1;
    c->nsrc++;
}

bool raid_parity_recover(RaidParityImpl impl, const RaidStripeBufs *b,
                         int a, int bi, size_t len)
{
    RaidCombine c = { 0 };
    int x, y;

    if (a == RAID_STRIP_NONE) {
        a = bi;
        bi = RAID_STRIP_NONE;
    }
    if (a == RAID_STRIP_NONE) {
        return true;
    }
    if (a == bi || a >= (int)b->ndata || bi >= (int)b->ndata ||
        a < RAID_STRIP_Q || bi < RAID_STRIP_NONE) {
        return false;
    }
    if (!b->q && (bi != RAID_STRIP_NONE || a == RAID_STRIP_Q)) {
        return false;
    }
    /* Order: data indexes first (x), then P, then Q. */
    x = MAX(a, bi);
    y = MIN(a, bi);
    if (x < 0) {
        /* Only parity strips are missing: regenerate them. */
        if (y == RAID_STRIP_NONE && x == RAID_STRIP_Q) {
            /* Q alone: one weighted sum of the data. */
            c.nout = 1;
            c.out[0] = b->q;
            for (uint32_t j = 0; j < b->ndata; j++) {
                add_src(&c, b->data[j], raid_gf_exp(b->exp[j]), 0);
            }
            combine(impl, &c, len);
            return true;
        }
        if (y == RAID_STRIP_NONE) {     /* P only */
            RaidStripeBufs t = *b;

            t.q = NULL;
            raid_parity_gen(impl, &t, len);
            return true;
        }
        raid_parity_gen(impl, b, len);  /* P and Q */
        return true;
    }

    if (y == RAID_STRIP_NONE) {
        /* One data strip: XOR of P and the other data. */
        c.nout = 1;
        c.out[0] = b->data[x];
        for (uint32_t j = 0; j < b->ndata; j++) {
            if ((int)j != x) {
                add_src(&c, b->data[j], 1, 0);
            }
        }
        add_src(&c, b->p, 1, 0);
    } else if (y == RAID_STRIP_P) {
        /* D_x from Q; P = D_x ^ sum D_j. */
        uint8_t gxi = raid_gf_inv(raid_gf_exp(b->exp[x]));

        c.nout = 2;
        c.out[0] = b->data[x];
        c.out[1] = b->p;
        for (uint32_t j = 0; j < b->ndata; j++) {
            if ((int)j != x) {
                uint8_t f = raid_gf_mul(gxi, raid_gf_exp(b->exp[j]));

                add_src(&c, b->data[j], f, f ^ 1);
            }
        }
        add_src(&c, b->q, gxi, gxi);
    } else if (y == RAID_STRIP_Q) {
        /* D_x from P; Q = g_x P ^ sum (g_j ^ g_x) D_j. */
        uint8_t gx = raid_gf_exp(b->exp[x]);

        c.nout = 2;
        c.out[0] = b->data[x];
        c.out[1] = b->q;
        for (uint32_t j = 0; j < b->ndata; j++) {
            if ((int)j != x) {
                add_src(&c, b->data[j], 1, raid_gf_exp(b->exp[j]) ^ gx);
            }
        }
        add_src(&c, b->p, 1, gx);
    } else {
        /* Two data strips x, y from P and Q. */
        uint8_t gx = raid_gf_exp(b->exp[x]);
        uint8_t gy = raid_gf_exp(b->exp[y]);
        uint8_t inv;

        if (gx == gy) {
            return false;
        }
        inv = raid_gf_inv(gx ^ gy);
        c.nout = 2;
        c.out[0] = b->data[x];
        c.out[1] = b->data[y];
        for (uint32_t j = 0; j < b->ndata; j++) {
            if ((int)j != x && (int)j != y) {
                uint8_t gj = raid_gf_exp(b->exp[j]);

                add_src(&c, b->data[j], raid_gf_mul(inv, gy ^ gj),
                        raid_gf_mul(inv, gx ^ gj));
            }
        }
        add_src(&c, b->p, raid_gf_mul(inv, gy), raid_gf_mul(inv, gx));
        add_src(&c, b->q, inv, inv);
    }
    combine(impl, &c, len);
    return true;
}

void raid_parity_apply_delta(RaidParityImpl impl, uint8_t *p, uint8_t *q,
                             uint8_t exp, const uint8_t *delta, size_t len)
{
    uint8_t coef = raid_gf_exp(exp);

    raid_xor_into(p, delta, len);
    if (!q) {
        return;
    }
    if (impl != RAID_PARITY_ISAL || !raid_isal_mul_xor(q, delta, coef, len)) {
        raid_ref_mul_xor(q, delta, coef, len);
    }
}
