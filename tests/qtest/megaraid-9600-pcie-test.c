/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: qtest of the megaraid-9600's PCI Express function
 * (hw/megaraid/mpi3/mr9600-pcie.c): the capabilities a driver finds (Power
 * Management, PCI Express with FLR and error reporting, AER and the Device
 * Serial Number in extended config space), a Function Level Reset and a
 * D3hot -> D0 transition each resetting a READY IOC (Reset History set,
 * READY and ENABLE_IOC clear, the admin queue registers cleared, the IOC
 * enabled again afterwards), and an AER error injected from HMP landing in
 * the function's AER status registers, cleared by the host's write.
 * Capability IDs, offsets and bits are written from the PCI specifications.
 */
#include "qemu/osdep.h"
#include "megaraid-harness.h"

/* q35's MCH: PCIEXBAR at config offset 0x60 maps ECAM at this address */
#define ECAM_BASE       0xb0000000ull
#define MCH_PCIEXBAR    0x60

#define CAP_ID_PM       0x01
#define CAP_ID_EXP      0x10
#define EXT_ID_AER      0x0001
#define EXT_ID_DSN      0x0003

#define EXP_DEVCAP      0x04
#define EXP_DEVCTL      0x08
#define DEVCAP_FLR      (1u << 28)
#define DEVCAP_RBER     (1u << 15)
#define DEVCTL_FLR      0x8000

#define PM_PMC          0x02
#define PM_CSR          0x04

#define AER_UNCOR       0x04
#define AER_COR         0x10
#define AER_POISON_TLP  (1u << 12)
#define AER_COR_RCVR    (1u << 0)

#define DSN_DEFAULT     0x500062b2000c0008ull

static void ecam_enable(HMR *m)
{
    QPCIDevice *mch = qpci_device_find(m->qs->pcibus, 0);

    g_assert(mch);
    qpci_config_writel(mch, MCH_PCIEXBAR + 4, 0);
    qpci_config_writel(mch, MCH_PCIEXBAR, (uint32_t)ECAM_BASE | 1);
    g_free(mch);
}

static uint32_t ecam_rd(HMR *m, uint16_t off)
{
    return qtest_readl(m->qts, ECAM_BASE + (H_DEVFN << 12) + off);
}

static void ecam_wr(HMR *m, uint16_t off, uint32_t val)
{
    qtest_writel(m->qts, ECAM_BASE + (H_DEVFN << 12) + off, val);
}

/* Offset of standard capability @id, 0 if absent. */
static uint8_t find_cap(HMR *m, uint8_t id)
{
    uint8_t pos = qpci_config_readb(m->dev, PCI_CAPABILITY_LIST);

    for (int n = 0; pos && n < 48; n++) {
        if (qpci_config_readb(m->dev, pos) == id) {
            return pos;
        }
        pos = qpci_config_readb(m->dev, pos + 1);
    }
    return 0;
}

/* Offset of extended capability @id, 0 if absent. */
static uint16_t find_ext_cap(HMR *m, uint16_t id)
{
    uint16_t pos = 0x100;

    for (int n = 0; pos >= 0x100 && n < 64; n++) {
        uint32_t hdr = ecam_rd(m, pos);

        if ((hdr & 0xFFFF) == id) {
            return pos;
        }
        pos = hdr >> 20;
    }
    return 0;
}

/* The config state Linux saves around a reset, and its restore. */
typedef struct {
    uint32_t bar[2];
    uint16_t cmd;
} SavedCfg;

static SavedCfg cfg_save(HMR *m)
{
    SavedCfg c = {
        .bar = { qpci_config_readl(m->dev, PCI_BASE_ADDRESS_0),
                 qpci_config_readl(m->dev, PCI_BASE_ADDRESS_1) },
        .cmd = qpci_config_readw(m->dev, PCI_COMMAND),
    };
    return c;
}

static void cfg_restore(HMR *m, const SavedCfg *c)
{
    qpci_config_writel(m->dev, PCI_BASE_ADDRESS_0, c->bar[0]);
    qpci_config_writel(m->dev, PCI_BASE_ADDRESS_1, c->bar[1]);
    qpci_config_writew(m->dev, PCI_COMMAND, c->cmd);
}

/* After a function reset: BARs and COMMAND were cleared; the IOC reset. */
static void check_function_reset(HMR *m, const SavedCfg *c)
{
    g_assert_cmphex(qpci_config_readw(m->dev, PCI_COMMAND) &
                    (PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER), ==, 0);
    g_assert_cmphex(qpci_config_readl(m->dev, PCI_BASE_ADDRESS_0) & ~0xFu,
                    ==, 0);
    cfg_restore(m, c);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) &
                    (H_ST_READY | H_ST_FAULT | H_ST_RESET_HIST),
                    ==, H_ST_RESET_HIST);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG) & 1, ==, 0);
    g_assert_cmphex(h_rd(m, H_ADMIN_N), ==, 0);
    g_assert_cmphex(h_rd(m, H_ADMIN_REQ), ==, 0);
    /* the driver clears the history and enables the IOC again */
    h_wr(m, H_IOC_STATUS, H_ST_RESET_HIST);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS), ==, 0);
    h_init(m);
}

static void test_caps(void)
{
    HMR *m = h_start(NULL);
    uint8_t pm, exp;
    uint16_t aer, dsn;

    pm = find_cap(m, CAP_ID_PM);
    g_assert_cmphex(pm, !=, 0);
    /* version 1.2, no D1/D2, no PME; in D0, No_Soft_Reset clear */
    g_assert_cmphex(qpci_config_readw(m->dev, pm + PM_PMC), ==, 0x0003);
    g_assert_cmphex(qpci_config_readw(m->dev, pm + PM_CSR), ==, 0);

    exp = find_cap(m, CAP_ID_EXP);
    g_assert_cmphex(exp, !=, 0);
    g_assert_cmphex(qpci_config_readl(m->dev, exp + EXP_DEVCAP) &
                    (DEVCAP_FLR | DEVCAP_RBER), ==, DEVCAP_FLR | DEVCAP_RBER);

    ecam_enable(m);
    g_assert_cmphex(ecam_rd(m, PCI_VENDOR_ID), ==, 0x00A51000);
    aer = find_ext_cap(m, EXT_ID_AER);
    dsn = find_ext_cap(m, EXT_ID_DSN);
    g_assert_cmphex(aer, ==, 0x100);
    g_assert_cmphex(dsn, !=, 0);
    g_assert_cmphex(ecam_rd(m, dsn + 4) |
                    (uint64_t)ecam_rd(m, dsn + 8) << 32, ==, DSN_DEFAULT);
    g_assert_cmphex(ecam_rd(m, aer + AER_UNCOR), ==, 0);
    g_assert_cmphex(ecam_rd(m, aer + AER_COR), ==, 0);
    h_stop(m);
}

static void test_flr(void)
{
    HMR *m = h_start(NULL);
    uint8_t exp = find_cap(m, CAP_ID_EXP);
    SavedCfg c = cfg_save(m);
    uint32_t resets = qom_get_int(m, "/machine/peripheral/raid0",
                                  "ioc-resets");

    h_bringup(m);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_READY, ==, H_ST_READY);
    qpci_config_writew(m->dev, exp + EXP_DEVCTL,
                       qpci_config_readw(m->dev, exp + EXP_DEVCTL) |
                       DEVCTL_FLR);
    /* Initiate FLR reads back as 0 */
    g_assert_cmphex(qpci_config_readw(m->dev, exp + EXP_DEVCTL) &
                    DEVCTL_FLR, ==, 0);
    g_assert_cmpuint(qom_get_int(m, "/machine/peripheral/raid0",
                                 "ioc-resets"), ==, resets + 1);
    check_function_reset(m, &c);
    h_stop(m);
}

static void test_pm(void)
{
    HMR *m = h_start(NULL);
    uint8_t pm = find_cap(m, CAP_ID_PM);
    SavedCfg c = cfg_save(m);

    h_init(m);
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG), ==, 0x00470001);
    qpci_config_writew(m->dev, pm + PM_CSR, 3);
    g_assert_cmphex(qpci_config_readw(m->dev, pm + PM_CSR) & 3, ==, 3);
    /* BAR0 is not decoded in D3hot */
    g_assert_cmphex(h_rd(m, H_IOC_CONFIG), !=, 0x00470001);
    /* D1 is not supported: the function stays in D3hot */
    qpci_config_writew(m->dev, pm + PM_CSR, 1);
    g_assert_cmphex(qpci_config_readw(m->dev, pm + PM_CSR) & 3, ==, 3);
    qpci_config_writew(m->dev, pm + PM_CSR, 0);
    g_assert_cmphex(qpci_config_readw(m->dev, pm + PM_CSR) & 3, ==, 0);
    check_function_reset(m, &c);

    /* D0 -> D0 changes nothing */
    qpci_config_writew(m->dev, pm + PM_CSR, 0);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & H_ST_READY, ==, H_ST_READY);
    h_stop(m);
}

static void test_aer_inject(void)
{
    HMR *m = h_start(NULL);
    uint16_t aer;
    char *out;

    ecam_enable(m);
    aer = find_ext_cap(m, EXT_ID_AER);
    out = qtest_hmp(m->qts, "pcie_aer_inject_error raid0 RCVR");
    g_assert(g_str_has_prefix(out, "OK id: raid0 "));
    g_free(out);
    g_assert_cmphex(ecam_rd(m, aer + AER_COR), ==, AER_COR_RCVR);
    out = qtest_hmp(m->qts, "pcie_aer_inject_error raid0 POISON_TLP");
    g_assert(g_str_has_prefix(out, "OK id: raid0 "));
    g_free(out);
    g_assert_cmphex(ecam_rd(m, aer + AER_UNCOR), ==, AER_POISON_TLP);
    /* write 1 to clear, as the host's AER driver does */
    ecam_wr(m, aer + AER_COR, AER_COR_RCVR);
    ecam_wr(m, aer + AER_UNCOR, AER_POISON_TLP);
    g_assert_cmphex(ecam_rd(m, aer + AER_COR), ==, 0);
    g_assert_cmphex(ecam_rd(m, aer + AER_UNCOR), ==, 0);
    /* the IOC is not touched by an error report */
    h_init(m);
    g_assert_cmphex(h_rd(m, H_IOC_STATUS) & (H_ST_READY | H_ST_FAULT), ==,
                    H_ST_READY);
    h_stop(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/megaraid-9600-pcie/caps", test_caps);
    qtest_add_func("/megaraid-9600-pcie/flr", test_flr);
    qtest_add_func("/megaraid-9600-pcie/pm", test_pm);
    qtest_add_func("/megaraid-9600-pcie/aer-inject", test_aer_inject);
    return g_test_run();
}
