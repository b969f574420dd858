/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: parity arithmetic.
 *
 * Owns P (XOR) and Q (Reed-Solomon syndrome over GF(2^8), polynomial
 * x^8+x^4+x^3+x^2+1 = 0x11d, generator g = 2, as md's raid6) generation
 * and the recovery of one or two missing strips of a stripe.  Two
 * implementations with one interface: ISA-L (fast path) and plain C
 * (reference, used by the tests to check ISA-L and the layouts).  ISA-L
 * is optional at build time: without it RAID_PARITY_ISAL requests run on
 * the reference code too (raid_parity_have_isal() says which).
 *
 * Q = XOR over data strips i of g^exp[i] * D_i.  The exponents are given
 * by the caller: for the DDF RAID 6 layout they are the member's index in
 * its span (raid_layout_q_exp()); for md's native layouts they would be
 * 0..ndata-1.  Exponents must be distinct and < 255.
 *
 * All functions are thread-safe (the GF tables are built once).
 */
#ifndef RAID_PARITY_H
#define RAID_PARITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RAID_PARITY_MAX_DATA  32u

/* Identifies a strip of a stripe in recovery requests. */
#define RAID_STRIP_P      (-1)
#define RAID_STRIP_Q      (-2)
#define RAID_STRIP_NONE   (-3)

typedef enum RaidParityImpl {
    RAID_PARITY_ISAL,           /* ISA-L: xor_gen, pq_gen, ec_encode_data */
    RAID_PARITY_REF,            /* plain C, byte at a time */
} RaidParityImpl;

/* True if the build has ISA-L; false: RAID_PARITY_ISAL runs as _REF. */
bool raid_parity_have_isal(void);

/*
 * One stripe's buffers, all `len` bytes.  For the ISA-L path, len must be a
 * multiple of 64 and buffers 32-byte aligned (raid_buf_alloc() does that);
 * otherwise the reference code is used.
 */
typedef struct RaidStripeBufs {
    uint32_t ndata;
    uint8_t *data[RAID_PARITY_MAX_DATA];
    uint8_t exp[RAID_PARITY_MAX_DATA];  /* Q exponent of data[i] */
    uint8_t *p;
    uint8_t *q;                 /* NULL for single parity */
} RaidStripeBufs;

/* GF(2^8)/0x11d helpers (table based). */
uint8_t raid_gf_mul(uint8_t a, uint8_t b);
uint8_t raid_gf_inv(uint8_t a);
uint8_t raid_gf_exp(unsigned e);        /* g^e */

/* P = XOR of data (and Q if b->q != NULL). */
void raid_parity_gen(RaidParityImpl impl, const RaidStripeBufs *b,
                     size_t len);

/*
 * Recompute the strips named by a and b (data index, RAID_STRIP_P,
 * RAID_STRIP_Q or RAID_STRIP_NONE for b) from the others, in place.
 * RAID 5 (q == NULL): one of data or P.  RAID 6: any one or two.
 * Returns false if the combination is not recoverable.
 */
bool raid_parity_recover(RaidParityImpl impl, const RaidStripeBufs *b,
                         int a, int b_idx, size_t len);

/*
 * Read-modify-write update: P ^= old ^ new; Q ^= g^exp * (old ^ new).
 * `delta` holds old ^ new (len bytes); q may be NULL.
 */
void raid_parity_apply_delta(RaidParityImpl impl, uint8_t *p, uint8_t *q,
                             uint8_t exp, const uint8_t *delta, size_t len);

/* dst ^= src */
void raid_xor_into(uint8_t *dst, const uint8_t *src, size_t len);

/* Aligned buffers suitable for every implementation (64-byte aligned). */
void *raid_buf_alloc(size_t len);
void raid_buf_free(void *p);

#endif
