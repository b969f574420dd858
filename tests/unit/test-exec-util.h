/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Helpers shared by the job and copyback tests: VD 0's members opened as
 * a file executor, and the whole VD read or written through it.
 */
#ifndef TEST_EXEC_UTIL_H
#define TEST_EXEC_UTIL_H

#include "test-ddf-util.h"
#include "raid/exec.h"

/* VD 0's members open in @fx (a missing or offline one: fd -1). */
static inline void test_exec_open(RaidConfig *cfg, RaidFileExec *fx)
{
    int pds[RAID_MAX_MEMBERS];
    int n = raid_vd_members(cfg, 0, pds, RAID_MAX_MEMBERS);

    memset(fx, 0, sizeof(*fx));
    fx->members = n;
    for (int i = 0; i < (int)RAID_MAX_MEMBERS; i++) {
        fx->fd[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        const RaidPd *p = &cfg->pds[pds[i]];
        if (p->present && p->path && p->state != RAID_PD_OFFLINE) {
            fx->fd[i] = open(p->path, O_RDWR);
            g_assert_cmpint(fx->fd[i], >=, 0);
        }
    }
}

static inline void test_exec_close(RaidFileExec *fx)
{
    for (uint32_t i = 0; i < fx->members; i++) {
        if (fx->fd[i] >= 0) {
            close(fx->fd[i]);
        }
    }
}

/* The whole of VD 0 read into or written from @data (the data path). */
static inline void test_vd_io(RaidConfig *cfg, RaidOp op, uint8_t *data)
{
    RaidLayout *l = g_new(RaidLayout, 1);
    RaidMemberState st[RAID_MAX_MEMBERS];
    RaidFileExec fx;
    RaidRequest req = { .op = op, .lba = 0, .sectors = cfg->vds[0].size };

    g_assert_true(raid_config_vd_layout(cfg, 0, l, NULL));
    raid_config_vd_member_states(cfg, 0, st);
    test_exec_open(cfg, &fx);
    g_assert_cmpint(raid_file_exec_request(&fx, l, st, &req, RAID_WRITE_AUTO,
                                           data), ==, 0);
    test_exec_close(&fx);
    g_free(l);
}

static inline void test_assert_vd_equals(RaidConfig *cfg, const uint8_t *ref)
{
    g_autofree uint8_t *got = g_malloc(cfg->vds[0].size * 512);

    test_vd_io(cfg, RAID_OP_READ, got);
    g_assert_true(memcmp(got, ref, cfg->vds[0].size * 512) == 0);
}

#endif
