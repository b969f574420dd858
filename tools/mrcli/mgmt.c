/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: management requests.  Builds the protocol's request envelope
 * (include/hw/megaraid/mgmt-proto.h), sends it over the BSG transport,
 * checks the reply header strictly (magic, version, opcode and tag
 * echoed, lengths within the buffer) and turns a refusal into a clear
 * failure of the command; pages through list opcodes; and names the
 * protocol's enumerations as StorCLI does.
 */
#include "mrcli.h"
#include "bsg.h"
#include "mfi.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t next_tag = 1;

const char *mgmt_status_name(int status)
{
    switch (status) {
    case MGMT_STAT_OK: return "success";
    case MGMT_STAT_INVALID_CMD: return "invalid command envelope";
    case MGMT_STAT_INVALID_OPCODE: return "operation not known to the "
                                          "controller";
    case MGMT_STAT_INVALID_PARAMETER: return "invalid parameter";
    case MGMT_STAT_INVALID_SEQ: return "invalid event sequence number";
    case MGMT_STAT_DEVICE_NOT_FOUND: return "no drive in that slot";
    case MGMT_STAT_VD_NOT_FOUND: return "no such virtual drive";
    case MGMT_STAT_DG_NOT_FOUND: return "no such drive group";
    case MGMT_STAT_WRONG_STATE: return "not allowed in the current state";
    case MGMT_STAT_BUSY: return "busy: a job or change is running";
    case MGMT_STAT_LIMIT: return "a controller limit is reached";
    case MGMT_STAT_DATA_LEN: return "wrong data length";
    case MGMT_STAT_RESP_TOO_SMALL: return "response buffer too small";
    case MGMT_STAT_NO_JOB: return "no such operation in progress";
    case MGMT_STAT_NOT_SUPPORTED: return "not supported";
    case MGMT_STAT_IO_ERROR: return "the configuration could not be "
                                    "written to the drives";
    case MGMT_STAT_NO_FOREIGN: return "no foreign configuration";
    case MGMT_STAT_INTERNAL: return "internal controller error";
    }
    return "unknown status";
}

static const char *op_name(uint32_t op)
{
    switch (op) {
    case MGMT_OP_CTRL_GET_INFO: return "controller info";
    case MGMT_OP_CTRL_GET_PROPS: return "get properties";
    case MGMT_OP_CTRL_SET_PROPS: return "set properties";
    case MGMT_OP_PD_LIST: return "drive list";
    case MGMT_OP_PD_INFO: return "drive info";
    case MGMT_OP_PD_SET_STATE: return "set drive state";
    case MGMT_OP_PD_SPARE_ADD: return "add hot spare";
    case MGMT_OP_PD_SPARE_REMOVE: return "remove hot spare";
    case MGMT_OP_DG_LIST: return "drive group list";
    case MGMT_OP_VD_LIST: return "virtual drive list";
    case MGMT_OP_VD_INFO: return "virtual drive info";
    case MGMT_OP_VD_CREATE: return "create virtual drive";
    case MGMT_OP_VD_DELETE: return "delete virtual drive";
    case MGMT_OP_JOB_CONTROL: return "operation control";
    case MGMT_OP_JOB_STATUS: return "operation status";
    case MGMT_OP_FOREIGN_SHOW: return "foreign configuration";
    case MGMT_OP_FOREIGN_IMPORT: return "foreign import";
    case MGMT_OP_FOREIGN_CLEAR: return "foreign clear";
    case MGMT_OP_CV_STATUS: return "CacheVault status";
    case MGMT_OP_EVLOG_INFO: return "event log info";
    case MGMT_OP_EVLOG_READ: return "event log read";
    case MGMT_OP_PD_LOCATE: return "locate";
    case MGMT_OP_VD_SET_PROPS: return "set virtual drive properties";
    }
    return "operation";
}

/*
 * /cN: the mpi3mr controllers (BSG nodes) count first, then the
 * megaraid_sas ones by SCSI host number.
 */
static int open_ctrl(Mrcli *m)
{
    char err[256];
    int hosts[64], nmfi, n3;

    if (m->fd >= 0) {
        return 0;
    }
    n3 = mrcli_mpi3mr_count();
    nmfi = mrcli_mfi_hosts(hosts, 64);
    if (m->obj.ctrl >= n3 && m->obj.ctrl - n3 < nmfi) {
        m->mfi = true;
        m->host_no = hosts[m->obj.ctrl - n3];
        m->fd = mrcli_mfi_open(err, sizeof(err));
    } else {
        m->fd = mrcli_bsg_open(m->obj.ctrl, err, sizeof(err));
    }
    if (m->fd < 0) {
        out_fail(m->out, "%s", err);
        if (m->obj.ctrl >= n3 + nmfi) {
            out_errcd(m->out, MRCLI_ERRCD_NOCTRL);
        }
        m->exit_status = MRCLI_EXIT_IO;
        return -1;
    }
    return 0;
}

int mgmt_call(Mrcli *m, uint32_t op, uint32_t mb0, uint32_t mb1,
              uint32_t mb2, uint32_t mb3, const void *dout, size_t dout_len,
              void *data, size_t data_max, size_t *data_len, int *status)
{
    static uint8_t cmd[MGMT_MAX_CMD_LEN];
    static uint8_t resp[MGMT_MAX_RESP_LEN];
    MgmtRequest *rq = (MgmtRequest *)cmd;
    const MgmtReply *rp = (const MgmtReply *)resp;
    MrcliXfer x;
    MrcliMpiResult res;
    char err[256];
    uint32_t tag = next_tag++;
    int rc;

    if (status) {
        *status = -1;
    }
    if (data_len) {
        *data_len = 0;
    }
    if (open_ctrl(m) < 0) {
        return -1;
    }
    if (dout_len > sizeof(cmd) - sizeof(*rq)) {
        out_fail(m->out, "%s: request too long (%zu bytes)", op_name(op),
                 dout_len);
        return -1;
    }
    memset(cmd, 0, sizeof(cmd));
    memset(resp, 0, sizeof(resp));
    rq->magic = MGMT_REQ_MAGIC;
    rq->version = MGMT_VERSION;
    rq->hdr_len = sizeof(*rq);
    rq->opcode = op;
    rq->tag = tag;
    rq->data_len = dout_len;
    rq->mbox[0] = mb0;
    rq->mbox[1] = mb1;
    rq->mbox[2] = mb2;
    rq->mbox[3] = mb3;
    if (dout_len) {
        memcpy(cmd + sizeof(*rq), dout, dout_len);
    }
    memset(&x, 0, sizeof(x));
    x.cmd = cmd;
    x.cmd_len = sizeof(*rq) + dout_len;
    x.resp = resp;
    x.resp_len = sizeof(resp);
    if (m->mfi) {
        uint8_t mfi_status = 0;

        /* one buffer: the request goes in, the reply comes back */
        memcpy(resp, cmd, x.cmd_len);
        rc = mrcli_mfi_mgmt(m->fd, m->host_no, resp, sizeof(resp),
                            x.cmd_len, &mfi_status, err, sizeof(err));
        if (rc == 0 && mfi_status != 0) {
            out_fail(m->out, "%s: the controller rejected the management "
                     "request (MFI status 0x%02x)", op_name(op), mfi_status);
            m->exit_status = MRCLI_EXIT_IO;
            return -1;
        }
        memset(&res, 0, sizeof(res));
    } else {
        rc = mrcli_bsg_mgmt(m->fd, m->obj.ctrl, &x, &res, err, sizeof(err));
    }
    if (rc < 0) {
        out_fail(m->out, "%s: %s", op_name(op), err);
        m->exit_status = MRCLI_EXIT_IO;
        return -1;
    }
    if (res.ioc_status != 0) {
        out_fail(m->out, "%s: the controller rejected the management "
                 "request (IOCStatus 0x%04x, LogInfo 0x%08x)", op_name(op),
                 res.ioc_status, res.ioc_loginfo);
        m->exit_status = MRCLI_EXIT_IO;
        return -1;
    }
    if (rp->magic != MGMT_REPLY_MAGIC || rp->version != MGMT_VERSION ||
        rp->hdr_len != sizeof(*rp) || rp->opcode != op || rp->tag != tag ||
        rp->data_len > sizeof(resp) - sizeof(*rp)) {
        out_fail(m->out, "%s: malformed reply from the controller (magic "
                 "0x%08x version %u opcode 0x%08x tag %u length %u)",
                 op_name(op), rp->magic, rp->version, rp->opcode, rp->tag,
                 rp->data_len);
        m->exit_status = MRCLI_EXIT_IO;
        return -1;
    }
    if (status) {
        *status = rp->status;
    }
    if (rp->status != MGMT_STAT_OK) {
        if (rp->err_offset != MGMT_ERR_OFFSET_NONE) {
            out_fail(m->out, "%s failed: %s (status 0x%02x; field at "
                     "offset %u, value %u)", op_name(op),
                     mgmt_status_name(rp->status), rp->status,
                     rp->err_offset, rp->err_value);
        } else {
            out_fail(m->out, "%s failed: %s (status 0x%02x)", op_name(op),
                     mgmt_status_name(rp->status), rp->status);
        }
        return -1;
    }
    if (data) {
        size_t n = rp->data_len < data_max ? rp->data_len : data_max;

        memset(data, 0, data_max);
        memcpy(data, resp + sizeof(*rp), n);
    }
    if (data_len) {
        *data_len = rp->data_len;
    }
    return 0;
}

void *mgmt_list(Mrcli *m, uint32_t op, uint32_t first, uint32_t max,
                size_t entry_size, uint32_t *count, uint32_t *total)
{
    static uint8_t page[MGMT_MAX_RESP_LEN];
    uint8_t *all = NULL;
    uint32_t n = 0, pos = first;
    int pages = 0;

    *count = 0;
    *total = 0;
    for (;;) {
        MgmtListHeader h;
        size_t len;

        if (mgmt_call(m, op, pos, max ? max - n : 0, 0, 0, NULL, 0, page,
                      sizeof(page), &len, NULL) < 0) {
            free(all);
            return NULL;
        }
        if (len < sizeof(h)) {
            out_fail(m->out, "%s: reply of %zu bytes has no list header",
                     op_name(op), len);
            goto bad;
        }
        memcpy(&h, page, sizeof(h));
        if (h.count && (h.entry_len < entry_size ||
                        sizeof(h) + (uint64_t)h.count * h.entry_len > len)) {
            out_fail(m->out, "%s: list of %u entries of %u bytes does not "
                     "fit the reply (%zu bytes; entries are %zu bytes)",
                     op_name(op), h.count, h.entry_len, len, entry_size);
            goto bad;
        }
        all = realloc(all, (n + h.count + 1) * entry_size);
        if (!all) {
            out_fail(m->out, "out of memory");
            return NULL;
        }
        for (uint32_t i = 0; i < h.count; i++) {
            memcpy(all + (n + i) * entry_size,
                   page + sizeof(h) + (size_t)i * h.entry_len, entry_size);
        }
        n += h.count;
        *total = h.total;
        if (h.next == MGMT_NONE32 || !h.count || (max && n >= max)) {
            break;
        }
        if (++pages > 4096 || h.next == pos) {
            out_fail(m->out, "%s: the list does not end (next %u)",
                     op_name(op), h.next);
            goto bad;
        }
        pos = h.next;
    }
    *count = n;
    if (!all) {
        all = calloc(1, entry_size);
    }
    return all;
bad:
    m->exit_status = MRCLI_EXIT_IO;
    free(all);
    return NULL;
}

const char *pd_state_abbr(int s)
{
    switch (s) {
    case MGMT_PD_UNCONF_GOOD: return "UGood";
    case MGMT_PD_UNCONF_BAD: return "UBad";
    case MGMT_PD_ONLINE: return "Onln";
    case MGMT_PD_OFFLINE: return "Offln";
    case MGMT_PD_REBUILD: return "Rbld";
    case MGMT_PD_HOT_SPARE: return "HSP";
    case MGMT_PD_FOREIGN: return "Frgn";
    case MGMT_PD_MISSING: return "Msng";
    case MGMT_PD_JBOD: return "JBOD";
    case MGMT_PD_COPYBACK: return "Cpybck";
    }
    return "Unkn";
}

const char *pd_state_name(int s)
{
    switch (s) {
    case MGMT_PD_UNCONF_GOOD: return "Unconfigured Good";
    case MGMT_PD_UNCONF_BAD: return "Unconfigured Bad";
    case MGMT_PD_ONLINE: return "Online";
    case MGMT_PD_OFFLINE: return "Offline";
    case MGMT_PD_REBUILD: return "Rebuild";
    case MGMT_PD_HOT_SPARE: return "Hot Spare";
    case MGMT_PD_FOREIGN: return "Foreign";
    case MGMT_PD_MISSING: return "Missing";
    case MGMT_PD_JBOD: return "JBOD";
    case MGMT_PD_COPYBACK: return "Copyback";
    }
    return "Unknown";
}

const char *vd_state_abbr(int s)
{
    switch (s) {
    case MGMT_VD_OPTIMAL: return "Optl";
    case MGMT_VD_PARTIALLY_DEGRADED: return "Pdgd";
    case MGMT_VD_DEGRADED: return "Dgrd";
    case MGMT_VD_OFFLINE: return "OfLn";
    }
    return "Unkn";
}

const char *vd_state_name(int s)
{
    switch (s) {
    case MGMT_VD_OPTIMAL: return "Optimal";
    case MGMT_VD_PARTIALLY_DEGRADED: return "Partially Degraded";
    case MGMT_VD_DEGRADED: return "Degraded";
    case MGMT_VD_OFFLINE: return "Offline";
    }
    return "Unknown";
}

const char *level_name(int level)
{
    switch (level) {
    case MGMT_LEVEL_0: return "RAID0";
    case MGMT_LEVEL_1: return "RAID1";
    case MGMT_LEVEL_5: return "RAID5";
    case MGMT_LEVEL_6: return "RAID6";
    case MGMT_LEVEL_10: return "RAID10";
    case MGMT_LEVEL_50: return "RAID50";
    case MGMT_LEVEL_60: return "RAID60";
    }
    return "Unknown";
}

const char *iface_name(int i)
{
    switch (i) {
    case MGMT_IF_NVME: return "NVMe";
    case MGMT_IF_SAS: return "SAS";
    case MGMT_IF_SATA: return "SATA";
    }
    return "Unkn";
}

const char *media_name(int md)
{
    return md == MGMT_MEDIA_SSD ? "SSD" : md == MGMT_MEDIA_HDD ? "HDD" :
        "Unkn";
}

const char *job_name(int j)
{
    switch (j) {
    case MGMT_JOB_NONE: return "None";
    case MGMT_JOB_REBUILD: return "Rebuild";
    case MGMT_JOB_CC: return "Consistency Check";
    case MGMT_JOB_INIT: return "Initialization";
    case MGMT_JOB_COPYBACK: return "Copyback";
    }
    return "Unknown";
}

const char *size_str(uint64_t bytes, char *buf)
{
    static const char *const unit[] = { "KB", "MB", "GB", "TB", "PB" };
    double v = bytes / 1024.0;
    int u = 0;

    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, 32, "%.3f %s", v, unit[u]);
    return buf;
}

const char *vd_name(const MgmtVdEntry *e, char *buf)
{
    size_t n = 0;

    while (n < MGMT_VD_NAME_LEN && e->name[n]) {
        char c = e->name[n];

        buf[n++] = (c >= 0x20 && c < 0x7f) ? c : '?';
    }
    buf[n] = 0;
    return buf;
}

const char *cache_str(const MgmtVdEntry *e, char *buf)
{
    /* StorCLI's cache column: read ahead (R/NR), write policy, D(irect) */
    snprintf(buf, 16, "%s%s%s", e->cache & MGMT_CACHE_READ_AHEAD ? "R" : "NR",
             e->write_policy == MGMT_WP_WRITE_BACK ? "WB" :
             e->write_policy == MGMT_WP_ALWAYS_WB ? "AWB" : "WT", "D");
    return buf;
}
