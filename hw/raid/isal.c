/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: its ISA-L backend, built when ISA-L is found (isal-none.c
 * otherwise).  For the parity front end (parity.c): P and Q generation
 * (xor_gen, pq_gen), linear combinations (ec_encode_data) and the
 * read-modify-write Q update (gf_vect_mad); ISA-L wants lengths in
 * multiples of 64 bytes and 32-byte aligned buffers, for anything else
 * each function says no and the front end runs the reference code.  And
 * CRC-32C (crc32_iscsi) for raid/crc32c.h.
 */
#include <string.h>
#include <glib.h>
#include <isa-l/raid.h>
#include <isa-l/erasure_code.h>
#include <isa-l/crc.h>
#include "parity-int.h"
#include "raid/crc32c.h"

/* Zero strips for the Q slots that hold no data (DDF: P and Q members). */
#define ZERO_CHUNK (1u << 20)
static uint8_t zero_chunk[ZERO_CHUNK] __attribute__((aligned(64)));

bool raid_parity_have_isal(void)
{
    return true;
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

bool raid_isal_gen(const RaidStripeBufs *b, size_t len)
{
    void *v[RAID_COMBINE_MAX_SRC + 2];
    uint32_t slots = 0;

    if (!isal_ok(b, len) ||
        (b->q && b->ndata + 2 > RAID_COMBINE_MAX_SRC)) {
        return false;
    }
    if (!b->q) {
        if (b->ndata == 1) {
            memcpy(b->p, b->data[0], len);
            return true;
        }
        memcpy(v, b->data, b->ndata * sizeof(void *));
        v[b->ndata] = b->p;
        xor_gen(b->ndata + 1, len, v);
        return true;
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
    return true;
}

bool raid_isal_combine(const RaidCombine *c, size_t len)
{
    uint8_t tbl[32 * RAID_COMBINE_MAX_SRC * 2];
    uint8_t mat[RAID_COMBINE_MAX_SRC * 2];
    bool all_one = c->nout == 1;
    uintptr_t bits = len;

    for (uint32_t j = 0; j < c->nsrc; j++) {
        bits |= (uintptr_t)c->src[j];
    }
    for (uint32_t r = 0; r < c->nout; r++) {
        bits |= (uintptr_t)c->out[r];
    }
    if (len % 64 || bits & 31 || len > INT32_MAX) {
        return false;
    }

    for (uint32_t j = 0; all_one && j < c->nsrc; j++) {
        all_one = c->coef[0][j] == 1;
    }
    if (all_one && c->nsrc == 1) {
        memcpy(c->out[0], c->src[0], len);
        return true;
    }
    if (all_one) {
        void *v[RAID_COMBINE_MAX_SRC + 1];

        memcpy(v, c->src, c->nsrc * sizeof(void *));
        v[c->nsrc] = c->out[0];
        xor_gen(c->nsrc + 1, len, v);
        return true;
    }
    for (uint32_t r = 0; r < c->nout; r++) {
        memcpy(mat + r * c->nsrc, c->coef[r], c->nsrc);
    }
    ec_init_tables(c->nsrc, c->nout, mat, tbl);
    ec_encode_data(len, c->nsrc, c->nout, tbl, (uint8_t **)c->src,
                   (uint8_t **)c->out);
    return true;
}

bool raid_isal_mul_xor(uint8_t *dst, const uint8_t *src, uint8_t coef,
                       size_t len)
{
    uint8_t tbl[32];

    if (len % 64 || len > INT32_MAX ||
        (((uintptr_t)dst | (uintptr_t)src) & 31)) {
        return false;
    }
    ec_init_tables(1, 1, &coef, tbl);
    gf_vect_mad(len, 1, 0, tbl, (uint8_t *)src, dst);
    return true;
}

uint32_t raid_crc32c(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    /* crc32_iscsi() takes an int length */
    while (len) {
        int n = MIN(len, (size_t)INT32_MAX & ~(size_t)4095);

        crc = crc32_iscsi((unsigned char *)p, n, crc);
        p += n;
        len -= n;
    }
    return crc;
}
