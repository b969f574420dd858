/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RAID core: plan-building helpers shared by the request and job planners. */
#ifndef RAID_PLAN_INT_H
#define RAID_PLAN_INT_H

#include "raid/plan.h"

RaidPlan *raid_plan_new(RaidOp op);
/* New scratch buffer of `sectors`; returns its id. */
uint32_t raid_plan_buf(RaidPlan *p, uint32_t sectors);
RaidStep *raid_plan_step(RaidPlan *p, RaidStepKind kind, unsigned phase);
/*
 * Member I/O into/from a scratch buffer (buf != 0) or the host buffer
 * (buf == RAID_BUF_HOST, off = host byte offset); merges with the
 * previous step when both are contiguous.
 */
void raid_plan_io(RaidPlan *p, RaidStepKind kind, unsigned phase,
                  uint32_t member, uint64_t lba, uint32_t sectors,
                  uint32_t buf, uint64_t off);
uint32_t raid_plan_group(RaidPlan *p, const RaidPlanGroup *g);
RaidPlan *raid_plan_fail(RaidPlan *p, int err);

static inline bool raid_member_writable(const RaidMemberState *s)
{
    return s->status != RAID_MEMBER_MISSING;
}

/* Member m readable for member-relative sectors [off, off + len)? */
static inline bool raid_st_readable(const RaidMemberState *st, uint32_t m,
                                    uint64_t off, uint64_t len)
{
    return raid_member_readable(&st[m], off, len);
}

#endif
