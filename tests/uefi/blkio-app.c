/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: a UEFI application for the option ROM's boot test.  Booted
 * by the firmware from the EFI system partition of a VD, it finds the whole
 * disk it was loaded from (the Block I/O handle below its partition's), and
 * through Block I/O:
 *   - reads the host's nonce from LBA 101 ("MRSIM-IN <nonce>");
 *   - writes "MRSIM-OUT <nonce>" to LBA 100 and a 1 MiB pattern derived
 *     from the nonce at PATTERN_LBA in one call (larger than one request
 *     of the controller's driver, so the disk driver must split it);
 *   - flushes, reads both back and compares;
 * then prints "MRSIM-TOKEN <nonce> PASS" (or "... FAIL <why>") and powers
 * the machine off.  The host test checks the line and the VD's contents.
 */
#include <efi.h>
#include <efilib.h>

#define IN_LBA          101
#define OUT_LBA         100
#define PATTERN_LBA     20480           /* 10 MiB: past the ESP */
#define PATTERN_BYTES   (1024 * 1024)

static EFI_GUID blkio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;

/* Is @prefix (without its end node) the start of @path? */
static BOOLEAN path_prefix(EFI_DEVICE_PATH *prefix, EFI_DEVICE_PATH *path)
{
    UINTN n = DevicePathSize(prefix) - sizeof(EFI_DEVICE_PATH);

    return n <= DevicePathSize(path) && CompareMem(prefix, path, n) == 0;
}

/* The whole disk's Block I/O whose device path leads to @part. */
static EFI_BLOCK_IO *whole_disk(EFI_HANDLE part)
{
    EFI_DEVICE_PATH *ppath = DevicePathFromHandle(part);
    EFI_HANDLE *handles;
    UINTN n;
    EFI_BLOCK_IO *found = NULL;

    if (!ppath || EFI_ERROR(LibLocateHandle(ByProtocol, &blkio_guid, NULL,
                                            &n, &handles))) {
        return NULL;
    }
    for (UINTN i = 0; i < n && !found; i++) {
        EFI_DEVICE_PATH *dpath = DevicePathFromHandle(handles[i]);
        EFI_BLOCK_IO *b;

        if (!dpath || handles[i] == part ||
            EFI_ERROR(BS->HandleProtocol(handles[i], &blkio_guid,
                                         (VOID **)&b))) {
            continue;
        }
        if (!b->Media->LogicalPartition && path_prefix(dpath, ppath)) {
            found = b;
        }
    }
    FreePool(handles);
    return found;
}

static UINT8 pattern_byte(UINTN i, UINT32 nonce)
{
    return (UINT8)((i * 131 + (i >> 9) * 7 + nonce) & 0xFF);
}

static const CHAR16 *run(EFI_BLOCK_IO *b, UINT32 *nonce)
{
    UINT32 bs = b->Media->BlockSize;
    UINT32 mid = b->Media->MediaId;
    UINT8 *sec, *big, *back;
    CHAR8 digits[10];

    if (bs != 512) {
        return L"block size is not 512";
    }
    sec = AllocateZeroPool(bs);
    big = AllocatePool(PATTERN_BYTES);
    back = AllocatePool(PATTERN_BYTES);
    if (!sec || !big || !back) {
        return L"out of memory";
    }
    if (EFI_ERROR(b->ReadBlocks(b, mid, IN_LBA, bs, sec))) {
        return L"read of the nonce failed";
    }
    if (CompareMem(sec, "MRSIM-IN ", 9) != 0) {
        return L"no nonce at LBA 101";
    }
    CopyMem(digits, sec + 9, sizeof(digits));
    *nonce = 0;
    for (UINTN i = 0; i < sizeof(digits); i++) {
        if (digits[i] < '0' || digits[i] > '9') {
            return L"the nonce is not ten digits";
        }
        *nonce = *nonce * 10 + (digits[i] - '0');
    }
    ZeroMem(sec, bs);
    CopyMem(sec, "MRSIM-OUT ", 10);
    CopyMem(sec + 10, digits, sizeof(digits));
    for (UINTN i = 0; i < PATTERN_BYTES; i++) {
        big[i] = pattern_byte(i, *nonce);
    }
    if (EFI_ERROR(b->WriteBlocks(b, mid, OUT_LBA, bs, sec)) ||
        EFI_ERROR(b->WriteBlocks(b, mid, PATTERN_LBA, PATTERN_BYTES, big))) {
        return L"write failed";
    }
    if (EFI_ERROR(b->FlushBlocks(b))) {
        return L"flush failed";
    }
    if (EFI_ERROR(b->ReadBlocks(b, mid, PATTERN_LBA, PATTERN_BYTES, back))) {
        return L"read back failed";
    }
    if (CompareMem(big, back, PATTERN_BYTES) != 0) {
        return L"pattern read back differs";
    }
    if (EFI_ERROR(b->ReadBlocks(b, mid, OUT_LBA, bs, back)) ||
        CompareMem(back, sec, bs) != 0) {
        return L"token read back differs";
    }
    return NULL;
}

/* Called by gnu-efi's start-up code (System V ABI: not EFIAPI). */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    EFI_LOADED_IMAGE *li;
    EFI_BLOCK_IO *b = NULL;
    const CHAR16 *why;
    UINT32 nonce = 0;

    InitializeLib(image, systab);
    if (!EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol,
                                      (VOID **)&li))) {
        b = whole_disk(li->DeviceHandle);
    }
    why = b ? run(b, &nonce) : L"no whole-disk Block I/O below the ESP";
    if (why) {
        Print(L"MRSIM-TOKEN %d FAIL %s\n", nonce, why);
    } else {
        Print(L"MRSIM-TOKEN %d PASS\n", nonce);
    }
    RT->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
    return EFI_SUCCESS;
}
