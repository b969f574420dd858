/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-9500 fast path.  Decides which VDs the RAID map
 * offers fast path for, and serves the frames megaraid_sas then builds
 * itself: a SCSI IO (Function 0, not a system PD) to the device handle
 * of the member its own arm/strip arithmetic chose, with that member's
 * LBA in the CDB and the VD's target id and map sequence number in the
 * RAID context.
 *
 * Offered for RAID 0, RAID 1 and RAID 10 of two-copy spans with
 * write-through cache, 512-byte blocks and one start per span (what the
 * map can describe), reads and writes within one strip, never for RAID
 * 5/6/50/60.  The firmware maps the member's sector back to the VD's
 * (raid_layout_member_to_vd) and runs the command on the VD's unit: the
 * RAID engine, its cache, its stripe locks and its jobs see every fast
 * path I/O, so a map the host has not caught up with yet cannot lose a
 * write.  A frame whose device handle and LBA do not map back into one
 * strip of the VD it names gets CONFIG_SEQ_MISMATCH when its sequence
 * number is old (the driver retries it with the new map), and INVALID
 * PARAMETER when the map was current: then the host's arithmetic is
 * wrong, which is what a driver developer wants to see.
 *
 * A RAID 1/10 write comes as a pair, one frame per copy, each naming its
 * peer's SMID.  The first runs on the VD, which writes both copies; the
 * second, when it names the first and the same VD range while the first
 * is still running, completes without I/O (the driver completes the SCSI
 * command when both have, with the worse status).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qom/object.h"
#include "scsi/constants.h"
#include "mr9500.h"
#include "trace.h"

/* RAID context (G35) fields of a SCSI IO frame */
#define FP_PEER_SMID            0x74
#define FP_CONFIG_SEQ           0x7A


bool mr9500_fp_offered(MR9500State *s, MRVirtualDisk *vd)
{
    const RaidLayout *l = mr_vd_layout(vd);

    if (!s->fast_path || mr_vd_unit(vd)->block_size != RAID_SECTOR_SIZE ||
        mr_vd_write_policy(vd) != MR_WP_WRITE_THROUGH) {
        return false;
    }
    switch (l->level) {
    case RAID_LEVEL_0:
        break;
    case RAID_LEVEL_1:
    case RAID_LEVEL_10:
        if (l->span_members != 2) {
            return false;
        }
        break;
    default:
        return false;
    }
    /* the map has one start block per span */
    for (uint32_t m = 0; m < l->members; m++) {
        if (l->member_start[m] !=
            l->member_start[m - m % l->span_members]) {
            return false;
        }
    }
    return true;
}

/* LBA, block count and direction of a READ/WRITE CDB; false: not one. */
static bool mr9500_fp_cdb(const uint8_t *cdb, uint64_t *lba, uint32_t *n,
                          bool *write)
{
    uint16_t len_byte;

    switch (cdb[0]) {
    case READ_6:
    case READ_10:
    case READ_12:
    case READ_16:
        *write = false;
        break;
    case WRITE_6:
    case WRITE_10:
    case WRITE_12:
    case WRITE_16:
        *write = true;
        break;
    default:
        return false;
    }
    mr_cdb_lba_len(cdb, lba, n, &len_byte);
    return true;
}

/* Member index of PD id @pd in @vd, -1: not one of its present members. */
static int mr9500_fp_member(MR9500State *s, MRVirtualDisk *vd, uint32_t pd)
{
    MRDrive *d = pd < MR9500_MAX_PDS ? s->pd[pd] : NULL;

    for (uint32_t m = 0; d && m < mr_vd_layout(vd)->members; m++) {
        if (mr_vd_member_status(vd, m) != RAID_MEMBER_MISSING &&
            mr_vd_member_drive(vd, m) == d) {
            return m;
        }
    }
    return -1;
}

/*
 * The VD range of member @m's [@lba, @lba + @n): false unless it is data
 * (or a copy of it) and lies within one strip.
 */
static bool mr9500_fp_to_vd(MRVirtualDisk *vd, int m, uint64_t lba,
                            uint32_t n, uint64_t *vd_lba)
{
    const RaidLayout *l = mr_vd_layout(vd);
    RaidRole role;
    uint64_t row;
    uint32_t off;

    if (m < 0 || !raid_layout_member_pos(l, m, lba, &row, &off) ||
        !raid_layout_member_to_vd(l, m, lba, &role, vd_lba) ||
        (role != RAID_ROLE_DATA && role != RAID_ROLE_MIRROR) ||
        (uint64_t)off + n > l->strip ||
        *vd_lba + n > l->vd_sectors) {
        return false;
    }
    return true;
}

/*
 * Is @c the second frame of a RAID 1/10 write pair whose first frame,
 * still running, writes the same VD range (and so both copies)?
 */
static bool mr9500_fp_second(MR9500State *s, MR9500Cmd *c, uint16_t peer)
{
    MR9500Cmd *p;

    if (!c->fp_write || peer == 0 || peer >= s->ncmds || peer == c->smid) {
        return false;
    }
    p = &s->cmds[peer];
    return p->active && p->fp && p->fp_write && p->fp_peer == c->smid &&
           p->generation == s->generation && p->pd == c->pd &&
           p->fp_lba == c->fp_lba && p->fp_blocks == c->fp_blocks;
}

MRUnit *mr9500_fp_resolve(MR9500State *s, MR9500Cmd *c, const uint8_t *frame,
                          uint8_t *status, bool *second)
{
    uint16_t tgt = lduw_le_p(frame + MPT_RAIDCTX_TGT_ID);
    uint16_t handle = lduw_le_p(frame + MPT_DEV_HANDLE);
    uint16_t seq = lduw_le_p(frame + FP_CONFIG_SEQ);
    MRVirtualDisk *vd = mr9500_ld_vd(s, tgt);
    uint8_t *cdb = c->treq.cdb;
    uint64_t lba, vd_lba = 0;
    uint32_t n;
    bool write;
    MRUnit *u;
    int m;

    *second = false;
    if (!mr9500_fp_cdb(cdb, &lba, &n, &write)) {
        trace_megaraid_9500_err_fp(c->smid, tgt, handle, cdb[0], 0);
        *status = MFI_STAT_INVALID_PARAMETER;
        return NULL;
    }
    m = vd ? mr9500_fp_member(s, vd, handle) : -1;
    if (!vd || !mr9500_fp_to_vd(vd, m, lba, n, &vd_lba)) {
        /* an old map (retried with the new one), or wrong arithmetic */
        trace_megaraid_9500_err_fp(c->smid, tgt, handle, cdb[0], lba);
        *status = seq != s->map_seq ? MFI_STAT_CONFIG_SEQ_MISMATCH :
                                      MFI_STAT_INVALID_PARAMETER;
        return NULL;
    }
    u = mr9500_ld_unit(s, tgt, status);
    if (!u) {
        return NULL;
    }
    /* the same command, to the VD: READ/WRITE(16), its FUA/DPO kept */
    if (cdb[0] == READ_6 || cdb[0] == WRITE_6) {
        cdb[1] = 0;                     /* LBA bits, no flags */
    }
    cdb[0] = write ? WRITE_16 : READ_16;
    stq_be_p(cdb + 2, vd_lba);
    stl_be_p(cdb + 10, n);
    cdb[14] = 0;
    cdb[15] = 0;
    c->fp = true;
    c->fp_write = write;
    c->fp_lba = vd_lba;
    c->fp_blocks = n;
    c->fp_peer = write && mr_vd_layout(vd)->span_members == 2 ?
                 lduw_le_p(frame + FP_PEER_SMID) : 0;
    c->pd = tgt;
    *second = mr9500_fp_second(s, c, c->fp_peer);
    s->fp_ios++;
    trace_megaraid_9500_fp(c->smid, tgt, handle, m, lba, vd_lba, n, *second);
    return u;
}

/* ---- QOM ---- */

static bool mr9500_fp_get(Object *obj, Error **errp)
{
    return MEGARAID_9500(obj)->fast_path;
}

static void mr9500_fp_set(Object *obj, bool on, Error **errp)
{
    MR9500State *s = MEGARAID_9500(obj);

    if (s->fast_path != on) {
        s->fast_path = on;
        /* the LDs' capability words change: a new map */
        mr9500_map_changed(s);
    }
}

static void mr9500_fp_get_ios(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &MEGARAID_9500(obj)->fp_ios, errp);
}

void mr9500_fp_class_init(ObjectClass *oc)
{
    object_class_property_add_bool(oc, "fast-path", mr9500_fp_get,
                                   mr9500_fp_set);
    object_class_property_set_description(oc, "fast-path",
        "offer fast path in the RAID map for write-through RAID 0, 1 and 10 "
        "VDs (default on; may change at run time)");
    object_class_property_add(oc, "fast-path-ios", "uint64",
                              mr9500_fp_get_ios, NULL, NULL, NULL);
    object_class_property_set_description(oc, "fast-path-ios",
        "fast path frames the host sent to VD members (read-only)");
}
