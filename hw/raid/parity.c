/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: parity front end.  Turns generation, recovery and
 * read-modify-write updates into GF(2^8) linear combinations and runs them
 * on ISA-L (xor_gen, pq_gen, ec_encode_data, gf_vect_mad) or on the
 * reference code in parity-ref.c.
 */
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <isa-l/raid.h>
#include <isa-l/erasure_code.h>
#include "parity-int.h"

/* Zero strips for the Q slots that hold no data (DDF: P and Q members). */
#define ZERO_CHUNK (1u << 20)
static uint8_t zero_chunk[ZERO_CHUNK] __attribute__((aligned(64)));

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

static bool isal_ok(const RaidStripeBufs *b, size_t len)
{
    uintptr_t bits = len | (uintptr_t)b->p | (uintptr_t)b->q;

    if (len % 64 || len > INT32_MAX) {
        return false;
    }
    for (uint32_t i = 0; i < b->ndata; i++) {
        bits |= (uintptr_t)b->data[i];
    }
    return !(bits & 31);
}

static void isal_gen(const RaidStripeBufs *b, size_t len)
{
    void *v[RAID_COMBINE_MAX_SRC + 2];
    uint32_t slots = 0;

    if (!b->q) {
        if (b->ndata == 1) {
            memcpy(b->p, b->data[0], len);
            return;
        }
        memcpy(v, b->data, b->ndata * sizeof(void *));
        v[b->ndata] = b->p;
        xor_gen(b->ndata + 1, len, v);
        return;
    }
    for (uint32_t i = 0; i < b->ndata; i++) {
        slots = MAX(slots, b->exp[i] + 1u);
    }
    slots = MAX(slots, 2u);
    for (size_t off = 0; off < len; off += ZERO_CHUNK) {
        size_t n = MIN((size_t)ZERO_CHUNK, len - off);

        for (uint32_t s = 0; s < slots; s++) {
            v[s] = zero_chunk;
        }
        for (uint32_t i = 0; i < b->ndata; i++) {
            v[b->exp[i]] = b->data[i] + off;
        }
        v[slots] = b->p + off;
        v[slots + 1] = b->q + off;
        pq_gen(slots + 2, n, v);
    }
}

void raid_parity_gen(RaidParityImpl impl, const RaidStripeBufs *b,
                     size_t len)
{
    g_assert(b->ndata >= 1 && b->ndata <= RAID_PARITY_MAX_DATA);
    if (impl == RAID_PARITY_ISAL && isal_ok(b, len) &&
        (!b->q || b->ndata + 2 <= RAID_COMBINE_MAX_SRC)) {
        isal_gen(b, len);
    } else {
        raid_ref_gen(b, len);
    }
}

static void isal_combine(const RaidCombine *c, size_t len)
{
    uint8_t tbl[32 * RAID_COMBINE_MAX_SRC * 2];
    uint8_t mat[RAID_COMBINE_MAX_SRC * 2];
    bool all_one = c->nout == 1;

    for (uint32_t j = 0; all_one && j < c->nsrc; j++) {
        all_one = c->coef[0][j] == 1;
    }
    if (all_one && c->nsrc == 1) {
        memcpy(c->out[0], c->src[0], len);
        return;
    }
    if (all_one) {
        void *v[RAID_COMBINE_MAX_SRC + 1];

        memcpy(v, c->src, c->nsrc * sizeof(void *));
        v[c->nsrc] = c->out[0];
        xor_gen(c->nsrc + 1, len, v);
        return;
    }
    for (uint32_t r = 0; r < c->nout; r++) {
        memcpy(mat + r * c->nsrc, c->coef[r], c->nsrc);
    }
    ec_init_tables(c->nsrc, c->nout, mat, tbl);
    ec_encode_data(len, c->nsrc, c->nout, tbl, (uint8_t **)c->src,
                   (uint8_t **)c->out);
}

static void combine(RaidParityImpl impl, const RaidCombine *c, size_t len)
{
    uintptr_t bits = len;

    for (uint32_t j = 0; j < c->nsrc; j++) {
        bits |= (uintptr_t)c->src[j];
    }
    for (uint32_t r = 0; r < c->nout; r++) {
        bits |= (uintptr_t)c->out[r];
    }
    if (impl == RAID_PARITY_ISAL && !(len % 64) && !(bits & 31) &&
        len <= INT32_MAX) {
        isal_combine(c, len);
    } else {
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
    if (impl == RAID_PARITY_ISAL && !(len % 64) && len <= INT32_MAX &&
        !(((uintptr_t)q | (uintptr_t)delta) & 31)) {
        uint8_t tbl[32];

        ec_init_tables(1, 1, &coef, tbl);
        gf_vect_mad(len, 1, 0, tbl, (uint8_t *)delta, q);
    } else {
        raid_ref_mul_xor(q, delta, coef, len);
    }
}
