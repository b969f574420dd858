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
 * The BSG packet layouts and the SG_IO call are mrcli's
 * (tools/mrcli/bsg.[ch]); the PEL request and entry formats are MPI 3.0's.
 */
#include "bsg.h"             /* tools/mrcli: packet layouts, SG_IO */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRV_PELENABLE   7
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
    char err[256];

    if (mrcli_bsg_sgio(bsg_fd, pkt, pkt_len, dout, dlen, din, ilen, 70000,
                       err, sizeof(err)) < 0) {
        die(err);
    }
}

static void pel_enable(uint16_t locale, uint8_t cls)
{
    MrcliDrvPacket pkt = { 0 };
    uint8_t out[4] = { 0 };

    pkt.cmd_type = MRCLI_BSG_DRV_CMD;
    pkt.mrioc_id = 0;
    pkt.opcode = DRV_PELENABLE;
    out[0] = locale;
    out[1] = locale >> 8;
    out[2] = cls;
    sgio(&pkt, sizeof(pkt), out, sizeof(out), NULL, 0);
}

/*
 * One PEL request through MPI pass-through: the 32-byte fixed part of
 * @req (the driver writes the data SGL right after it, at 0x20), @dlen
 * bytes of data in; returns the PELogStatus of the reply frame.
 */
static uint16_t pel_mpt(uint8_t *req, uint8_t *data, size_t dlen)
{
    MrcliMptPacket pkt = { 0 };
    uint8_t *din = calloc(1, dlen + REPLY_ROOM);
    uint8_t *rep;
    uint16_t st;

    if (!din) {
        die("out of memory");
    }
    pkt.cmd_type = MRCLI_BSG_MPT_CMD;
    pkt.mrioc_id = 0;
    pkt.timeout = 60;
    pkt.num_of_entries = 3;
    pkt.entry[0].buf_type = MRCLI_BUF_MPI_REQUEST;
    pkt.entry[0].buf_len = 32;
    pkt.entry[1].buf_type = MRCLI_BUF_DATA_IN;
    pkt.entry[1].buf_len = dlen;
    pkt.entry[2].buf_type = MRCLI_BUF_MPI_REPLY;
    pkt.entry[2].buf_len = REPLY_ROOM;
    req[3] = 0x09;              /* PERSISTENT EVENT LOG */
    sgio(&pkt, 0x18 + 8 * pkt.num_of_entries, req, 32, din,
         dlen + REPLY_ROOM);
    memcpy(data, din, dlen);
    rep = din + dlen;
    if (rep[0] != MRCLI_REPLY_ADDRESS) {
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
    {
        char err[256];

        bsg_fd = mrcli_bsg_open(0, err, sizeof(err));
        if (bsg_fd < 0) {
            die(err);
        }
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
