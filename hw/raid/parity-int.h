/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RAID core: internals shared by the two parity implementations. */
#ifndef RAID_PARITY_INT_H
#define RAID_PARITY_INT_H

#include "raid/parity.h"

/* Up to 2 outputs, each a GF linear combination of up to 34 sources. */
#define RAID_COMBINE_MAX_SRC (RAID_PARITY_MAX_DATA + 2)

typedef struct RaidCombine {
    uint32_t nsrc, nout;
    uint8_t *src[RAID_COMBINE_MAX_SRC];
    uint8_t *out[2];
    uint8_t coef[2][RAID_COMBINE_MAX_SRC];
} RaidCombine;

/* out[r] = XOR_j coef[r][j] * src[j], byte at a time. */
void raid_ref_combine(const RaidCombine *c, size_t len);
void raid_ref_gen(const RaidStripeBufs *b, size_t len);
void raid_ref_mul_xor(uint8_t *dst, const uint8_t *src, uint8_t coef,
                      size_t len);

/*
 * The fast backend, for RAID_PARITY_ISAL requests: isal.c (ISA-L),
 * or isal-none.c in a build without it.  Each returns false when
 * it did not do the work (buffers ISA-L cannot take, or no ISA-L); the
 * front end then runs the reference function of the same name.
 */
bool raid_isal_gen(const RaidStripeBufs *b, size_t len);
bool raid_isal_combine(const RaidCombine *c, size_t len);
bool raid_isal_mul_xor(uint8_t *dst, const uint8_t *src, uint8_t coef,
                       size_t len);

#endif
