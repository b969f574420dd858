/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-9600's SAS transport personality
 * (sas-transport=on): IOC FACTS without MULTIPATH, the enclosure event
 * when events are enabled, the device pages and topology change lists of
 * discovery and hot plug, the SAS IO Unit, SAS Phy, Enclosure, SAS
 * Expander and controller Device pages, and the IOC status of bad page
 * addresses; with the property off none of those pages exist.  Offsets
 * are written from the MPI 3.0 interface description, not taken from the
 * device's header.
 */
#include "qemu/osdep.h"
#include "megaraid-harness.h"

#define CTRL_HANDLE     0x3FF
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
    HDesc d;

    h_submit_admin(m, f, len);
    for (;;) {
        g_assert(h_admin_reply(m, &d, 5000));
        if (d.tag != 0xFFFF) {
            return d.status;
        }
        g_assert_cmpint(e->n, <, 16);
        e->ev[e->n++] = d;
    }
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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9600/sas/facts", test_facts);
    qtest_add_func("/megaraid-9600/sas/discovery", test_discovery);
    qtest_add_func("/megaraid-9600/sas/pages", test_pages);
    qtest_add_func("/megaraid-9600/sas/off", test_off_has_no_sas_pages);
    qtest_add_func("/megaraid-9600/sas/hotplug", test_hotplug);
    return g_test_run();
}
