/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of megaraid-expander behind megaraid-9600
 * (sas-transport=on): the property errors, the expander's enclosure
 * event, its DEVICE ADDED before the drives behind it, the topology
 * change lists of discovery (the controller's list of the wide port, the
 * expander's split in two), the expander's Device page 0, SAS Expander
 * pages 0 and 1 in each form, the drives' Device page 0 behind it, the
 * controller phys of the wide port, Enclosure page 0 of its enclosure,
 * the list of a drive pulled and plugged behind it; SMP PASSTHROUGH
 * to it: every function, its results and hostile frames.  Offsets are
 * written from the MPI 3.0 interface description, not taken from the
 * device's header.
 */
#include "qemu/osdep.h"
#include "megaraid-harness.h"

#define CTRL_HANDLE     0x3FF
#define EXP_HANDLE      0x2F1           /* enclosure 1's */
#define EXP_ENCL        2               /* its enclosure handle */
#define HOST_SAS_ADDR   0x500062b2000c0000ULL
#define EXP_SAS_ADDR    (HOST_SAS_ADDR + 0x1FF)
#define WWN_E0          0x5000c50000a0c000ULL
#define WWN_E1          0x5000c50000a0c010ULL
#define EV_DATA         0x18
#define ST_INVALID_FIELD        0x0007
#define ST_CFG_INVALID_PAGE     0x0022

/*
 * An expander of 28 phys (24 for drives) on controller phys 0-3; a SAS
 * drive on controller phy 4; behind the expander SAS in slot 0, SATA in
 * slot 1, SAS in slot 5.
 */
static const char rig[] =
    "-blockdev driver=null-co,node-name=n0,size=4194304 "
    "-blockdev driver=null-co,node-name=n1,size=4194304 "
    "-blockdev driver=null-co,node-name=n2,size=4194304 "
    "-blockdev driver=null-co,node-name=n3,size=4194304 "
    "-blockdev driver=null-co,node-name=n4,size=4194304 "
    "-device megaraid-expander,id=exp1,controller=raid0,enclosure=1 "
    "-device megaraid-drive,id=d4,bus=raid0.0,slot=4,drive=n0,"
    "interface=sas "
    "-device megaraid-drive,id=e0,bus=raid0.0,enclosure=1,slot=0,drive=n1,"
    "interface=sas,wwn=0x5000c50000a0c000 "
    "-device megaraid-drive,id=e1,bus=raid0.0,enclosure=1,slot=1,drive=n2,"
    "interface=sata,wwn=0x5000c50000a0c010 "
    "-device megaraid-drive,id=e5,bus=raid0.0,enclosure=1,slot=5,drive=n3,"
    "interface=sas";

typedef struct Events {
    int n;
    HDesc ev[32];
} Events;

static HMR *exp_start(Events *pe)
{
    HMR *m = g_new0(HMR, 1);
    Events en = { 0 };
    uint8_t f[32];

    h_launch(m, ",sas-transport=on", rig);
    h_init(m);
    h_event_notify_frame(f, NULL);
    g_assert_cmphex(h_admin_events(m, f, sizeof(f), en.ev, &en.n,
                                   ARRAY_SIZE(en.ev)), ==, 0);
    memset(f, 0, sizeof(f));
    stw_le_p(f, 1);
    f[3] = 0x03;                                /* PORT ENABLE */
    g_assert_cmphex(h_admin_events(m, f, 12, pe->ev, &pe->n,
                                   ARRAY_SIZE(pe->ev)), ==, 0);
    return m;
}

static uint16_t read_page(HMR *m, uint8_t type, uint8_t num,
                          uint32_t address, uint8_t *out, uint32_t len)
{
    uint8_t f[H_CONFIG_LEN];
    uint64_t buf = m->buf + 0x8000;
    uint16_t st;

    qtest_memset(m->qts, buf, 0xEE, len);
    h_config_frame(f, 0x30, type, num, 2, address, len / 4, buf, len);
    st = h_admin(m, f, sizeof(f));
    qtest_memread(m->qts, buf, out, len);
    return st;
}

/* Index of the first event @id at or after @from, -1: none. */
static int find_event(Events *e, int from, uint8_t id)
{
    for (int i = from; i < e->n; i++) {
        if (e->ev[i].frame[0x11] == id) {
            return i;
        }
    }
    return -1;
}

/* The DEVICE ADDED of handle @h: its index. */
static int added_index(Events *e, uint16_t h)
{
    for (int i = 0; i < e->n; i++) {
        if (e->ev[i].frame[0x11] == 0x07 &&
            lduw_le_p(e->ev[i].frame + EV_DATA + 0x08) == h) {
            return i;
        }
    }
    return -1;
}

/* Device page 0 of the drive of enclosure 1 in @slot: its handle. */
static uint16_t behind(HMR *m, uint16_t slot, uint8_t *p)
{
    uint32_t h = 0xFFFF;

    for (int n = 0; n < 16 && read_page(m, 0x12, 0, h, p, 64) == 0; n++) {
        h = lduw_le_p(p + 0x08);
        if (lduw_le_p(p + 0x0C) == slot &&
            lduw_le_p(p + 0x0A) == EXP_HANDLE) {
            return h;
        }
    }
    g_assert_not_reached();
}

static void assert_expander_page0(const uint8_t *p)
{
    g_assert_cmphex(lduw_le_p(p + 0x08), ==, EXP_HANDLE);
    g_assert_cmphex(lduw_le_p(p + 0x0A), ==, CTRL_HANDLE);   /* parent */
    g_assert_cmphex(lduw_le_p(p + 0x0E), ==, EXP_ENCL);
    g_assert_cmphex(lduw_le_p(p + 0x18), ==, 0xFFFF);        /* no target */
    g_assert_cmphex(p[0x1A], ==, 0);                         /* port */
    g_assert_cmphex(lduw_le_p(p + 0x1C) & 0x07, ==, 0x03);   /* dir. att. */
    g_assert_cmphex(p[0x27], ==, 0x00);                      /* SAS form */
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, EXP_SAS_ADDR);
    g_assert_cmphex(lduw_le_p(p + 0x32) & 0x7, ==, 0x2);     /* expander */
    g_assert_cmphex(lduw_le_p(p + 0x32) & 0x40, ==, 0x40);   /* SMP tgt */
    g_assert_cmpuint(p[0x34], ==, 0);                        /* ctrl phy */
    g_assert_cmphex(p[0x3B], ==, 0xCC);                      /* 22.5 */
}

static void test_errors(void)
{
    static const struct {
        const char *args;
        const char *want;
    } cases[] = {
        { " -device megaraid-expander,controller=raid0",
          "needs sas-transport=on" },
        { ",sas-transport=on -device megaraid-expander",
          "controller= (the id of a megaraid-9600) is required" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0,"
          "enclosure=0", "enclosure=0 is the card's own" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0,"
          "enclosure=15", "enclosure=15 is out of range" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0,"
          "port=14", "port=14 width=4 is beyond the controller's 16 phys" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0,"
          "port=16,width=1", "port=16 width=1 is beyond" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0,"
          "phys=4", "phys=4 is out of range" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0,"
          "width=0", "width=0 is out of range" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0 "
          "-device megaraid-expander,controller=raid0,port=8",
          "enclosure=1 already has an expander" },
        { ",sas-transport=on -device megaraid-expander,controller=raid0 "
          "-device megaraid-expander,controller=raid0,enclosure=2,port=2",
          "controller phy 2 is already the port of the expander of "
          "enclosure=1" },
        { ",sas-transport=on -blockdev driver=null-co,node-name=n0 "
          "-device megaraid-drive,bus=raid0.0,slot=2,drive=n0,interface=sas "
          "-device megaraid-expander,controller=raid0",
          "controller phy 2 of port=0 width=4 has the drive of slot=2" },
        { ",sas-transport=on -blockdev driver=null-co,node-name=n0 "
          "-device megaraid-expander,controller=raid0 "
          "-device megaraid-drive,bus=raid0.0,slot=3,drive=n0,interface=sas",
          "slot=3 of enclosure=0 is controller phy 3, the port of the "
          "expander of enclosure=1" },
        { ",sas-transport=on -blockdev driver=null-co,node-name=n0 "
          "-device megaraid-expander,controller=raid0,phys=24 "
          "-device megaraid-drive,bus=raid0.0,enclosure=1,slot=20,drive=n0,"
          "interface=sas", "slot=20 of enclosure=1 is beyond its expander's "
          "20 drive phys" },
        { ",sas-transport=on -blockdev driver=null-co,node-name=n0 "
          "-device megaraid-drive,bus=raid0.0,enclosure=1,slot=20,drive=n0,"
          "interface=sas -device megaraid-expander,controller=raid0,phys=24",
          "the drive in slot=20 of enclosure=1 is beyond the expander's 20 "
          "drive phys" },
        { ",sas-transport=on -device megaraid-expander,controller=nosuch",
          "nosuch" },
        { ",sas-transport=on -device megaraid-9500,id=r5 "
          "-device megaraid-expander,controller=r5",
          "controller=r5 does not take expanders" },
        { ",sas-transport=on -device ich9-ahci,id=t0 "
          "-device megaraid-expander,controller=t0",
          "controller=t0 is not a megaraid controller" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        g_autofree char *args = g_strdup_printf(
            "-machine q35 -nodefaults -device megaraid-9600,id=raid0%s",
            cases[i].args);
        g_autofree char *err = NULL;

        g_assert_cmpint(h_run_qemu(args, &err), !=, 0);
        if (!strstr(err, cases[i].want)) {
            g_test_message("case %zu: %s", i, err);
            g_assert_not_reached();
        }
    }
}

static void test_discovery(void)
{
    Events pe = { 0 };
    HMR *m = exp_start(&pe);
    int i_exp, i, lists = 0;
    const uint8_t *t, *en;
    uint8_t p[64];
    uint16_t h0, h1;

    /* the card's enclosure, then the expander's */
    g_assert_cmphex(pe.ev[0].frame[0x11], ==, 0x0B);
    g_assert_cmphex(lduw_le_p(pe.ev[0].frame + EV_DATA + 0x12), ==, 1);
    g_assert_cmphex(pe.ev[1].frame[0x11], ==, 0x0B);
    en = pe.ev[1].frame + EV_DATA;
    g_assert_cmphex(ldq_le_p(en + 0x08), ==, EXP_SAS_ADDR);
    g_assert_cmphex(lduw_le_p(en + 0x10), ==, 0x4010);   /* SAS, present */
    g_assert_cmphex(lduw_le_p(en + 0x12), ==, EXP_ENCL);
    g_assert_cmpuint(lduw_le_p(en + 0x14), ==, 24);          /* slots */
    g_assert_cmpuint(en[0x18], ==, 0);                       /* port */
    /* the expander's DEVICE ADDED first of all devices */
    i_exp = added_index(&pe, EXP_HANDLE);
    g_assert_cmpint(i_exp, ==, find_event(&pe, 0, 0x07));
    assert_expander_page0(pe.ev[i_exp].frame + EV_DATA);
    h0 = behind(m, 0, p);
    h1 = behind(m, 1, p);
    g_assert_cmpint(added_index(&pe, h0), >, i_exp);
    g_assert_cmpint(added_index(&pe, h1), >, i_exp);

    /* lists: phy 4's, the wide port's, the expander's in two parts */
    for (i = find_event(&pe, 0, 0x16); i >= 0;
         i = find_event(&pe, i + 1, 0x16)) {
        g_assert_cmpint(i, >, added_index(&pe, h1));
        t = pe.ev[i].frame + EV_DATA;
        switch (lists++) {
        case 0:
            g_assert_cmphex(lduw_le_p(t + 0x02), ==, 0);
            g_assert_cmpuint(t[0x09], ==, 4);
            break;
        case 1:                                 /* controller: wide port */
            g_assert_cmphex(lduw_le_p(t + 0x00), ==, 1);
            g_assert_cmphex(lduw_le_p(t + 0x02), ==, 0);
            g_assert_cmpuint(t[0x04], ==, 16);
            g_assert_cmpuint(t[0x08], ==, 4);
            g_assert_cmpuint(t[0x09], ==, 0);
            g_assert_cmphex(t[0x0A], ==, 0);
            g_assert_cmpuint(t[0x0B], ==, 0);
            for (int k = 0; k < 4; k++) {
                g_assert_cmphex(lduw_le_p(t + 0x0C + 4 * k), ==, EXP_HANDLE);
                g_assert_cmphex(t[0x0E + 4 * k], ==, 0xC0);
                g_assert_cmphex(t[0x0F + 4 * k], ==, 0x03);
            }
            break;
        case 2:                                 /* expander: phys 0-22 */
            g_assert_cmpuint(pe.ev[i].frame[0x10], ==, (12 + 23 * 4) / 4);
            g_assert_cmphex(lduw_le_p(t + 0x00), ==, EXP_ENCL);
            g_assert_cmphex(lduw_le_p(t + 0x02), ==, EXP_HANDLE);
            g_assert_cmpuint(t[0x04], ==, 28);
            g_assert_cmpuint(t[0x08], ==, 23);
            g_assert_cmpuint(t[0x09], ==, 0);
            g_assert_cmphex(t[0x0A], ==, 0x03);             /* responding */
            g_assert_cmpuint(t[0x0B], ==, 0);
            g_assert_cmphex(lduw_le_p(t + 0x0C), ==, h0);
            g_assert_cmphex(t[0x0E], ==, 0xB0);
            g_assert_cmphex(t[0x0F], ==, 0x03);
            g_assert_cmphex(lduw_le_p(t + 0x10), ==, h1);
            g_assert_cmphex(t[0x12], ==, 0xA0);
            g_assert_cmphex(t[0x13], ==, 0x03);
            g_assert_cmphex(lduw_le_p(t + 0x14), ==, 0);     /* phy 2 */
            g_assert_cmphex(t[0x17], ==, 0x84);             /* vacant */
            break;
        case 3:                                 /* expander: phys 23-27 */
            g_assert_cmpuint(t[0x08], ==, 5);
            g_assert_cmpuint(t[0x09], ==, 23);
            g_assert_cmphex(lduw_le_p(t + 0x02), ==, EXP_HANDLE);
            g_assert_cmphex(t[0x0F], ==, 0x84);             /* phy 23 */
            for (int k = 1; k < 5; k++) {               /* the port */
                g_assert_cmphex(lduw_le_p(t + 0x0C + 4 * k), ==,
                                CTRL_HANDLE);
                g_assert_cmphex(t[0x0E + 4 * k], ==, 0xCC);
                g_assert_cmphex(t[0x0F + 4 * k], ==, 0x04);
            }
            break;
        }
    }
    g_assert_cmpint(lists, ==, 4);
    h_stop(m);
}

static void test_pages(void)
{
    Events pe = { 0 };
    HMR *m = exp_start(&pe);
    uint8_t p[64], io[16 + 16 * 20];
    uint16_t h0, h1;

    /* the expander's Device page 0; not in GET NEXT (no SCSI target) */
    g_assert_cmphex(read_page(m, 0x12, 0, 0x20000000 | EXP_HANDLE, p, 64),
                    ==, 0);
    assert_expander_page0(p);
    /* drives behind it */
    h0 = behind(m, 0, p);
    g_assert_cmphex(lduw_le_p(p + 0x0E), ==, EXP_ENCL);
    g_assert_cmphex(lduw_le_p(p + 0x1C) & 0x07, ==, 0x01);   /* not d.a. */
    g_assert_cmphex(p[0x1A], ==, 0);
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, WWN_E0);
    g_assert_cmpuint(p[0x34], ==, 0);                        /* exp phy */
    g_assert_cmphex(p[0x3B], ==, 0xBB);
    h1 = behind(m, 1, p);
    g_assert_cmphex(ldq_le_p(p + 0x28), ==, WWN_E1);
    g_assert_cmphex(lduw_le_p(p + 0x32), ==, 0x0081);
    g_assert_cmpuint(p[0x34], ==, 1);
    g_assert_cmphex(p[0x3B], ==, 0xAA);
    behind(m, 5, p);
    g_assert_cmpuint(p[0x34], ==, 5);

    /* SAS Expander page 0: by handle, by GET NEXT, none after */
    for (int form = 0; form < 2; form++) {
        uint32_t a = form ? 0x20000000 | EXP_HANDLE : 0xFFFF;

        g_assert_cmphex(read_page(m, 0x21, 0, a, p, 64), ==, 0);
        g_assert_cmphex(p[6], ==, 0x21);
        g_assert_cmpuint(p[0x08], ==, 0);                    /* port */
        g_assert_cmphex(lduw_le_p(p + 0x0A), ==, EXP_ENCL);
        g_assert_cmphex(ldq_le_p(p + 0x10), ==, EXP_SAS_ADDR);
        g_assert_cmphex(lduw_le_p(p + 0x1C), ==, EXP_HANDLE);
        g_assert_cmphex(lduw_le_p(p + 0x1E), ==, CTRL_HANDLE);
        g_assert_cmpuint(p[0x24], ==, 28);
    }
    g_assert_cmphex(read_page(m, 0x21, 0, EXP_HANDLE, p, 64), ==,
                    ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x21, 0, 0x20000000 | 0x2F2, p, 64), ==,
                    ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x21, 0, 0x30000000 | EXP_HANDLE, p, 64),
                    ==, ST_INVALID_FIELD);

    /* SAS Expander page 1 per phy */
    for (uint32_t phy = 0; phy < 28; phy++) {
        uint32_t a = 0x10000000 | phy << 16 | EXP_HANDLE;
        uint16_t want = phy == 0 ? h0 : phy == 1 ? h1 : 0;

        g_assert_cmphex(read_page(m, 0x21, 1, a, p, 48), ==, 0);
        g_assert_cmpuint(p[0x0C], ==, 28);
        g_assert_cmpuint(p[0x0D], ==, phy);
        g_assert_cmphex(p[0x11], ==, 0xCA);                  /* hw rates */
        g_assert_cmphex(lduw_le_p(p + 0x1C), ==, EXP_HANDLE);
        g_assert_cmpuint(p[0x20], ==, phy);
        if (phy >= 24) {                                     /* the port */
            g_assert_cmphex(lduw_le_p(p + 0x12), ==, CTRL_HANDLE);
            g_assert_cmphex(lduw_le_p(p + 0x18), ==, 0x38);
            g_assert_cmphex(p[0x1F], ==, 0xCC);
            g_assert_cmpuint(p[0x21], ==, phy - 24);         /* ctrl phy */
        } else if (phy != 5) {
            g_assert_cmphex(lduw_le_p(p + 0x12), ==, want);
            g_assert_cmphex(p[0x1F], ==, phy == 0 ? 0xBB :
                                         phy == 1 ? 0xAA : 0x00);
            g_assert_cmphex(lduw_le_p(p + 0x18), ==, phy == 0 ? 0x101 :
                                                phy == 1 ? 0x81 : 0);
        }
    }
    g_assert_cmphex(read_page(m, 0x21, 1, 0x10000000 | 28 << 16 | EXP_HANDLE,
                              p, 48), ==, ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x21, 1, 0x20000000 | EXP_HANDLE, p, 48),
                    ==, ST_INVALID_FIELD);
    g_assert_cmphex(read_page(m, 0x21, 1, 0xFFFF, p, 48), ==,
                    ST_INVALID_FIELD);

    /* the controller phys of the wide port */
    g_assert_cmphex(read_page(m, 0x20, 0, 0, io, sizeof(io)), ==, 0);
    for (int phy = 0; phy < 5; phy++) {
        const uint8_t *e = io + 16 + phy * 20;

        g_assert_cmpuint(e[0], ==, phy < 4 ? 0 : 4);         /* port */
        g_assert_cmphex(e[3], ==, phy < 4 ? 0xCC : 0xBB);
        if (phy < 4) {
            g_assert_cmphex(lduw_le_p(e + 8), ==, EXP_HANDLE);
        }
    }
    g_assert_cmphex(read_page(m, 0x23, 0, 2, p, 36), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x0C), ==, EXP_HANDLE);
    g_assert_cmpuint(p[0x0E], ==, 26);                       /* exp phy */
    g_assert_cmphex(p[0x1C], ==, 0xCC);

    /* Enclosure page 0 of the expander's enclosure */
    g_assert_cmphex(read_page(m, 0x11, 0, 0x10000000 | EXP_ENCL, p, 32), ==,
                    0);
    g_assert_cmphex(lduw_le_p(p + 0x12), ==, EXP_ENCL);
    g_assert_cmphex(ldq_le_p(p + 0x08), ==, EXP_SAS_ADDR);
    g_assert_cmphex(read_page(m, 0x11, 0, 1, p, 32), ==, 0);  /* next */
    g_assert_cmphex(lduw_le_p(p + 0x12), ==, EXP_ENCL);
    g_assert_cmphex(read_page(m, 0x11, 0, EXP_ENCL, p, 32), ==,
                    ST_CFG_INVALID_PAGE);
    g_assert_cmphex(read_page(m, 0x11, 0, 0x10000000 | 3, p, 32), ==,
                    ST_CFG_INVALID_PAGE);
    h_stop(m);
}

/* The next SAS topology change list outside a request. */
static void next_list(HMR *m, HDesc *d)
{
    for (int n = 0; n < 16; n++) {
        g_assert(h_admin_reply(m, d, 5000));
        g_assert_cmphex(d->tag, ==, 0xFFFF);
        if (d->frame[0x11] == 0x16) {
            return;
        }
    }
    g_assert_not_reached();
}

static void test_hotplug(void)
{
    Events pe = { 0 };
    HMR *m = exp_start(&pe);
    uint8_t p[64];
    const uint8_t *t;
    uint16_t h1;
    HDesc d;

    h1 = behind(m, 1, p);
    qtest_qmp_device_del(m->qts, "e1");
    next_list(m, &d);
    t = d.frame + EV_DATA;
    g_assert_cmphex(lduw_le_p(t), ==, EXP_ENCL);
    g_assert_cmphex(lduw_le_p(t + 0x02), ==, EXP_HANDLE);
    g_assert_cmpuint(t[0x04], ==, 28);
    g_assert_cmpuint(t[0x08], ==, 1);
    g_assert_cmpuint(t[0x09], ==, 1);
    g_assert_cmpuint(t[0x0B], ==, 0);
    g_assert_cmphex(lduw_le_p(t + 0x0C), ==, h1);
    g_assert_cmphex(t[0x0E], ==, 0x0A);
    g_assert_cmphex(t[0x0F], ==, 0x02);                 /* not responding */
    g_assert_cmphex(read_page(m, 0x21, 1, 0x10000000 | 1 << 16 | EXP_HANDLE,
                              p, 48), ==, 0);
    g_assert_cmphex(lduw_le_p(p + 0x12), ==, 0);
    qtest_qmp_device_add(m->qts, "megaraid-drive", "e1b",
                         "{'bus': 'raid0.0', 'enclosure': 1, 'slot': 1, "
                         "'drive': 'n4', 'interface': 'sas'}");
    next_list(m, &d);
    t = d.frame + EV_DATA;
    g_assert_cmphex(lduw_le_p(t + 0x02), ==, EXP_HANDLE);
    g_assert_cmpuint(t[0x09], ==, 1);
    g_assert_cmphex(t[0x0E], ==, 0xB0);
    g_assert_cmphex(t[0x0F], ==, 0x03);
    g_assert_cmphex(lduw_le_p(t + 0x0C), ==, behind(m, 1, p));
    g_assert_cmphex(lduw_le_p(p + 0x0A), ==, EXP_HANDLE);
    h_stop(m);
}

/* ---- SMP PASSTHROUGH ---- */

typedef struct Smp {
    uint16_t status;
    uint16_t len;               /* response data length of the reply */
    uint8_t r[1024];
} Smp;

/* SMP PASSTHROUGH of request @q (@qlen bytes) to @addr, @rlen back. */
static void smp_sge(HMR *m, uint64_t addr, const uint8_t *q, uint32_t qlen,
                    uint32_t rlen, uint8_t qflags, Smp *out)
{
    uint8_t f[64] = { 0 };
    uint64_t qb = m->buf + 0x4000, rb = m->buf + 0x6000;
    HDesc d;

    stw_le_p(f, 0x51);
    f[3] = 0x22;
    stq_le_p(f + 0x18, addr);
    stq_le_p(f + 0x20, qb);
    stl_le_p(f + 0x28, qlen);
    f[0x2F] = qflags;
    stq_le_p(f + 0x30, rb);
    stl_le_p(f + 0x38, rlen);
    f[0x3F] = 0x08;                             /* simple, end of list */
    if (qlen) {
        qtest_memwrite(m->qts, qb, q, MIN(qlen, 0x2000));
    }
    /* (16 bytes beyond the buffer show what the device wrote past it) */
    qtest_memset(m->qts, rb, 0xEE, MIN(rlen + 16, sizeof(out->r)));
    h_submit_admin(m, f, sizeof(f));
    do {
        g_assert(h_admin_reply(m, &d, 5000));
    } while (d.tag == 0xFFFF);
    g_assert_cmphex(d.tag, ==, 0x51);
    out->status = d.status;
    out->len = d.type == H_DT_ADDRESS ? lduw_le_p(d.frame + 0x10) : 0;
    memset(out->r, 0, sizeof(out->r));
    qtest_memread(m->qts, rb, out->r, MIN(rlen + 16, sizeof(out->r)));
}

static void smp(HMR *m, const uint8_t *q, uint32_t qlen, Smp *out)
{
    smp_sge(m, EXP_SAS_ADDR, q, qlen, 1024, 0x08, out);
    g_assert_cmphex(out->status, ==, 0);
    g_assert_cmphex(out->r[0], ==, 0x41);
    g_assert_cmphex(out->r[1], ==, q[1]);
}

/* DISCOVER (SAS-2) of @phy. */
static void discover(HMR *m, uint8_t phy, Smp *out)
{
    uint8_t q[12] = { 0x40, 0x10, 0x1A, 0x02 };

    q[9] = phy;
    smp(m, q, sizeof(q), out);
}

static void phy_control(HMR *m, uint8_t phy, uint8_t op, uint16_t cc,
                        Smp *out)
{
    uint8_t q[40] = { 0x40, 0x91, 0x00, 0x09 };

    stw_be_p(q + 4, cc);
    q[9] = phy;
    q[10] = op;
    smp(m, q, sizeof(q), out);
}

static void test_smp_functions(void)
{
    Events pe = { 0 };
    HMR *m = exp_start(&pe);
    static const uint8_t rg[4] = { 0x40, 0x00, 0x11, 0x00 };
    static const uint8_t rm[4] = { 0x40, 0x01, 0x00, 0x00 };
    uint8_t el[12] = { 0x40, 0x11, 0x06, 0x02 }, p[64];
    Smp r;

    /* REPORT GENERAL: 28 phys, the expander's address, change count 0 */
    smp(m, rg, sizeof(rg), &r);
    g_assert_cmpuint(r.len, ==, 72);
    g_assert_cmphex(r.r[2], ==, 0);
    g_assert_cmphex(r.r[3], ==, 0x11);
    g_assert_cmpuint(lduw_be_p(r.r + 4), ==, 0);
    g_assert_cmphex(r.r[8] & 0x80, ==, 0x80);
    g_assert_cmpuint(r.r[9], ==, 28);
    g_assert_cmphex(ldq_be_p(r.r + 12), ==, EXP_SAS_ADDR);
    /* REPORT MANUFACTURER INFORMATION as the driver sends it: 60 bytes */
    smp_sge(m, EXP_SAS_ADDR, rm, 4, 60, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0);
    g_assert_cmpuint(r.len, ==, 60);
    g_assert_cmphex(r.r[2], ==, 0);
    g_assert_cmphex(r.r[8] & 1, ==, 1);
    g_assert_cmpmem(r.r + 12, 8, "BROADCOM", 8);
    g_assert_cmpmem(r.r + 20, 16, "SAS4x28         ", 16);
    g_assert_cmpmem(r.r + 36, 4, "0100", 4);
    g_assert_cmpmem(r.r + 40, 8, "BROADCOM", 8);

    /* DISCOVER: SAS drive, SATA drive, vacant, the controller's lane */
    discover(m, 0, &r);
    g_assert_cmpuint(r.len, ==, 100);
    g_assert_cmphex(r.r[2], ==, 0);
    g_assert_cmpuint(r.r[9], ==, 0);
    g_assert_cmphex(r.r[12] >> 4, ==, 1);               /* end device */
    g_assert_cmphex(r.r[13] & 0xF, ==, 0xB);
    g_assert_cmphex(r.r[15], ==, 0x08);                 /* SSP target */
    g_assert_cmphex(ldq_be_p(r.r + 16), ==, EXP_SAS_ADDR);
    g_assert_cmphex(ldq_be_p(r.r + 24), ==, WWN_E0);
    g_assert_cmphex(r.r[41], ==, 0xCC);
    g_assert_cmphex(r.r[44] & 0xF, ==, 0);              /* direct */
    discover(m, 1, &r);
    g_assert_cmphex(r.r[13] & 0xF, ==, 0xA);
    g_assert_cmphex(r.r[15], ==, 0x01);                 /* SATA device */
    g_assert_cmphex(ldq_be_p(r.r + 24), ==, WWN_E1);
    discover(m, 2, &r);
    g_assert_cmphex(r.r[12] >> 4, ==, 0);
    g_assert_cmphex(r.r[13] & 0xF, ==, 0);
    g_assert_cmphex(ldq_be_p(r.r + 24), ==, 0);
    discover(m, 25, &r);
    g_assert_cmphex(r.r[12] >> 4, ==, 1);
    g_assert_cmphex(r.r[13] & 0xF, ==, 0xC);
    g_assert_cmphex(r.r[14], ==, 0x0E);                 /* initiators */
    g_assert_cmphex(ldq_be_p(r.r + 24), ==, HOST_SAS_ADDR);
    g_assert_cmpuint(r.r[32], ==, 1);                   /* ctrl phy 1 */
    g_assert_cmphex(r.r[44] & 0xF, ==, 1);              /* subtractive */
    discover(m, 28, &r);
    g_assert_cmphex(r.r[2], ==, 0x10);                  /* no such phy */
    g_assert_cmpuint(r.len, ==, 4);

    /* REPORT PHY ERROR LOG: counters 0 */
    el[9] = 3;
    smp(m, el, sizeof(el), &r);
    g_assert_cmpuint(r.len, ==, 28);
    g_assert_cmphex(r.r[2], ==, 0);
    g_assert_cmpuint(r.r[9], ==, 3);
    for (int i = 12; i < 28; i++) {
        g_assert_cmphex(r.r[i], ==, 0);
    }
    el[9] = 200;
    smp(m, el, sizeof(el), &r);
    g_assert_cmphex(r.r[2], ==, 0x10);

    /* PHY CONTROL: disable the vacant phy 2, then a link reset */
    phy_control(m, 2, 0x03, 0, &r);
    g_assert_cmphex(r.r[2], ==, 0);
    g_assert_cmpuint(r.len, ==, 4);
    discover(m, 2, &r);
    g_assert_cmphex(r.r[13] & 0xF, ==, 0x1);            /* disabled */
    g_assert_cmpuint(lduw_be_p(r.r + 4), ==, 1);        /* change count */
    g_assert_cmphex(read_page(m, 0x21, 1, 0x10000000 | 2 << 16 | EXP_HANDLE,
                              p, 48), ==, 0);
    g_assert_cmphex(p[0x1F], ==, 0x11);
    g_assert_cmphex(read_page(m, 0x21, 0, 0x20000000 | EXP_HANDLE, p, 64),
                    ==, 0);
    g_assert_cmpuint(lduw_le_p(p + 0x20), ==, 1);
    phy_control(m, 2, 0x01, 1, &r);                     /* expected cc 1 */
    g_assert_cmphex(r.r[2], ==, 0);
    discover(m, 2, &r);
    g_assert_cmphex(r.r[13] & 0xF, ==, 0);
    g_assert_cmpuint(lduw_be_p(r.r + 4), ==, 2);
    phy_control(m, 2, 0x02, 0, &r);                     /* hard reset */
    g_assert_cmphex(r.r[2], ==, 0);
    phy_control(m, 2, 0x05, 0, &r);                     /* clear log */
    g_assert_cmphex(r.r[2], ==, 0);
    /*
     * refused: a drive's phy, the port's, an unknown operation, a stale
     * change count, no such phy
     */
    phy_control(m, 0, 0x03, 0, &r);
    g_assert_cmphex(r.r[2], ==, 0x02);
    phy_control(m, 24, 0x03, 0, &r);
    g_assert_cmphex(r.r[2], ==, 0x02);
    phy_control(m, 3, 0x04, 0, &r);
    g_assert_cmphex(r.r[2], ==, 0x13);
    phy_control(m, 3, 0x03, 1, &r);
    g_assert_cmphex(r.r[2], ==, 0x04);
    phy_control(m, 28, 0x01, 0, &r);
    g_assert_cmphex(r.r[2], ==, 0x10);
    discover(m, 0, &r);
    g_assert_cmphex(r.r[13] & 0xF, ==, 0xB);            /* still up */
    h_stop(m);
}

static void test_smp_hostile(void)
{
    Events pe = { 0 };
    HMR *m = exp_start(&pe);
    uint8_t q[16] = { 0x40, 0x10, 0x00, 0x03 };
    g_autofree uint8_t *big = g_malloc0(2048);
    Smp r;

    /* unknown function; wrong request lengths */
    q[1] = 0x20;
    q[3] = 0;
    smp(m, q, 4, &r);
    g_assert_cmphex(r.r[2], ==, 0x01);
    g_assert_cmpuint(r.len, ==, 4);
    q[1] = 0x10;
    q[3] = 3;
    smp(m, q, 16, &r);
    g_assert_cmphex(r.r[2], ==, 0x03);
    q[3] = 2;
    smp(m, q, 8, &r);
    g_assert_cmphex(r.r[2], ==, 0x03);
    q[1] = 0x00;
    q[3] = 1;
    smp(m, q, 8, &r);
    g_assert_cmphex(r.r[2], ==, 0x03);
    /* a truncated response: what fits, DATA OVERRUN */
    q[3] = 0;
    smp_sge(m, EXP_SAS_ADDR, q, 4, 8, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0x0091);
    g_assert_cmpuint(r.len, ==, 8);
    g_assert_cmphex(r.r[8], ==, 0xEE);
    /* allocated response length shorter than the response */
    q[2] = 1;
    smp(m, q, 4, &r);
    g_assert_cmpuint(r.len, ==, 8);
    /* not SMP requests: frame type, too short, too long */
    q[0] = 0x41;
    smp_sge(m, EXP_SAS_ADDR, q, 4, 64, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0x0090);
    q[0] = 0x40;
    smp_sge(m, EXP_SAS_ADDR, q, 2, 64, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0x0090);
    big[0] = 0x40;
    smp_sge(m, EXP_SAS_ADDR, big, 2048, 64, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0x0090);
    /* no such SAS address: the controller's, a drive's, none */
    smp_sge(m, HOST_SAS_ADDR, q, 4, 64, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0x0043);
    smp_sge(m, WWN_E0, q, 4, 64, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0x0043);
    /* SGEs: a chain element, zero length, outside guest memory */
    smp_sge(m, EXP_SAS_ADDR, q, 4, 64, 0x28, &r);
    g_assert_cmphex(r.status, ==, 0x0003);
    smp_sge(m, EXP_SAS_ADDR, q, 0, 64, 0x08, &r);
    g_assert_cmphex(r.status, ==, 0x0003);
    {
        uint8_t f[64] = { 0 };

        stw_le_p(f, 0x52);
        f[3] = 0x22;
        stq_le_p(f + 0x18, EXP_SAS_ADDR);
        stq_le_p(f + 0x20, 0xFFFFFFFFFFFF0000ULL);
        stl_le_p(f + 0x28, 4);
        f[0x2F] = 0x08;
        stq_le_p(f + 0x30, m->buf);
        stl_le_p(f + 0x38, 64);
        f[0x3F] = 0x08;
        g_assert_cmphex(h_admin(m, f, sizeof(f)), ==, 0x0003);
    }
    /* random frames: every one answered, the device alive after */
    for (int i = 0; i < 300; i++) {
        static const uint8_t funcs[] = { 0x00, 0x01, 0x10, 0x11, 0x91 };
        uint32_t len = g_test_rand_int_range(0, 64);
        uint8_t fr[64];

        for (uint32_t k = 0; k < sizeof(fr); k++) {
            fr[k] = g_test_rand_int_range(0, 256);
        }
        fr[0] = i % 8 ? 0x40 : fr[0];
        fr[1] = i % 3 ? funcs[i % 5] : fr[1];
        smp_sge(m, EXP_SAS_ADDR, fr, len, g_test_rand_int_range(0, 200),
                0x08, &r);
        g_assert(r.status == 0 || r.status == 0x0003 || r.status == 0x0090 ||
                 r.status == 0x0091);
    }
    discover(m, 1, &r);
    g_assert_cmphex(ldq_be_p(r.r + 24), ==, WWN_E1);
    h_stop(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9600/expander/errors", test_errors);
    qtest_add_func("/megaraid-9600/expander/discovery", test_discovery);
    qtest_add_func("/megaraid-9600/expander/pages", test_pages);
    qtest_add_func("/megaraid-9600/expander/hotplug", test_hotplug);
    qtest_add_func("/megaraid-9600/expander/smp", test_smp_functions);
    qtest_add_func("/megaraid-9600/expander/smp-hostile", test_smp_hostile);
    return g_test_run();
}
