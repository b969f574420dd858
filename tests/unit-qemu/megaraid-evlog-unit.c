/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: unit tests of the controller's event log (hw/megaraid/
 * evlog.c): adding and looking up entries, the ring wrapping around,
 * notifiers, the log kept on its drive across a close and reopen (a QEMU
 * restart), and every kind of damaged log refused with an error naming
 * the drive.  The drive is a raw file opened through the block layer.
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/main-loop.h"
#include "qobject/qdict.h"
#include "block/block.h"
#include "system/block-backend.h"
#include "hw/megaraid/evlog.h"

#define HDR     512
#define REC     128

static char *tmp_path(void)
{
    g_autofree char *dir = g_dir_make_tmp("mrevlog-XXXXXX", NULL);

    g_assert(dir);
    return g_build_filename(dir, "evlog", NULL);
}

/*
 * The log on the raw file @path through a BlockBackend; a missing file
 * is created as a blank drive the size of @entries entries.
 */
static BlockBackend *t_blk;

static MREvLog *t_open(const char *path, uint32_t entries, Error **errp)
{
    QDict *opts = qdict_new();
    MREvLog *log;

    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        int fd = open(path, O_RDWR | O_CREAT, 0644);

        g_assert_cmpint(fd, >=, 0);
        g_assert_cmpint(ftruncate(fd, mr_evlog_bytes(entries ? entries :
                                  MR_EVLOG_DEFAULT_ENTRIES)), ==, 0);
        close(fd);
    }
    g_assert_null(t_blk);
    qdict_put_str(opts, "driver", "file");
    t_blk = blk_new_open(path, NULL, opts, BDRV_O_RDWR, &error_abort);
    log = mr_evlog_open(t_blk, path, entries, errp);
    if (!log) {
        blk_unref(t_blk);
        t_blk = NULL;
    }
    return log;
}

static void t_close(MREvLog *log)
{
    mr_evlog_close(log);
    blk_unref(t_blk);
    t_blk = NULL;
}

static void rm_path(char *path)
{
    g_autofree char *dir = g_path_get_dirname(path);

    unlink(path);
    rmdir(dir);
    g_free(path);
}

static void test_add_lookup(void)
{
    MREvLog *log = mr_evlog_open(NULL, NULL, 0, &error_abort);
    MREvEntry e;
    uint32_t seq;

    g_assert_cmpuint(mr_evlog_capacity(log), ==, MR_EVLOG_DEFAULT_ENTRIES);
    g_assert_cmpuint(mr_evlog_newest(log), ==, 0);
    g_assert_cmpuint(mr_evlog_oldest(log), ==, 0);
    g_assert_false(mr_evlog_get(log, 0, &e));
    g_assert_false(mr_evlog_get(log, 1, &e));

    seq = mr_evlog_add(log, MR_EV_PD_FAILED, MR_EV_SEV_CRITICAL, 3, 7, 9,
                       "Drive %d failed: %s", 3, "I/O error");
    g_assert_cmpuint(seq, ==, 1);
    seq = mr_evlog_add(log, MR_EV_VD_STATE, MR_EV_SEV_WARNING, 0, 1, 2,
                       "VD 0 degraded");
    g_assert_cmpuint(seq, ==, 2);
    g_assert_cmpuint(mr_evlog_oldest(log), ==, 1);
    g_assert_cmpuint(mr_evlog_newest(log), ==, 2);
    g_assert_cmpuint(mr_evlog_count(log), ==, 2);
    g_assert_cmpuint(mr_evlog_boot_seq(log), ==, 1);

    g_assert_true(mr_evlog_get(log, 1, &e));
    g_assert_cmpuint(e.seq, ==, 1);
    g_assert_cmpuint(e.code, ==, MR_EV_PD_FAILED);
    g_assert_cmpuint(e.cls, ==, MR_EV_CLASS_DRIVE);
    g_assert_cmpuint(e.severity, ==, MR_EV_SEV_CRITICAL);
    g_assert_cmpint(e.target, ==, 3);
    g_assert_cmpuint(e.arg[0], ==, 7);
    g_assert_cmpuint(e.arg[1], ==, 9);
    g_assert_cmpstr(e.text, ==, "Drive 3 failed: I/O error");
    g_assert_cmpuint(e.time_ms, >, 1500000000000ULL);
    g_assert_true(mr_evlog_get(log, 2, &e));
    g_assert_cmpuint(e.cls, ==, MR_EV_CLASS_VD);
    g_assert_false(mr_evlog_get(log, 3, &e));

    g_assert_cmpstr(mr_evlog_code_name(MR_EV_JOB_PROGRESS), ==,
                    "job-progress");
    g_assert_cmpstr(mr_evlog_class_name(MR_EV_CLASS_CACHEVAULT), ==,
                    "cachevault");
    g_assert_cmpstr(mr_evlog_severity_name(MR_EV_SEV_FATAL), ==, "fatal");
    g_assert_cmpstr(mr_evlog_code_name(0x7777), ==, "unknown");
    mr_evlog_close(log);
}

static void test_long_text(void)
{
    MREvLog *log = mr_evlog_open(NULL, NULL, 16, &error_abort);
    char big[300];
    MREvEntry e;

    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = 0;
    mr_evlog_add(log, MR_EV_CFG_CHANGED, MR_EV_SEV_INFO, -1, 0, 0, "%s",
                 big);
    g_assert_true(mr_evlog_get(log, 1, &e));
    g_assert_cmpuint(strlen(e.text), ==, MR_EV_TEXT_LEN - 1);
    g_assert_cmpint(e.target, ==, -1);
    mr_evlog_close(log);
}

static void test_wrap(void)
{
    MREvLog *log = mr_evlog_open(NULL, NULL, 16, &error_abort);
    MREvEntry e;
    uint32_t i;

    for (i = 1; i <= 40; i++) {
        g_assert_cmpuint(mr_evlog_add(log, MR_EV_JOB_PROGRESS,
                                      MR_EV_SEV_INFO, 0, 1, i,
                                      "step %u", i), ==, i);
    }
    g_assert_cmpuint(mr_evlog_count(log), ==, 16);
    g_assert_cmpuint(mr_evlog_oldest(log), ==, 25);
    g_assert_cmpuint(mr_evlog_newest(log), ==, 40);
    g_assert_false(mr_evlog_get(log, 24, &e));
    g_assert_false(mr_evlog_get(log, 41, &e));
    for (i = 25; i <= 40; i++) {
        g_assert_true(mr_evlog_get(log, i, &e));
        g_assert_cmpuint(e.seq, ==, i);
        g_assert_cmpuint(e.arg[1], ==, i);
    }
    mr_evlog_close(log);
}

typedef struct Seen {
    Notifier n;
    unsigned calls;
    uint32_t last_seq;
    uint16_t last_code;
} Seen;

static void seen_notify(Notifier *n, void *data)
{
    Seen *s = container_of(n, Seen, n);
    const MREvEntry *e = data;

    s->calls++;
    s->last_seq = e->seq;
    s->last_code = e->code;
}

static void test_notifier(void)
{
    MREvLog *log = mr_evlog_open(NULL, NULL, 0, &error_abort);
    Seen s = { .n.notify = seen_notify };

    mr_evlog_add(log, MR_EV_CTRL_STARTED, MR_EV_SEV_INFO, -1, 0, 0, "a");
    mr_evlog_add_notifier(log, &s.n);
    mr_evlog_add(log, MR_EV_CV_STATE, MR_EV_SEV_WARNING, -1, 0, 1, "b");
    g_assert_cmpuint(s.calls, ==, 1);
    g_assert_cmpuint(s.last_seq, ==, 2);
    g_assert_cmpuint(s.last_code, ==, MR_EV_CV_STATE);
    mr_evlog_mark_clear(log);
    g_assert_cmpuint(s.calls, ==, 2);
    g_assert_cmpuint(s.last_code, ==, MR_EV_CTRL_LOG_CLEARED);
    g_assert_cmpuint(mr_evlog_clear_seq(log), ==, 2);
    mr_evlog_remove_notifier(&s.n);
    mr_evlog_add(log, MR_EV_CV_STATE, MR_EV_SEV_INFO, -1, 1, 0, "c");
    g_assert_cmpuint(s.calls, ==, 2);
    mr_evlog_close(log);
}

static void test_persist(void)
{
    char *path = tmp_path();
    MREvLog *log = t_open(path, 16, &error_abort);
    MREvEntry e;
    uint32_t i;

    mr_evlog_add(log, MR_EV_CTRL_STARTED, MR_EV_SEV_INFO, -1, 0, 0, "up");
    for (i = 0; i < 20; i++) {
        mr_evlog_add(log, MR_EV_PD_STATE, MR_EV_SEV_INFO, i, 1, 2,
                     "drive %u", i);
    }
    mr_evlog_mark_clear(log);
    mr_evlog_add(log, MR_EV_CTRL_SHUTDOWN, MR_EV_SEV_INFO, -1, 0, 0, "bye");
    g_assert_cmpuint(mr_evlog_newest(log), ==, 23);
    g_assert_cmpuint(mr_evlog_shutdown_seq(log), ==, 23);
    t_close(log);

    /* the restart: a larger ring asked for, the file's own size kept */
    log = t_open(path, 64, &error_abort);
    g_assert_cmpuint(mr_evlog_capacity(log), ==, 16);
    g_assert_cmpuint(mr_evlog_newest(log), ==, 23);
    g_assert_cmpuint(mr_evlog_oldest(log), ==, 8);
    g_assert_cmpuint(mr_evlog_clear_seq(log), ==, 21);
    g_assert_cmpuint(mr_evlog_shutdown_seq(log), ==, 23);
    g_assert_cmpuint(mr_evlog_boot_seq(log), ==, 0);
    g_assert_true(mr_evlog_get(log, 10, &e));
    g_assert_cmpstr(e.text, ==, "drive 8");
    g_assert_cmpint(e.target, ==, 8);
    g_assert_true(mr_evlog_get(log, 23, &e));
    g_assert_cmpuint(e.code, ==, MR_EV_CTRL_SHUTDOWN);
    g_assert_cmpuint(mr_evlog_add(log, MR_EV_CTRL_STARTED, MR_EV_SEV_INFO,
                                  -1, 0, 0, "up again"), ==, 24);
    g_assert_cmpuint(mr_evlog_boot_seq(log), ==, 24);
    t_close(log);

    log = t_open(path, 0, &error_abort);
    g_assert_cmpuint(mr_evlog_newest(log), ==, 24);
    g_assert_cmpuint(mr_evlog_oldest(log), ==, 9);
    t_close(log);
    rm_path(path);
}

/* Damage a good log with @damage, then expect an error containing @msg. */
static void check_refused(void (*damage)(int fd), const char *msg)
{
    char *path = tmp_path();
    MREvLog *log = t_open(path, 16, &error_abort);
    Error *err = NULL;
    int fd, i;

    for (i = 0; i < 5; i++) {
        mr_evlog_add(log, MR_EV_PD_INSERTED, MR_EV_SEV_INFO, i, 0, 0, "x");
    }
    t_close(log);
    fd = open(path, O_RDWR);
    g_assert_cmpint(fd, >=, 0);
    damage(fd);
    close(fd);
    g_assert_null(t_open(path, 16, &err));
    g_assert_nonnull(err);
    if (!strstr(error_get_pretty(err), msg) ||
        !strstr(error_get_pretty(err), path)) {
        g_test_message("error: %s", error_get_pretty(err));
        g_assert_not_reached();
    }
    error_free(err);
    rm_path(path);
}

static void put_byte(int fd, off_t off, uint8_t v)
{
    g_assert_cmpint(pwrite(fd, &v, 1, off), ==, 1);
}

static void dmg_magic(int fd)
{
    put_byte(fd, 0, 'X');
}

static void dmg_hdr_crc(int fd)
{
    put_byte(fd, 16, 17);       /* entries 16 -> 17 without a new CRC */
}

static void dmg_short_hdr(int fd)
{
    g_assert_cmpint(ftruncate(fd, 100), ==, 0);
}

static void dmg_truncated(int fd)
{
    g_assert_cmpint(ftruncate(fd, HDR + 3 * REC), ==, 0);
}

static void dmg_rec_text(int fd)
{
    put_byte(fd, HDR + 2 * REC + 40, 'Z');
}

static void dmg_rec_seq(int fd)
{
    /* slot 4 emptied: entries 1..3 and 5 left, 4 missing */
    static const uint8_t zero[REC];

    g_assert_cmpint(pwrite(fd, zero, REC, HDR + 3 * REC), ==, REC);
}

static void dmg_garbage(int fd)
{
    uint8_t junk[HDR];

    memset(junk, 0x5a, sizeof(junk));
    g_assert_cmpint(pwrite(fd, junk, sizeof(junk), 0), ==, sizeof(junk));
}

static void test_corrupt(void)
{
    check_refused(dmg_magic, "not a megaraid-sim event log (bad magic)");
    check_refused(dmg_garbage, "bad magic");
    check_refused(dmg_hdr_crc, "header checksum mismatch");
    /* a drive's size is whole sectors: 100 bytes read as 512 */
    check_refused(dmg_short_hdr, "has 512 bytes, fewer than its 16");
    check_refused(dmg_truncated, "fewer than its 16 entries need");
    check_refused(dmg_rec_text, "entry in slot 2: checksum mismatch");
    check_refused(dmg_rec_seq, "not contiguous");
}

/* A drive larger than the log keeps the rest unused; zeroes: a new log. */
static void test_drive_sizes(void)
{
    char *path = tmp_path();
    MREvLog *log;
    int fd;

    fd = open(path, O_RDWR | O_CREAT, 0644);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(ftruncate(fd, HDR + 100 * REC), ==, 0);
    close(fd);
    log = t_open(path, 16, &error_abort);
    g_assert_cmpuint(mr_evlog_capacity(log), ==, 16);
    mr_evlog_add(log, MR_EV_PD_INSERTED, MR_EV_SEV_INFO, 1, 0, 0, "in");
    t_close(log);
    log = t_open(path, 0, &error_abort);
    g_assert_cmpuint(mr_evlog_capacity(log), ==, 16);
    g_assert_cmpuint(mr_evlog_newest(log), ==, 1);
    t_close(log);
    rm_path(path);
}

static void test_bad_size(void)
{
    Error *err = NULL;

    g_assert_null(mr_evlog_open(NULL, NULL, 3, &err));
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(error_get_pretty(err), "out of range"));
    error_free(err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qemu_init_main_loop(&error_abort);
    bdrv_init();
    g_test_add_func("/megaraid/evlog/add-lookup", test_add_lookup);
    g_test_add_func("/megaraid/evlog/long-text", test_long_text);
    g_test_add_func("/megaraid/evlog/wrap", test_wrap);
    g_test_add_func("/megaraid/evlog/notifier", test_notifier);
    g_test_add_func("/megaraid/evlog/persist", test_persist);
    g_test_add_func("/megaraid/evlog/corrupt", test_corrupt);
    g_test_add_func("/megaraid/evlog/drive-sizes", test_drive_sizes);
    g_test_add_func("/megaraid/evlog/bad-size", test_bad_size);
    return g_test_run();
}
