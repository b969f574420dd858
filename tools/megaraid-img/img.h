/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-img: shared state of the subcommands (the set of drive images
 * given on the command line and the configuration read from them).
 */
#ifndef MEGARAID_IMG_H
#define MEGARAID_IMG_H

#include "raid/config.h"
#include "raid/ddf.h"
#include "raid/job.h"
#include "raid/raid.h"

/* Descriptors holding the images' locks while a command runs. */
typedef struct ImgGuard {
    int *fds;
    int n;
} ImgGuard;

typedef struct Img {
    ImgGuard guard;
    char **paths;               /* the drive images, in slot order */
    int n;
    RaidConfig *cfg;
    DdfDriveRead *reads;        /* what was found on each image */
    uint8_t ctrl_guid[RAID_GUID_LEN];
} Img;

/* Options every subcommand takes. */
extern char *opt_serial;

typedef int (*ImgCmd)(int argc, char **argv);

int cmd_create(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_fail(int argc, char **argv);
int cmd_replace(int argc, char **argv);
int cmd_spare(int argc, char **argv);
int cmd_rebuild(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_write(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_add_vd(int argc, char **argv);
int cmd_add_dg(int argc, char **argv);
int cmd_delete_vd(int argc, char **argv);
int cmd_readd(int argc, char **argv);
int cmd_online(int argc, char **argv);

#ifndef MEGARAID_IMG_VERSION
#define MEGARAID_IMG_VERSION "0"
#endif

/* Parse a subcommand's options; prints the error and returns false. */
bool img_parse(const char *cmd, const char *params, const char *summary,
               GOptionEntry *entries, int *argc, char ***argv);
/* Controller GUID of this tool's controller ("LSI     " + serial). */
void img_ctrl_guid(uint8_t guid[RAID_GUID_LEN]);
/* A new GUID: "LSI     " + 8-byte tag + timestamp + random. */
void img_make_guid(uint8_t guid[RAID_GUID_LEN], const char *tag);
bool img_parse_size(const char *s, uint64_t *bytes, GError **errp);

/*
 * Guard the images for a command that reads them (@write false: a running
 * QEMU may hold them too) or changes them (no one else may write): take
 * QEMU's image locks, refuse an image named twice (G_FILE_ERROR_EXIST) and
 * images of another format than raw (unless they hold DDF: a raw drive
 * whose data starts like one).  The locks stay until img_guard_close().
 */
bool img_guard_open(ImgGuard *g, char *const *paths, int n, bool write,
                    const char *cmd, GError **errp);
void img_guard_close(ImgGuard *g);
/* Refuse an image holding a file system, partition table, swap, LVM... */
bool img_guard_unused(const char *path, GError **errp);

/*
 * Guard the images (img_guard_open) and load the configuration from them.
 * A foreign configuration is refused unless @allow_foreign.  Images
 * without DDF are kept (not in the configuration) and reported by show.
 */
bool img_open(Img *img, const char *cmd, char **paths, int n, bool write,
              bool allow_foreign, GError **errp);
void img_close(Img *img);
/* PD index of image @path (listed on the command line), -1 if it has none. */
int img_pd_of_path(Img *img, const char *path, GError **errp);
/*
 * @path opened read-only, its size in *@bytes: the file descriptor, or
 * -1 with @errp naming the image.
 */
int img_open_sized(const char *path, uint64_t *bytes, GError **errp);
/* Add a listed image that has no DDF as an unconfigured-good drive. */
int img_add_blank(Img *img, const char *path, GError **errp);
/* Write the configuration to every present drive. */
bool img_save(Img *img, GError **errp);
/* First VD, or the VD given; -1 with a message. */
int img_vd(Img *img, int vd, GError **errp);
/* A file executor over the VD's members (absent ones: fd -1). */
bool img_exec_open(Img *img, int vd, bool write, RaidFileExec *fx,
                   GError **errp);
void img_exec_close(RaidFileExec *fx);

void img_error(const char *cmd, GError *err);

#endif
