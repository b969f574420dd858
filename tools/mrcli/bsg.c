/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the BSG transport.  Everything mrcli says to the controller goes
 * through the unmodified mpi3mr driver's node /dev/bsg/mpi3mrctl<N> as an
 * SG_IO v4 request carrying one MPI3 MGMT PASSTHROUGH (the management
 * command and its response travel in the RAIDMGMT buffers, bulk data in
 * DATA_OUT/DATA_IN), or the driver's own ADPINFO.
 */
#include "bsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/bsg.h>
#include <scsi/sg.h>

/* Room for the driver's reply header and a reply frame of any size. */
#define MPI_REPLY_ROOM      (4 + 256)
/* The driver raises anything below 60 s to 60 s. */
#define MGMT_TIMEOUT_S      60

int mrcli_bsg_open(int ctrl, char *err, size_t errlen)
{
    char path[64];
    int fd;

    snprintf(path, sizeof(path), "/dev/bsg/mpi3mrctl%d", ctrl);
    fd = open(path, O_RDWR);
    if (fd < 0) {
        snprintf(err, errlen, "controller %d: cannot open %s: %s", ctrl,
                 path, strerror(errno));
        return -1;
    }
    return fd;
}

int mrcli_bsg_sgio(int fd, const void *pkt, size_t pkt_len,
                   void *dout, size_t dout_len, void *din, size_t din_len,
                   unsigned timeout_ms, char *err, size_t errlen)
{
    struct sg_io_v4 io;
    uint8_t sense[128];

    memset(&io, 0, sizeof(io));
    io.guard = 'Q';
    io.protocol = BSG_PROTOCOL_SCSI;
    io.subprotocol = BSG_SUB_PROTOCOL_SCSI_TRANSPORT;
    io.request_len = pkt_len;
    io.request = (uintptr_t)pkt;
    io.response = (uintptr_t)sense;
    io.max_response_len = sizeof(sense);
    io.dout_xferp = (uintptr_t)dout;
    io.dout_xfer_len = dout_len;
    io.din_xferp = (uintptr_t)din;
    io.din_xfer_len = din_len;
    io.timeout = timeout_ms;
    if (ioctl(fd, SG_IO, &io) < 0) {
        int e = errno;

        snprintf(err, errlen, "SG_IO on the controller's BSG node failed: "
                 "%s", strerror(e));
        return -e;
    }
    if (io.device_status || io.transport_status || io.driver_status) {
        snprintf(err, errlen, "the driver refused the request (device "
                 "status 0x%x, transport 0x%x, driver 0x%x)",
                 io.device_status, io.transport_status, io.driver_status);
        return -EIO;
    }
    return 0;
}

int mrcli_bsg_adpinfo(int fd, int ctrl, MrcliAdpInfo *info,
                      char *err, size_t errlen)
{
    MrcliDrvPacket pkt;

    memset(&pkt, 0, sizeof(pkt));
    memset(info, 0, sizeof(*info));
    pkt.cmd_type = MRCLI_BSG_DRV_CMD;
    pkt.mrioc_id = ctrl;
    pkt.opcode = MRCLI_DRV_ADPINFO;
    return mrcli_bsg_sgio(fd, &pkt, sizeof(pkt), NULL, 0, info,
                          sizeof(*info), 10000, err, errlen);
}

static void add_entry(MrcliMptPacket *pkt, uint8_t type, size_t len)
{
    MrcliBufEntry *e = &pkt->entry[pkt->num_of_entries++];

    e->buf_type = type;
    e->buf_len = len;
}

static uint16_t get_le16(const uint8_t *p)
{
    return p[0] | (p[1] << 8);
}

static uint32_t get_le32(const uint8_t *p)
{
    return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

int mrcli_bsg_mgmt(int fd, int ctrl, const MrcliXfer *x, MrcliMpiResult *res,
                   char *err, size_t errlen)
{
    MrcliMptPacket pkt;
    uint8_t *dout, *din, *req, *rep;
    size_t dout_len, din_len;
    int rc;

    memset(res, 0, sizeof(*res));
    if (!x->cmd_len || x->cmd_len > MRCLI_MGMT_BUF_MAX ||
        !x->resp_len || x->resp_len > MRCLI_MGMT_BUF_MAX) {
        snprintf(err, errlen, "internal: management command of %zu bytes, "
                 "response of %zu (1..%d each)", x->cmd_len, x->resp_len,
                 MRCLI_MGMT_BUF_MAX);
        return -EINVAL;
    }
    dout_len = x->cmd_len + MRCLI_MGMT_REQ_SIZE + x->dout_len;
    din_len = x->resp_len + x->din_len + MPI_REPLY_ROOM;
    dout = calloc(1, dout_len);
    din = calloc(1, din_len);
    if (!dout || !din) {
        free(dout);
        free(din);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }

    /*
     * The driver carves the data-out area in entry order (command, MPI
     * request, data out) and the data-in area likewise (response, data in,
     * MPI reply).  The command must be entry 0 and the response entry 1.
     */
    memset(&pkt, 0, sizeof(pkt));
    pkt.cmd_type = MRCLI_BSG_MPT_CMD;
    pkt.mrioc_id = ctrl;
    pkt.timeout = MGMT_TIMEOUT_S;
    add_entry(&pkt, MRCLI_BUF_RAIDMGMT_CMD, x->cmd_len);
    add_entry(&pkt, MRCLI_BUF_RAIDMGMT_RESP, x->resp_len);
    add_entry(&pkt, MRCLI_BUF_MPI_REQUEST, MRCLI_MGMT_REQ_SIZE);
    if (x->dout_len) {
        add_entry(&pkt, MRCLI_BUF_DATA_OUT, x->dout_len);
    }
    if (x->din_len) {
        add_entry(&pkt, MRCLI_BUF_DATA_IN, x->din_len);
    }
    add_entry(&pkt, MRCLI_BUF_MPI_REPLY, MPI_REPLY_ROOM);

    memcpy(dout, x->cmd, x->cmd_len);
    req = dout + x->cmd_len;
    req[3] = MRCLI_MPI3_FUNCTION_MGMT_PASSTHROUGH;
    if (x->dout_len) {
        memcpy(req + MRCLI_MGMT_REQ_SIZE, x->dout, x->dout_len);
    }

    rc = mrcli_bsg_sgio(fd, &pkt, 0x18 + 8 * pkt.num_of_entries, dout,
                        dout_len, din, din_len, (MGMT_TIMEOUT_S + 10) * 1000,
                        err, errlen);
    if (rc == 0) {
        memcpy(x->resp, din, x->resp_len);
        if (x->din_len) {
            memcpy(x->din, din + x->resp_len, x->din_len);
        }
        rep = din + x->resp_len + x->din_len;
        res->reply_type = rep[0];
        if (rep[0] == MRCLI_REPLY_STATUS) {
            res->ioc_status = get_le16(rep + 4) & 0x7fff;
            res->ioc_loginfo = get_le32(rep + 4 + 4);
        } else if (rep[0] == MRCLI_REPLY_ADDRESS) {
            res->ioc_status = get_le16(rep + 4 + 0x0a) & 0x7fff;
            res->ioc_loginfo = get_le32(rep + 4 + 0x0c);
        } else {
            snprintf(err, errlen, "the driver returned no MPI reply "
                     "(reply type %u)", rep[0]);
            rc = -EIO;
        }
    }
    free(dout);
    free(din);
    return rc;
}
