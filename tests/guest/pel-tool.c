/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * pel-tool: the guest side of the mr9600-pel test.  Talks to the
 * controller only through the unmodified mpi3mr driver's BSG node
 * /dev/bsg/mpi3mrctl0, as a management application would:
 *
 *   pel-tool enable LOCALE CLASS   driver command PELENABLE: the driver
 *                                  then keeps a PEL WAIT outstanding and
 *                                  counts completions in event_counter
 *   pel-tool seq                   PEL GET_SEQNUM (MPI pass-through):
 *                                  "newest N oldest N clear N shutdown N
 *                                  boot N"
 *   pel-tool log FROM LOCALE CLASS PEL GET_LOG (MPI pass-through): one
 *                                  line per entry, "seq N code 0xC locale
 *                                  0xL class C target T arg A B text"
 *
 * Exit status 0, 1 on a refusal or transport error (with a message).
 * Layouts are written from the uapi header's description
 * (scsi_bsg_mpi3mr.h) and the MPI 3.0 PEL request/entry formats.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/bsg.h>
#include <scsi/sg.h>

#define CMD_DRV         1
#define CMD_MPT         2
#define DRV_PELENABLE   7
#define BUF_DATA_IN     3
#define BUF_MPI_REPLY   5
#define BUF_MPI_REQUEST 0xfe
#define REPLY_ROOM      (4 + 256)
#define MAX_ENTRIES     64

static int bsg_fd;

static void die(const char *what)
{
    fprintf(stderr, "pel-tool: %s\n", what);
    exit(1);
}

static uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static void sgio(const void *pkt, size_t pkt_len, void *dout, size_t dlen,
                 void *din, size_t ilen)
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
    io.dout_xfer_len = dlen;
    io.din_xferp = (uintptr_t)din;
    io.din_xfer_len = ilen;
    io.timeout = 70000;
    if (ioctl(bsg_fd, SG_IO, &io) < 0) {
        fprintf(stderr, "pel-tool: SG_IO: %s\n", strerror(errno));
        exit(1);
    }
    if (io.device_status || io.transport_status || io.driver_status) {
        fprintf(stderr, "pel-tool: refused (device 0x%x transport 0x%x "
                "driver 0x%x)\n", io.device_status, io.transport_status,
                io.driver_status);
        exit(1);
    }
}

static void pel_enable(uint16_t locale, uint8_t cls)
{
    uint8_t pkt[28] = { 0 }, out[4] = { 0 };

    pkt[0] = CMD_DRV;
    pkt[8] = 0;                 /* controller 0 */
    pkt[9] = DRV_PELENABLE;
    out[0] = locale;
    out[1] = locale >> 8;
    out[2] = cls;
    sgio(pkt, sizeof(pkt), out, sizeof(out), NULL, 0);
}

/*
 * One PEL request through MPI pass-through: the 32-byte fixed part of
 * @req (the driver writes the data SGL right after it, at 0x20), @dlen
 * bytes of data in; returns the PELogStatus of the reply frame.
 */
static uint16_t pel_mpt(uint8_t *req, uint8_t *data, size_t dlen)
{
    uint8_t pkt[0x18 + 3 * 8] = { 0 };
    uint8_t *din = calloc(1, dlen + REPLY_ROOM);
    uint8_t *rep;
    uint16_t st;

    if (!din) {
        die("out of memory");
    }
    pkt[0] = CMD_MPT;
    pkt[8] = 0;                 /* controller 0 */
    pkt[10] = 60;               /* timeout, s */
    pkt[0x10] = 3;              /* buffer entries */
    pkt[0x18] = BUF_MPI_REQUEST;
    pkt[0x18 + 4] = 32;
    pkt[0x20] = BUF_DATA_IN;
    pkt[0x20 + 4] = dlen & 0xff;
    pkt[0x20 + 5] = dlen >> 8;
    pkt[0x20 + 6] = dlen >> 16;
    pkt[0x28] = BUF_MPI_REPLY;
    pkt[0x28 + 4] = REPLY_ROOM & 0xff;
    pkt[0x28 + 5] = REPLY_ROOM >> 8;
    req[3] = 0x09;              /* PERSISTENT EVENT LOG */
    sgio(pkt, sizeof(pkt), req, 32, din, dlen + REPLY_ROOM);
    memcpy(data, din, dlen);
    rep = din + dlen;
    if (rep[0] != 2) {
        fprintf(stderr, "pel-tool: no PEL reply frame (reply type %u, IOC "
                "status 0x%x)\n", rep[0], le16(rep + 4) & 0x7fff);
        exit(1);
    }
    if (le16(rep + 4 + 0x0a) & 0x7fff) {
        fprintf(stderr, "pel-tool: IOC status 0x%x\n",
                le16(rep + 4 + 0x0a) & 0x7fff);
        exit(1);
    }
    st = le16(rep + 4 + 0x14);
    free(din);
    return st;
}

static void pel_seq(void)
{
    uint8_t req[32] = { 0 }, d[24];

    req[0x0a] = 0x01;           /* GET_SEQNUM */
    if (pel_mpt(req, d, sizeof(d))) {
        die("GET_SEQNUM: PEL status not SUCCESS");
    }
    printf("newest %u oldest %u clear %u shutdown %u boot %u\n", le32(d),
           le32(d + 4), le32(d + 8), le32(d + 12), le32(d + 16));
}

static void pel_log(uint32_t from, uint16_t locale, uint8_t cls)
{
    uint8_t req[32] = { 0 };
    size_t dlen = 8 + 128 * MAX_ENTRIES;
    uint8_t *d = calloc(1, dlen);
    uint32_t n;
    uint16_t st;

    if (!d) {
        die("out of memory");
    }
    req[0x0a] = 0x03;           /* GET_LOG */
    req[0x0c] = from;
    req[0x0d] = from >> 8;
    req[0x0e] = from >> 16;
    req[0x0f] = from >> 24;
    req[0x10] = locale;
    req[0x11] = locale >> 8;
    req[0x12] = cls;
    st = pel_mpt(req, d, dlen);
    n = le32(d);
    printf("count %u status %u\n", n, st);
    for (uint32_t i = 0; i < n && i < MAX_ENTRIES; i++) {
        uint8_t *e = d + 8 + 128 * i;
        char text[85];

        memcpy(text, e + 0x2c, 84);
        text[84] = 0;
        printf("seq %u code 0x%04x locale 0x%04x class %u target %d "
               "arg %u %u %s\n", le32(e + 8), le16(e + 0x0c),
               le16(e + 0x10), e[0x12], (int32_t)le32(e + 0x20),
               le32(e + 0x24), le32(e + 0x28), text);
    }
    free(d);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        die("usage: pel-tool enable LOCALE CLASS | seq | log FROM LOCALE "
            "CLASS");
    }
    bsg_fd = open("/dev/bsg/mpi3mrctl0", O_RDWR);
    if (bsg_fd < 0) {
        fprintf(stderr, "pel-tool: /dev/bsg/mpi3mrctl0: %s\n",
                strerror(errno));
        return 1;
    }
    if (!strcmp(argv[1], "enable") && argc == 4) {
        pel_enable(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
    } else if (!strcmp(argv[1], "seq") && argc == 2) {
        pel_seq();
    } else if (!strcmp(argv[1], "log") && argc == 5) {
        pel_log(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
                strtoul(argv[4], NULL, 0));
    } else {
        die("bad arguments");
    }
    return 0;
}
