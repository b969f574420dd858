/* SPDX-License-Identifier: GPL-2.0-or-later */
/* megaraid-sim: the generated trace events of hw/megaraid/jobs. */
#include "trace/trace-hw_megaraid_jobs.h"
