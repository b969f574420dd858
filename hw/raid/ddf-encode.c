/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: DDF encoder.
 *
 * DdfMeta -> the anchor sector and one full copy (header plus controller
 * data, PD records, VD records, configuration records, physical disk
 * data), big-endian, unused bytes 0xFF, every structure with its CRC.
 * The sections follow the header in that order.
 */
#include "raid/ddf.h"
#include "ddf-layout.h"

typedef struct Sections {
    uint32_t off[5], len[5];
    uint32_t total;
} Sections;

static void layout_sections(const DdfMeta *m, Sections *s)
{
    uint32_t at = 1;

    s->len[DDF_SEC_CTRL] = 1;
    s->len[DDF_SEC_PHYS] = sectors_for(64 + 64 * (uint32_t)m->max_pd);
    s->len[DDF_SEC_VIRT] = sectors_for(64 + 64 * (uint32_t)m->max_vd);
    s->len[DDF_SEC_CONF] = (uint32_t)m->cfg_rec_len * (m->max_part + 1u);
    s->len[DDF_SEC_PDD] = 1;
    for (int i = 0; i < 5; i++) {
        s->off[i] = at;
        at += s->len[i];
    }
    s->total = at;
}

uint32_t ddf_copy_sectors(const DdfMeta *m)
{
    Sections s;

    layout_sections(m, &s);
    return s.total;
}

static void seal(uint8_t *buf, size_t len)
{
    put32(buf + H_CRC, ddf_struct_crc(buf, len));
}

static void encode_header(const DdfMeta *m, int type, uint8_t *h)
{
    Sections s;

    layout_sections(m, &s);
    memset(h, 0xff, 512);
    put32(h + H_MAGIC, DDF_HEADER_MAGIC);
    memcpy(h + H_GUID, m->guid, DDF_GUID_LEN);
    memcpy(h + H_REV, m->rev, 8);
    put32(h + H_SEQ, type == DDF_HDR_ANCHOR ? 0xffffffffu : m->seq);
    put32(h + H_TIME, m->timestamp);
    h[H_OPEN] = type == DDF_HDR_ANCHOR ? 0xff : m->open_flag;
    h[H_FOREIGN] = m->foreign_flag;
    h[H_GROUPING] = 0;
    put64(h + H_PRIMARY, m->primary_lba);
    put64(h + H_SECONDARY, m->secondary_lba);
    h[H_TYPE] = type;
    put32(h + H_WS_LEN, m->ws_len);
    put64(h + H_WS_LBA, m->ws_lba);
    put16(h + H_MAX_PD, m->max_pd);
    put16(h + H_MAX_VD, m->max_vd);
    put16(h + H_MAX_PART, m->max_part);
    put16(h + H_REC_LEN, m->cfg_rec_len);
    put16(h + H_MPPE, m->mppe);
    for (int i = 0; i < 8; i++) {
        bool present = i < 5;
        put32(h + H_SECTIONS + 8 * i, present ? s.off[i] : 0xffffffffu);
        put32(h + H_SECTIONS + 8 * i + 4, present ? s.len[i] : 0);
    }
    seal(h, 512);
}

void ddf_encode_anchor(const DdfMeta *m, uint8_t *buf)
{
    encode_header(m, DDF_HDR_ANCHOR, buf);
}

static void encode_ctrl(const DdfMeta *m, uint8_t *c)
{
    memset(c, 0xff, 512);
    put32(c, DDF_CONTROLLER_MAGIC);
    memcpy(c + C_GUID, m->ctrl_guid, DDF_GUID_LEN);
    for (int i = 0; i < 4; i++) {
        put16(c + C_TYPE + 2 * i, m->ctrl_type[i]);
    }
    memset(c + C_PRODUCT, ' ', 16);
    memcpy(c + C_PRODUCT, m->product, strnlen(m->product, 16));
    memcpy(c + C_VENDOR, m->ctrl_vendor, sizeof(m->ctrl_vendor));
    seal(c, 512);
}

static bool guid_free(const uint8_t *g)
{
    for (int i = 0; i < DDF_GUID_LEN; i++) {
        if (g[i] != 0xff) {
            return false;
        }
    }
    return true;
}

static void encode_phys(const DdfMeta *m, uint8_t *p, uint32_t len)
{
    uint16_t used = 0;

    memset(p, 0xff, len);
    put32(p, DDF_PHYS_MAGIC);
    for (int i = 0; i < m->max_pd; i++) {
        const DdfPdEntry *e = &m->pd[i];
        uint8_t *q = p + T_ENTRIES + 64 * i;

        if (guid_free(e->guid)) {
            continue;
        }
        used++;
        memcpy(q + PE_GUID, e->guid, DDF_GUID_LEN);
        put32(q + PE_REF, e->ref);
        put16(q + PE_TYPE, e->type);
        put16(q + PE_STATE, e->state);
        put64(q + PE_SIZE, e->configured_size);
    }
    put16(p + T_COUNT, used);
    put16(p + T_MAX, m->max_pd);
    seal(p, len);
}

static void encode_virt(const DdfMeta *m, uint8_t *p, uint32_t len)
{
    uint16_t used = 0;

    memset(p, 0xff, len);
    put32(p, DDF_VIRT_MAGIC);
    for (int i = 0; i < m->max_vd; i++) {
        const DdfVdEntry *e = &m->vd[i];
        uint8_t *q = p + T_ENTRIES + 64 * i;

        if (guid_free(e->guid)) {
            continue;
        }
        used++;
        memcpy(q + VE_GUID, e->guid, DDF_GUID_LEN);
        put16(q + VE_NUMBER, e->number);
        put32(q + VE_TYPE, 0);
        q[VE_STATE] = e->state;
        q[VE_INIT] = e->init_state;
        memset(q + VE_NAME, 0, 16);
        memcpy(q + VE_NAME, e->name, strnlen(e->name, 16));
    }
    put16(p + T_COUNT, used);
    put16(p + T_MAX, m->max_vd);
    seal(p, len);
}

static void encode_vdconf(const DdfMeta *m, const DdfVdConf *c, uint8_t *r,
                          uint32_t len)
{
    memset(r, 0xff, len);
    put32(r, DDF_VDCONF_MAGIC);
    memcpy(r + R_GUID, c->guid, DDF_GUID_LEN);
    put32(r + R_TIME, c->timestamp);
    put32(r + R_SEQ, c->seq);
    put16(r + R_PRIM_COUNT, c->prim_count);
    r[R_STRIPE] = c->stripe_size;
    r[R_PRL] = c->prl;
    r[R_RLQ] = c->rlq;
    r[R_SEC_COUNT] = c->sec_count;
    r[R_SEC_SEQ] = c->sec_seq;
    r[R_SRL] = c->srl;
    put64(r + R_BLOCKS, c->block_count);
    put64(r + R_SIZE, c->vd_size);
    memset(r + R_CACHE, 0, 7);
    r[R_CACHE + 7] = c->cache;
    r[R_BG_RATE] = c->bg_rate;
    memcpy(r + R_VENDOR, c->vendor, 32);
    for (int i = 0; i < m->mppe; i++) {
        put32(r + R_REFS + 4 * i, c->refs[i]);
        put64(r + R_REFS + 4 * m->mppe + 8 * i, c->lbas[i]);
    }
    seal(r, len);
}

static void encode_spare(const DdfMeta *m, uint8_t *r, uint32_t len)
{
    uint16_t max = (len - S_ENTRIES) / 32;
    uint16_t n = MIN(m->spare.n, max);

    memset(r, 0xff, len);
    put32(r, DDF_SPARE_MAGIC);
    put32(r + S_TIME, m->timestamp);
    r[S_TYPE] = m->spare.type;
    put16(r + S_COUNT, n);
    put16(r + S_MAX, max);
    for (int i = 0; i < n; i++) {
        memcpy(r + S_ENTRIES + 32 * i, m->spare.e[i].guid, DDF_GUID_LEN);
        put16(r + S_ENTRIES + 32 * i + 24, m->spare.e[i].sec);
    }
    seal(r, len);
}

static void encode_pdd(const DdfMeta *m, uint8_t *d)
{
    memset(d, 0xff, 512);
    put32(d, DDF_PDD_MAGIC);
    memcpy(d + D_GUID, m->pdd_guid, DDF_GUID_LEN);
    put32(d + D_REF, m->pdd_ref);
    d[D_FORCED_REF] = m->pdd_forced_ref;
    d[D_FORCED_GUID] = m->pdd_forced_guid;
    seal(d, 512);
}

void ddf_encode_copy(const DdfMeta *m, int type, uint8_t *buf)
{
    Sections s;
    uint32_t rec = m->cfg_rec_len * 512u;
    uint8_t *conf;
    guint slot = 0;

    layout_sections(m, &s);
    encode_header(m, type, buf);
    encode_ctrl(m, buf + 512u * s.off[DDF_SEC_CTRL]);
    encode_phys(m, buf + 512u * s.off[DDF_SEC_PHYS],
                512u * s.len[DDF_SEC_PHYS]);
    encode_virt(m, buf + 512u * s.off[DDF_SEC_VIRT],
                512u * s.len[DDF_SEC_VIRT]);
    conf = buf + 512u * s.off[DDF_SEC_CONF];
    memset(conf, 0xff, 512u * s.len[DDF_SEC_CONF]);
    for (guint i = 0; i < m->conf->len && slot < m->max_part; i++) {
        encode_vdconf(m, &g_array_index(m->conf, DdfVdConf, i),
                      conf + rec * slot++, rec);
    }
    if (m->has_spare) {
        /* The extra slot after max_part VD records, as mdadm keeps it. */
        encode_spare(m, conf + rec * m->max_part, rec);
    }
    encode_pdd(m, buf + 512u * s.off[DDF_SEC_PDD]);
}
