/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: which CLI a run speaks.  Called as storcli, storcli64, perccli or
 * perccli64 it speaks storcli v1 (007.x, the CLI of megaraid_sas cards);
 * as storcli2 or perccli2 it speaks storcli2 (008.x, mpi3mr cards); as
 * mrcli it keeps its own help and picks v1 for a megaraid_sas controller
 * (megaraid-9500) and v2 for an mpi3mr one (megaraid-9600).
 */
#include "mrcli.h"
#include "mfi.h"

#include <string.h>
#include <strings.h>

MrDialect dialect_from_name(const char *argv0)
{
    static const char *const v1[] = {
        "storcli", "storcli64", "perccli", "perccli64",
    };
    static const char *const v2[] = { "storcli2", "perccli2" };
    const char *base = argv0 ? strrchr(argv0, '/') : NULL;

    base = base ? base + 1 : (argv0 ? argv0 : "");
    for (size_t i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
        if (!strcasecmp(base, v1[i])) {
            return MR_DIALECT_V1;
        }
    }
    for (size_t i = 0; i < sizeof(v2) / sizeof(v2[0]); i++) {
        if (!strcasecmp(base, v2[i])) {
            return MR_DIALECT_V2;
        }
    }
    return MR_DIALECT_MRCLI;
}

MrDialect dialect_for_ctrl(MrDialect name_dialect, int ctrl)
{
    if (name_dialect != MR_DIALECT_MRCLI) {
        return name_dialect;
    }
    /* /cN counts the mpi3mr controllers first (mgmt.c) */
    return ctrl < mrcli_mpi3mr_count() ? MR_DIALECT_V2 : MR_DIALECT_V1;
}

const char *dialect_cli_version(MrDialect d)
{
    switch (d) {
    case MR_DIALECT_V1:
        return "007.2900.0000.0000 megaraid-sim mrcli";
    case MR_DIALECT_V2:
        return "008.0900.0000.0000 megaraid-sim mrcli";
    default:
        return MRCLI_VERSION;
    }
}

int mrcli_eid(const Mrcli *m)
{
    return m->name_dialect == MR_DIALECT_MRCLI ? 0 : MRCLI_BAYS_EID;
}

const char *dialect_prog(MrDialect d)
{
    switch (d) {
    case MR_DIALECT_V1:
        return "storcli";
    case MR_DIALECT_V2:
        return "storcli2";
    default:
        return "mrcli";
    }
}
