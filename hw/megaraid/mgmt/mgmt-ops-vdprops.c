/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the management operation that changes a VD's properties
 * (MGMT_OP_VD_SET_PROPS): its cache policy byte and its name, as MFI's
 * LD_SET_PROPERTIES asks for them.  The change is recorded in the VD's
 * DDF configuration record (a new sequence number), the cache follows
 * the new write policy (a VD going write-through writes its dirty lines
 * back) and the host hears of the VD's change.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qapi/error.h"
#include "mgmt-ops.h"
#include "trace.h"

#define VP_OFF(field)   MGMT_OFF_DATA(offsetof(MgmtVdProps, field))

uint8_t mgmt_op_vd_set_props(MgmtCtx *c)
{
    MRVirtualDisk *vd = mgmt_vd(c, c->mbox[0]);
    uint32_t mask = c->mbox[1];
    MgmtVdProps p;
    Error *err = NULL;
    RaidVd *v;
    int i;

    if (!vd) {
        return mgmt_refuse(c, MGMT_STAT_VD_NOT_FOUND, MGMT_OFF_MBOX(0),
                           c->mbox[0]);
    }
    if (!mask || (mask & ~MGMT_VDPROP_MASK)) {
        return mgmt_bad_mbox(c, 1);
    }
    memcpy(&p, c->data, sizeof(p));
    if (p.cache_policy & ~MGMT_VDPROP_CACHE_MASK) {
        return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                           VP_OFF(cache_policy), p.cache_policy);
    }
    for (i = 0; i < (int)sizeof(p.reserved0); i++) {
        if (p.reserved0[i]) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               VP_OFF(reserved0) + i, p.reserved0[i]);
        }
    }
    for (i = 0; i < (int)sizeof(p.reserved1); i++) {
        if (p.reserved1[i]) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               VP_OFF(reserved1) + i, p.reserved1[i]);
        }
    }
    /* the name: printable ASCII, then only NULs */
    for (i = 0; i < MGMT_VD_NAME_LEN && p.name[i]; i++) {
        if (p.name[i] < 0x20 || p.name[i] > 0x7e) {
            break;
        }
    }
    for (int k = i; k < MGMT_VD_NAME_LEN; k++) {
        if (p.name[k]) {
            return mgmt_refuse(c, MGMT_STAT_INVALID_PARAMETER,
                               VP_OFF(name) + k, (uint8_t)p.name[k]);
        }
    }
    if (c->a->cfg->foreign) {
        return mgmt_refuse(c, MGMT_STAT_WRONG_STATE, MGMT_ERR_OFFSET_NONE,
                           MGMT_PD_FOREIGN);
    }
    v = mr_vd_cfg(vd);
    trace_megaraid_mgmt_vd_props(vd->idx, mask, v->cache, p.cache_policy);
    if (mask & MGMT_VDPROP_CACHE) {
        v->cache = p.cache_policy;
    }
    if (mask & MGMT_VDPROP_NAME) {
        memset(v->name, 0, sizeof(v->name));
        memcpy(v->name, p.name, MGMT_VD_NAME_LEN);
    }
    v->seq++;
    /* write-through now: what the cache holds goes to the members */
    mr_cache_policy_changed(c->a);
    mr_array_refresh(c->a);
    if (!mr_array_store(c->a, &err)) {
        trace_megaraid_mgmt_refused(c->opcode, error_get_pretty(err));
        error_free(err);
        return MGMT_STAT_IO_ERROR;
    }
    if (mgmt_need(c, sizeof(MgmtVdEntry))) {
        return MGMT_STAT_OK;    /* changed; the reply has no room for it */
    }
    mgmt_fill_vd_entry(vd, (MgmtVdEntry *)c->out);
    c->out_len = sizeof(MgmtVdEntry);
    return MGMT_STAT_OK;
}
