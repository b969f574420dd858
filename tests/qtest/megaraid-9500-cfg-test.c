/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-9500's configuration and LD management
 * DCMDs as MFI tools send them (mfiutil's layouts): CFG_ADD of a RAID 5
 * with a hot spare, then CFG_READ (the two-step size pattern, arrays, LD,
 * spare) checked against the DCMD and QMP; LD_GET/SET_PROPERTIES (name,
 * cache policy); LD_DELETE, REMOVE_SPARE; RAID 1 and 10 in one CFG_ADD,
 * RAID 50 and a dedicated spare by MAKE_SPARE, CFG_CLEAR; LD info's
 * progress block while an initialization runs; and every refusal: short
 * buffers, a drive twice, drives in use or absent, unknown arrays and LDs,
 * wrong levels, sizes that do not fit, a second LD the core refuses (the
 * first undone); another controller's configuration through FOREIGN_SCAN,
 * DISPLAY, PREVIEW and IMPORT.
 */

#include "qemu/osdep.h"
#include "megaraid-fusion-host.h"

typedef FU MR;

#define NDRV            8
#define CFG_READ        0x04010000u
#define CFG_ADD         0x04020000u
#define CFG_CLEAR       0x04030000u
#define MAKE_SPARE      0x04040000u
#define REMOVE_SPARE    0x04050000u
#define LD_GET_INFO     0x03020000u
#define LD_GET_PROPS    0x03030000u
#define LD_SET_PROPS    0x03040000u
#define LD_INIT_START   0x03060100u
#define LD_DELETE       0x03090000u
#define FOREIGN_SCAN    0x04060100u
#define FOREIGN_DISPLAY 0x04060200u
#define FOREIGN_PREVIEW 0x04060300u
#define FOREIGN_IMPORT  0x04060400u

#define ARRAY_SIZE_     288
#define LD_SIZE         256
#define SPARE_SIZE      40

static char *img[NDRV];

/* The controller and eight blank 16 MiB SAS drives in slots 0..7. */
static MR *cfg_start(const char *opts)
{
    return blank_rig("cfg", img, NDRV, opts, NULL);
}

static void cfg_stop(MR *m)
{
    rig_end(m, img, NDRV);
}

/* QEMU again on the same drives, the controller with @opts. */
static MR *cfg_restart(MR *m, const char *opts)
{
    GString *dev = g_string_new(NULL);

    qtest_shutdown(m->qs);
    g_free(m->dev);
    memset(m, 0, sizeof(*m));
    g_string_append_printf(dev, "-device megaraid-9500,id=raid0,addr=04.0,"
                           "max-cmds=%d,queues=2%s ", MAX_CMDS, opts);
    for (int i = 0; i < NDRV; i++) {
        g_string_append_printf(dev, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,interface=sas ",
                               i, img[i], i, i, i);
    }
    fu_launch(m, dev->str);
    g_string_free(dev, true);
    ioc_init(m);
    return m;
}

/* ---- building a configuration as mfiutil does ---- */

typedef struct Cfg {
    uint8_t b[8192];
    int na, nl, ns;
    uint8_t arrays[16][ARRAY_SIZE_];
    uint8_t lds[8][LD_SIZE];
    uint8_t spares[8][SPARE_SIZE];
} Cfg;

static int cfg_array(Cfg *c, uint16_t ref, const uint16_t *pds, int n,
                     uint64_t blocks)
{
    uint8_t *a = c->arrays[c->na];

    memset(a, 0, ARRAY_SIZE_);
    stq_le_p(a, blocks);
    a[8] = n;
    stw_le_p(a + 10, ref);
    for (int i = 0; i < n; i++) {
        stw_le_p(a + 32 + 8 * i, pds[i]);
        stw_le_p(a + 32 + 8 * i + 4, 0x18);
    }
    return c->na++;
}

/* An LD over arrays @refs (@spans of them), PRL @prl, 64 KiB strips. */
static uint8_t *cfg_ld(Cfg *c, uint8_t tgt, uint8_t prl, uint8_t srl,
                       int width, const uint16_t *refs, int spans,
                       uint64_t blocks, const char *name)
{
    uint8_t *l = c->lds[c->nl++];

    memset(l, 0, LD_SIZE);
    l[0] = tgt;
    strncpy((char *)l + 4, name, 16);
    l[0x14] = 0x21;                     /* allow write caching, WB */
    l[0x17] = 0x21;
    l[0x20] = prl;
    l[0x21] = prl >= 5 ? 3 : 0;
    l[0x22] = srl;
    l[0x23] = 7;                        /* 2^7 sectors: 64 KiB */
    l[0x24] = width;
    l[0x25] = spans;
    l[0x26] = 3;
    for (int s = 0; s < spans; s++) {
        stq_le_p(l + 0x40 + 24 * s + 8, blocks);
        stw_le_p(l + 0x40 + 24 * s + 16, refs[s]);
    }
    return l;
}

static void cfg_spare(Cfg *c, uint16_t pd, const uint16_t *refs, int n)
{
    uint8_t *s = c->spares[c->ns++];

    memset(s, 0, SPARE_SIZE);
    stw_le_p(s, pd);
    s[4] = n ? 1 : 0;
    s[7] = n;
    for (int i = 0; i < n; i++) {
        stw_le_p(s + 8 + 2 * i, refs[i]);
    }
}

/* The whole CFG_ADD payload into guest memory at m->buf; its length. */
static uint32_t cfg_put(MR *m, Cfg *c)
{
    uint32_t off = 32;

    memset(c->b, 0, sizeof(c->b));
    stw_le_p(c->b + 4, c->na);
    stw_le_p(c->b + 6, ARRAY_SIZE_);
    stw_le_p(c->b + 8, c->nl);
    stw_le_p(c->b + 10, LD_SIZE);
    stw_le_p(c->b + 12, c->ns);
    stw_le_p(c->b + 14, SPARE_SIZE);
    for (int i = 0; i < c->na; i++, off += ARRAY_SIZE_) {
        memcpy(c->b + off, c->arrays[i], ARRAY_SIZE_);
    }
    for (int i = 0; i < c->nl; i++, off += LD_SIZE) {
        memcpy(c->b + off, c->lds[i], LD_SIZE);
    }
    for (int i = 0; i < c->ns; i++, off += SPARE_SIZE) {
        memcpy(c->b + off, c->spares[i], SPARE_SIZE);
    }
    stl_le_p(c->b, off);
    qtest_memwrite(m->qts, m->buf, c->b, off);
    return off;
}

static uint8_t cfg_add(MR *m, Cfg *c)
{
    uint32_t len = cfg_put(m, c);

    return dcmd(m, 70, CFG_ADD, 0, m->buf, len);
}

/* @op (CFG_READ's layout) into @out with a buffer of @len; MFI status. */
static uint8_t cfg_read_op(MR *m, uint32_t op, uint8_t mb0, uint8_t *out,
                           uint32_t len)
{
    uint8_t st;

    qtest_memset(m->qts, m->buf, 0xAA, 16384);
    st = dcmd(m, 71, op, mb0, m->buf, len);
    qtest_memread(m->qts, m->buf, out, len);
    return st;
}

/* CFG_READ into @out with a buffer of @len; the MFI status. */
static uint8_t cfg_read(MR *m, uint8_t *out, uint32_t len)
{
    return cfg_read_op(m, CFG_READ, 0, out, len);
}

/* mfiutil's pattern: 1024 bytes first, then the size the header gave. */
static uint32_t cfg_read_all_op(MR *m, uint32_t op, uint8_t mb0, uint8_t *out)
{
    uint32_t size;

    g_assert_cmphex(cfg_read_op(m, op, mb0, out, 1024), ==, 0);
    size = ldl_le_p(out);
    if (size > 1024) {
        g_assert_cmpuint(size, <=, 16384);
        g_assert_cmphex(cfg_read_op(m, op, mb0, out, size), ==, 0);
        g_assert_cmpuint(ldl_le_p(out), ==, size);
    }
    return size;
}

static uint32_t cfg_read_all(MR *m, uint8_t *out)
{
    return cfg_read_all_op(m, CFG_READ, 0, out);
}

static const uint8_t *cfg_ld_at(const uint8_t *c, int i)
{
    return c + 32 + lduw_le_p(c + 4) * lduw_le_p(c + 6) + i * LD_SIZE;
}

static const uint8_t *cfg_spare_at(const uint8_t *c, int i)
{
    return cfg_ld_at(c, lduw_le_p(c + 8)) + i * SPARE_SIZE;
}

/* Array @a is PDs 0, 1, 2, all ONLINE, and nothing more. */
static void check_members_012(const uint8_t *a)
{
    for (int i = 0; i < 3; i++) {
        g_assert_cmpuint(lduw_le_p(a + 32 + 8 * i), ==, i);
        g_assert_cmphex(lduw_le_p(a + 32 + 8 * i + 4), ==, 0x18);
    }
    g_assert_cmphex(lduw_le_p(a + 32 + 8 * 3), ==, 0xFFFF);
}

/* ---- QMP ---- */

static QDict *query_ctrl(MR *m, QDict **rsp)
{
    QList *l;

    *rsp = qtest_qmp(m->qts, "{'execute': 'query-megaraid'}");
    g_assert(qdict_haskey(*rsp, "return"));
    l = qdict_get_qlist(*rsp, "return");
    g_assert_cmpint(qlist_size(l), ==, 1);
    return qobject_to(QDict, qlist_entry_obj(qlist_first(l)));
}

static QDict *nth(QList *l, int n)
{
    const QListEntry *e = qlist_first(l);

    while (e && n--) {
        e = qlist_next(e);
    }
    g_assert_nonnull(e);
    return qobject_to(QDict, qlist_entry_obj(e));
}

static QDict *drive_of(QDict *c, int slot)
{
    QList *l = qdict_get_qlist(c, "drives");

    for (const QListEntry *e = qlist_first(l); e; e = qlist_next(e)) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, "slot") == slot) {
            return d;
        }
    }
    g_assert_not_reached();
}

static char *members(QDict *vd)
{
    GString *s = g_string_new(NULL);
    QList *l = qdict_get_qlist(vd, "members");

    for (const QListEntry *e = qlist_first(l); e; e = qlist_next(e)) {
        g_string_append_printf(s, "%s%" PRId64, s->len ? "," : "",
                               qnum_get_int(qobject_to(QNum,
                                                       qlist_entry_obj(e))));
    }
    return g_string_free(s, false);
}

static const uint64_t ALL = VD_DRIVE_BYTES / 512;

/* ---- tests ---- */

/* RAID 5 on PDs 0..2 with PD 3 a global spare; CFG_READ; props; delete. */
static void test_raid5(void)
{
    static const uint16_t pds[] = { 0, 1, 2 };
    static const uint16_t ref0[] = { 0 };
    g_autofree uint8_t *c = g_malloc0(16384);
    g_autofree char *mem = NULL;
    const uint8_t *a, *l, *sp;
    QDict *rsp, *ctrl, *vd;
    Cfg cf = { 0 };
    uint8_t mbox[12] = { 0 };
    uint8_t props[32];

    MR *m = cfg_start("");
    cfg_array(&cf, 0, pds, 3, ALL);
    cfg_ld(&cf, 0, 5, 0, 3, ref0, 1, ALL, "cfg5");
    cfg_spare(&cf, 3, NULL, 0);
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);

    /* a 32-byte buffer: OK, the header gives the whole size and counts */
    g_assert_cmphex(cfg_read(m, c, 32), ==, 0);
    g_assert_cmpuint(ldl_le_p(c), ==, 32 + ARRAY_SIZE_ + LD_SIZE + SPARE_SIZE);
    g_assert_cmpuint(lduw_le_p(c + 4), ==, 1);
    g_assert_cmpuint(lduw_le_p(c + 6), ==, ARRAY_SIZE_);
    g_assert_cmpuint(lduw_le_p(c + 8), ==, 1);
    g_assert_cmpuint(lduw_le_p(c + 10), ==, LD_SIZE);
    g_assert_cmpuint(lduw_le_p(c + 12), ==, 1);
    g_assert_cmpuint(lduw_le_p(c + 14), ==, SPARE_SIZE);
    /* ... and nothing past the buffer */
    g_assert_cmphex(qtest_readb(m->qts, m->buf + 32), ==, 0xAA);
    /* smaller than the header: refused */
    g_assert_cmphex(cfg_read(m, c, 16), ==, 0x03);

    g_assert_cmpuint(cfg_read_all(m, c), ==, 616);
    a = c + 32;
    g_assert_cmpuint(a[8], ==, 3);                      /* drives */
    g_assert_cmpuint(lduw_le_p(a + 10), ==, 0);         /* array ref */
    g_assert_cmpuint(ldq_le_p(a), >, 0);
    g_assert_cmpuint(ldq_le_p(a), <=, ALL);
    check_members_012(a);
    l = cfg_ld_at(c, 0);
    g_assert_cmpuint(l[0], ==, 0);
    g_assert_cmpstr((const char *)l + 4, ==, "cfg5");
    g_assert_cmphex(l[0x14], ==, 0x21);
    g_assert_cmpuint(l[0x20], ==, 5);
    g_assert_cmpuint(l[0x21], ==, 3);
    g_assert_cmpuint(l[0x22], ==, 0);
    g_assert_cmpuint(l[0x23], ==, 7);
    g_assert_cmpuint(l[0x24], ==, 3);
    g_assert_cmpuint(l[0x25], ==, 1);
    g_assert_cmpuint(l[0x26], ==, 3);                   /* optimal */
    g_assert_cmpuint(lduw_le_p(l + 0x40 + 16), ==, 0);  /* span: array 0 */
    sp = cfg_spare_at(c, 0);
    g_assert_cmpuint(lduw_le_p(sp), ==, 3);
    g_assert_cmphex(sp[4], ==, 0);                      /* global */
    g_assert_cmpuint(sp[7], ==, 0);

    /* QMP sees the same: a RAID 5 on slots 0..2, slot 3 a hot spare */
    ctrl = query_ctrl(m, &rsp);
    g_assert_cmpint(qlist_size(qdict_get_qlist(ctrl, "vds")), ==, 1);
    vd = nth(qdict_get_qlist(ctrl, "vds"), 0);
    g_assert_cmpstr(qdict_get_str(vd, "level"), ==, "raid5");
    g_assert_cmpstr(qdict_get_str(vd, "name"), ==, "cfg5");
    g_assert_cmpint(qdict_get_int(vd, "strip"), ==, 64 * 1024);
    mem = members(vd);
    g_assert_cmpstr(mem, ==, "0,1,2");
    g_assert_cmpuint(qdict_get_int(vd, "size"), >, 0);
    g_assert_cmpstr(qdict_get_str(vd, "cache-policy"), ==, "write-back");
    g_assert_cmpstr(qdict_get_str(drive_of(ctrl, 3), "state"), ==,
                    "hot-spare");
    g_assert_cmpint(qdict_get_int(drive_of(ctrl, 3), "spare-for"), ==, -1);
    qobject_unref(rsp);

    /* LD properties: as CFG_ADD set them; changed; read back */
    g_assert_cmphex(dcmd(m, 72, LD_GET_PROPS, 0, m->buf, 32), ==, 0);
    qtest_memread(m->qts, m->buf, props, 32);
    g_assert_cmpuint(props[0], ==, 0);
    g_assert_cmpstr((const char *)props + 4, ==, "cfg5");
    g_assert_cmphex(props[0x14], ==, 0x21);
    g_assert_cmphex(dcmd(m, 72, LD_GET_PROPS, 5, m->buf, 32), ==, 0x0C);
    g_assert_cmphex(dcmd(m, 72, LD_GET_PROPS, 0, m->buf, 16), ==, 0x03);
    memset(props + 4, 0, 16);
    strcpy((char *)props + 4, "renamed");
    props[0x14] = 0x64;         /* read+write caching, read ahead, WT */
    qtest_memwrite(m->qts, m->buf, props, 32);
    mbox[0] = 0;
    g_assert_cmphex(dcmd_mbox(m, 73, LD_SET_PROPS, mbox, m->buf, 32), ==, 0);
    g_assert_cmphex(dcmd(m, 72, LD_GET_PROPS, 0, m->buf, 32), ==, 0);
    qtest_memread(m->qts, m->buf, props, 32);
    g_assert_cmpstr((const char *)props + 4, ==, "renamed");
    g_assert_cmphex(props[0x14], ==, 0x64);
    ctrl = query_ctrl(m, &rsp);
    vd = nth(qdict_get_qlist(ctrl, "vds"), 0);
    g_assert_cmpstr(qdict_get_str(vd, "name"), ==, "renamed");
    g_assert_cmpstr(qdict_get_str(vd, "cache-policy"), ==, "write-through");
    g_assert_true(qdict_get_bool(vd, "read-ahead"));
    qobject_unref(rsp);
    /* refused: another target in the data, read-only access, disk cache */
    props[0] = 1;
    qtest_memwrite(m->qts, m->buf, props, 32);
    g_assert_cmphex(dcmd_mbox(m, 73, LD_SET_PROPS, mbox, m->buf, 32), ==, 3);
    props[0] = 0;
    props[0x15] = 2;
    qtest_memwrite(m->qts, m->buf, props, 32);
    g_assert_cmphex(dcmd_mbox(m, 73, LD_SET_PROPS, mbox, m->buf, 32), ==, 3);
    props[0x15] = 0;
    props[0x16] = 1;
    qtest_memwrite(m->qts, m->buf, props, 32);
    g_assert_cmphex(dcmd_mbox(m, 73, LD_SET_PROPS, mbox, m->buf, 32), ==, 3);
    mbox[0] = 9;
    g_assert_cmphex(dcmd_mbox(m, 73, LD_SET_PROPS, mbox, m->buf, 32), ==,
                    0x0C);

    /* LD_DELETE: the LD and its array go, the global spare stays */
    g_assert_cmphex(dcmd(m, 74, LD_DELETE, 7, 0, 0), ==, 0x0C);
    g_assert_cmphex(dcmd(m, 74, LD_DELETE, 0, 0, 0), ==, 0);
    g_assert_cmpuint(cfg_read_all(m, c), ==, 32 + SPARE_SIZE);
    g_assert_cmpuint(lduw_le_p(c + 4), ==, 0);
    g_assert_cmpuint(lduw_le_p(c + 8), ==, 0);
    g_assert_cmpuint(lduw_le_p(c + 12), ==, 1);
    /* REMOVE_SPARE of PD 3, then of a drive that is no spare */
    mbox[0] = 3;
    g_assert_cmphex(dcmd_mbox(m, 75, REMOVE_SPARE, mbox, 0, 0), ==, 0);
    g_assert_cmphex(dcmd_mbox(m, 75, REMOVE_SPARE, mbox, 0, 0), ==, 0x32);
    mbox[0] = 77;
    g_assert_cmphex(dcmd_mbox(m, 75, REMOVE_SPARE, mbox, 0, 0), ==, 0x0C);
    g_assert_cmpuint(cfg_read_all(m, c), ==, 32);
    ctrl = query_ctrl(m, &rsp);
    g_assert_cmpint(qlist_size(qdict_get_qlist(ctrl, "vds")), ==, 0);
    g_assert_cmpstr(qdict_get_str(drive_of(ctrl, 3), "state"), ==,
                    "unconfigured-good");
    qobject_unref(rsp);
    cfg_stop(m);
}

/* RAID 1 and RAID 10 in one CFG_ADD; RAID 50, a dedicated spare; clear. */
static void test_levels(void)
{
    static const uint16_t p01[] = { 0, 1 }, p23[] = { 2, 3 },
                          p45[] = { 4, 5 };
    static const uint16_t p012[] = { 0, 1, 2 }, p345[] = { 3, 4, 5 };
    static const uint16_t r0[] = { 0 }, r12[] = { 1, 2 }, r8[] = { 8, 9 };
    g_autofree uint8_t *c = g_malloc0(16384);
    const uint8_t *l, *sp;
    QDict *rsp, *ctrl, *vd;
    QList *vds;
    Cfg cf = { 0 };
    MR *m = cfg_start("");

    cfg_array(&cf, 0, p01, 2, ALL);
    cfg_array(&cf, 1, p23, 2, ALL);
    cfg_array(&cf, 2, p45, 2, ALL);
    cfg_ld(&cf, 0, 1, 0, 2, r0, 1, ALL, "mirror");
    cfg_ld(&cf, 1, 1, 3, 2, r12, 2, ALL, "r10");
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);

    cfg_read_all(m, c);
    g_assert_cmpuint(lduw_le_p(c + 4), ==, 3);
    g_assert_cmpuint(lduw_le_p(c + 8), ==, 2);
    /* the second drive group's arrays are 8 and 9 (group * 8 + span) */
    g_assert_cmpuint(lduw_le_p(c + 32 + ARRAY_SIZE_ + 10), ==, 8);
    g_assert_cmpuint(lduw_le_p(c + 32 + 2 * ARRAY_SIZE_ + 10), ==, 9);
    l = cfg_ld_at(c, 1);
    g_assert_cmpuint(l[0], ==, 1);
    g_assert_cmpuint(l[0x20], ==, 1);
    g_assert_cmpuint(l[0x22], ==, 3);                   /* spanned */
    g_assert_cmpuint(l[0x25], ==, 2);
    g_assert_cmpuint(lduw_le_p(l + 0x40 + 16), ==, 8);
    g_assert_cmpuint(lduw_le_p(l + 0x40 + 24 + 16), ==, 9);
    ctrl = query_ctrl(m, &rsp);
    vds = qdict_get_qlist(ctrl, "vds");
    g_assert_cmpint(qlist_size(vds), ==, 2);
    g_assert_cmpstr(qdict_get_str(nth(vds, 0), "level"), ==, "raid1");
    vd = nth(vds, 1);
    g_assert_cmpstr(qdict_get_str(vd, "level"), ==, "raid10");
    g_assert_cmpint(qdict_get_int(vd, "spans"), ==, 2);
    qobject_unref(rsp);
    /* an LD on the RAID 10's arrays is a second VD on its drive group */
    memset(&cf, 0, sizeof(cf));
    /* ... but these are full: it does not fit */
    cfg_ld(&cf, 2, 1, 3, 2, r8, 2, 1000, "more");
    g_assert_cmphex(cfg_add(m, &cf), !=, 0);

    /* a dedicated spare of the RAID 10 (arrays 8 and 9) by MAKE_SPARE */
    qtest_memset(m->qts, m->buf, 0, 64);
    qtest_writew(m->qts, m->buf, 6);
    qtest_writeb(m->qts, m->buf + 4, 1);
    qtest_writeb(m->qts, m->buf + 7, 2);
    qtest_writew(m->qts, m->buf + 8, 8);
    qtest_writew(m->qts, m->buf + 10, 9);
    g_assert_cmphex(dcmd(m, 76, MAKE_SPARE, 0, m->buf, 12), ==, 0);
    cfg_read_all(m, c);
    sp = cfg_spare_at(c, 0);
    g_assert_cmpuint(lduw_le_p(sp), ==, 6);
    g_assert_cmphex(sp[4] & 1, ==, 1);
    g_assert_cmpuint(sp[7], ==, 2);
    g_assert_cmpuint(lduw_le_p(sp + 8), ==, 8);
    ctrl = query_ctrl(m, &rsp);
    g_assert_cmpint(qdict_get_int(drive_of(ctrl, 6), "spare-for"), ==,
                    qdict_get_int(nth(qdict_get_qlist(ctrl, "vds"), 1),
                                  "drive-group"));
    qobject_unref(rsp);

    /* CFG_CLEAR: no VD, no spare; every drive unconfigured good */
    g_assert_cmphex(dcmd(m, 77, CFG_CLEAR, 0, 0, 0), ==, 0);
    g_assert_cmpuint(cfg_read_all(m, c), ==, 32);
    ctrl = query_ctrl(m, &rsp);
    g_assert_cmpint(qlist_size(qdict_get_qlist(ctrl, "vds")), ==, 0);
    for (int i = 0; i < NDRV; i++) {
        g_assert_cmpstr(qdict_get_str(drive_of(ctrl, i), "state"), ==,
                        "unconfigured-good");
    }
    qobject_unref(rsp);

    /* a quarter of two drives, then a second LD in the rest of them */
    memset(&cf, 0, sizeof(cf));
    cfg_array(&cf, 0, (const uint16_t[]){ 6, 7 }, 2, ALL);
    cfg_ld(&cf, 0, 1, 0, 2, r0, 1, ALL / 4, "quarter");
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);
    memset(&cf, 0, sizeof(cf));
    cfg_ld(&cf, 1, 1, 0, 2, r0, 1, ALL, "rest");     /* array 0: group 0 */
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);
    ctrl = query_ctrl(m, &rsp);
    vds = qdict_get_qlist(ctrl, "vds");
    g_assert_cmpint(qlist_size(vds), ==, 2);
    g_assert_cmpint(qdict_get_int(nth(vds, 0), "size"), <=, ALL / 4 * 512);
    g_assert_cmpint(qdict_get_int(nth(vds, 0), "size"), >,
                    (ALL / 4 - 256) * 512);
    g_assert_cmpint(qdict_get_int(nth(vds, 1), "size"), >,
                    qdict_get_int(nth(vds, 0), "size"));
    g_assert_cmpint(qdict_get_int(nth(vds, 1), "drive-group"), ==,
                    qdict_get_int(nth(vds, 0), "drive-group"));
    qobject_unref(rsp);
    cfg_read_all(m, c);
    g_assert_cmpuint(lduw_le_p(c + 4), ==, 1);          /* one array */
    g_assert_cmpuint(lduw_le_p(c + 8), ==, 2);          /* two LDs on it */
    g_assert_cmpuint(ldq_le_p(cfg_ld_at(c, 1) + 0x40), >=, ALL / 4 - 256);
    g_assert_cmpuint(lduw_le_p(cfg_ld_at(c, 1) + 0x40 + 16), ==, 0);

    /* RAID 50 over two arrays of three */
    memset(&cf, 0, sizeof(cf));
    cfg_array(&cf, 1, p012, 3, ALL);
    cfg_array(&cf, 2, p345, 3, ALL);
    cfg_ld(&cf, 2, 5, 3, 3, r12, 2, ALL, "r50");
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);
    ctrl = query_ctrl(m, &rsp);
    vd = nth(qdict_get_qlist(ctrl, "vds"), 2);
    g_assert_cmpstr(qdict_get_str(vd, "level"), ==, "raid50");
    g_assert_cmpint(qdict_get_int(vd, "spans"), ==, 2);
    qobject_unref(rsp);
    cfg_read_all(m, c);
    l = cfg_ld_at(c, 2);
    g_assert_cmpuint(l[0x20], ==, 5);
    g_assert_cmpuint(l[0x22], ==, 3);
    g_assert_cmpuint(l[0x24], ==, 3);
    g_assert_cmpuint(l[0x25], ==, 2);
    /* no foreign configuration here */
    g_assert_cmphex(dcmd(m, 78, FOREIGN_SCAN, 0, m->buf, 196), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 0);
    cfg_stop(m);
}

/* RAID 60 over every drive, then RAID 6 and RAID 0 once it is gone. */
static void test_raid60(void)
{
    static const uint16_t lo[] = { 0, 1, 2, 3 }, hi[] = { 4, 5, 6, 7 };
    static const uint16_t r01[] = { 0, 1 }, r0[] = { 0 }, r1[] = { 1 };
    g_autofree uint8_t *c = g_malloc0(16384);
    QDict *rsp, *ctrl;
    QList *vds;
    Cfg cf = { 0 };
    MR *m = cfg_start("");

    cfg_array(&cf, 0, lo, 4, ALL);
    cfg_array(&cf, 1, hi, 4, ALL);
    cfg_ld(&cf, 0, 6, 3, 4, r01, 2, ALL, "r60");
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);
    ctrl = query_ctrl(m, &rsp);
    vds = qdict_get_qlist(ctrl, "vds");
    g_assert_cmpstr(qdict_get_str(nth(vds, 0), "level"), ==, "raid60");
    g_assert_cmpint(qdict_get_int(nth(vds, 0), "spans"), ==, 2);
    qobject_unref(rsp);
    cfg_read_all(m, c);
    g_assert_cmpuint(lduw_le_p(c + 4), ==, 2);
    g_assert_cmpuint(cfg_ld_at(c, 0)[0x20], ==, 6);
    g_assert_cmpuint(cfg_ld_at(c, 0)[0x22], ==, 3);
    g_assert_cmphex(dcmd(m, 74, LD_DELETE, 0, 0, 0), ==, 0);

    memset(&cf, 0, sizeof(cf));
    cfg_array(&cf, 0, lo, 4, ALL);
    cfg_array(&cf, 1, hi, 4, ALL);
    cfg_ld(&cf, 0, 6, 0, 4, r0, 1, ALL, "r6");
    cfg_ld(&cf, 1, 0, 0, 4, r1, 1, ALL, "r0");
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);
    ctrl = query_ctrl(m, &rsp);
    vds = qdict_get_qlist(ctrl, "vds");
    g_assert_cmpint(qlist_size(vds), ==, 2);
    g_assert_cmpstr(qdict_get_str(nth(vds, 0), "level"), ==, "raid6");
    g_assert_cmpstr(qdict_get_str(nth(vds, 1), "level"), ==, "raid0");
    qobject_unref(rsp);
    cfg_stop(m);
}

/* LD info's progress block while an initialization runs (timing=on). */
static void test_progress(void)
{
    static const uint16_t p01[] = { 0, 1 };
    static const uint16_t r0[] = { 0 };
    Cfg cf = { 0 };
    uint32_t active = 0;
    uint16_t prog = 0;
    QDict *rsp, *ctrl, *job;
    MR *m = cfg_start(",timing=on");

    cfg_array(&cf, 0, p01, 2, ALL);
    cfg_ld(&cf, 0, 1, 0, 2, r0, 1, ALL, "init");
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);
    g_assert_cmphex(dcmd(m, 79, LD_INIT_START, 0, 0, 0), ==, 0);
    /* a second start while it runs: INIT IN PROGRESS */
    g_assert_cmphex(dcmd(m, 79, LD_INIT_START, 0, 0, 0), ==, 0x18);
    g_assert_cmphex(dcmd(m, 79, LD_INIT_START, 3, 0, 0), ==, 0x0C);
    g_assert_cmphex(dcmd(m, 80, LD_GET_INFO, 0, m->buf, 384), ==, 0);
    active = qtest_readl(m->qts, m->buf + 0x108);
    g_assert_cmphex(active, ==, 0x02);                  /* BGI */
    /* deleting it meanwhile: refused with INIT IN PROGRESS */
    g_assert_cmphex(dcmd(m, 81, LD_DELETE, 0, 0, 0), ==, 0x18);
    g_assert_cmphex(dcmd(m, 81, CFG_CLEAR, 0, 0, 0), ==, 0x18);
    /* the virtual clock moves: the BGI progress rises, as QMP's job */
    for (int i = 0; i < 100 && !prog; i++) {
        qtest_clock_step(m->qts, 1000 * 1000 * 1000);
        g_assert_cmphex(dcmd(m, 80, LD_GET_INFO, 0, m->buf, 384), ==, 0);
        g_assert_cmphex(qtest_readl(m->qts, m->buf + 0x108), ==, 0x02);
        prog = qtest_readw(m->qts, m->buf + 0x110);
    }
    g_assert_cmpuint(prog, >, 0);
    g_assert_cmpuint(prog, <, 0xFFFF);
    ctrl = query_ctrl(m, &rsp);
    job = qdict_get_qdict(nth(qdict_get_qlist(ctrl, "vds"), 0), "job");
    g_assert_nonnull(job);
    qobject_unref(rsp);
    cfg_stop(m);
}

/* Every refusal leaves the configuration as it was. */
static void test_refused(void)
{
    static const uint16_t p012[] = { 0, 1, 2 }, p0[] = { 4, 4 },
                          p45[] = { 4, 5 }, p99[] = { 4, 99 },
                          p67[] = { 6, 7 }, p34[] = { 3, 4 };
    static const uint16_t r0[] = { 0 }, r1[] = { 1 }, r40[] = { 40 };
    g_autofree uint8_t *c = g_malloc0(16384);
    uint8_t mbox[12] = { 0 };
    QDict *rsp, *ctrl;
    Cfg cf = { 0 };
    MR *m = cfg_start("");
    uint32_t len;

    cfg_array(&cf, 0, p012, 3, ALL);
    cfg_ld(&cf, 0, 5, 0, 3, r0, 1, ALL, "base");
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);

#define REFUSE(want) do {                                       \
        g_assert_cmphex(cfg_add(m, &cf), ==, (want));           \
        memset(&cf, 0, sizeof(cf));                             \
    } while (0)

    memset(&cf, 0, sizeof(cf));
    cfg_array(&cf, 1, p0, 2, ALL);                      /* PD 4 twice */
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "");
    REFUSE(0x03);
    cfg_array(&cf, 1, p34, 2, ALL);
    cfg_array(&cf, 2, p45, 2, ALL);                     /* PD 4 again */
    cfg_ld(&cf, 1, 1, 3, 2, (const uint16_t[]){ 1, 2 }, 2, ALL, "");
    REFUSE(0x03);
    cfg_array(&cf, 1, p012 + 1, 2, ALL);                /* PDs in use */
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "");
    REFUSE(0x0B);
    cfg_array(&cf, 1, p99, 2, ALL);                     /* no PD 99 */
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "");
    REFUSE(0x0C);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* unknown array */
    cfg_ld(&cf, 1, 1, 0, 2, r40, 1, ALL, "");
    REFUSE(0x09);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* array, no LD */
    cfg_array(&cf, 2, p67, 2, ALL);
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "");
    REFUSE(0x03);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* PRL 3 */
    cfg_ld(&cf, 1, 3, 0, 2, r1, 1, ALL, "");
    REFUSE(0x1E);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* RAID 00 */
    cfg_array(&cf, 2, p67, 2, ALL);
    cfg_ld(&cf, 1, 0, 3, 2, (const uint16_t[]){ 1, 2 }, 2, ALL, "");
    REFUSE(0x1E);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* 2 KiB strips */
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "")[0x23] = 2;
    REFUSE(0x03);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* target in use */
    cfg_ld(&cf, 0, 1, 0, 2, r1, 1, ALL, "");
    REFUSE(0x03);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* too big */
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, 4 * ALL, "");
    REFUSE(0x0D);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* 3-wide LD */
    cfg_ld(&cf, 1, 1, 0, 3, r1, 1, ALL, "");
    REFUSE(0x03);
    cfg_array(&cf, 1, p45, 2, ALL);                     /* bad name */
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "")[5] = 0x07;
    REFUSE(0x03);
    /* the second LD refused by the core: the first one is undone */
    cfg_array(&cf, 1, p45, 2, ALL);
    cfg_array(&cf, 2, p67, 2, ALL);
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "first");
    cfg_ld(&cf, 2, 1, 0, 2, (const uint16_t[]){ 2 }, 1, ALL, "")[5] = 0x07;
    REFUSE(0x03);
    /* buffers: shorter than the header, than the header's counts */
    cfg_array(&cf, 1, p45, 2, ALL);
    cfg_ld(&cf, 1, 1, 0, 2, r1, 1, ALL, "");
    len = cfg_put(m, &cf);
    g_assert_cmphex(dcmd(m, 70, CFG_ADD, 0, m->buf, 16), ==, 0x03);
    g_assert_cmphex(dcmd(m, 70, CFG_ADD, 0, m->buf, len - 1), ==, 0x03);
    g_assert_cmphex(dcmd(m, 70, CFG_ADD, 0, 0xFFFF00000000ull, len), ==,
                    0x03);
    g_assert_cmphex(dcmd(m, 70, CFG_ADD, 0, m->buf, 1u << 24), ==, 0x03);
    /* spares: a member, an absent PD, unknown arrays, two groups */
    qtest_memset(m->qts, m->buf, 0, 64);
    g_assert_cmphex(dcmd(m, 76, MAKE_SPARE, 0, m->buf, 8), ==, 0x0B);
    qtest_writew(m->qts, m->buf, 88);
    g_assert_cmphex(dcmd(m, 76, MAKE_SPARE, 0, m->buf, 8), ==, 0x0C);
    qtest_writew(m->qts, m->buf, 6);
    qtest_writeb(m->qts, m->buf + 4, 1);
    qtest_writeb(m->qts, m->buf + 7, 1);
    qtest_writew(m->qts, m->buf + 8, 17);
    g_assert_cmphex(dcmd(m, 76, MAKE_SPARE, 0, m->buf, 10), ==, 0x09);
    g_assert_cmphex(dcmd(m, 76, MAKE_SPARE, 0, m->buf, 9), ==, 0x03);
    qtest_writeb(m->qts, m->buf + 7, 0);                /* dedicated, none */
    g_assert_cmphex(dcmd(m, 76, MAKE_SPARE, 0, m->buf, 8), ==, 0x03);
    g_assert_cmphex(dcmd(m, 76, MAKE_SPARE, 0, m->buf, 4), ==, 0x03);
    mbox[0] = 200;
    g_assert_cmphex(dcmd_mbox(m, 75, REMOVE_SPARE, mbox, 0, 0), ==, 0x0C);
    g_assert_cmphex(dcmd(m, 74, LD_DELETE, 1, 0, 0), ==, 0x0C);

    /* nothing changed: one array, one LD, no spare */
    cfg_read_all(m, c);
    g_assert_cmpuint(lduw_le_p(c + 4), ==, 1);
    g_assert_cmpuint(lduw_le_p(c + 8), ==, 1);
    g_assert_cmpuint(lduw_le_p(c + 12), ==, 0);
    ctrl = query_ctrl(m, &rsp);
    g_assert_cmpint(qlist_size(qdict_get_qlist(ctrl, "vds")), ==, 1);
    for (int i = 3; i < NDRV; i++) {
        g_assert_cmpstr(qdict_get_str(drive_of(ctrl, i), "state"), ==,
                        "unconfigured-good");
    }
    qobject_unref(rsp);
    cfg_stop(m);
}

/*
 * Another controller's RAID 5 (PDs 0..2) with a dedicated spare (PD 3):
 * FOREIGN_SCAN finds it, DISPLAY and PREVIEW describe it as CFG_READ
 * described it where it was made, IMPORT makes it the configuration.
 */
static void test_foreign(void)
{
    static const uint16_t pds[] = { 0, 1, 2 };
    static const uint16_t ref0[] = { 0 };
    g_autofree uint8_t *orig = g_malloc0(16384);
    g_autofree uint8_t *c = g_malloc0(16384);
    g_autofree uint8_t *pv = g_malloc0(16384);
    uint32_t size;
    const uint8_t *a, *l, *sp;
    Cfg cf = { 0 };
    MR *m = cfg_start("");

    cfg_array(&cf, 0, pds, 3, ALL);
    cfg_ld(&cf, 0, 5, 0, 3, ref0, 1, ALL, "mine5");
    cfg_spare(&cf, 3, ref0, 1);
    g_assert_cmphex(cfg_add(m, &cf), ==, 0);
    g_assert_cmpuint(cfg_read_all(m, orig), ==,
                     32 + ARRAY_SIZE_ + LD_SIZE + SPARE_SIZE);

    m = cfg_restart(m, ",serial=OTHERCTRL0000001");
    g_assert_cmphex(dcmd(m, 78, FOREIGN_SCAN, 0, m->buf, 196), ==, 0);
    g_assert_cmpuint(qtest_readl(m->qts, m->buf), ==, 1);
    g_assert_cmpuint(cfg_read_all(m, c), ==, 32);       /* nothing own */

    /* the header alone first, as mfiutil reads it */
    g_assert_cmphex(cfg_read_op(m, FOREIGN_DISPLAY, 0, c, 32), ==, 0);
    g_assert_cmpuint(ldl_le_p(c), ==, 32 + ARRAY_SIZE_ + LD_SIZE +
                     SPARE_SIZE);
    g_assert_cmphex(qtest_readb(m->qts, m->buf + 32), ==, 0xAA);
    size = cfg_read_all_op(m, FOREIGN_DISPLAY, 0, c);
    g_assert_cmpuint(size, ==, 32 + ARRAY_SIZE_ + LD_SIZE + SPARE_SIZE);
    g_assert_cmpmem(c, 16, orig, 16);                   /* the counts */
    a = c + 32;
    g_assert_cmpuint(a[8], ==, 3);
    g_assert_cmpuint(ldq_le_p(a), ==, ldq_le_p(orig + 32));
    check_members_012(a);
    l = cfg_ld_at(c, 0);
    g_assert_cmpuint(l[0], ==, 0);
    g_assert_cmpstr((const char *)l + 4, ==, "mine5");
    /* level, strip, drives, spans, state as it was made */
    g_assert_cmpmem(l + 0x20, 7, cfg_ld_at(orig, 0) + 0x20, 7);
    g_assert_cmpuint(l[0x26], ==, 3);                   /* optimal */
    g_assert_cmpmem(l + 0x40, 24, cfg_ld_at(orig, 0) + 0x40, 24);
    sp = cfg_spare_at(c, 0);
    g_assert_cmpuint(lduw_le_p(sp), ==, 3);
    g_assert_cmphex(sp[4], ==, 1);                      /* dedicated */
    g_assert_cmpuint(sp[7], ==, 1);
    g_assert_cmpuint(lduw_le_p(sp + 8), ==, 0);
    /* the preview: the same */
    g_assert_cmpuint(cfg_read_all_op(m, FOREIGN_PREVIEW, 0, pv), ==, size);
    g_assert_cmpmem(pv, size, c, size);

    /* refusals: no second configuration, a buffer below the header */
    g_assert_cmphex(cfg_read_op(m, FOREIGN_DISPLAY, 1, c, 1024), ==, 0x23);
    g_assert_cmphex(cfg_read_op(m, FOREIGN_PREVIEW, 255, c, 1024), ==, 0x23);
    g_assert_cmphex(cfg_read_op(m, FOREIGN_DISPLAY, 0, c, 16), ==, 0x03);

    /* imported: CFG_READ shows it, nothing is foreign any more */
    g_assert_cmphex(dcmd(m, 79, FOREIGN_IMPORT, 0xFF, 0, 0), ==, 0);
    g_assert_cmpuint(cfg_read_all(m, c), ==, size);
    g_assert_cmpmem(cfg_ld_at(c, 0) + 0x20, 7, cfg_ld_at(orig, 0) + 0x20, 7);
    g_assert_cmphex(cfg_read_op(m, FOREIGN_DISPLAY, 0, c, 1024), ==, 0x23);
    cfg_stop(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9500/cfg/raid5-spare", test_raid5);
    qtest_add_func("/megaraid-9500/cfg/levels", test_levels);
    qtest_add_func("/megaraid-9500/cfg/raid60", test_raid60);
    qtest_add_func("/megaraid-9500/cfg/progress", test_progress);
    qtest_add_func("/megaraid-9500/cfg/refused", test_refused);
    qtest_add_func("/megaraid-9500/cfg/foreign", test_foreign);
    return g_test_run();
}
