/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: umbrella header for the data path (geometry, parity, plans,
 * execution).
 */
#ifndef RAID_RAID_H
#define RAID_RAID_H

#include "raid/geometry.h"
#include "raid/parity.h"
#include "raid/plan.h"
#include "raid/exec.h"

#endif
