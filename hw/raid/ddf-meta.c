/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim RAID core: lifetime of the decoded DDF structure (DdfMeta)
 * and the choice between a drive's primary and secondary copies.
 */
#include "raid/ddf.h"

#include <string.h>

static void conf_clear(gpointer p)
{
    DdfVdConf *c = p;

    g_free(c->refs);
    g_free(c->lbas);
}

DdfMeta *ddf_meta_new(uint16_t max_pd, uint16_t max_vd, uint16_t max_part,
                      uint16_t mppe)
{
    DdfMeta *m = g_new0(DdfMeta, 1);

    m->max_pd = max_pd;
    m->max_vd = max_vd;
    m->max_part = max_part;
    m->mppe = mppe;
    m->cfg_rec_len = 1 + (12 * mppe + 511) / 512;
    m->pd = g_new(DdfPdEntry, max_pd);
    memset(m->pd, 0xff, sizeof(DdfPdEntry) * max_pd);
    m->vd = g_new(DdfVdEntry, max_vd);
    memset(m->vd, 0xff, sizeof(DdfVdEntry) * max_vd);
    m->conf = g_array_new(false, true, sizeof(DdfVdConf));
    g_array_set_clear_func(m->conf, conf_clear);
    memcpy(m->rev, "01.02.00", 9);
    memset(m->ctrl_vendor, 0xff, sizeof(m->ctrl_vendor));
    m->secondary_lba = UINT64_MAX;
    return m;
}

void ddf_meta_free(DdfMeta *m)
{
    if (!m) {
        return;
    }
    g_free(m->pd);
    g_free(m->vd);
    g_array_unref(m->conf);
    g_free(m);
}

DdfVdConf *ddf_meta_add_conf(DdfMeta *m)
{
    DdfVdConf c = { 0 };

    c.nelem = m->mppe;
    c.refs = g_new(uint32_t, m->mppe);
    memset(c.refs, 0xff, sizeof(uint32_t) * m->mppe);
    c.lbas = g_new0(uint64_t, m->mppe);
    memset(c.vendor, 0xff, sizeof(c.vendor));
    c.sec_count = 1;
    c.srl = 0xff;
    g_array_append_val(m->conf, c);
    return &g_array_index(m->conf, DdfVdConf, m->conf->len - 1);
}

/*
 * As mdadm: the primary if valid, unless the secondary is valid and closed
 * and either newer, or equally new while the primary was left open.
 * Returns DDF_HDR_PRIMARY, DDF_HDR_SECONDARY or -1 (neither).
 */
int ddf_pick_copy(const DdfHeader *primary, bool primary_ok,
                  const DdfHeader *secondary, bool secondary_ok)
{
    if (!secondary_ok) {
        return primary_ok ? DDF_HDR_PRIMARY : -1;
    }
    if (!primary_ok) {
        return DDF_HDR_SECONDARY;
    }
    if (!secondary->open_flag &&
        (primary->seq < secondary->seq ||
         (primary->seq == secondary->seq && primary->open_flag))) {
        return DDF_HDR_SECONDARY;
    }
    return DDF_HDR_PRIMARY;
}
