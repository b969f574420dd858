/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: reference parity implementation and GF(2^8) arithmetic.
 * Plain C, byte at a time, written for clarity: the tests check the
 * ISA-L path and the layouts against it.
 */
#include <string.h>
#include <glib.h>
#include "parity-int.h"

#define GF_POLY 0x11d

static uint8_t gf_exp_tab[512];
static uint8_t gf_log_tab[256];

static void gf_init_once(void)
{
    static gsize done;

    if (g_once_init_enter(&done)) {
        unsigned x = 1;

        for (unsigned i = 0; i < 255; i++) {
            gf_exp_tab[i] = x;
            gf_exp_tab[i + 255] = x;
            gf_log_tab[x] = i;
            x <<= 1;
            if (x & 0x100) {
                x ^= GF_POLY;
            }
        }
        gf_exp_tab[510] = gf_exp_tab[0];
        gf_exp_tab[511] = gf_exp_tab[1];
        g_once_init_leave(&done, 1);
    }
}

uint8_t raid_gf_exp(unsigned e)
{
    gf_init_once();
    return gf_exp_tab[e % 255];
}

uint8_t raid_gf_mul(uint8_t a, uint8_t b)
{
    gf_init_once();
    if (!a || !b) {
        return 0;
    }
    return gf_exp_tab[gf_log_tab[a] + gf_log_tab[b]];
}

uint8_t raid_gf_inv(uint8_t a)
{
    gf_init_once();
    g_assert(a);
    return gf_exp_tab[255 - gf_log_tab[a]];
}

void raid_ref_mul_xor(uint8_t *dst, const uint8_t *src, uint8_t coef,
                      size_t len)
{
    if (coef == 0) {
        return;
    }
    if (coef == 1) {
        for (size_t i = 0; i < len; i++) {
            dst[i] ^= src[i];
        }
        return;
    }
    for (size_t i = 0; i < len; i++) {
        dst[i] ^= raid_gf_mul(coef, src[i]);
    }
}

void raid_ref_combine(const RaidCombine *c, size_t len)
{
    for (uint32_t r = 0; r < c->nout; r++) {
        memset(c->out[r], 0, len);
        for (uint32_t j = 0; j < c->nsrc; j++) {
            raid_ref_mul_xor(c->out[r], c->src[j], c->coef[r][j], len);
        }
    }
}

void raid_ref_gen(const RaidStripeBufs *b, size_t len)
{
    memset(b->p, 0, len);
    if (b->q) {
        memset(b->q, 0, len);
    }
    for (uint32_t i = 0; i < b->ndata; i++) {
        raid_ref_mul_xor(b->p, b->data[i], 1, len);
        if (b->q) {
            raid_ref_mul_xor(b->q, b->data[i], raid_gf_exp(b->exp[i]), len);
        }
    }
}
