/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: synchronous executor on image files (host tools and unit
 * tests): member I/O is pread/pwrite/fdatasync/punch-hole on one file
 * descriptor per member; host data is a flat buffer.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* fallocate */
#endif
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "raid/exec.h"

static uint8_t *host_ptr(RaidFileExec *fx, RaidIOBuf b)
{
    return b.ptr ? b.ptr : fx->host + b.host_off;
}

static int fx_fd(RaidFileExec *fx, uint32_t member)
{
    return member < fx->members ? fx->fd[member] : -1;
}

static int full_io(int fd, bool write, uint8_t *buf, size_t len, off_t off)
{
    while (len) {
        ssize_t n = write ? pwrite(fd, buf, len, off)
                          : pread(fd, buf, len, off);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return -errno;
        }
        if (n == 0) {
            if (write) {
                return -EIO;
            }
            memset(buf, 0, len);        /* sparse tail of a short file */
            return 0;
        }
        buf += n;
        len -= n;
        off += n;
    }
    return 0;
}

static void fx_rw(void *opaque, uint32_t member, uint64_t lba,
                  uint32_t sectors, RaidIOBuf b, RaidIOComplete *cb,
                  void *ctx, bool write)
{
    RaidFileExec *fx = opaque;
    int fd = fx_fd(fx, member);

    if (fd < 0) {
        cb(ctx, -EIO);
        return;
    }
    cb(ctx, full_io(fd, write, host_ptr(fx, b),
                    (size_t)sectors * RAID_SECTOR_SIZE,
                    (off_t)lba * RAID_SECTOR_SIZE));
}

static void fx_read(void *opaque, uint32_t member, uint64_t lba,
                    uint32_t sectors, RaidIOBuf b, RaidIOComplete *cb,
                    void *ctx)
{
    fx_rw(opaque, member, lba, sectors, b, cb, ctx, false);
}

static void fx_write(void *opaque, uint32_t member, uint64_t lba,
                     uint32_t sectors, RaidIOBuf b, RaidIOComplete *cb,
                     void *ctx)
{
    fx_rw(opaque, member, lba, sectors, b, cb, ctx, true);
}

static void fx_flush(void *opaque, uint32_t member, RaidIOComplete *cb,
                     void *ctx)
{
    RaidFileExec *fx = opaque;
    int fd = fx_fd(fx, member);

    if (fd < 0) {
        cb(ctx, -EIO);
        return;
    }
    cb(ctx, !fx->no_sync && fdatasync(fd) < 0 ? -errno : 0);
}

static void fx_discard(void *opaque, uint32_t member, uint64_t lba,
                       uint32_t sectors, RaidIOComplete *cb, void *ctx)
{
    RaidFileExec *fx = opaque;
    int fd = fx_fd(fx, member);
    off_t off = (off_t)lba * RAID_SECTOR_SIZE;
    size_t len = (size_t)sectors * RAID_SECTOR_SIZE;
    uint8_t *zero;
    int ret;

    if (fd < 0) {
        cb(ctx, -EIO);
        return;
    }
#ifdef FALLOC_FL_PUNCH_HOLE
    if (fx->punch_holes &&
        !fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len)) {
        cb(ctx, 0);
        return;
    }
#endif
    zero = g_malloc0(len);
    ret = full_io(fd, true, zero, len, off);
    g_free(zero);
    cb(ctx, ret);
}

static void fx_copy_from_host(void *opaque, uint64_t off, void *dst,
                              size_t len)
{
    RaidFileExec *fx = opaque;

    memcpy(dst, fx->host + off, len);
}

static void fx_copy_to_host(void *opaque, uint64_t off, const void *src,
                            size_t len)
{
    RaidFileExec *fx = opaque;

    memcpy(fx->host + off, src, len);
}

static void *fx_buf_alloc(void *opaque, size_t len)
{
    RaidFileExec *fx = opaque;

    return fx->pool ? raid_buf_pool_get(fx->pool, len) : raid_buf_alloc(len);
}

static void fx_buf_free(void *opaque, void *buf, size_t len)
{
    RaidFileExec *fx = opaque;

    if (fx->pool) {
        raid_buf_pool_put(fx->pool, buf, len);
    } else {
        raid_buf_free(buf);
    }
}

const RaidExecOps raid_file_exec_ops = {
    .read = fx_read,
    .write = fx_write,
    .flush = fx_flush,
    .discard = fx_discard,
    .copy_from_host = fx_copy_from_host,
    .copy_to_host = fx_copy_to_host,
    .buf_alloc = fx_buf_alloc,
    .buf_free = fx_buf_free,
};

RaidRunResult raid_file_exec_plan(RaidFileExec *fx, const RaidPlan *plan,
                                  void *data)
{
    fx->host = data;
    return raid_run_sync(plan, fx->impl, &raid_file_exec_ops, fx);
}

int raid_file_exec_request(RaidFileExec *fx, const RaidLayout *l,
                           const RaidMemberState *st, const RaidRequest *req,
                           RaidWriteMode mode, void *data)
{
    RaidPlan *plan = raid_plan_request(l, st, req, mode);
    RaidRunResult res = raid_file_exec_plan(fx, plan, data);

    raid_plan_free(plan);
    return res.ret;
}
