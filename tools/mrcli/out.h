/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the result of one command as a small document (command status,
 * then named sections that are either key = value lists or tables), and
 * its two renderings: StorCLI2-like text tables and, with the trailing
 * "J", JSON shaped like StorCLI2's
 *   {"Controllers":[{"Command Status":{...},"Response Data":{...}}]}.
 */
#ifndef MRCLI_OUT_H
#define MRCLI_OUT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct MrOut MrOut;
typedef struct MrSection MrSection;

MrOut *out_new(int ctrl, bool json);
void out_free(MrOut *o);

/* Marks the command failed with this description (first call wins). */
void out_fail(MrOut *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
bool out_failed(const MrOut *o);
/* The failure's description (NULL if the command succeeded). */
const char *out_desc(const MrOut *o);
/* Adds a line to the command status's "Detailed Status". */
void out_note(MrOut *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A key = value section (reused if a section of that name exists). */
MrSection *out_props(MrOut *o, const char *name);
void sec_str(MrSection *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sec_num(MrSection *s, const char *key, long long v);

/* A table with the given column names (NULL-terminated list). */
MrSection *out_table(MrOut *o, const char *name, const char *const *cols);
/* Starts a row; cells are then added left to right. */
void row_new(MrSection *t);
void row_str(MrSection *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void row_num(MrSection *t, long long v);

/* Prints the document; returns the exit status (0, or 1 if failed). */
int out_print(MrOut *o);
/* One document with an entry per controller (/cALL); 1 if any failed. */
int out_print_all(MrOut **o, int n);

/*
 * The dialect (MrDialect) the status and layout follow, and whether the
 * command status names a controller (not for "show ctrlcount" etc.).
 */
void out_set_dialect(MrOut *o, int dialect, bool no_ctrl);
/* storcli's ErrCd of the failure (MRCLI_ERRCD_*); first call wins. */
void out_errcd(MrOut *o, int errcd);
/* A top-level value: "Physical Drives" : 4. */
void out_num(MrOut *o, const char *key, long long v);
void out_str(MrOut *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A named object holding sections (parent NULL: at the top). */
MrSection *out_group(MrOut *o, MrSection *parent, const char *name);
MrSection *out_props_in(MrOut *o, MrSection *parent, const char *name);
/* A named array of objects, and a new (unnamed) object at its end. */
MrSection *out_list(MrOut *o, MrSection *parent, const char *name);
MrSection *out_list_item(MrOut *o, MrSection *list);
/* The Description of a successful command (default "None"). */
void out_set_desc(MrOut *o, const char *desc);
MrSection *out_table_in(MrOut *o, MrSection *parent, const char *name,
                        const char *const *cols);

#endif
