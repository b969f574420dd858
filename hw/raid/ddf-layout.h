/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: DDF field offsets and big-endian accessors,
 * private to the DDF codec (ddf-encode.c, ddf-decode.c).
 */
#ifndef RAID_DDF_LAYOUT_H
#define RAID_DDF_LAYOUT_H

#include <stdint.h>
#include <string.h>

/* header */
#define H_MAGIC         0x000
#define H_CRC           0x004
#define H_GUID          0x008
#define H_REV           0x020
#define H_SEQ           0x028
#define H_TIME          0x02c
#define H_OPEN          0x030
#define H_FOREIGN       0x031
#define H_GROUPING      0x032
#define H_PRIMARY       0x060
#define H_SECONDARY     0x068
#define H_TYPE          0x070
#define H_WS_LEN        0x074
#define H_WS_LBA        0x078
#define H_MAX_PD        0x080
#define H_MAX_VD        0x082
#define H_MAX_PART      0x084
#define H_REC_LEN       0x086
#define H_MPPE          0x088
#define H_SECTIONS      0x0c0   /* 8 x (offset, length), be32 each */

/* controller data */
#define C_GUID          0x008
#define C_TYPE          0x020
#define C_PRODUCT       0x028
#define C_VENDOR        0x040

/* PD and VD record sections: 64-byte header, 64-byte entries */
#define T_COUNT         0x008
#define T_MAX           0x00a
#define T_ENTRIES       0x040
#define PE_GUID         0x00
#define PE_REF          0x18
#define PE_TYPE         0x1c
#define PE_STATE        0x1e
#define PE_SIZE         0x20
#define VE_GUID         0x00
#define VE_NUMBER       0x18
#define VE_TYPE         0x1c
#define VE_STATE        0x20
#define VE_INIT         0x21
#define VE_NAME         0x30

/* VD configuration record */
#define R_GUID          0x008
#define R_TIME          0x020
#define R_SEQ           0x024
#define R_PRIM_COUNT    0x040
#define R_STRIPE        0x042
#define R_PRL           0x043
#define R_RLQ           0x044
#define R_SEC_COUNT     0x045
#define R_SEC_SEQ       0x046
#define R_SRL           0x047
#define R_BLOCKS        0x048
#define R_SIZE          0x050
#define R_CACHE         0x080
#define R_BG_RATE       0x088
#define R_VENDOR        0x1e0
#define R_REFS          0x200

/* spare assignment record */
#define S_TIME          0x008
#define S_TYPE          0x013
#define S_COUNT         0x014
#define S_MAX           0x016
#define S_ENTRIES       0x020

/* physical disk data */
#define D_GUID          0x008
#define D_REF           0x020
#define D_FORCED_REF    0x024
#define D_FORCED_GUID   0x025

static inline uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static inline void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static inline void put64(uint8_t *p, uint64_t v)
{
    put32(p, v >> 32);
    put32(p + 4, (uint32_t)v);
}

static inline uint32_t sectors_for(uint32_t bytes)
{
    return (bytes + 511) / 512;
}

/* Our section layout inside one copy, in sectors from the header. */
static inline uint32_t rec_len_for(uint32_t mppe)
{
    return 1 + sectors_for(12 * mppe);
}

#endif
