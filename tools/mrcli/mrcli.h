/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: a StorCLI2-like management CLI for the emulated MegaRAID 9600
 * controllers, run in the guest.  This header ties the parts together:
 * the parsed command line (object path, verbs, key=value words), the
 * session (controller, BSG node, output document), the management call
 * over the BSG transport, and the operation handlers.
 */
#ifndef MRCLI_H
#define MRCLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/megaraid/mgmt-proto.h"

#define MRCLI_VERSION "1.0 (megaraid-sim mrcli, protocol 1)"

/* Exit statuses. */
#define MRCLI_EXIT_OK       0
#define MRCLI_EXIT_FAILED   1   /* the controller refused or failed it */
#define MRCLI_EXIT_USAGE    2   /* the command line is wrong */
#define MRCLI_EXIT_IO       3   /* no controller, transport error */

/* ErrCd in storcli's failure document. */
#define MRCLI_ERRCD_FAILED  255 /* the controller refused or failed it */
#define MRCLI_ERRCD_SYNTAX  254 /* not a command of this dialect */
#define MRCLI_ERRCD_NOCTRL  (-1) /* no such controller: no entry at all */

typedef enum MrObjKind {
    OBJ_CTRL,       /* /cN */
    OBJ_VD,         /* /cN/vM, /cN/vall */
    OBJ_DG,         /* /cN/dM, /cN/dall */
    OBJ_PD,         /* /cN/eE/sS, /cN/eall/sall, /cN/eE/sall */
    OBJ_FOREIGN,    /* /cN/fall */
    OBJ_CV,         /* /cN/cv */
    OBJ_BBU,        /* /cN/bbu (the card has a CacheVault, no battery) */
} MrObjKind;

typedef struct MrObj {
    int ctrl;
    MrObjKind kind;
    bool all;       /* vall, dall, sall */
    int index;      /* VD, DG or slot number */
    int encl;       /* enclosure (0 = the drive bays; -1 = eall) */
} MrObj;

#define MRCLI_MAX_WORDS 32

typedef struct MrArgs {
    int n;
    char *w[MRCLI_MAX_WORDS];
    bool used[MRCLI_MAX_WORDS];
} MrArgs;

typedef struct MrOut MrOut;
typedef struct MrSection MrSection;

/* Which CLI this run speaks (dialect.c). */
typedef enum MrDialect {
    MR_DIALECT_MRCLI,   /* mrcli's own names; per controller like below */
    MR_DIALECT_V1,      /* storcli 007.x, as for megaraid_sas cards */
    MR_DIALECT_V2,      /* storcli2 008.x, as for mpi3mr cards */
} MrDialect;

/* The enclosure id storcli shows for the controller's direct bays. */
#define MRCLI_BAYS_EID 252
/* MrObj.ctrl of /cALL */
#define MRCLI_CTRL_ALL (-1)

typedef struct Mrcli {
    MrObj obj;
    MrArgs args;
    bool json;
    int fd;             /* BSG or ioctl node, -1 until opened */
    bool mfi;           /* megaraid_sas (mfi.c), not mpi3mr BSG */
    int host_no;        /* megaraid_sas: the SCSI host of the controller */
    int exit_status;    /* beyond out_failed(): usage or transport */
    MrOut *out;
    char pci[32];       /* "/SSSS:BB:DD.F/" once osdev.c asked */
    MrDialect name_dialect; /* from argv[0] */
    MrDialect dialect;  /* for this controller: V1 or V2 (never MRCLI) */
} Mrcli;

/* ---- dialect.c ---- */

/* The dialect the program name (argv[0]) asks for. */
MrDialect dialect_from_name(const char *argv0);
/* V1 or V2 for controller @ctrl under @name_dialect. */
MrDialect dialect_for_ctrl(MrDialect name_dialect, int ctrl);
/* The "CLI Version" string of a dialect. */
const char *dialect_cli_version(MrDialect d);
/* The enclosure id shown for the bays (0 for mrcli, else 252). */
int mrcli_eid(const Mrcli *m);
/* The program name the help and messages use. */
const char *dialect_prog(MrDialect d);

/* ---- parse.c ---- */

/* Parses "/c0/e0/s3" etc.; 0 or -1 with a message in err. */
int parse_object(const char *s, MrObj *obj, char *err, size_t errlen);
/* The word at position i (verbs first), case-insensitively equal to w. */
bool arg_is(Mrcli *m, int i, const char *w);
/* A flag word anywhere after the verbs; marks it used. */
bool arg_flag(Mrcli *m, const char *w);
/* The value of key=value (case-insensitive key), or NULL; marks it used. */
const char *arg_kv(Mrcli *m, const char *key);
/* Marks the first n words (the verbs) used. */
void arg_use(Mrcli *m, int n);
/* Fails the command if a word was not used; returns false then. */
bool args_all_used(Mrcli *m);
/* Number parsers: false (and a failure in the output) if not a number. */
bool parse_uint(Mrcli *m, const char *what, const char *s,
                unsigned long long max, unsigned long long *v);
/* "100", "100MB", "10GB", "1TB" (binary units, MB default) -> sectors. */
bool parse_size(Mrcli *m, const char *s, uint64_t *sectors);
/*
 * A fixed-size text field of a reply (@len bytes, maybe without NUL) in
 * @dst (@len + 1 bytes): unprintable bytes as '?', trailing blanks cut.
 */
void text_field(char *dst, const char *src, size_t len);
/* "0:0-7", "0:1,0:3,5" -> slots; false on an error (reported). */
bool parse_drives(Mrcli *m, const char *s, uint16_t *slots, int max, int *n);
/* A usage error: the document fails and the exit status is 2. */
void usage_error(Mrcli *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- mgmt.c ---- */

/*
 * One management request.  On MGMT_STAT_OK copies at most data_max bytes
 * of reply data into data (if not NULL), sets *data_len (if not NULL) and
 * returns 0.  Otherwise fails the document with a message naming the
 * operation and the status, and returns -1 (*status, if not NULL, gets
 * the MGMT_STAT_* or -1 for a transport error).
 */
int mgmt_call(Mrcli *m, uint32_t op, uint32_t mb0, uint32_t mb1,
              uint32_t mb2, uint32_t mb3, const void *dout, size_t dout_len,
              void *data, size_t data_max, size_t *data_len, int *status);
/*
 * Reads every page of a list opcode starting at @first; returns a malloc'd
 * array of *count entries of entry_size bytes each (entries the device
 * sends longer are cut, shorter ones refused), or NULL with the document
 * failed.  max (0: no limit) bounds the number of entries.
 */
void *mgmt_list(Mrcli *m, uint32_t op, uint32_t first, uint32_t max,
                size_t entry_size, uint32_t *count, uint32_t *total);
const char *mgmt_status_name(int status);
/* Short names of the enumerations, StorCLI-style. */
const char *pd_state_abbr(int s);
const char *pd_state_name(int s);
const char *vd_state_abbr(int s);
const char *vd_state_name(int s);
const char *level_name(int level);
const char *iface_name(int i);
const char *media_name(int m);
const char *job_name(int j);
/* "1.000 GB" etc. from a byte count; buf of at least 32 bytes. */
const char *size_str(uint64_t bytes, char *buf);
/* The VD name (16 bytes, maybe unterminated) as a string. */
const char *vd_name(const MgmtVdEntry *e, char *buf);
const char *cache_str(const MgmtVdEntry *e, char *buf);

/* ---- ops-*.c: handlers, one per command; each fills m->out ---- */
void emit_vd_table(Mrcli *m, const char *name, const MgmtVdEntry *v,
                   uint32_t n);
void emit_pd_table(Mrcli *m, const char *name, const MgmtPdEntry *p,
                   uint32_t n);
/* "In progress"/"Paused" and a time left, StorCLI-style. */
void emit_job_row(Mrcli *m, MrSection *t, const char *what,
                  const MgmtJobStatus *j, int want);
const char *eta_str(uint32_t eta_s, char *buf);
/*
 * A progress table row's last cells: Progress%, Status, Estimated Time
 * Left; @status NULL: "Not in progress".
 */
void row_progress(MrSection *t, const char *status, uint32_t percent,
                  uint32_t eta_s);
/* A job's Status cell: "Paused", "In progress" or "Waiting". */
const char *job_status_name(const MgmtJobStatus *j);
void op_ctrl_show(Mrcli *m, bool all);
void op_ctrl_show_props(Mrcli *m);
void op_ctrl_set(Mrcli *m);
void op_ctrl_events(Mrcli *m);
void op_vd_add(Mrcli *m);
void op_vd_show(Mrcli *m, bool all);
void op_vd_delete(Mrcli *m);
void op_vd_job(Mrcli *m, int action, int job);
void op_vd_job_show(Mrcli *m, int job);
void op_dg_show(Mrcli *m);
void op_pd_show(Mrcli *m, bool all);
void op_pd_set(Mrcli *m);
void op_pd_spare(Mrcli *m, bool add);
void op_pd_rebuild_show(Mrcli *m);
void op_pd_rebuild(Mrcli *m, int action);
void op_foreign(Mrcli *m, int what);   /* 0 show, 1 import, 2 delete */
void op_cv_show(Mrcli *m);
/* ops-patrol.c: the patrolread commands of /c0; false: not one */
bool op_patrol(Mrcli *m);

/* storcli.c: the storcli commands; false if none matches. */
bool storcli_dispatch(Mrcli *m);
/* "storcli show [all]": the System Overview of controllers 0..n-1. */
void storcli_overview(MrOut *o, MrDialect d, int n, bool all);

/* osdev.c: /dev/sdX of the exposed device with this MPI3 handle. */
bool os_drive_name(Mrcli *m, uint16_t handle, bool vd, char *buf,
                   size_t len);

/* main.c */
const char *mrcli_os_name(void);

#endif
