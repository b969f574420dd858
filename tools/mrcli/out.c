/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the result document and its text and JSON renderings.  A
 * command's operation fills sections; nothing is printed before the
 * command is complete, so a failure half-way still prints one document
 * with "Status" = "Failure".
 */
#define _GNU_SOURCE     /* vasprintf */
#include "out.h"
#include "mrcli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Cell {
    char *s;
    bool num;
} Cell;

enum { SEC_PROPS, SEC_TABLE, SEC_VALUE, SEC_GROUP, SEC_LIST };

#define MAX_COLS     24
#define MAX_NOTES    16

struct MrSection {
    int kind;
    char *name;
    MrSection *parent;  /* a SEC_GROUP or SEC_LIST, or NULL at the top */
    int nitems;         /* SEC_LIST: items made so far */
    /* SEC_PROPS: keys[i] = cells[i]; SEC_TABLE: cols, rows of ncols. */
    int ncols;
    char *cols[MAX_COLS];
    Cell *cells;
    char **keys;
    int ncells;
    int cap;
};

struct MrOut {
    int ctrl;
    bool json;
    bool failed;
    int dialect;        /* MrDialect */
    bool no_ctrl;       /* no "Controller" in the command status */
    int errcd;          /* storcli's ErrCd of the failure */
    char *ok_desc;      /* Description on success (default "None") */
    char *desc;
    char *notes[MAX_NOTES];
    int nnotes;
    MrSection **sec;    /* grows: 5 sections per drive in the details */
    int cap;
    int nsec;
};

static char *xvasprintf(const char *fmt, va_list ap)
{
    char *s;

    if (vasprintf(&s, fmt, ap) < 0) {
        fputs("mrcli: out of memory\n", stderr);
        exit(3);
    }
    return s;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);

    if (!d) {
        fputs("mrcli: out of memory\n", stderr);
        exit(3);
    }
    return d;
}

MrOut *out_new(int ctrl, bool json)
{
    MrOut *o = calloc(1, sizeof(*o));

    if (!o) {
        fputs("mrcli: out of memory\n", stderr);
        exit(3);
    }
    o->ctrl = ctrl;
    o->json = json;
    return o;
}

void out_free(MrOut *o)
{
    for (int i = 0; i < o->nsec; i++) {
        MrSection *s = o->sec[i];

        for (int c = 0; c < s->ncells; c++) {
            free(s->cells[c].s);
            if (s->keys) {
                free(s->keys[c]);
            }
        }
        for (int c = 0; c < s->ncols; c++) {
            free(s->cols[c]);
        }
        free(s->cells);
        free(s->keys);
        free(s->name);
        free(s);
    }
    for (int i = 0; i < o->nnotes; i++) {
        free(o->notes[i]);
    }
    free(o->sec);
    free(o->desc);
    free(o->ok_desc);
    free(o);
}

void out_fail(MrOut *o, const char *fmt, ...)
{
    va_list ap;

    if (o->failed) {
        return;
    }
    o->failed = true;
    va_start(ap, fmt);
    free(o->desc);
    o->desc = xvasprintf(fmt, ap);
    va_end(ap);
}

bool out_failed(const MrOut *o)
{
    return o->failed;
}

const char *out_desc(const MrOut *o)
{
    return o->failed ? o->desc : NULL;
}

void out_note(MrOut *o, const char *fmt, ...)
{
    va_list ap;

    if (o->nnotes == MAX_NOTES) {
        return;
    }
    va_start(ap, fmt);
    o->notes[o->nnotes++] = xvasprintf(fmt, ap);
    va_end(ap);
}

static Cell *add_cell(MrSection *s)
{
    if (s->ncells == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->cells = realloc(s->cells, s->cap * sizeof(*s->cells));
        if (s->kind == SEC_PROPS) {
            s->keys = realloc(s->keys, s->cap * sizeof(*s->keys));
        }
        if (!s->cells || (s->kind == SEC_PROPS && !s->keys)) {
            fputs("mrcli: out of memory\n", stderr);
            exit(3);
        }
    }
    return &s->cells[s->ncells++];
}

static MrSection *section_in(MrOut *o, MrSection *parent, const char *name,
                             int kind)
{
    MrSection *s;

    for (int i = 0; i < o->nsec; i++) {
        if (o->sec[i]->kind == kind && o->sec[i]->parent == parent &&
            kind != SEC_VALUE && !strcmp(o->sec[i]->name, name)) {
            return o->sec[i];
        }
    }
    if (o->nsec == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 32;
        o->sec = realloc(o->sec, o->cap * sizeof(*o->sec));
        if (!o->sec) {
            fputs("mrcli: out of memory\n", stderr);
            exit(3);
        }
    }
    s = calloc(1, sizeof(*s));
    if (!s) {
        fputs("mrcli: out of memory\n", stderr);
        exit(3);
    }
    s->kind = kind;
    s->name = xstrdup(name);
    s->parent = parent;
    o->sec[o->nsec++] = s;
    return s;
}

static MrSection *section(MrOut *o, const char *name, int kind)
{
    return section_in(o, NULL, name, kind);
}

void out_set_dialect(MrOut *o, int dialect, bool no_ctrl)
{
    o->dialect = dialect;
    o->no_ctrl = no_ctrl;
}

void out_errcd(MrOut *o, int errcd)
{
    if (!o->errcd || errcd == MRCLI_ERRCD_NOCTRL) {
        o->errcd = errcd;
    }
}

MrSection *out_group(MrOut *o, MrSection *parent, const char *name)
{
    return section_in(o, parent, name, SEC_GROUP);
}

MrSection *out_list(MrOut *o, MrSection *parent, const char *name)
{
    return section_in(o, parent, name, SEC_LIST);
}

MrSection *out_list_item(MrOut *o, MrSection *list)
{
    char name[32];

    snprintf(name, sizeof(name), "#%d", list->nitems++);
    return section_in(o, list, name, SEC_GROUP);
}

void out_set_desc(MrOut *o, const char *desc)
{
    free(o->ok_desc);
    o->ok_desc = xstrdup(desc);
}

MrSection *out_props_in(MrOut *o, MrSection *parent, const char *name)
{
    return section_in(o, parent, name, SEC_PROPS);
}

MrSection *out_table_in(MrOut *o, MrSection *parent, const char *name,
                        const char *const *cols)
{
    MrSection *t = section_in(o, parent, name, SEC_TABLE);

    if (!t->ncols) {
        while (cols[t->ncols] && t->ncols < MAX_COLS) {
            t->cols[t->ncols] = xstrdup(cols[t->ncols]);
            t->ncols++;
        }
    }
    return t;
}

void out_num(MrOut *o, const char *key, long long v)
{
    MrSection *s = section(o, key, SEC_VALUE);
    Cell *c = add_cell(s);
    char buf[32];

    snprintf(buf, sizeof(buf), "%lld", v);
    c->s = xstrdup(buf);
    c->num = true;
}

void out_str(MrOut *o, const char *key, const char *fmt, ...)
{
    MrSection *s = section(o, key, SEC_VALUE);
    Cell *c = add_cell(s);
    va_list ap;

    va_start(ap, fmt);
    c->s = xvasprintf(fmt, ap);
    va_end(ap);
    c->num = false;
}

MrSection *out_props(MrOut *o, const char *name)
{
    return section(o, name, SEC_PROPS);
}

void sec_str(MrSection *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    Cell *c = add_cell(s);

    s->keys[s->ncells - 1] = xstrdup(key);
    va_start(ap, fmt);
    c->s = xvasprintf(fmt, ap);
    va_end(ap);
    c->num = false;
}

void sec_num(MrSection *s, const char *key, long long v)
{
    Cell *c = add_cell(s);
    char buf[32];

    s->keys[s->ncells - 1] = xstrdup(key);
    snprintf(buf, sizeof(buf), "%lld", v);
    c->s = xstrdup(buf);
    c->num = true;
}

MrSection *out_table(MrOut *o, const char *name, const char *const *cols)
{
    MrSection *t = section(o, name, SEC_TABLE);

    if (!t->ncols) {
        while (cols[t->ncols] && t->ncols < MAX_COLS) {
            t->cols[t->ncols] = xstrdup(cols[t->ncols]);
            t->ncols++;
        }
    }
    return t;
}

void row_new(MrSection *t)
{
    /* Pads an unfinished previous row so that rows stay aligned. */
    while (t->ncells % t->ncols) {
        Cell *c = add_cell(t);

        c->s = xstrdup("-");
        c->num = false;
    }
}

void row_str(MrSection *t, const char *fmt, ...)
{
    va_list ap;
    Cell *c = add_cell(t);

    va_start(ap, fmt);
    c->s = xvasprintf(fmt, ap);
    va_end(ap);
    c->num = false;
}

void row_num(MrSection *t, long long v)
{
    Cell *c = add_cell(t);
    char buf[32];

    snprintf(buf, sizeof(buf), "%lld", v);
    c->s = xstrdup(buf);
    c->num = true;
}

/* ---- JSON ---- */

static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", stdout);
            break;
        case '\\':
            fputs("\\\\", stdout);
            break;
        case '\n':
            fputs("\\n", stdout);
            break;
        case '\t':
            fputs("\\t", stdout);
            break;
        default:
            if (*p < 0x20 || *p >= 0x7f) {
                printf("\\u%04x", *p < 0x20 ? *p : '?');
            } else {
                putchar(*p);
            }
        }
    }
    putchar('"');
}

static void json_cell(const Cell *c)
{
    if (c->num) {
        fputs(c->s, stdout);
    } else {
        json_str(c->s);
    }
}

static bool storcli_style(const MrOut *o)
{
    return o->dialect != MR_DIALECT_MRCLI;
}

static const char *status_desc(const MrOut *o)
{
    if (!o->failed) {
        return o->ok_desc ? o->ok_desc : "None";
    }
    if (storcli_style(o) && o->errcd == MRCLI_ERRCD_NOCTRL) {
        static char buf[48];

        snprintf(buf, sizeof(buf), "Controller %d not found", o->ctrl);
        return buf;
    }
    if (storcli_style(o)) {
        return o->errcd == MRCLI_ERRCD_SYNTAX ? "Un-supported command" :
            "Failed";
    }
    return o->desc;
}

static void json_status(const MrOut *o)
{
    printf("\"Command Status\" : {\n");
    printf("\"CLI Version\" : ");
    json_str(dialect_cli_version(o->dialect));
    printf(",\n\"Operating system\" : ");
    json_str(mrcli_os_name());
    if (!o->no_ctrl && o->dialect == MR_DIALECT_V2 && !o->failed) {
        printf(",\n\"Controller\" : \"%d\"", o->ctrl);   /* storcli2 */
    } else if (!o->no_ctrl) {
        printf(",\n\"Controller\" : %d", o->ctrl);
    }
    printf(",\n\"Status\" : ");
    json_str(o->failed ? "Failure" : "Success");
    printf(",\n\"Description\" : ");
    json_str(status_desc(o));
    if (o->failed && storcli_style(o) && o->errcd != MRCLI_ERRCD_NOCTRL) {
        printf(",\n\"Detailed Status\" : [\n{\"Ctrl\" : %d, \"Status\" : "
               "\"Failed\", \"ErrCd\" : %d, \"ErrMsg\" : ", o->ctrl,
               o->errcd ? o->errcd : MRCLI_ERRCD_FAILED);
        json_str(o->desc);
        printf("}\n]");
    } else if (o->nnotes) {
        printf(",\n\"Detailed Status\" : [");
        for (int i = 0; i < o->nnotes; i++) {
            printf("%s\n{\"Info\" : ", i ? "," : "");
            json_str(o->notes[i]);
            putchar('}');
        }
        printf("\n]");
    }
    printf("\n}");
}

static void json_children(const MrOut *o, const MrSection *parent);

static void json_section(const MrOut *o, const MrSection *s)
{
    json_str(s->name);
    printf(" : ");
    if (s->kind == SEC_VALUE) {
        json_cell(&s->cells[0]);
        return;
    }
    if (s->kind == SEC_GROUP) {
        printf("{\n");
        json_children(o, s);
        putchar('}');
        return;
    }
    if (s->kind == SEC_LIST) {
        bool first = true;

        printf("[\n");
        for (int i = 0; i < o->nsec; i++) {
            if (o->sec[i]->parent == s) {
                printf("%s{\n", first ? "" : ",\n");
                json_children(o, o->sec[i]);
                putchar('}');
                first = false;
            }
        }
        printf("\n]");
        return;
    }
    if (s->kind == SEC_PROPS) {
        printf("{\n");
        for (int i = 0; i < s->ncells; i++) {
            json_str(s->keys[i]);
            printf(" : ");
            json_cell(&s->cells[i]);
            printf("%s\n", i + 1 < s->ncells ? "," : "");
        }
        putchar('}');
        return;
    }
    printf("[\n");
    for (int i = 0; i < s->ncells; i += s->ncols) {
        putchar('{');
        for (int c = 0; c < s->ncols && i + c < s->ncells; c++) {
            json_str(s->cols[c]);
            putchar(':');
            json_cell(&s->cells[i + c]);
            if (c + 1 < s->ncols && i + c + 1 < s->ncells) {
                putchar(',');
            }
        }
        printf("}%s\n", i + s->ncols < s->ncells ? "," : "");
    }
    putchar(']');
}

static void json_children(const MrOut *o, const MrSection *parent)
{
    bool first = true;

    for (int i = 0; i < o->nsec; i++) {
        const MrSection *s = o->sec[i];

        if (s->parent != parent) {
            continue;
        }
        if (s->kind == SEC_PROPS && s->name[0] == '#') {
            /* "#name": its keys stand directly in the parent object */
            for (int c = 0; c < s->ncells; c++) {
                printf("%s", first ? "" : ",\n");
                first = false;
                json_str(s->keys[c]);
                printf(" : ");
                json_cell(&s->cells[c]);
            }
            continue;
        }
        if (!first) {
            printf(",\n");
        }
        first = false;
        json_section(o, s);
    }
    if (!first) {
        putchar('\n');
    }
}

static void print_json_entry(const MrOut *o)
{
    printf("{\n");
    json_status(o);
    if (!o->failed || !storcli_style(o)) {
        printf(",\n\"Response Data\" : {\n");
        json_children(o, NULL);
        printf("}");
    }
    printf("\n}");
}

/* ---- text ---- */

static void rule(int width)
{
    for (int i = 0; i < width; i++) {
        putchar('-');
    }
    putchar('\n');
}

static void print_table(const MrSection *t)
{
    int w[MAX_COLS], total = 0;

    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->cols[c]);
    }
    for (int i = 0; i < t->ncells; i++) {
        int c = i % t->ncols, l = strlen(t->cells[i].s);

        if (l > w[c]) {
            w[c] = l;
        }
    }
    for (int c = 0; c < t->ncols; c++) {
        total += w[c] + (c + 1 < t->ncols);
    }
    rule(total);
    for (int c = 0; c < t->ncols; c++) {
        printf("%-*s%s", c + 1 < t->ncols ? w[c] : 0, t->cols[c],
               c + 1 < t->ncols ? " " : "\n");
    }
    rule(total);
    for (int i = 0; i < t->ncells; i++) {
        int c = i % t->ncols;
        bool last = c + 1 == t->ncols || i + 1 == t->ncells;

        printf("%-*s%s", last ? 0 : w[c], t->cells[i].s, last ? "\n" : " ");
    }
    rule(total);
}

static void text_children(const MrOut *o, const MrSection *parent)
{
    for (int i = 0; i < o->nsec; i++) {
        const MrSection *s = o->sec[i];
        int kw = 0;

        if (s->parent != parent) {
            continue;
        }
        if (parent && parent->kind == SEC_LIST) {
            text_children(o, s);    /* an item: its sections in turn */
            continue;
        }
        if (s->kind == SEC_VALUE) {
            printf("\n%s = %s\n", s->name, s->cells[0].s);
            continue;
        }
        if (s->kind == SEC_PROPS && s->name[0] == '#') {
            for (int c = 0; c < s->ncells; c++) {
                printf("%s = %s\n", s->keys[c], s->cells[c].s);
            }
            continue;
        }
        printf("\n\n%s :\n", s->name);
        for (size_t k = 0; k < strlen(s->name) + 1; k++) {
            putchar('=');
        }
        printf("\n\n");
        if (s->kind == SEC_GROUP || s->kind == SEC_LIST) {
            text_children(o, s);
            continue;
        }
        if (s->kind == SEC_TABLE) {
            print_table(s);
            continue;
        }
        if (!storcli_style(o)) {
            for (int c = 0; c < s->ncells; c++) {
                int l = strlen(s->keys[c]);

                kw = l > kw ? l : kw;
            }
        }
        for (int c = 0; c < s->ncells; c++) {
            printf("%-*s = %s\n", kw, s->keys[c], s->cells[c].s);
        }
    }
}

static void print_text(const MrOut *o)
{
    printf("CLI Version = %s\n", dialect_cli_version(o->dialect));
    printf("Operating system = %s\n", mrcli_os_name());
    if (!o->no_ctrl) {
        printf("Controller = %d\n", o->ctrl);
    }
    printf("Status = %s\n", o->failed ? "Failure" : "Success");
    printf("Description = %s\n", status_desc(o));
    if (o->failed && storcli_style(o) && o->errcd == MRCLI_ERRCD_NOCTRL) {
        putchar('\n');
        return;
    }
    if (o->failed && storcli_style(o)) {
        printf("\nDetailed Status :\n===============\n\n");
        printf("Ctrl Status ErrCd ErrMsg\n");
        printf("%-4d Failed %5d %s\n", o->ctrl,
               o->errcd ? o->errcd : MRCLI_ERRCD_FAILED, o->desc);
        putchar('\n');
        return;
    }
    for (int i = 0; i < o->nnotes; i++) {
        printf("Detailed Status = %s\n", o->notes[i]);
    }
    text_children(o, NULL);
    if (storcli_style(o)) {
        putchar('\n');
    }
}

int out_print_all(MrOut **o, int n)
{
    int rc = 0;

    if (n && o[0]->json) {
        printf("{\n\"Controllers\":[\n");
        for (int i = 0; i < n; i++) {
            print_json_entry(o[i]);
            printf("%s\n", i + 1 < n ? "," : "");
        }
        printf("]\n}\n");
    } else {
        for (int i = 0; i < n; i++) {
            print_text(o[i]);
        }
    }
    for (int i = 0; i < n; i++) {
        rc |= o[i]->failed;
    }
    fflush(stdout);
    return rc ? 1 : 0;
}

int out_print(MrOut *o)
{
    return out_print_all(&o, 1);
}
