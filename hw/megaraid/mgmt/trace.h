/* SPDX-License-Identifier: GPL-2.0-or-later */
/* megaraid-sim: the generated trace events of hw/megaraid/mgmt. */
#include "trace/trace-hw_megaraid_mgmt.h"
