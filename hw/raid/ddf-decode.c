/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: DDF decoder.
 *
 * Bytes -> DdfHeader / DdfMeta.  Treats its input as hostile: every count,
 * offset and length is checked against the buffer and the DDF maxima
 * before use, every signature and CRC is verified, and any damage refuses
 * the copy with a message naming the structure.  Never reads outside the
 * buffer it was given.
 */
#include "raid/ddf.h"
#include "ddf-layout.h"

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/* Copies larger than this (sections end beyond it) are refused. */
#define DDF_MAX_EXTENT  16384

static const char *const sec_names[8] = {
    "controller data", "physical disk records", "virtual disk records",
    "configuration records", "physical disk data", "bad block log",
    "diagnostic space", "vendor log",
};

static bool check_struct(const uint8_t *buf, size_t len, uint32_t magic,
                         const char *what, GError **errp)
{
    if (get32(buf) != magic) {
        ERR(errp, "%s: bad signature %08x (expected %08x)", what, get32(buf),
            magic);
        return false;
    }
    if (get32(buf + H_CRC) != ddf_struct_crc(buf, len)) {
        ERR(errp, "%s: bad CRC %08x (computed %08x)", what,
            get32(buf + H_CRC), ddf_struct_crc(buf, len));
        return false;
    }
    return true;
}

bool ddf_decode_header(const uint8_t *buf, DdfHeader *h, GError **errp)
{
    memset(h, 0, sizeof(*h));
    if (!check_struct(buf, 512, DDF_HEADER_MAGIC, "DDF header", errp)) {
        return false;
    }
    memcpy(h->raw, buf, 512);
    memcpy(h->guid, buf + H_GUID, DDF_GUID_LEN);
    memcpy(h->rev, buf + H_REV, 8);
    h->rev[8] = 0;
    if (memcmp(h->rev, "01.00.00", 8) && memcmp(h->rev, "01.02.00", 8)) {
        ERR(errp, "DDF header: revision '%.8s' is not supported "
            "(01.00.00 or 01.02.00)", h->rev);
        g_strcanon(h->rev, "0123456789.", '?');
        return false;
    }
    h->seq = get32(buf + H_SEQ);
    h->timestamp = get32(buf + H_TIME);
    h->open_flag = buf[H_OPEN];
    h->foreign_flag = buf[H_FOREIGN];
    h->type = buf[H_TYPE];
    h->primary_lba = get64(buf + H_PRIMARY);
    h->secondary_lba = get64(buf + H_SECONDARY);
    h->ws_len = get32(buf + H_WS_LEN);
    h->ws_lba = get64(buf + H_WS_LBA);
    h->max_pd = get16(buf + H_MAX_PD);
    h->max_vd = get16(buf + H_MAX_VD);
    h->max_part = get16(buf + H_MAX_PART);
    h->cfg_rec_len = get16(buf + H_REC_LEN);
    h->mppe = get16(buf + H_MPPE);
    for (int i = 0; i < 8; i++) {
        h->sec_off[i] = get32(buf + H_SECTIONS + 8 * i);
        h->sec_len[i] = get32(buf + H_SECTIONS + 8 * i + 4);
    }
    if (h->type > DDF_HDR_SECONDARY) {
        ERR(errp, "DDF header: unknown header type %u", h->type);
        return false;
    }
    if (h->max_pd < 1 || h->max_pd > DDF_MAX_ENTRIES ||
        h->max_vd < 1 || h->max_vd > DDF_MAX_ENTRIES) {
        ERR(errp, "DDF header: Max_PD_Entries %u / Max_VD_Entries %u out of "
            "range 1..%u", h->max_pd, h->max_vd, DDF_MAX_ENTRIES);
        return false;
    }
    if (h->mppe < 1 || h->mppe > DDF_MAX_MPPE) {
        ERR(errp, "DDF header: Max_Primary_Element_Entries %u out of range "
            "1..%u", h->mppe, DDF_MAX_MPPE);
        return false;
    }
    if (h->cfg_rec_len < rec_len_for(h->mppe) ||
        h->cfg_rec_len > DDF_MAX_SECTION) {
        ERR(errp, "DDF header: Configuration_Record_Length %u sectors cannot "
            "hold %u elements", h->cfg_rec_len, h->mppe);
        return false;
    }
    if (h->max_part > DDF_MAX_PARTITIONS) {
        ERR(errp, "DDF header: Max_Partitions %u out of range", h->max_part);
        return false;
    }
    if (h->type == DDF_HDR_ANCHOR) {
        return true;
    }
    for (int i = 0; i < 5; i++) {
        if (h->sec_off[i] == 0 || h->sec_len[i] == 0 ||
            h->sec_len[i] > DDF_MAX_SECTION ||
            h->sec_off[i] > DDF_MAX_EXTENT ||
            h->sec_off[i] + h->sec_len[i] > DDF_MAX_EXTENT) {
            ERR(errp, "DDF header: %s section at offset %u, %u sectors, is "
                "out of range", sec_names[i], h->sec_off[i], h->sec_len[i]);
            return false;
        }
    }
    if (h->sec_len[DDF_SEC_CTRL] != 1 || h->sec_len[DDF_SEC_PDD] != 1) {
        ERR(errp, "DDF header: controller data and physical disk data must "
            "be 1 sector long");
        return false;
    }
    if (h->sec_len[DDF_SEC_PHYS] * 512u < 64 + 64u * h->max_pd ||
        h->sec_len[DDF_SEC_VIRT] * 512u < 64 + 64u * h->max_vd) {
        ERR(errp, "DDF header: record sections too short for %u PDs / %u VDs",
            h->max_pd, h->max_vd);
        return false;
    }
    return true;
}

bool ddf_header_matches_anchor(const DdfHeader *h, const DdfHeader *anchor,
                               int type, GError **errp)
{
    if (h->type != type) {
        ERR(errp, "DDF header type %u where %s was expected", h->type,
            type == DDF_HDR_PRIMARY ? "primary" : "secondary");
        return false;
    }
    if (memcmp(h->guid, anchor->guid, DDF_GUID_LEN) ||
        memcmp(h->rev, anchor->rev, 8) ||
        h->primary_lba != anchor->primary_lba ||
        h->secondary_lba != anchor->secondary_lba ||
        memcmp(h->raw + H_TYPE + 1, anchor->raw + H_TYPE + 1,
               512 - H_TYPE - 1)) {
        ERR(errp, "%s DDF header does not match the anchor",
            type == DDF_HDR_PRIMARY ? "primary" : "secondary");
        return false;
    }
    return true;
}

uint32_t ddf_header_extent(const DdfHeader *h)
{
    uint32_t end = 1;

    for (int i = 0; i < 5; i++) {
        end = MAX(end, h->sec_off[i] + h->sec_len[i]);
    }
    return end;
}

static void decode_vdconf(DdfMeta *m, const uint8_t *r)
{
    DdfVdConf *c = ddf_meta_add_conf(m);

    memcpy(c->guid, r + R_GUID, DDF_GUID_LEN);
    c->timestamp = get32(r + R_TIME);
    c->seq = get32(r + R_SEQ);
    c->prim_count = get16(r + R_PRIM_COUNT);
    c->stripe_size = r[R_STRIPE];
    c->prl = r[R_PRL];
    c->rlq = r[R_RLQ];
    c->sec_count = r[R_SEC_COUNT];
    c->sec_seq = r[R_SEC_SEQ];
    c->srl = r[R_SRL];
    c->block_count = get64(r + R_BLOCKS);
    c->vd_size = get64(r + R_SIZE);
    c->cache = r[R_CACHE + 7];
    c->bg_rate = r[R_BG_RATE];
    memcpy(c->vendor, r + R_VENDOR, 32);
    for (int i = 0; i < m->mppe; i++) {
        c->refs[i] = get32(r + R_REFS + 4 * i);
        c->lbas[i] = get64(r + R_REFS + 4 * m->mppe + 8 * i);
    }
}

static void decode_spare(DdfMeta *m, const uint8_t *r, uint32_t len)
{
    uint16_t n = get16(r + S_COUNT);
    uint32_t fit = (len - S_ENTRIES) / 32;

    n = MIN(n, MIN(fit, (uint32_t)DDF_OUR_MAX_VD));
    m->has_spare = true;
    m->spare.type = r[S_TYPE];
    m->spare.n = n;
    for (int i = 0; i < n; i++) {
        memcpy(m->spare.e[i].guid, r + S_ENTRIES + 32 * i, DDF_GUID_LEN);
        m->spare.e[i].sec = get16(r + S_ENTRIES + 32 * i + 24);
    }
}

static bool decode_conf(DdfMeta *m, const uint8_t *conf, uint32_t sectors,
                        GError **errp)
{
    uint32_t rec = m->cfg_rec_len;

    for (uint32_t s = 0; s + rec <= sectors; s += rec) {
        const uint8_t *r = conf + 512u * s;
        uint32_t magic = get32(r);
        char what[64];

        if (magic != DDF_VDCONF_MAGIC && magic != DDF_SPARE_MAGIC) {
            continue;   /* empty or vendor-unique */
        }
        g_snprintf(what, sizeof(what), "configuration record at sector %u",
                   s);
        if (!check_struct(r, rec * 512u, magic, what, errp)) {
            return false;
        }
        if (magic == DDF_SPARE_MAGIC) {
            if (!m->has_spare) {
                decode_spare(m, r, rec * 512u);
            }
            continue;
        }
        if (m->conf->len >= DDF_MAX_PARTITIONS) {
            ERR(errp, "too many configuration records");
            return false;
        }
        decode_vdconf(m, r);
    }
    return true;
}

DdfMeta *ddf_decode_copy(const DdfHeader *h, const uint8_t *buf, size_t len,
                         GError **errp)
{
    g_autoptr(DdfMeta) m = NULL;
    const uint8_t *p;
    uint32_t end = ddf_header_extent(h);

    if (h->type == DDF_HDR_ANCHOR || len < (size_t)end * 512) {
        ERR(errp, "DDF copy: %zu bytes given, %u sectors needed", len, end);
        return NULL;
    }
    m = ddf_meta_new(h->max_pd, h->max_vd, h->max_part, h->mppe);
    m->cfg_rec_len = h->cfg_rec_len;
    memcpy(m->guid, h->guid, DDF_GUID_LEN);
    memcpy(m->rev, h->rev, 9);
    m->seq = h->seq;
    m->timestamp = h->timestamp;
    m->open_flag = h->open_flag;
    m->foreign_flag = h->foreign_flag;
    m->primary_lba = h->primary_lba;
    m->secondary_lba = h->secondary_lba;
    m->ws_lba = h->ws_lba;
    m->ws_len = h->ws_len;

    p = buf + 512u * h->sec_off[DDF_SEC_CTRL];
    if (!check_struct(p, 512, DDF_CONTROLLER_MAGIC, "controller data",
                      errp)) {
        return NULL;
    }
    memcpy(m->ctrl_guid, p + C_GUID, DDF_GUID_LEN);
    for (int i = 0; i < 4; i++) {
        m->ctrl_type[i] = get16(p + C_TYPE + 2 * i);
    }
    memcpy(m->product, p + C_PRODUCT, 16);
    m->product[16] = 0;
    g_strchomp(m->product);
    memcpy(m->ctrl_vendor, p + C_VENDOR, sizeof(m->ctrl_vendor));

    p = buf + 512u * h->sec_off[DDF_SEC_PHYS];
    if (!check_struct(p, 512u * h->sec_len[DDF_SEC_PHYS], DDF_PHYS_MAGIC,
                      "physical disk records", errp)) {
        return NULL;
    }
    for (int i = 0; i < m->max_pd; i++) {
        const uint8_t *q = p + T_ENTRIES + 64 * i;
        DdfPdEntry *e = &m->pd[i];

        memcpy(e->guid, q + PE_GUID, DDF_GUID_LEN);
        e->ref = get32(q + PE_REF);
        e->type = get16(q + PE_TYPE);
        e->state = get16(q + PE_STATE);
        e->configured_size = get64(q + PE_SIZE);
    }

    p = buf + 512u * h->sec_off[DDF_SEC_VIRT];
    if (!check_struct(p, 512u * h->sec_len[DDF_SEC_VIRT], DDF_VIRT_MAGIC,
                      "virtual disk records", errp)) {
        return NULL;
    }
    for (int i = 0; i < m->max_vd; i++) {
        const uint8_t *q = p + T_ENTRIES + 64 * i;
        DdfVdEntry *e = &m->vd[i];

        memcpy(e->guid, q + VE_GUID, DDF_GUID_LEN);
        e->number = get16(q + VE_NUMBER);
        e->state = q[VE_STATE];
        e->init_state = q[VE_INIT];
        memcpy(e->name, q + VE_NAME, 16);
        e->name[16] = 0;
        for (int k = 0; k < 16; k++) {
            if (e->name[k] == ' ' || e->name[k] == 0) {
                e->name[k] = 0;
                break;
            }
            if (!g_ascii_isprint(e->name[k])) {
                e->name[k] = '?';
            }
        }
    }

    if (!decode_conf(m, buf + 512u * h->sec_off[DDF_SEC_CONF],
                     h->sec_len[DDF_SEC_CONF], errp)) {
        return NULL;
    }

    p = buf + 512u * h->sec_off[DDF_SEC_PDD];
    if (!check_struct(p, 512, DDF_PDD_MAGIC, "physical disk data", errp)) {
        return NULL;
    }
    memcpy(m->pdd_guid, p + D_GUID, DDF_GUID_LEN);
    m->pdd_ref = get32(p + D_REF);
    m->pdd_forced_ref = p[D_FORCED_REF];
    m->pdd_forced_guid = p[D_FORCED_GUID];
    return g_steal_pointer(&m);
}
