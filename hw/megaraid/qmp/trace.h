/* SPDX-License-Identifier: GPL-2.0-or-later */
/* megaraid-sim: the generated trace events of hw/megaraid/qmp. */
#include "trace/trace-hw_megaraid_qmp.h"
