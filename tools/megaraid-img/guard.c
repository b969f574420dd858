/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img: the guards that keep the tool off images it must not
 * touch.  It takes the image locks QEMU takes (so it refuses the drives of
 * a running VM, and a VM cannot start on images it is writing), refuses
 * images in a format other than raw and one image named twice, and tells
 * 'create' which images hold a file system or a partition table.
 */
#define _GNU_SOURCE     /* F_OFD_SETLK, F_OFD_GETLK */

#include "img.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERR(errp, ...) \
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, __VA_ARGS__)

/*
 * QEMU's image locks (file-posix), as they are seen from outside: for
 * each permission bit i, a process that uses the permission holds a
 * shared lock on byte 100 + i, and a process that forbids others to use
 * it holds a shared lock on byte 200 + i.  The locks are open file
 * description locks, so they belong to the descriptor the guard keeps
 * open until the command ends, not to the process.
 */
#define LOCK_USE_BYTE   100
#define LOCK_DENY_BYTE  200

enum {
    PERM_READ,              /* consistent read */
    PERM_WRITE,
    PERM_WRITE_UNCHANGED,
    PERM_RESIZE,
    PERM_COUNT
};

static const char *const perm_name[PERM_COUNT] = {
    "consistent read", "write", "write unchanged", "resize",
};

/* What a command uses and what it forbids, as bit masks of PERM_*. */
#define BIT(p) (1u << (p))
#define WRITER_USES     (BIT(PERM_READ) | BIT(PERM_WRITE))
#define WRITER_DENIES   (BIT(PERM_WRITE) | BIT(PERM_RESIZE))
#define READER_USES     BIT(PERM_READ)
#define READER_DENIES   0u

static int ofd_fcntl(int fd, int cmd, short type, off_t byte,
                     struct flock *fl)
{
    *fl = (struct flock) {
        .l_type = type,
        .l_whence = SEEK_SET,
        .l_start = byte,
        .l_len = 1,
    };
    return fcntl(fd, cmd, fl);
}

/* Take a shared lock on one byte; false with errno when it is refused. */
static bool lock_byte(int fd, off_t byte)
{
    struct flock fl;
    int r;

    do {
        r = ofd_fcntl(fd, F_OFD_SETLK, F_RDLCK, byte, &fl);
    } while (r < 0 && errno == EINTR);
    return r == 0;
}

/*
 * Does another open file description hold a lock on @byte?  -1 with errno
 * when the question cannot be asked.
 */
static int byte_held(int fd, off_t byte)
{
    struct flock fl;

    if (ofd_fcntl(fd, F_OFD_GETLK, F_WRLCK, byte, &fl) < 0) {
        return -1;
    }
    return fl.l_type != F_UNLCK;
}

static void in_use_error(const char *path, bool shared, int perm,
                         GError **errp)
{
    ERR(errp, "%s: Failed to get %s\"%s\" lock: is another process using "
        "the image?  A running QEMU holds its drives' images: stop it "
        "first ('show' and 'read' work beside it)", path,
        shared ? "shared " : "", perm_name[perm]);
}

static bool lock_image(int fd, const char *path, bool write, bool *busy,
                       GError **errp)
{
    unsigned uses = write ? WRITER_USES : READER_USES;
    unsigned denies = write ? WRITER_DENIES : READER_DENIES;
    int held;

    /* Announce first, then look: two late-comers both back off. */
    for (int p = 0; p < PERM_COUNT; p++) {
        if (((uses & BIT(p)) && !lock_byte(fd, LOCK_USE_BYTE + p)) ||
            ((denies & BIT(p)) && !lock_byte(fd, LOCK_DENY_BYTE + p))) {
            if (errno == EAGAIN || errno == EACCES) {
                in_use_error(path, false, p, errp);
            } else {
                ERR(errp, "%s: cannot lock the image: %s", path,
                    g_strerror(errno));
            }
            return false;
        }
    }
    for (int p = 0; p < PERM_COUNT; p++) {
        bool shared = false;

        held = 0;
        if (uses & BIT(p)) {
            held = byte_held(fd, LOCK_DENY_BYTE + p);
        }
        if (!held && (denies & BIT(p))) {
            /* someone uses what this command cannot share */
            held = byte_held(fd, LOCK_USE_BYTE + p);
            shared = true;
        }
        if (held < 0) {
            ERR(errp, "%s: cannot test the image's locks: %s", path,
                g_strerror(errno));
            return false;
        }
        if (held) {
            in_use_error(path, shared, p, errp);
            return false;
        }
    }
    held = byte_held(fd, LOCK_USE_BYTE + PERM_WRITE);
    *busy = held > 0;
    return true;
}

/* Read @len bytes at @off; short reads past the end leave zeroes. */
static void read_at(int fd, uint64_t off, void *buf, size_t len)
{
    size_t done = 0;

    memset(buf, 0, len);
    while (done < len) {
        ssize_t r = pread(fd, (char *)buf + done, len - done, off + done);

        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        done += r;
    }
}

static uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

#define HAS(buf, off, str) (!memcmp((buf) + (off), str, sizeof(str) - 1))

/*
 * The image format whose header starts the file (or, for a few, ends it),
 * or NULL for none: the formats QEMU would find by probing.
 */
static const char *image_format(int fd, uint64_t bytes)
{
    uint8_t h[512], t[512];

    read_at(fd, 0, h, sizeof(h));
    read_at(fd, bytes >= 512 ? bytes - 512 : 0, t, sizeof(t));
    if (HAS(h, 0, "QFI\xfb")) {
        return be32(h + 4) == 1 ? "qcow" : "qcow2";
    }
    if (HAS(h, 0, "QED\0")) {
        return "qed";
    }
    if (HAS(h, 0, "KDMV") || HAS(h, 0, "COWD") ||
        HAS(h, 0, "# Disk DescriptorFile")) {
        return "vmdk";
    }
    if (le32(h + 64) == 0xbeda107f) {
        return "vdi";
    }
    if (HAS(h, 0, "vhdxfile")) {
        return "vhdx";
    }
    if (HAS(h, 0, "conectix") || HAS(t, 0, "conectix")) {
        return "vpc (VHD)";
    }
    if (HAS(h, 0, "WithoutFreeSpace") || HAS(h, 0, "WithouFreSpacExt")) {
        return "parallels";
    }
    if (HAS(h, 0, "Bochs Virtual HD Image")) {
        return "bochs";
    }
    if (HAS(t, 0, "koly")) {
        return "dmg";
    }
    return NULL;
}

static bool holds_ddf(int fd, uint64_t bytes)
{
    DdfDriveRead r = { 0 };

    if (bytes < 64 * 512 || !ddf_read_drive(fd, bytes, &r, NULL)) {
        return false;
    }
    ddf_drive_read_clear(&r);
    return true;
}

bool img_guard_open(ImgGuard *g, char *const *paths, int n, bool write,
                    const char *cmd, GError **errp)
{
    g_autofree struct stat *st = g_new0(struct stat, n);

    g->n = 0;
    g->fds = g_new(int, n);
    for (int i = 0; i < n; i++) {
        const char *fmt;
        uint64_t bytes;
        bool busy;
        int fd = open(paths[i], O_RDONLY | O_CLOEXEC);

        if (fd < 0) {
            ERR(errp, "%s: cannot open: %s", paths[i], g_strerror(errno));
            goto fail;
        }
        g->fds[g->n++] = fd;
        if (fstat(fd, &st[i]) < 0) {
            ERR(errp, "%s: cannot stat: %s", paths[i], g_strerror(errno));
            goto fail;
        }
        for (int j = 0; j < i; j++) {
            if (st[j].st_dev == st[i].st_dev && st[j].st_ino == st[i].st_ino &&
                (S_ISREG(st[i].st_mode) || S_ISBLK(st[i].st_mode))) {
                g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                            "%s and %s are the same image (given twice)",
                            paths[j], paths[i]);
                goto fail;
            }
        }
        if (!lock_image(fd, paths[i], write, &busy, errp)) {
            goto fail;
        }
        if (busy && !write) {
            fprintf(stderr, "megaraid-img %s: note: %s is open for writing "
                    "by another process (a running QEMU?); what is read may "
                    "change under it\n", cmd, paths[i]);
        }
        if (!ddf_file_size(fd, &bytes, errp)) {
            g_prefix_error(errp, "%s: ", paths[i]);
            goto fail;
        }
        fmt = image_format(fd, bytes);
        if (fmt && !holds_ddf(fd, bytes)) {
            ERR(errp, "%s: is a %s image, not a raw drive image; megaraid-img "
                "works on raw images only (convert it with 'qemu-img convert "
                "-O raw', or export it with qemu-storage-daemon or qemu-nbd "
                "and use the NBD device)", paths[i], fmt);
            goto fail;
        }
    }
    return true;

fail:
    img_guard_close(g);
    return false;
}

void img_guard_close(ImgGuard *g)
{
    for (int i = 0; i < g->n; i++) {
        close(g->fds[i]);
    }
    g_free(g->fds);
    g->fds = NULL;
    g->n = 0;
}

/* mdraid's superblock magic, little-endian on disk. */
#define MD_MAGIC 0xa92b4efcu

static bool md_magic_at(int fd, uint64_t off)
{
    uint8_t b[4];

    read_at(fd, off, b, sizeof(b));
    return le32(b) == MD_MAGIC;
}

/* What the image holds that a new array would destroy, or NULL. */
static const char *data_signature(int fd, uint64_t bytes)
{
    static const uint32_t pages[] = { 4096, 8192, 16384, 65536 };
    g_autofree uint8_t *h = g_malloc(0x10100);
    uint64_t sectors = bytes / 512;

    read_at(fd, 0, h, 0x10100);
    if (h[1080] == 0x53 && h[1081] == 0xef) {
        return "an ext2/ext3/ext4 file system";
    }
    if (HAS(h, 0, "XFSB")) {
        return "an XFS file system";
    }
    if (HAS(h, 0x10040, "_BHRfS_M")) {
        return "a Btrfs file system";
    }
    for (size_t i = 0; i < G_N_ELEMENTS(pages); i++) {
        uint8_t s[10];

        read_at(fd, pages[i] - 10, s, sizeof(s));
        if (HAS(s, 0, "SWAPSPACE2") || HAS(s, 0, "SWAP-SPACE")) {
            return "a Linux swap area";
        }
    }
    for (int i = 0; i < 4; i++) {
        if (HAS(h, 512 * i, "LABELONE") && HAS(h, 512 * i + 24, "LVM2")) {
            return "an LVM2 physical volume";
        }
    }
    if (HAS(h, 0, "LUKS\xba\xbe")) {
        return "a LUKS encrypted volume";
    }
    if (md_magic_at(fd, 0) || md_magic_at(fd, 4096) ||
        (bytes >= 0x20000 &&
         md_magic_at(fd, (bytes & ~(uint64_t)0xffff) - 0x10000)) ||
        (sectors > 16 && md_magic_at(fd, ((sectors - 16) & ~7ull) * 512))) {
        return "an mdraid superblock";
    }
    if (HAS(h, 3, "NTFS    ")) {
        return "an NTFS file system";
    }
    if (HAS(h, 0x8001, "CD001")) {
        return "an ISO 9660 file system";
    }
    if (HAS(h, 512, "EFI PART") || HAS(h, 4096, "EFI PART")) {
        return "a GPT partition table";
    }
    if (h[510] == 0x55 && h[511] == 0xaa) {
        return HAS(h, 54, "FAT") || HAS(h, 82, "FAT32") ?
               "a FAT file system" : "an MBR partition table or boot sector";
    }
    return NULL;
}

bool img_guard_unused(const char *path, GError **errp)
{
    const char *what;
    uint64_t bytes;
    int fd = img_open_sized(path, &bytes, errp);

    if (fd < 0) {
        return false;
    }
    what = data_signature(fd, bytes);
    close(fd);
    if (what) {
        ERR(errp, "%s: holds %s; creating an array would destroy it (use "
            "--force to overwrite)", path, what);
        return false;
    }
    return true;
}
