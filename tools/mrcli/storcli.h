/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: what storcli.c (v1 documents) and storcli2.c (storcli2's) share:
 * the controller's state read once for "/cx show all" and a drive's text
 * fields.
 */
#ifndef MRCLI_STORCLI_H
#define MRCLI_STORCLI_H

#include "mrcli.h"

typedef struct StorcliCtrl {
    MgmtCtrlInfo ci;
    MgmtCtrlProps cp;
    MgmtCvStatus cv;
    MgmtVdEntry *vds;
    uint32_t nvd;
    MgmtPdEntry *pds;
    uint32_t npd;
    char (*pd_model)[49];       /* per drive */
    uint32_t *pd_pred;          /* per drive: predictive failures */
    char product[33], serial[33], fw[33];
    const char *driver;         /* megaraid_sas or mpi3mr */
    char driver_version[64];
    char levels[160];           /* "RAID0, RAID1, ..." */
    char time1[32];             /* v1: 12/03/2026, 10:43:26 */
    char time2[32];             /* v2: 2026/12/03 10:43:26 */
} StorcliCtrl;

typedef struct StorcliPdText {
    char vendor[17], model[49], serial[33], fw[17];
} StorcliPdText;

/* The columns of storcli's "Controller Properties" tables. */
extern const char *const storcli_ctrl_prop_cols[];
const char *storcli_link_speed(int iface);
/* show|start|stop|suspend|resume patrolread (storcli-patrol.c) */
bool storcli_patrol(Mrcli *m);
/*
 * storcli-copyback.c: show|start|stop|pause|resume copyback of a drive,
 * set wrcache=|rdcache= of a VD
 */
bool storcli_copyback(Mrcli *m);
bool storcli_vd_set(Mrcli *m);
/* "E:S" of @key=@arg: the slot in the drive bays, or -1 (usage error) */
long storcli_drive_ref(Mrcli *m, const char *key, const char *arg);
/* insert dg= array= row=, replace replacedrive= (storcli-insert.c) */
bool storcli_insert_replace(Mrcli *m);
void storcli2_ctrl_show_all(Mrcli *m, const StorcliCtrl *c);
/* a member's span and row in its group (-1: unknown); the TOPOLOGY cell */
void storcli_pd_place(Mrcli *m, const MgmtPdEntry *p, int *arr, int *row);
void storcli_row_place(MrSection *t, int v);
/* One drive's row in storcli2's drive table @name. */
void storcli2_pd_table(Mrcli *m, const char *name, const MgmtPdEntry *p,
                       const char *model);
void storcli2_pd_detail(Mrcli *m, MrSection *list, const MgmtPdInfo *pi,
                        const StorcliPdText *tx);

#endif
