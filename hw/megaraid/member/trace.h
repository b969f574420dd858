/* SPDX-License-Identifier: GPL-2.0-or-later */
/* megaraid-sim: the generated trace events of hw/megaraid/member. */
#include "trace/trace-hw_megaraid_member.h"
