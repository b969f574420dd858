/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim option ROM: the UEFI driver's entry point, Driver Binding
 * (Supported/Start/Stop on megaraid-9600 controllers, 1000:00A5) and
 * Component Name 2.  Start brings the IOC up, prints one line naming what
 * it offers, and installs the Extended SCSI Pass Thru protocol; Stop and
 * ExitBootServices give the IOC back in RESET, as the OS driver expects.
 */
#include "mr-efi.h"

#define MR_PCI_VENDOR       0x1000
#define MR_PCI_DEVICE       0x00A5
#define MR_DRIVER_VERSION   0x10

static EFI_GUID pass_thru_guid = EFI_EXT_SCSI_PASS_THRU_PROTOCOL_GUID;
static EFI_DRIVER_BINDING_PROTOCOL binding;

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
        (id[0] != MR_PCI_VENDOR || id[1] != MR_PCI_DEVICE)) {
        st = EFI_UNSUPPORTED;
    }
    BS->CloseProtocol(Controller, &gEfiPciIoProtocolGuid,
                      This->DriverBindingHandle, Controller);
    return st;
}

/* At ExitBootServices only register writes: the IOC back in RESET. */
static VOID EFIAPI on_exit_boot_services(EFI_EVENT Event, VOID *Context)
{
    (void)Event;
    mr_ioc_reset_regs(Context);
}

static void release(MR_CTRL *c, EFI_DRIVER_BINDING_PROTOCOL *This)
{
    if (c->exit_event) {
        BS->CloseEvent(c->exit_event);
    }
    mr_ioc_stop(c);
    mr_ioc_dma_free(c);
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
    st = c->pci->Attributes(c->pci, EfiPciIoAttributeOperationGet, 0,
                            &c->saved_attributes);
    c->attributes_saved = !EFI_ERROR(st);
    if (!EFI_ERROR(st)) {
        st = c->pci->Attributes(c->pci, EfiPciIoAttributeOperationEnable,
                                EFI_PCI_IO_ATTRIBUTE_MEMORY |
                                EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, NULL);
    }
    if (!EFI_ERROR(st)) {
        st = mr_ioc_dma_alloc(c);
    }
    if (!EFI_ERROR(st)) {
        st = mr_ioc_start(c);
    }
    if (!EFI_ERROR(st)) {
        st = mr_ioc_discover(c);
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
        Print(L"MegaRAID 9600 (MPI3) boot driver: controller not started "
              L"(%r)\n", st);
        release(c, This);
        return st;
    }
    line = mr_ioc_describe(c);
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
    *Name = L"MegaRAID 9600 (MPI3) boot driver (megaraid-sim)";
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
