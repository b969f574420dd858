/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim option ROM: the UEFI driver's entry point, Driver Binding
 * (Supported/Start/Stop on megaraid-9600, 1000:00A5, and megaraid-9500,
 * 1000:10E2, controllers) and Component Name 2.  Start maps the DMA area,
 * brings the IOC up through its personality (ioc.c, fusion.c), prints
 * one line naming what it offers, and installs the Extended SCSI Pass
 * Thru protocol; Stop and ExitBootServices give the IOC back in its reset
 * state, as the OS driver expects to find it.
 */
#include "mr-efi.h"

#define MR_PCI_VENDOR       0x1000
#define MR_DRIVER_VERSION   0x10

static EFI_GUID pass_thru_guid = EFI_EXT_SCSI_PASS_THRU_PROTOCOL_GUID;
static EFI_DRIVER_BINDING_PROTOCOL binding;
static const MR_OPS *const personalities[] = {
    &mr_mpi3_ops, &mr_fusion_ops,
};

/* ---- what both personalities use ---- */

UINT32 mr_rd32(MR_CTRL *c, UINT32 off)
{
    UINT32 v = 0xFFFFFFFF;

    c->pci->Mem.Read(c->pci, EfiPciIoWidthUint32, 0, off, 1, &v);
    return v;
}

void mr_wr32(MR_CTRL *c, UINT32 off, UINT32 v)
{
    c->pci->Mem.Write(c->pci, EfiPciIoWidthUint32, 0, off, 1, &v);
}

UINT8 *mr_dma(MR_CTRL *c, UINTN off)
{
    return (UINT8 *)c->dma_host + off;
}

UINT64 mr_bus(MR_CTRL *c, UINTN off)
{
    return c->dma_dev + off;
}

void mr_barrier(void)
{
    asm volatile("mfence" : : : "memory");
}

/* The key sequence that unlocks the host diagnostic register (both IOCs). */
void mr_diag_unlock(MR_CTRL *c, UINT32 write_seq_reg)
{
    static const UINT32 keys[] = { 0x0, 0xF, 0x4, 0xB, 0x2, 0x7, 0xD };

    for (UINTN i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        mr_wr32(c, write_seq_reg, keys[i]);
    }
}

/* How long the IOC may take to become ready, in microseconds. */
UINT64 mr_ready_us(MR_CTRL *c)
{
    return (UINT64)c->timeout_s * 1000000;
}

static const MR_OPS *personality(UINT16 device_id)
{
    for (UINTN i = 0; i < sizeof(personalities) / sizeof(personalities[0]);
         i++) {
        if (personalities[i]->device_id == device_id) {
            return personalities[i];
        }
    }
    return NULL;
}

/* The DMA area: one PciIo common buffer below 4 GiB, mapped once. */
static EFI_STATUS dma_alloc(MR_CTRL *c)
{
    UINTN need = c->ops->dma_size(c), bytes;
    EFI_STATUS st;

    c->dma_pages = EFI_SIZE_TO_PAGES(need);
    st = c->pci->AllocateBuffer(c->pci, AllocateAnyPages,
                                EfiBootServicesData, c->dma_pages,
                                &c->dma_host, 0);
    if (EFI_ERROR(st)) {
        c->dma_host = NULL;
        return st;
    }
    bytes = c->dma_pages * EFI_PAGE_SIZE;
    ZeroMem(c->dma_host, bytes);
    st = c->pci->Map(c->pci, EfiPciIoOperationBusMasterCommonBuffer,
                     c->dma_host, &bytes, &c->dma_dev, &c->dma_map);
    if (EFI_ERROR(st) || bytes < need) {
        if (!EFI_ERROR(st)) {
            c->pci->Unmap(c->pci, c->dma_map);
            st = EFI_OUT_OF_RESOURCES;
        }
        c->pci->FreeBuffer(c->pci, c->dma_pages, c->dma_host);
        c->dma_host = NULL;
        c->dma_map = NULL;
    }
    return st;
}

static void dma_free(MR_CTRL *c)
{
    if (c->dma_map) {
        c->pci->Unmap(c->pci, c->dma_map);
        c->dma_map = NULL;
    }
    if (c->dma_host) {
        c->pci->FreeBuffer(c->pci, c->dma_pages, c->dma_host);
        c->dma_host = NULL;
    }
}

/* One line for the console: what the controller offers. */
static CHAR16 *describe(MR_CTRL *c)
{
    static const CHAR16 *const state[] = {
        L"offline", L"partially degraded", L"degraded", L"optimal",
    };
    CHAR16 *line = PoolPrint(L"%s boot driver: %d disk(s)", c->ops->name,
                             c->ntargets);

    for (UINT32 i = 0; line && i < c->ntargets; i++) {
        const MR_TARGET *t = &c->targets[i];
        CHAR16 *more;

        if (t->vd) {
            more = PoolPrint(L"%s; target %d: VD RAID %d %s%s", line, i,
                             t->raid_level, state[t->vd_state & 3],
                             t->vd_state != MR_VD_OPTIMAL
                             ? L" (WARNING: not optimal)" : L"");
        } else {
            more = PoolPrint(L"%s; target %d: JBOD drive", line, i);
        }
        FreePool(line);
        line = more;
    }
    return line;
}

/* ---- Driver Binding ---- */

static EFI_STATUS EFIAPI supported(EFI_DRIVER_BINDING_PROTOCOL *This,
                                   EFI_HANDLE Controller,
                                   EFI_DEVICE_PATH_PROTOCOL *Remaining)
{
    EFI_PCI_IO_PROTOCOL *pci;
    UINT16 id[2];
    EFI_STATUS st;

    (void)Remaining;
    st = BS->OpenProtocol(Controller, &gEfiPciIoProtocolGuid, (VOID **)&pci,
                          This->DriverBindingHandle, Controller,
                          EFI_OPEN_PROTOCOL_BY_DRIVER);
    if (EFI_ERROR(st)) {
        return st;
    }
    st = pci->Pci.Read(pci, EfiPciIoWidthUint16, 0, 2, id);
    if (!EFI_ERROR(st) &&
        (id[0] != MR_PCI_VENDOR || !personality(id[1]))) {
        st = EFI_UNSUPPORTED;
    }
    BS->CloseProtocol(Controller, &gEfiPciIoProtocolGuid,
                      This->DriverBindingHandle, Controller);
    return st;
}

/* At ExitBootServices only register writes: the IOC back in RESET. */
static VOID EFIAPI on_exit_boot_services(EFI_EVENT Event, VOID *Context)
{
    MR_CTRL *c = Context;

    (void)Event;
    c->ops->reset(c);
}

static void release(MR_CTRL *c, EFI_DRIVER_BINDING_PROTOCOL *This)
{
    if (c->exit_event) {
        BS->CloseEvent(c->exit_event);
    }
    if (c->dma_host) {
        c->ops->reset(c);
    }
    dma_free(c);
    if (c->attributes_saved) {
        c->pci->Attributes(c->pci, EfiPciIoAttributeOperationSet,
                           c->saved_attributes, NULL);
    }
    BS->CloseProtocol(c->controller, &gEfiPciIoProtocolGuid,
                      This->DriverBindingHandle, c->controller);
    FreePool(c);
}

static EFI_STATUS EFIAPI start(EFI_DRIVER_BINDING_PROTOCOL *This,
                               EFI_HANDLE Controller,
                               EFI_DEVICE_PATH_PROTOCOL *Remaining)
{
    MR_CTRL *c;
    CHAR16 *line;
    UINT16 id[2];
    EFI_STATUS st;

    (void)Remaining;
    c = AllocateZeroPool(sizeof(*c));
    if (!c) {
        return EFI_OUT_OF_RESOURCES;
    }
    c->signature = MR_SIGNATURE;
    c->controller = Controller;
    st = BS->OpenProtocol(Controller, &gEfiPciIoProtocolGuid,
                          (VOID **)&c->pci, This->DriverBindingHandle,
                          Controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
    if (EFI_ERROR(st)) {
        FreePool(c);
        return st;
    }
    st = c->pci->Pci.Read(c->pci, EfiPciIoWidthUint16, 0, 2, id);
    c->ops = EFI_ERROR(st) ? NULL : personality(id[1]);
    if (!c->ops) {
        BS->CloseProtocol(Controller, &gEfiPciIoProtocolGuid,
                          This->DriverBindingHandle, Controller);
        FreePool(c);
        return EFI_UNSUPPORTED;
    }
    st = c->pci->Attributes(c->pci, EfiPciIoAttributeOperationGet, 0,
                            &c->saved_attributes);
    c->attributes_saved = !EFI_ERROR(st);
    if (!EFI_ERROR(st)) {
        st = c->pci->Attributes(c->pci, EfiPciIoAttributeOperationEnable,
                                EFI_PCI_IO_ATTRIBUTE_MEMORY |
                                EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, NULL);
    }
    if (!EFI_ERROR(st)) {
        st = dma_alloc(c);
    }
    if (!EFI_ERROR(st)) {
        st = c->ops->start(c);
    }
    if (!EFI_ERROR(st)) {
        st = c->ops->discover(c);
    }
    if (!EFI_ERROR(st)) {
        st = BS->CreateEvent(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_NOTIFY,
                             on_exit_boot_services, c, &c->exit_event);
    }
    if (!EFI_ERROR(st)) {
        mr_pass_thru_init(c);
        st = BS->InstallMultipleProtocolInterfaces(&c->controller,
                                                   &pass_thru_guid,
                                                   &c->pass_thru, NULL);
    }
    if (EFI_ERROR(st)) {
        Print(L"%s boot driver: controller not started (%r)\n",
              c->ops->name, st);
        release(c, This);
        return st;
    }
    line = describe(c);
    if (line) {
        Print(L"%s\n", line);
        FreePool(line);
    }
    return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI stop(EFI_DRIVER_BINDING_PROTOCOL *This,
                              EFI_HANDLE Controller, UINTN NumberOfChildren,
                              EFI_HANDLE *ChildHandleBuffer)
{
    EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt;
    MR_CTRL *c;
    EFI_STATUS st;

    (void)NumberOfChildren;
    (void)ChildHandleBuffer;
    st = BS->OpenProtocol(Controller, &pass_thru_guid, (VOID **)&pt,
                          This->DriverBindingHandle, Controller,
                          EFI_OPEN_PROTOCOL_GET_PROTOCOL);
    if (EFI_ERROR(st)) {
        return st;
    }
    c = MR_FROM_PASS_THRU(pt);
    if (c->signature != MR_SIGNATURE) {
        return EFI_DEVICE_ERROR;
    }
    st = BS->UninstallMultipleProtocolInterfaces(Controller, &pass_thru_guid,
                                                 &c->pass_thru, NULL);
    if (EFI_ERROR(st)) {
        return st;
    }
    release(c, This);
    return EFI_SUCCESS;
}

/* ---- Component Name 2 ---- */

static EFI_STATUS EFIAPI driver_name(EFI_COMPONENT_NAME2_PROTOCOL *This,
                                     CHAR8 *Language, CHAR16 **Name)
{
    (void)This;
    if (!Language || !Name) {
        return EFI_INVALID_PARAMETER;
    }
    if (Language[0] != 'e' || Language[1] != 'n') {
        return EFI_UNSUPPORTED;
    }
    *Name = L"MegaRAID 9600/9500 boot driver (megaraid-sim)";
    return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI controller_name(EFI_COMPONENT_NAME2_PROTOCOL *This,
                                         EFI_HANDLE Controller,
                                         EFI_HANDLE Child, CHAR8 *Language,
                                         CHAR16 **Name)
{
    (void)This;
    (void)Controller;
    (void)Child;
    (void)Language;
    (void)Name;
    return EFI_UNSUPPORTED;
}

static EFI_COMPONENT_NAME2_PROTOCOL component_name = {
    .GetDriverName = driver_name,
    .GetControllerName = controller_name,
    .SupportedLanguages = (CHAR8 *)"en",
};

/* Called by gnu-efi's start-up code (System V ABI: not EFIAPI). */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    InitializeLib(image, systab);
    binding.Supported = supported;
    binding.Start = start;
    binding.Stop = stop;
    binding.Version = MR_DRIVER_VERSION;
    binding.ImageHandle = image;
    binding.DriverBindingHandle = image;
    return BS->InstallMultipleProtocolInterfaces(
        &binding.DriverBindingHandle, &gEfiDriverBindingProtocolGuid,
        &binding, &gEfiComponentName2ProtocolGuid, &component_name, NULL);
}
