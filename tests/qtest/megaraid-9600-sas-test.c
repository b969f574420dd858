/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-9600's SAS transport personality
 * (sas-transport=on): IOC FACTS without MULTIPATH, the enclosure event
 * when events are enabled, the device pages and topology change lists of
 * discovery and hot plug, the SAS IO Unit, SAS Phy, Enclosure, SAS
 * Expander and controller Device pages, and the IOC status of bad page
 * addresses; with the property off none of those pages exist; the SES
 * device of the card's enclosure (its handle, Device page 0, its
 * RECEIVE DIAGNOSTIC pages, slot LEDs through SEND DIAGNOSTIC, QOM and
 * query-megaraid, a failed member's fault, hostile control pages).
 * Offsets are written from the MPI 3.0 interface description and SES-3,
 * not taken from the device's header.
 */
#include "qemu/osdep.h"
#include "megaraid-harness.h"
#include "megaraid-ddf-rig.h"
#include "qobject/qlist.h"

#define CTRL_HANDLE     0x3FF
#define SEP_HANDLE      0x2FF
#define SEP_SAS_ADDR    0x500062b2000c0001ULL
#define ENCL_HANDLE     1
#define HOST_SAS_ADDR   0x500062b2000c0000ULL   /* from the default dsn */
#define WWN_SAS0        0x5000c50000a0b000ULL
#define WWN_SATA2       0x5000c50000a0b010ULL

#define EV_DATA         0x18    /* event data in the reply frame */
#define ST_INVALID_FIELD        0x0007
#define ST_CFG_INVALID_ACTION   0x0020
#define ST_CFG_INVALID_PAGE     0x0022

/* Drives: SAS in bay 0, SATA in bay 2, NVMe in bay 8, SAS in enclosure 1 */
static const char drives[] =
    "-blockdev driver=null-co,node-name=n0,size=4194304 "
    "-blockdev driver=null-co,node-name=n1,size=4194304 "
    "-blockdev driver=null-co,node-name=n2,size=4194304 "
    "-blockdev driver=null-co,node-name=n3,size=4194304 "
    "-blockdev driver=null-co,node-name=spare,size=4194304 "
    "-device megaraid-drive,id=hd0,bus=raid0.0,slot=0,drive=n0,"
    "interface=sas,wwn=0x5000c50000a0b000 "
    "-device megaraid-drive,id=hd1,bus=raid0.0,slot=2,drive=n1,"
    "interface=sata,wwn=0x5000c50000a0b010 "
    "-device megaraid-drive,id=hd2,bus=raid0.0,slot=8,drive=n2,"
    "interface=nvme "
    "-device megaraid-drive,id=hd3,bus=raid0.0,enclosure=1,slot=0,drive=n3,"
    "interface=sas";

typedef struct Events {
    int n;
    HDesc ev[16];
} Events;

static HMR *sas_start(bool on)
{
    HMR *m = g_new0(HMR, 1);

    h_launch(m, on ? ",sas-transport=on" : "", drives);
    return m;
}

/* Submit an admin frame; keep the events before its reply. */
static uint16_t admin_events(HMR *m, const void *f, size_t len, Events *e)
{
    return h_admin_events(m, f, len, e->ev, &e->n, ARRAY_SIZE(e->ev));
}

/*
 * The next event outside a request (hot plug) that is a DEVICE ADDED or
 * a SAS topology change list (the firmware's LOG DATA between them are
 * not this test's).
 */
static void next_event(HMR *m, HDesc *d)
{
    for (int n = 0; n < 16; n++) {
        g_assert(h_admin_reply(m, d, 5000));
        g_assert_cmphex(d->tag, ==, 0xFFFF);
        if (d->frame[0x11] == 0x07 || d->frame[0x11] == 0x16) {
            return;
        }
    }
    g_assert_not_reached();
}

static void bringup(HMR *m, Events *enable, Events *port)
{
    uint8_t f[32];

    h_init(m);
    h_event_notify_frame(f, NULL);
    g_assert_cmphex(admin_events(m, f, sizeof(f), enable), ==, 0);
    memset(f, 0, sizeof(f));
    stw_le_p(f, 1);
    f[3] = 0x03;
    g_assert_cmphex(admin_events(m, f, 12, port), ==, 0);
}

/* The DEVICE ADDED of the drive in @slot with @form, its page at *pg. */
static const uint8_t *added(Events *e, uint16_t slot, uint8_t form)
{
    for (int i = 0; i < e->n; i++) {
        const uint8_t *p = e->ev[i].frame + EV_DATA;

        if (e->ev[i].frame[0x11] == 0x07 && lduw_le_p(p + 0x0C) == slot &&
            p[0x27] == form) {
            return p;
        }
    }
    g_assert_not_reached();
}

static uint16_t config(HMR *m, uint8_t type, uint8_t num, uint8_t action,
                       uint32_t address, uint8_t *out, uint32_t len)
{
    uint8_t f[H_CONFIG_LEN];
    uint64_t buf = m->buf + 0x8000;     /* the harness's scratch buffer */
    uint16_t st;

    qtest_memset(m->qts, buf, 0xEE, len);
    h_config_frame(f, 0x30, type, num, action, address, len / 4, buf, len);
    st = h_admin(m, f, sizeof(f));
    qtest_memread(m->qts, buf, out, len);
    return st;
}

static uint16_t read_page(HMR *m, uint8_t type, uint8_t num, uint32_t address,
                          uint8_t *out, uint32_t len)
{
    return config(m, type, num, 2, address, out, len);   /* READ CURRENT */
}

/* The page's length in bytes from its header. */
static uint32_t page_len(HMR *m, uint8_t type, uint8_t num)
{
    uint8_t h[8];

    g_assert_cmphex(config(m, type, num, 0, 0, h, 8), ==, 0);
    g_assert_cmphex(h[6], ==, type);
    g_assert_cmphex(h[2], ==, num);
    return lduw_le_p(h + 4) * 4;
}

static void test_facts(void)
{
    for (int on = 0; on < 2; on++) {
        HMR *m = sas_start(on);
        uint8_t f[112];

        h_init(m);
        qtest_memread(m->qts, m->buf, f, sizeof(f));
        /* MULTIPATH (bit 1) set: the driver's SAS transport stays off */
        g_assert_cmphex(ldl_le_p(f + 0x10) & 0x2, ==, on ? 0 : 0x2);
        h_stop(m);
    }
}

/* Each model's default and the property over it; the eHBAs' phys. */
static void test_models(void)
{
    static const struct {
        const char *opts;
        bool transport;
        uint32_t phys;
    } c[] = {
        { ",model=9670w-16i", false, 16 },
        { ",model=9670-24i", false, 24 },
        { ",model=h965i", false, 16 },
        { ",model=9600-16i", true, 16 },
        { ",model=9600-24i", true, 24 },
        { ",model=9600-16e", true, 16 },
        { ",model=9600-16e,sas-transport=off", false, 16 },
        { ",model=9670w-16i,sas-transport=on", true, 16 },
        { ",model=9600-24i,sas-transport=auto", true, 24 },
    };

    for (int i = 0; i < ARRAY_SIZE(c); i++) {
        HMR *m = g_new0(HMR, 1);
        uint8_t f[112], *pg;

        g_test_message("%s", c[i].opts);
        h_launch(m, c[i].opts, drives);
        h_init(m);
        qtest_memread(m->qts, m->buf, f, sizeof(f));
        g_assert_cmphex(ldl_le_p(f + 0x10) & 0x2, ==, c[i].transport ? 0 : 2);
        if (c[i].transport) {
            pg = g_malloc0(4096);
            g_assert_cmphex(read_page(m, 0x20, 0, 0, pg,
                                      page_len(m, 0x20, 0)), ==, 0);
            g_assert_cmpuint(pg[0x0C], ==, c[i].phys);      /* NumPhys */
            g_free(pg);
        }
        h_stop(m);
    }
}

static void test_discovery(void)
{
    HMR *m = sas_start(true);
    Events en = { 0 }, pe = { 0 };
    const uint8_t *p, *e;
    uint16_t h_sas0, h_sata2;
    int topo = 0;

    bringup(m, &en, &pe);
    /*
     * Right after the reply that enabled events, before any device: the
     * card's enclosure, its Enclosure page 0 as the data.
     */
    g_assert_cmpint(en.n, ==, 0);
    g_assert_cmphex(pe.ev[0].frame[0x11], ==, 0x0B);
    g_assert_cmpuint(pe.ev[0].frame[0x10], ==, 8);
    e = pe.ev[0].frame + EV_DATA;
    g_assert_cmphex(e[6], ==, 0x11);
    g_assert_cmphex(ldq_le_p(e + 0x08), ==, HOST_SAS_ADDR);
    g_assert_cmphex(lduw_le_p(e + 0x10) & 0x10, ==, 0x10);   /* present */
    g_assert_cmphex(lduw_le_p(e + 0x12), ==, ENCL_HANDLE);
    g_assert_cmpuint(lduw_le_p(e + 0x14), ==, 16);           /* slots */

    /* The SAS drive in bay 0: on phy 0, port 0, 12 Gb/s, the card's bay */
    p = added(&pe, 0, 0x00);
    h_sas0 = lduw_le_p(p + 0x08);
    g_assert_cmphex(lduw_le_p(p + 0x0A), ==, CTRL_HANDLE);
    g_assert_cmphex(lduw_le_p(p + 0x0E), ==, ENCL_HANDLE);
    g_assert_cmphex(p[0x1A], ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x1C) & 0x07, ==, 0x03);   /* dir. att. */
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, WWN_SAS0);
    g_assert_cmphex(lduw_le_p(p + 0x32), ==, 0x0101);        /* SSP target */
    g_assert_cmpuint(p[0x34], ==, 0);                        /* phy */
    g_assert_cmphex(p[0x3B], ==, 0xBB);
    /* The SATA drive in bay 2: phy 2, port 2, 6 Gb/s */
    p = added(&pe, 2, 0x00);
    h_sata2 = lduw_le_p(p + 0x08);
    g_assert_cmphex(lduw_le_p(p + 0x0A), ==, CTRL_HANDLE);
    g_assert_cmphex(lduw_le_p(p + 0x0E), ==, ENCL_HANDLE);
    g_assert_cmphex(p[0x1A], ==, 2);
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, WWN_SATA2);
    g_assert_cmphex(lduw_le_p(p + 0x32), ==, 0x0081);        /* STP/SATA */
    g_assert_cmpuint(p[0x34], ==, 2);
    g_assert_cmphex(p[0x3B], ==, 0xAA);
    /* NVMe and a drive of another enclosure: no controller phy */
    p = added(&pe, 8, 0x01);
    g_assert_cmphex(lduw_le_p(p + 0x0A), ==, 0xFFFF);
    g_assert_cmphex(lduw_le_p(p + 0x0E), ==, 0);
    for (int i = 0; i < pe.n; i++) {
        p = pe.ev[i].frame + EV_DATA;
        if (pe.ev[i].frame[0x11] == 0x07 && lduw_le_p(p + 0x0C) == 0 &&
            lduw_le_p(p + 0x08) != h_sas0) {
            g_assert_cmphex(lduw_le_p(p + 0x0A), ==, 0xFFFF);
            g_assert_cmphex(lduw_le_p(p + 0x0E), ==, 0);
        }
    }
    /* After the devices, a topology change list for each populated phy */
    for (int i = 0; i < pe.n; i++) {
        const uint8_t *t = pe.ev[i].frame + EV_DATA;
        uint8_t phy;

        if (pe.ev[i].frame[0x11] != 0x16) {
            continue;
        }
        phy = t[0x09];
        g_assert_cmphex(lduw_le_p(t + 0x00), ==, ENCL_HANDLE);
        g_assert_cmphex(lduw_le_p(t + 0x02), ==, 0);         /* no expander */
        g_assert_cmpuint(t[0x04], ==, 16);
        g_assert_cmpuint(t[0x08], ==, 1);
        g_assert_cmphex(t[0x0A], ==, 0);                     /* direct */
        g_assert_cmpuint(t[0x0B], ==, phy);
        g_assert_cmphex(lduw_le_p(t + 0x0C), ==, phy ? h_sata2 : h_sas0);
        g_assert_cmphex(t[0x0E], ==, phy ? 0xA0 : 0xB0);     /* new, old */
        g_assert_cmphex(t[0x0F], ==, 0x03);                  /* phy changed */
        topo |= 1 << phy;
    }
    g_assert_cmphex(topo, ==, 0x5);
    h_stop(m);
}

static uint16_t handle_of(HMR *m, uint16_t slot)
{
    uint8_t p[64];
    uint32_t h = 0xFFFF;

    for (int n = 0; n < 16 && read_page(m, 0x12, 0, h, p, sizeof(p)) == 0;
         n++) {
        g_assert_cmphex(lduw_le_p(p + 0x08), >, h == 0xFFFF ? 0 : h);
        h = lduw_le_p(p + 0x08);
        if (lduw_le_p(p + 0x0C) == slot && p[0x27] == 0 &&
            lduw_le_p(p + 0x0A) == CTRL_HANDLE) {
            return h;
        }
    }
    g_assert_not_reached();
}

static void test_pages(void)
{
    HMR *m = sas_start(true);
    Events en = { 0 }, pe = { 0 };
    uint8_t p[512];
    uint16_t h0, h2;

    bringup(m, &en, &pe);
    h0 = handle_of(m, 0);
    h2 = handle_of(m, 2);

    /* SAS IO Unit page 0: 16 phys of 20 bytes */
    g_assert_cmpuint(page_len(m, 0x20, 0), ==, 16 + 16 * 20);
    g_assert_cmphex(read_page(m, 0x20, 0, 0, p, 336), ==, 0);
    g_assert_cmpuint(p[0x0C], ==, 16);
    for (int i = 0; i < 16; i++) {
        const uint8_t *e = p + 16 + 20 * i;
        uint16_t want = i == 0 ? h0 : i == 2 ? h2 : 0;

        g_assert_cmpuint(e[0], ==, i);                       /* port */
        g_assert_cmphex(e[2] & 0x03, ==, 0);                 /* drive phy */
        g_assert_cmphex(e[3], ==, i == 0 ? 0xBB : i == 2 ? 0xAA : 0);
        g_assert_cmphex(lduw_le_p(e + 4), ==, 0x38);         /* initiator */
        g_assert_cmphex(lduw_le_p(e + 8), ==, want);
        g_assert_cmphex(lduw_le_p(e + 10), ==, CTRL_HANDLE);
    }
    /* SAS IO Unit page 1: 12 bytes a phy, rates 22.5 to 6.0 */
    g_assert_cmpuint(page_len(m, 0x20, 1), ==, 20 + 16 * 12);
    g_assert_cmphex(read_page(m, 0x20, 1, 0, p, 212), ==, 0);
    g_assert_cmpuint(p[0x10], ==, 16);
    g_assert_cmphex(p[20 + 12 * 5 + 3], ==, 0xCA);
    /* SAS Phy page 0 of phy 2 and of an empty phy */
    g_assert_cmpuint(page_len(m, 0x23, 0), ==, 36);
    g_assert_cmphex(read_page(m, 0x23, 0, 2, p, 36), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x08), ==, CTRL_HANDLE);
    g_assert_cmphex(lduw_le_p(p + 0x0C), ==, h2);
    g_assert_cmphex(p[0x14], ==, 0xCA);
    g_assert_cmphex(p[0x15], ==, 0xCA);
    g_assert_cmphex(p[0x1C], ==, 0xAA);
    g_assert_cmpuint(lduw_le_p(p + 0x20), ==, 2);
    g_assert_cmphex(read_page(m, 0x23, 0, 15, p, 36), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x0C), ==, 0);
    g_assert_cmphex(p[0x1C], ==, 0);
    g_assert_cmpuint(page_len(m, 0x23, 1), ==, 28);
    g_assert_cmphex(read_page(m, 0x23, 1, 3, p, 28), ==, 0);
    /* The controller's device page: not in GET NEXT, by handle only */
    g_assert_cmphex(read_page(m, 0x12, 0, 0x20000000 | CTRL_HANDLE, p, 64),
                    ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x08), ==, CTRL_HANDLE);
    g_assert_cmphex(lduw_le_p(p + 0x0E), ==, ENCL_HANDLE);
    g_assert_cmphex(lduw_le_p(p + 0x1C), ==, 0x81);  /* present, controller */
    g_assert_cmphex(p[0x27], ==, 0);
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, HOST_SAS_ADDR);
    g_assert_cmphex(lduw_le_p(p + 0x32), ==, 0x38);
    /* Enclosure page 0: by handle and the first of GET NEXT */
    g_assert_cmpuint(page_len(m, 0x11, 0), ==, 32);
    g_assert_cmphex(read_page(m, 0x11, 0, 0x10000000 | ENCL_HANDLE, p, 32),
                    ==, 0);
    g_assert_cmphex(ldq_le_p(p + 0x08), ==, HOST_SAS_ADDR);
    g_assert_cmpuint(lduw_le_p(p + 0x14), ==, 16);
    g_assert_cmphex(read_page(m, 0x11, 0, 0xFFFF, p, 32), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x12), ==, ENCL_HANDLE);
    /* SAS Expander pages: the type is there, no expander */
    g_assert_cmpuint(page_len(m, 0x21, 0), ==, 64);
    g_assert_cmpuint(page_len(m, 0x21, 1), ==, 48);

    /* Bad addresses get the firmware's status, the IOC stays up */
    g_assert_cmphex(read_page(m, 0x23, 0, 16, p, 36), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x23, 0, 255, p, 36), ==,
                    ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x23, 0, 0x10000000, p, 36), ==,
                    ST_INVALID_FIELD);
    g_assert_cmphex(read_page(m, 0x11, 0, 0x10000002, p, 32), ==,
                    ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x11, 0, ENCL_HANDLE, p, 32), ==,
                    ST_CFG_INVALID_PAGE);           /* GET NEXT after it */
    g_assert_cmphex(read_page(m, 0x11, 0, 0x70000001, p, 32), ==,
                    ST_INVALID_FIELD);
    g_assert_cmphex(read_page(m, 0x21, 0, 0xFFFF, p, 64), ==,
                    ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x21, 1, 0x10010001, p, 48), ==,
                    ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x21, 0, 0x30000000, p, 64), ==,
                    ST_INVALID_FIELD);
    g_assert_cmphex(read_page(m, 0x23, 7, 0, p, 36), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x24, 0, 0, p, 36), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x12, 0, 0x20000000 | 0x3FE, p, 64), ==,
                    ST_CFG_INVALID_PAGE);
    /* the SAS pages are read-only in this firmware */
    g_assert_cmphex(read_page(m, 0x20, 1, 0, p, 212), ==, 0);
    g_assert_cmphex(config(m, 0x20, 1, 3, 0, p, 212), ==,
                    ST_CFG_INVALID_ACTION);          /* WRITE CURRENT */
    g_assert_cmphex(config(m, 0x20, 0, 1, 0, p, 336), ==,
                    ST_CFG_INVALID_ACTION);          /* READ DEFAULT */
    g_assert_cmphex(read_page(m, 0x23, 0, 0, p, 36), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x0C), ==, h0);
    h_stop(m);
}

static void test_off_has_no_sas_pages(void)
{
    HMR *m = sas_start(false);
    Events en = { 0 }, pe = { 0 };
    uint8_t p[64];

    bringup(m, &en, &pe);
    g_assert_cmpint(en.n, ==, 0);                   /* no enclosure event */
    for (int i = 0; i < pe.n; i++) {
        g_assert_cmphex(pe.ev[i].frame[0x11], ==, 0x07);
        g_assert_cmphex(lduw_le_p(pe.ev[i].frame + EV_DATA + 0x0A), ==,
                        0xFFFF);
    }
    g_assert_cmphex(config(m, 0x20, 0, 0, 0, p, 8), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(config(m, 0x23, 0, 0, 0, p, 8), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(config(m, 0x11, 0, 0, 0, p, 8), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(config(m, 0x21, 0, 0, 0, p, 8), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x12, 0, 0x20000000 | CTRL_HANDLE, p, 64),
                    ==, ST_CFG_INVALID_PAGE);
    h_stop(m);
}

static void test_hotplug(void)
{
    HMR *m = sas_start(true);
    Events en = { 0 }, pe = { 0 };
    uint8_t tm[32] = { 0 }, rm[64] = { 0 }, p[36];
    const uint8_t *t;
    uint16_t h2;
    HDesc d;

    bringup(m, &en, &pe);
    h2 = handle_of(m, 2);
    /* Pull: NOT RESPONDING on phy 2, the link down from 6 Gb/s */
    qtest_qmp_device_del(m->qts, "hd1");
    next_event(m, &d);
    g_assert_cmphex(d.frame[0x11], ==, 0x16);
    t = d.frame + EV_DATA;
    g_assert_cmphex(lduw_le_p(t), ==, ENCL_HANDLE);
    g_assert_cmpuint(t[0x09], ==, 2);
    g_assert_cmpuint(t[0x0B], ==, 2);
    g_assert_cmphex(lduw_le_p(t + 0x0C), ==, h2);
    g_assert_cmphex(t[0x0E], ==, 0x0A);
    g_assert_cmphex(t[0x0F], ==, 0x02);
    g_assert_cmphex(read_page(m, 0x23, 0, 2, p, 36), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x0C), ==, 0);
    g_assert_cmphex(p[0x1C], ==, 0);
    /* the driver's removal handshake */
    stw_le_p(tm, 8);
    tm[3] = 0x21;
    stw_le_p(tm + 0x0A, h2);
    stw_le_p(tm + 0x0C, 0xFFFF);
    tm[0x0E] = 0x03;
    g_assert_cmphex(h_admin(m, tm, sizeof(tm)), ==, 0);
    stw_le_p(rm, 9);
    rm[3] = 0x08;                                   /* IO UNIT CONTROL */
    rm[0x0B] = 0x10;                                /* REMOVE DEVICE */
    stw_le_p(rm + 0x30, h2);
    g_assert_cmphex(h_admin(m, rm, sizeof(rm)), ==, 0);

    /* Insert a SAS drive into bay 2: DEVICE ADDED, then PHY CHANGED */
    qtest_qmp_device_add(m->qts, "megaraid-drive", "hd4",
                         "{'bus': 'raid0.0', 'slot': 2, 'drive': 'spare',"
                         " 'interface': 'sas'}");
    next_event(m, &d);
    g_assert_cmphex(d.frame[0x11], ==, 0x07);
    h2 = lduw_le_p(d.frame + EV_DATA + 0x08);
    g_assert_cmphex(lduw_le_p(d.frame + EV_DATA + 0x0A), ==, CTRL_HANDLE);
    g_assert_cmphex(d.frame[EV_DATA + 0x3B], ==, 0xBB);
    next_event(m, &d);
    g_assert_cmphex(d.frame[0x11], ==, 0x16);
    t = d.frame + EV_DATA;
    g_assert_cmpuint(t[0x09], ==, 2);
    g_assert_cmphex(lduw_le_p(t + 0x0C), ==, h2);
    g_assert_cmphex(t[0x0E], ==, 0xB0);
    g_assert_cmphex(t[0x0F], ==, 0x03);
    g_assert_cmphex(read_page(m, 0x23, 0, 2, p, 36), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x0C), ==, h2);
    g_assert_cmphex(p[0x1C], ==, 0xBB);
    h_stop(m);
}

/* ------------------------------------------------ the SES device (SEP) */

#define SES_SLOTS       16

typedef struct ScsiRes {
    uint8_t status;             /* SCSI status */
    uint8_t key, asc, ascq;     /* its sense (CHECK CONDITION) */
} ScsiRes;

/*
 * A SCSI command to the SEP through operational queue 1, @len bytes of
 * @data out (@write) or in; its status and sense.
 */
static ScsiRes ses_cmd(HMR *m, const uint8_t *cdb, bool write,
                       uint8_t *data, uint32_t len)
{
    static uint16_t tag = 100;
    uint64_t buf = m->buf + 0x4000;
    ScsiRes r = { 0 };
    uint8_t f[128], sense[32];
    uint64_t sa;
    HDesc d;

    if (write) {
        qtest_memwrite(m->qts, buf, data, len);
    } else {
        qtest_memset(m->qts, buf, 0, len);
    }
    tag++;
    h_scsi_frame(f, tag, SEP_HANDLE,
                 !len ? 0 : write ? 0x00040000 : 0x00080000, len, cdb, 16);
    h_put_sge(f + 0x40, buf, len, 0x08);
    h_submit_op(m, f);
    g_assert(h_op_reply(m, &d, 5000));
    g_assert_cmphex(d.tag, ==, tag);
    if (d.type == H_DT_ADDRESS) {
        r.status = d.frame[0x10];
        if (r.status == 0x02) {
            sa = ldq_le_p(d.frame + 0x30);
            qtest_memread(m->qts, sa, sense, sizeof(sense));
            h_return_sense(m, sa);
            if ((sense[0] & 0x7F) == 0x72) {
                r.key = sense[1] & 0xF;
                r.asc = sense[2];
                r.ascq = sense[3];
            } else {
                r.key = sense[2] & 0xF;
                r.asc = sense[12];
                r.ascq = sense[13];
            }
        }
    } else {
        g_assert_cmpint(d.type, ==, H_DT_SUCCESS);
    }
    if (!write && len) {
        qtest_memread(m->qts, buf, data, len);
    }
    return r;
}

/* RECEIVE DIAGNOSTIC RESULTS (PCV) of @page: its length, header included. */
static uint32_t ses_page(HMR *m, uint8_t page, uint8_t *buf, uint32_t len)
{
    uint8_t cdb[16] = { 0x1C, 0x01, page, len >> 8, len & 0xFF };
    ScsiRes r = ses_cmd(m, cdb, false, buf, len);

    g_assert_cmphex(r.status, ==, 0);
    g_assert_cmphex(buf[0], ==, page);
    return lduw_be_p(buf + 2) + 4;
}

/* SEND DIAGNOSTIC (PF) of the @len bytes of @pg. */
static ScsiRes ses_send(HMR *m, const uint8_t *pg, uint32_t len)
{
    uint8_t cdb[16] = { 0x1D, 0x10, 0, len >> 8, len & 0xFF };

    return ses_cmd(m, cdb, true, (uint8_t *)pg, len);
}

/* Enclosure Control: bay @slot selected with @ident and @fault. */
static ScsiRes ses_set_slot(HMR *m, int slot, bool ident, bool fault)
{
    uint8_t pg[8 + 4 * (SES_SLOTS + 1)] = { 0x02 };
    uint8_t *el = pg + 8 + 4 * (slot + 1);

    stw_be_p(pg + 2, sizeof(pg) - 4);
    el[0] = 0x80;
    el[2] = ident ? 0x02 : 0;
    el[3] = fault ? 0x20 : 0;
    return ses_send(m, pg, sizeof(pg));
}

/* Bay @slot's status element of Enclosure Status. */
static void ses_slot(HMR *m, int slot, uint8_t *el)
{
    uint8_t pg[256];

    g_assert_cmpuint(ses_page(m, 0x02, pg, sizeof(pg)), ==,
                     8 + 4 * (SES_SLOTS + 1));
    memcpy(el, pg + 8 + 4 * (slot + 1), 4);
}

static void assert_illegal(ScsiRes r, uint8_t asc)
{
    g_assert_cmphex(r.status, ==, 0x02);
    g_assert_cmphex(r.key, ==, 0x05);
    g_assert_cmphex(r.asc, ==, asc);
}

/* qom-get of a bool property of drive @id. */
static bool qom_bool(HMR *m, const char *id, const char *prop)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *rsp = qtest_qmp(m->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': %s, 'property': %s}}", path, prop);
    bool v;

    g_assert_true(qdict_haskey(rsp, "return"));
    v = qdict_get_bool(rsp, "return");
    qobject_unref(rsp);
    return v;
}

/* query-megaraid's bool @key of drive @id. */
static bool qmp_drive_bool(HMR *m, const char *id, const char *key)
{
    g_autofree char *path = g_strdup_printf("/machine/peripheral/%s", id);
    QDict *rsp = qtest_qmp(m->qts, "{'execute': 'query-megaraid'}");
    QDict *ctrl = qobject_to(QDict,
                             qlist_peek(qdict_get_qlist(rsp, "return")));
    const QListEntry *e;
    int found = -1;

    g_assert_nonnull(ctrl);
    QLIST_FOREACH_ENTRY(qdict_get_qlist(ctrl, "drives"), e) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_haskey(d, "qom-path") &&
            !strcmp(qdict_get_str(d, "qom-path"), path)) {
            found = qdict_get_bool(d, key);
        }
    }
    qobject_unref(rsp);
    g_assert_cmpint(found, >=, 0);
    return found;
}

static HMR *ses_start(void)
{
    HMR *m = g_new0(HMR, 1);

    h_launch(m, ",sas-transport=on", drives);
    h_bringup(m);
    return m;
}

/* The SEP: its own handle in GET NEXT, Device page 0, the enclosure's. */
static void test_ses_device(void)
{
    HMR *m = ses_start();
    uint8_t p[64], inq[36];
    uint8_t cdb[16] = { 0x12, 0, 0, 0, sizeof(inq) };
    uint32_t h = 0xFFFF;
    bool listed = false;

    for (int n = 0; n < 16 && read_page(m, 0x12, 0, h, p, sizeof(p)) == 0;
         n++) {
        h = lduw_le_p(p + 0x08);
        listed |= h == SEP_HANDLE;
    }
    g_assert_true(listed);
    g_assert_cmphex(read_page(m, 0x12, 0, 0x20000000 | SEP_HANDLE, p, 64),
                    ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x08), ==, SEP_HANDLE);
    g_assert_cmphex(lduw_le_p(p + 0x0A), ==, CTRL_HANDLE);      /* parent */
    g_assert_cmphex(lduw_le_p(p + 0x0E), ==, ENCL_HANDLE);
    /* present, directly attached and virtual: not a transport device */
    g_assert_cmphex(lduw_le_p(p + 0x1C) & 0x0F, ==, 0x07);
    g_assert_cmphex(p[0x27], ==, 0);                            /* SAS */
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, SEP_SAS_ADDR);
    g_assert_cmphex(lduw_le_p(p + 0x32), ==, 0x0101);   /* SSP end device */
    /* Enclosure page 0 names it */
    g_assert_cmphex(read_page(m, 0x11, 0, 0x10000000 | ENCL_HANDLE, p, 32),
                    ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x1A), ==, SEP_HANDLE);
    /* INQUIRY: an enclosure services device */
    g_assert_cmphex(ses_cmd(m, cdb, false, inq, sizeof(inq)).status, ==, 0);
    g_assert_cmphex(inq[0], ==, 0x0D);
    g_assert_cmphex(inq[6] & 0x40, ==, 0x40);                   /* EncServ */
    /* its device page survives a reset */
    h_soft_reset(m);
    h_bringup(m);
    g_assert_cmphex(read_page(m, 0x12, 0, 0x20000000 | SEP_HANDLE, p, 64),
                    ==, 0);
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, SEP_SAS_ADDR);
    h_stop(m);
}

/* Pages 00h, 01h, 02h, 07h and 0Ah parse as SES-3 has them. */
static void test_ses_pages(void)
{
    HMR *m = ses_start();
    static const uint8_t supported[] = { 0x00, 0x01, 0x02, 0x07, 0x0A };
    uint8_t pg[1024];
    const uint8_t *e, *t, *q;
    uint32_t len;

    len = ses_page(m, 0x00, pg, sizeof(pg));
    g_assert_cmpuint(len, ==, 4 + sizeof(supported));
    g_assert_cmpmem(pg + 4, sizeof(supported), supported, sizeof(supported));

    /* Configuration: one enclosure, one type: 16 Array Device Slots */
    len = ses_page(m, 0x01, pg, sizeof(pg));
    g_assert_cmpuint(pg[1], ==, 0);             /* no secondary enclosures */
    e = pg + 8;
    g_assert_cmpuint(e[2], ==, 1);              /* type descriptor headers */
    g_assert_cmpuint(e[3], >=, 36);
    g_assert_cmphex(ldq_be_p(e + 4), ==, HOST_SAS_ADDR);
    t = e + 4 + e[3];
    g_assert_cmphex(t[0], ==, 0x17);
    g_assert_cmpuint(t[1], ==, SES_SLOTS);
    g_assert_cmpuint(len, ==, t + 4 + t[3] - pg);

    /* Status: SAS bay 0 and SATA bay 2 OK, bay 1 not installed */
    len = ses_page(m, 0x02, pg, sizeof(pg));
    g_assert_cmpuint(len, ==, 8 + 4 * (SES_SLOTS + 1));
    g_assert_cmphex(pg[12 + 0] & 0x0F, ==, 0x01);
    g_assert_cmphex(pg[12 + 4] & 0x0F, ==, 0x05);
    g_assert_cmphex(pg[12 + 8] & 0x0F, ==, 0x01);
    g_assert_cmphex(pg[12 + 2] & 0x02, ==, 0);          /* no IDENT */
    g_assert_cmphex(pg[12 + 3] & 0x60, ==, 0);          /* no fault */

    /* Element descriptors: the overall one, then "SlotNN" */
    len = ses_page(m, 0x07, pg, sizeof(pg));
    q = pg + 8;
    q += 4 + lduw_be_p(q + 2);
    for (int i = 0; i < SES_SLOTS; i++) {
        g_autofree char *want = g_strdup_printf("Slot%02d", i);

        g_assert_cmpuint(lduw_be_p(q + 2), ==, strlen(want));
        g_assert_cmpmem(q + 4, strlen(want), want, strlen(want));
        q += 4 + lduw_be_p(q + 2);
    }
    g_assert_cmpuint(q - pg, ==, len);

    /* Additional element status: the bays' devices' SAS addresses */
    len = ses_page(m, 0x0A, pg, sizeof(pg));
    q = pg + 8;
    for (int i = 0; i < SES_SLOTS; i++) {
        g_assert_cmphex(q[0] & 0x1F, ==, 0x16);         /* EIP, SAS */
        g_assert_cmphex(q[0] & 0x80, ==, i == 0 || i == 2 ? 0 : 0x80);
        g_assert_cmpuint(q[3], ==, i);                  /* element index */
        g_assert_cmpuint(q[4], ==, 1);                  /* phys */
        g_assert_cmpuint(q[7], ==, i);                  /* slot */
        if (i == 0 || i == 2) {
            g_assert_cmphex(q[8] & 0x70, ==, 0x10);     /* end device */
            g_assert_cmphex(q[11], ==, i ? 0x01 : 0x08);    /* SATA, SSP */
            g_assert_cmphex(ldq_be_p(q + 12), ==, HOST_SAS_ADDR);
            g_assert_cmphex(ldq_be_p(q + 20), ==, i ? WWN_SATA2 : WWN_SAS0);
        }
        q += 2 + q[1];
    }
    g_assert_cmpuint(q - pg, ==, len);
    h_stop(m);
}

/* Locate and fault: SES control, QOM and query-megaraid agree. */
static void test_ses_leds(void)
{
    HMR *m = ses_start();
    uint8_t el[4];

    g_assert_cmphex(ses_set_slot(m, 2, true, false).status, ==, 0);
    ses_slot(m, 2, el);
    g_assert_cmphex(el[2] & 0x02, ==, 0x02);
    g_assert_true(qom_bool(m, "hd1", "locate-led"));
    g_assert_true(qom_bool(m, "hd1", "locate"));
    g_assert_true(qmp_drive_bool(m, "hd1", "locate"));
    g_assert_false(qom_bool(m, "hd0", "locate-led"));
    g_assert_cmphex(ses_set_slot(m, 2, false, false).status, ==, 0);
    ses_slot(m, 2, el);
    g_assert_cmphex(el[2] & 0x02, ==, 0);
    g_assert_false(qom_bool(m, "hd1", "locate-led"));
    g_assert_false(qmp_drive_bool(m, "hd1", "locate"));

    /* fault requested: FAULT REQSTD, QOM and QMP fault-led */
    g_assert_cmphex(ses_set_slot(m, 0, false, true).status, ==, 0);
    ses_slot(m, 0, el);
    g_assert_cmphex(el[3] & 0x60, ==, 0x20);
    g_assert_true(qom_bool(m, "hd0", "fault-led"));
    g_assert_true(qmp_drive_bool(m, "hd0", "fault-led"));
    g_assert_cmphex(ses_set_slot(m, 0, false, false).status, ==, 0);
    g_assert_false(qom_bool(m, "hd0", "fault-led"));

    /* from the host side: QOM sets what SES reports */
    qom_set_bool(m, "/machine/peripheral/hd0", "locate-led", true);
    ses_slot(m, 0, el);
    g_assert_cmphex(el[2] & 0x02, ==, 0x02);
    qom_set_bool(m, "/machine/peripheral/hd0", "fault-led", true);
    ses_slot(m, 0, el);
    g_assert_cmphex(el[3] & 0x20, ==, 0x20);
    qom_set_bool(m, "/machine/peripheral/hd0", "locate-led", false);
    qom_set_bool(m, "/machine/peripheral/hd0", "fault-led", false);
    ses_slot(m, 0, el);
    g_assert_cmphex(el[2] & 0x02, ==, 0);
    g_assert_cmphex(el[3] & 0x60, ==, 0);
    /* an empty bay's request is taken and lights nothing */
    g_assert_cmphex(ses_set_slot(m, 1, true, true).status, ==, 0);
    ses_slot(m, 1, el);
    g_assert_cmphex(el[0] & 0x0F, ==, 0x05);
    g_assert_cmphex(el[2] & 0x02, ==, 0);
    h_stop(m);
}

/* Bad CDBs and control pages: CHECK CONDITION, ILLEGAL REQUEST. */
static void test_ses_hostile(void)
{
    HMR *m = ses_start();
    uint8_t pg[8 + 4 * (SES_SLOTS + 2)] = { 0x02 };
    uint8_t buf[256];
    uint8_t rd[16] = { 0x1C, 0x01, 0x33, 0, 255 };
    uint8_t op[16] = { 0x28 };              /* READ(10): not for an SEP */
    uint8_t sd[16] = { 0x1D, 0x10, 0, 0, 72 };
    uint32_t full = 8 + 4 * (SES_SLOTS + 1);
    uint8_t inq[36], cdb[16] = { 0x12, 0, 0, 0, sizeof(inq) };

    /* an unknown page, PCV 0 with a page code, an unknown opcode */
    assert_illegal(ses_cmd(m, rd, false, buf, 255), 0x24);
    rd[1] = 0;
    rd[2] = 0x02;
    assert_illegal(ses_cmd(m, rd, false, buf, 255), 0x24);
    assert_illegal(ses_cmd(m, op, false, buf, 0), 0x20);
    /* the page length field disagrees with the parameter list */
    stw_be_p(pg + 2, full - 4 + 8);
    assert_illegal(ses_send(m, pg, full), 0x26);
    /* an element beyond the last slot (page and list agree) */
    stw_be_p(pg + 2, full - 4 + 4);
    pg[8 + 4 * (SES_SLOTS + 1)] = 0x80;
    assert_illegal(ses_send(m, pg, full + 4), 0x26);
    /* fewer elements than slots */
    stw_be_p(pg + 2, 8 - 4 + 4);
    assert_illegal(ses_send(m, pg, 12), 0x26);
    /* an unknown control page, then one only received (configuration) */
    pg[0] = 0x05;
    stw_be_p(pg + 2, full - 4);
    assert_illegal(ses_send(m, pg, full), 0x35);
    pg[0] = 0x01;
    assert_illegal(ses_send(m, pg, full), 0x35);
    /* a wrong expected generation code */
    pg[0] = 0x02;
    stl_be_p(pg + 4, 7);
    assert_illegal(ses_send(m, pg, full), 0x26);
    /* a list shorter than a header, longer than any page, past the data */
    assert_illegal(ses_send(m, pg, 4), 0x24);
    sd[3] = 0xFF;
    sd[4] = 0xFF;
    assert_illegal(ses_cmd(m, sd, true, pg, sizeof(pg)), 0x24);
    sd[3] = 0;
    sd[4] = sizeof(pg);
    assert_illegal(ses_cmd(m, sd, true, pg, 16), 0x1A);
    /* a page without PF */
    sd[1] = 0;
    sd[4] = full;
    stl_be_p(pg + 4, 0);
    assert_illegal(ses_cmd(m, sd, true, pg, full), 0x24);
    /* nothing was set, and the SEP still answers */
    g_assert_false(qom_bool(m, "hd0", "locate-led"));
    g_assert_false(qom_bool(m, "hd0", "fault-led"));
    g_assert_cmphex(ses_cmd(m, cdb, false, inq, sizeof(inq)).status, ==, 0);
    g_assert_cmphex(inq[0], ==, 0x0D);
    h_stop(m);
}

/*
 * Random Enclosure Control pages of the right size against a model of
 * the two drives' LEDs, and random SES CDBs: page 2 and QOM follow the
 * model, every request gets a reply, and the SEP still answers.
 */
static void test_ses_random(void)
{
    HMR *m = ses_start();
    GRand *r = g_rand_new_with_seed(23);
    static const char *const ids[SES_SLOTS] = { [0] = "hd0", [2] = "hd1" };
    bool ident[SES_SLOTS] = { 0 }, fault[SES_SLOTS] = { 0 };
    uint8_t pg[8 + 4 * (SES_SLOTS + 1)], st[256], buf[600];
    uint8_t inq[36], cdb[16] = { 0x12, 0, 0, 0, sizeof(inq) };

    for (int it = 0; it < 100; it++) {
        for (size_t i = 0; i < sizeof(pg); i++) {
            pg[i] = g_rand_int_range(r, 0, 256);
        }
        pg[0] = 0x02;
        stw_be_p(pg + 2, sizeof(pg) - 4);
        stl_be_p(pg + 4, 0);
        g_assert_cmphex(ses_send(m, pg, sizeof(pg)).status, ==, 0);
        for (int i = 0; i < SES_SLOTS; i++) {
            const uint8_t *el = pg + 8 + 4 * (i + 1);

            if (ids[i] && (el[0] & 0x80)) {
                ident[i] = el[2] & 0x02;
                fault[i] = el[3] & 0x20;
            }
        }
        ses_page(m, 0x02, st, sizeof(st));
        for (int i = 0; i < SES_SLOTS; i++) {
            const uint8_t *el = st + 8 + 4 * (i + 1);

            g_assert_cmphex(el[2] & 0x02, ==, ident[i] ? 0x02 : 0);
            g_assert_cmphex(el[3] & 0x60, ==, fault[i] ? 0x20 : 0);
            if (ids[i] && it % 10 == 0) {
                g_assert_cmpint(qom_bool(m, ids[i], "locate-led"), ==,
                                ident[i]);
                g_assert_cmpint(qom_bool(m, ids[i], "fault-led"), ==,
                                fault[i]);
            }
        }
    }
    /* random RECEIVE/SEND DIAGNOSTIC CDBs with random data */
    for (int it = 0; it < 200; it++) {
        uint8_t c[16] = { g_rand_boolean(r) ? 0x1C : 0x1D };
        uint32_t len = g_rand_int_range(r, 0, sizeof(buf));
        bool write = c[0] == 0x1D;
        ScsiRes res;

        for (int i = 1; i < 6; i++) {
            c[i] = g_rand_int_range(r, 0, 256);
        }
        for (size_t i = 0; i < len; i++) {
            buf[i] = g_rand_int_range(r, 0, 256);
        }
        if (write && len >= 4 && g_rand_boolean(r)) {
            buf[0] = g_rand_boolean(r) ? 0x02 : buf[0];
            stw_be_p(buf + 2, len - 4);
        }
        res = ses_cmd(m, c, write, buf, len);
        g_assert_true(res.status == 0 || (res.status == 0x02 &&
                                          res.key == 0x05));
    }
    g_assert_cmphex(ses_cmd(m, cdb, false, inq, sizeof(inq)).status, ==, 0);
    g_assert_cmphex(inq[0], ==, 0x0D);
    g_rand_free(r);
    h_stop(m);
}

/* A failed member: the firmware lights its fault LED. */
static void test_ses_fault(void)
{
    char *path[3];
    RigLayout l = {
        .n = 3, .nmem = 2, .nspare = 1,
        .spec = { .level = RAID_LEVEL_1, .name = "ses-r1" },
        .settled = true,
    };
    g_autoptr(GString) args = g_string_new("");
    HMR *m = g_new0(HMR, 1);
    uint8_t el[4];

    rig_tmp_paths(path, 3, "megaraid-9600-sas-test");
    rig_write_ddf(path, &l, NULL);
    for (int i = 0; i < 3; i++) {
        g_string_append_printf(args, "-drive if=none,id=d%d,format=raw,"
                               "file=%s -device megaraid-drive,id=hd%d,"
                               "bus=raid0.0,slot=%d,drive=d%d,"
                               "interface=sas ", i, path[i], i, i, i);
    }
    h_launch(m, ",sas-transport=on", args->str);
    h_bringup(m);
    uint8_t pg[256];
    int n;

    /* members 0 and 1 online, the spare in bay 2: no fault, no rebuild */
    for (int i = 0; i < 3; i++) {
        ses_slot(m, i, el);
        g_assert_cmphex(el[0] & 0x0F, ==, 0x01);
        g_assert_cmphex(el[1] & 0x22, ==, i == 2 ? 0x20 : 0);   /* spare */
        g_assert_cmphex(el[3] & 0x60, ==, 0);
    }
    ses_page(m, 0x02, pg, sizeof(pg));
    g_assert_cmphex(pg[1] & 0x02, ==, 0);
    qom_set_str(m, "/machine/peripheral/hd1", "state", "offline");
    ses_slot(m, 1, el);
    g_assert_cmphex(el[0] & 0x0F, ==, 0x02);            /* critical */
    g_assert_cmphex(el[3] & 0x40, ==, 0x40);            /* FAULT SENSED */
    g_assert_true(qom_bool(m, "hd1", "fault-led"));
    g_assert_true(qmp_drive_bool(m, "hd1", "fault-led"));
    ses_page(m, 0x02, pg, sizeof(pg));
    g_assert_cmphex(pg[1] & 0x02, ==, 0x02);            /* CRIT */
    ses_slot(m, 0, el);
    g_assert_cmphex(el[3] & 0x60, ==, 0);
    g_assert_false(qom_bool(m, "hd0", "fault-led"));
    /*
     * The spare takes over: REBUILD/REMAP while it is rebuilt (qtest's
     * virtual clock stands still, so the paced rebuild waits).
     */
    for (n = 0; n < 500; n++) {
        ses_slot(m, 2, el);
        if (el[1] & 0x02) {
            break;
        }
        g_usleep(10000);
    }
    g_assert_cmpint(n, <, 500);
    g_assert_true(qom_bool(m, "hd2", "rebuild-led"));
    g_assert_true(qmp_drive_bool(m, "hd2", "rebuild-led"));
    g_assert_false(qom_bool(m, "hd2", "fault-led"));
    h_stop(m);
    for (int i = 0; i < 3; i++) {
        unlink(path[i]);
        g_free(path[i]);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9600/sas/facts", test_facts);
    qtest_add_func("/megaraid-9600/sas/models", test_models);
    qtest_add_func("/megaraid-9600/sas/discovery", test_discovery);
    qtest_add_func("/megaraid-9600/sas/pages", test_pages);
    qtest_add_func("/megaraid-9600/sas/off", test_off_has_no_sas_pages);
    qtest_add_func("/megaraid-9600/sas/hotplug", test_hotplug);
    qtest_add_func("/megaraid-9600/sas/ses-device", test_ses_device);
    qtest_add_func("/megaraid-9600/sas/ses-pages", test_ses_pages);
    qtest_add_func("/megaraid-9600/sas/ses-leds", test_ses_leds);
    qtest_add_func("/megaraid-9600/sas/ses-hostile", test_ses_hostile);
    qtest_add_func("/megaraid-9600/sas/ses-random", test_ses_random);
    qtest_add_func("/megaraid-9600/sas/ses-fault", test_ses_fault);
    return g_test_run();
}
