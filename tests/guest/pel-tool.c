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
 *   pel-tool nvme HANDLE identify  NVMe ENCAPSULATED (MPI pass-through) to
 *                                  the NVMe drive of device handle HANDLE:
 *                                  Identify controller and namespace,
 *                                  "serial S model M firmware F mdts N nn N
 *                                  nsze N lbads N"
 *   pel-tool nvme HANDLE smart     Get Log Page SMART: "temperature C
 *                                  power_on_hours N power_cycles N
 *                                  media_errors N critical 0xW errors N"
 *   pel-tool nvme HANDLE write|read LBA NLB SEED [sgl]
 *                                  Write the pattern SEED / Read and check
 *                                  it ("match"), PRPs or (sgl) an NVMe SGL
 *   pel-tool nvme HANDLE flush     Flush
 *   pel-tool nvme HANDLE raw admin|io OPCODE [sgl]
 *                                  a command without data: "ioc 0xI status
 *                                  0xS" (the completion's status field);
 *                                  PSDT PRP or (sgl) SGL: the driver's PRP
 *                                  builder refuses a device that is not
 *                                  PCIe before sending anything
 *   pel-tool pattern NLB SEED      the pattern on stdout (512-byte blocks)
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

/* ---- NVMe ENCAPSULATED ---- */

#define NVME_REQ_LEN    96          /* MPI3 header 32 bytes + the SQE */
#define NVME_MAX_XFER   (256 * 1024)

typedef struct NvmeResult {
    uint16_t ioc_status;
    uint16_t status;                /* NVMe status field, 0 on success */
    uint32_t dw0;
} NvmeResult;

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

static void nvme_pattern(uint8_t *b, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++) {
        b[i] = seed + i * 7 + (i >> 9);
    }
}

/*
 * One NVMe command (the 64-byte @sqe) to @handle; @dout or @din its data.
 * The driver builds the PRPs or the SGL (by the SQE's PSDT) itself.
 */
static NvmeResult nvme_cmd(uint16_t handle, int admin, const uint8_t *sqe,
                           const void *dout, size_t olen, void *din,
                           size_t ilen)
{
    MrcliMptPacket pkt = { 0 };
    uint8_t *out = calloc(1, NVME_REQ_LEN + olen);
    uint8_t *in = calloc(1, ilen + REPLY_ROOM);
    NvmeResult r = { 0 };
    uint8_t *req = out, *rep = in + ilen;
    int n = 0;

    if (!out || !in) {
        die("out of memory");
    }
    pkt.cmd_type = MRCLI_BSG_MPT_CMD;
    pkt.timeout = 60;
    pkt.entry[n].buf_type = MRCLI_BUF_MPI_REQUEST;
    pkt.entry[n++].buf_len = NVME_REQ_LEN;
    if (olen) {
        pkt.entry[n].buf_type = MRCLI_BUF_DATA_OUT;
        pkt.entry[n++].buf_len = olen;
    }
    if (ilen) {
        pkt.entry[n].buf_type = MRCLI_BUF_DATA_IN;
        pkt.entry[n++].buf_len = ilen;
    }
    pkt.entry[n].buf_type = MRCLI_BUF_MPI_REPLY;
    pkt.entry[n++].buf_len = REPLY_ROOM;
    pkt.num_of_entries = n;
    req[3] = 0x24;                  /* NVME ENCAPSULATED */
    req[0x0a] = handle;
    req[0x0b] = handle >> 8;
    req[0x0c] = 64;                 /* EncapsulatedCommandLength */
    req[0x0e] = admin ? 0x01 : 0x00;    /* SubmissionQueue; errors only */
    put32(req + 0x10, olen ? olen : ilen);
    memcpy(req + 0x20, sqe, 64);
    if (olen) {
        memcpy(out + NVME_REQ_LEN, dout, olen);
    }
    sgio(&pkt, 0x18 + 8 * n, out, NVME_REQ_LEN + olen, in, ilen + REPLY_ROOM);
    if (ilen) {
        memcpy(din, in, ilen);
    }
    if (rep[0] == MRCLI_REPLY_ADDRESS) {
        /* the error reply: the NVMe completion entry at 0x10 */
        r.ioc_status = le16(rep + 4 + 0x0a) & 0x7fff;
        r.dw0 = le32(rep + 4 + 0x10);
        r.status = le32(rep + 4 + 0x1c) >> 17;
    } else {
        r.ioc_status = le16(rep + 4) & 0x7fff;
    }
    free(out);
    free(in);
    return r;
}

static void nvme_sqe(uint8_t *sqe, uint8_t opcode, int sgl, uint32_t nsid)
{
    memset(sqe, 0, 64);
    sqe[0] = opcode;
    sqe[1] = sgl ? 0x40 : 0x00;     /* PSDT 01b: SGL */
    sqe[2] = 0x21;                  /* command identifier */
    put32(sqe + 4, nsid);
}

static void nvme_ok(const char *what, NvmeResult r)
{
    if (r.ioc_status || r.status) {
        fprintf(stderr, "pel-tool: %s: IOC status 0x%x NVMe status 0x%x\n",
                what, r.ioc_status, r.status);
        exit(1);
    }
}

static void nvme_str(const uint8_t *p, size_t n, char *out)
{
    memcpy(out, p, n);
    out[n] = 0;
    while (n && out[n - 1] == ' ') {
        out[--n] = 0;
    }
}

static void nvme_identify(uint16_t h)
{
    uint8_t sqe[64], c[4096], ns[4096];
    char sn[21], mn[41], fr[9];

    nvme_sqe(sqe, 0x06, 0, 0);
    sqe[40] = 0x01;                 /* CNS: controller */
    nvme_ok("Identify controller", nvme_cmd(h, 1, sqe, NULL, 0, c,
                                            sizeof(c)));
    nvme_sqe(sqe, 0x06, 0, 1);
    sqe[40] = 0x00;                 /* CNS: namespace */
    nvme_ok("Identify namespace", nvme_cmd(h, 1, sqe, NULL, 0, ns,
                                           sizeof(ns)));
    nvme_str(c + 4, 20, sn);
    nvme_str(c + 24, 40, mn);
    nvme_str(c + 64, 8, fr);
    printf("serial %s model %s firmware %s mdts %u nn %u nsze %u lbads %u\n",
           sn, mn, fr, c[77], le32(c + 516), le32(ns), ns[128 + 2]);
}

static void nvme_smart(uint16_t h)
{
    uint8_t sqe[64], log[512];

    nvme_sqe(sqe, 0x02, 0, 0xffffffff);
    sqe[40] = 0x02;                 /* LID: SMART / health */
    put32(sqe + 40, 0x02 | (512 / 4 - 1) << 16);
    nvme_ok("Get Log Page SMART", nvme_cmd(h, 1, sqe, NULL, 0, log,
                                           sizeof(log)));
    printf("temperature %d power_on_hours %u power_cycles %u media_errors "
           "%u critical 0x%02x errors %u\n", (int)le16(log + 1) - 273,
           le32(log + 128), le32(log + 112), le32(log + 160), log[0],
           le32(log + 176));
}

static void nvme_rw(uint16_t h, int write, uint32_t lba, uint32_t nlb,
                    uint8_t seed, int sgl)
{
    size_t len = (size_t)nlb * 512;
    uint8_t *want, *got, sqe[64];

    if (!nlb || len > NVME_MAX_XFER) {
        die("nvme: NLB out of range");
    }
    want = malloc(len);
    got = calloc(1, len);
    if (!want || !got) {
        die("out of memory");
    }
    nvme_pattern(want, len, seed);
    nvme_sqe(sqe, write ? 0x01 : 0x02, sgl, 1);
    put32(sqe + 40, lba);
    put32(sqe + 48, nlb - 1);
    if (write) {
        nvme_ok("Write", nvme_cmd(h, 0, sqe, want, len, NULL, 0));
        printf("written\n");
    } else {
        nvme_ok("Read", nvme_cmd(h, 0, sqe, NULL, 0, got, len));
        if (memcmp(want, got, len)) {
            die("Read: data differs from the pattern");
        }
        printf("match\n");
    }
    free(want);
    free(got);
}

static int nvme_main(int argc, char **argv)
{
    uint16_t h = strtoul(argv[2], NULL, 0);
    uint8_t sqe[64];

    if (!strcmp(argv[3], "identify") && argc == 4) {
        nvme_identify(h);
    } else if (!strcmp(argv[3], "smart") && argc == 4) {
        nvme_smart(h);
    } else if ((!strcmp(argv[3], "write") || !strcmp(argv[3], "read")) &&
               (argc == 7 || (argc == 8 && !strcmp(argv[7], "sgl")))) {
        nvme_rw(h, argv[3][0] == 'w', strtoul(argv[4], NULL, 0),
                strtoul(argv[5], NULL, 0), strtoul(argv[6], NULL, 0),
                argc == 8);
    } else if (!strcmp(argv[3], "flush") && argc == 4) {
        nvme_sqe(sqe, 0x00, 0, 1);
        nvme_ok("Flush", nvme_cmd(h, 0, sqe, NULL, 0, NULL, 0));
        printf("flushed\n");
    } else if (!strcmp(argv[3], "raw") &&
               (argc == 6 || (argc == 7 && !strcmp(argv[6], "sgl")))) {
        NvmeResult r;

        nvme_sqe(sqe, strtoul(argv[5], NULL, 0), argc == 7, 1);
        r = nvme_cmd(h, !strcmp(argv[4], "admin"), sqe, NULL, 0, NULL, 0);
        printf("ioc 0x%x status 0x%x\n", r.ioc_status, r.status);
    } else {
        die("bad nvme arguments");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        die("usage: pel-tool enable LOCALE CLASS | seq | log FROM LOCALE "
            "CLASS | nvme HANDLE identify|smart|flush | nvme HANDLE "
            "write|read LBA NLB SEED [sgl] | nvme HANDLE raw admin|io OPCODE "
            "[sgl] "
            "| pattern NLB SEED");
    }
    if (!strcmp(argv[1], "pattern") && argc == 4) {
        size_t len = strtoul(argv[2], NULL, 0) * 512;
        uint8_t *b = malloc(len ? len : 1);

        if (!b) {
            die("out of memory");
        }
        nvme_pattern(b, len, strtoul(argv[3], NULL, 0));
        fwrite(b, 1, len, stdout);
        free(b);
        return 0;
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
    } else if (!strcmp(argv[1], "nvme") && argc >= 4) {
        return nvme_main(argc, argv);
    } else if (!strcmp(argv[1], "log") && argc == 5) {
        pel_log(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
                strtoul(argv[4], NULL, 0));
    } else {
        die("bad arguments");
    }
    return 0;
}
