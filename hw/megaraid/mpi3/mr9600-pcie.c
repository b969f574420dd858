/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: the megaraid-9600's PCI Express function capabilities and
 * what config-space writes do to the IOC.  Owns the PCI Express capability
 * (error reporting enables, Function Level Reset), PCI Power Management
 * (D0 and D3hot; D3hot to D0 resets the function, No_Soft_Reset is clear),
 * Advanced Error Reporting (so that QEMU's pcie_aer_inject_error reaches
 * the guest's error recovery) and the Device Serial Number.
 *
 * An FLR, a hot reset from the port above (its Secondary Bus Reset: what
 * the host's AER recovery does after a fatal error) and the return from
 * D3hot reset the IOC by the same path as any device reset (the class's
 * reset handler); after them the IOC reports Reset History in IOC Status,
 * as the card's firmware does after a reset the host driver did not start
 * through the system interface (mpi3mr's watchdog sees it and
 * re-initialises), and "ioc-resets" counts them.  A power-on (machine)
 * reset reports no history and starts the count again.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/pci/pcie.h"
#include "hw/pci/pcie_aer.h"
#include "hw/pci/pci_bridge.h"
#include "mr9600.h"
#include "trace.h"

#define MR9600_PM_CAP_OFFSET    0x50
#define MR9600_PCIE_CAP_OFFSET  0x80
#define MR9600_AER_CAP_OFFSET   0x100
#define MR9600_DSN_CAP_OFFSET   (MR9600_AER_CAP_OFFSET + PCI_ERR_SIZEOF)

static uint8_t mr9600_pm_state(PCIDevice *pci)
{
    return pci_get_word(pci->config + pci->pm_cap + PCI_PM_CTRL) &
           PCI_PM_CTRL_STATE_MASK;
}

static bool mr9600_pm_init(PCIDevice *pci, Error **errp)
{
    int pos = pci_pm_init(pci, MR9600_PM_CAP_OFFSET, errp);

    if (pos < 0) {
        return false;
    }
    /* D0 and D3hot only; no PME; the function resets on D3hot -> D0 */
    pci_set_word(pci->config + pos + PCI_PM_PMC, PCI_PM_CAP_VER_1_2);
    pci_set_word(pci->config + pos + PCI_PM_CTRL, 0);
    pci_set_word(pci->wmask + pos + PCI_PM_CTRL, PCI_PM_CTRL_STATE_MASK);
    return true;
}

bool mr9600_pcie_realize(MR9600State *s, Error **errp)
{
    PCIDevice *pci = PCI_DEVICE(s);

    if (!mr9600_pm_init(pci, errp)) {
        return false;
    }
    if (pcie_endpoint_cap_init(pci, MR9600_PCIE_CAP_OFFSET) < 0) {
        error_setg(errp, "megaraid-9600: cannot add the PCIe capability");
        return false;
    }
    pcie_cap_deverr_init(pci);
    pcie_cap_flr_init(pci);
    if (pcie_aer_init(pci, PCI_ERR_VER, MR9600_AER_CAP_OFFSET,
                      PCI_ERR_SIZEOF, errp) < 0) {
        return false;
    }
    pcie_dev_ser_num_init(pci, MR9600_DSN_CAP_OFFSET, s->dsn);
    return true;
}

void mr9600_pcie_exit(MR9600State *s)
{
    pcie_aer_exit(PCI_DEVICE(s));
}

bool mr9600_pcie_reset(MR9600State *s)
{
    PCIDevice *pci = PCI_DEVICE(s);
    PCIDevice *port = pci_bridge_get_device(pci_get_bus(pci));
    uint16_t devctl = pci_get_word(pci->config + pci->exp.exp_cap +
                                   PCI_EXP_DEVCTL);
    bool flr = devctl & PCI_EXP_DEVCTL_BCR_FLR;
    bool hot = port && (pci_get_word(port->config + PCI_BRIDGE_CONTROL) &
                        PCI_BRIDGE_CTL_BUS_RESET);
    bool pm = s->pm_reset;

    if (flr || hot || pm) {
        trace_megaraid_9600_function_reset(flr ? "FLR" :
                                           hot ? "hot reset" : "D3hot -> D0");
    }
    s->pm_reset = false;
    pcie_cap_deverr_reset(pci);
    return flr || hot || pm;
}

static void mr9600_config_write(PCIDevice *pci, uint32_t addr, uint32_t val,
                                int len)
{
    MR9600State *s = MEGARAID_9600(pci);
    uint8_t old = mr9600_pm_state(pci);
    uint8_t new;

    pci_default_write_config(pci, addr, val, len);
    pcie_aer_write_config(pci, addr, val, len);
    pcie_cap_flr_write_config(pci, addr, val, len);

    new = mr9600_pm_state(pci);
    if (new == old) {
        return;
    }
    trace_megaraid_9600_pm_state(old, new);
    if (old == 3 && new == 0) {
        /* No_Soft_Reset is clear: the function's state is lost */
        s->pm_reset = true;
        pci_device_reset(pci);
    }
}

void mr9600_pcie_class_init(ObjectClass *oc)
{
    PCI_DEVICE_CLASS(oc)->config_write = mr9600_config_write;
}
