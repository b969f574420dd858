/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: the command line.  StorCLI2's object paths (/c0, /c0/v1,
 * /c0/vall, /c0/dall, /c0/e0/s3, /c0/eall/sall, /c0/fall, /c0/cv), the
 * verb words that follow, key=value words, flag words, and the values in
 * them (numbers, sizes, drive lists).  Every word must be used by the
 * command, so a typo is an error, never silently ignored.
 */
#include "mrcli.h"
#include "out.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Reads decimal digits at *p (at least one) into *v and advances *p;
 * false if there is no digit or the value exceeds max.
 */
static bool dec(const char **p, unsigned long long max,
                unsigned long long *v)
{
    const char *s = *p;

    *v = 0;
    if (!isdigit((unsigned char)*s)) {
        return false;
    }
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = *s - '0';

        if (*v > (max - d) / 10) {
            return false;
        }
        *v = *v * 10 + d;
    }
    *p = s;
    return true;
}

void usage_error(Mrcli *m, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    out_fail(m->out, "%s", msg);
    out_errcd(m->out, MRCLI_ERRCD_SYNTAX);
    if (m->exit_status == MRCLI_EXIT_OK) {
        m->exit_status = MRCLI_EXIT_USAGE;
    }
}

/* "all" or a decimal number after a one-letter prefix. */
static int obj_part(const char *p, size_t len, char prefix, bool *all,
                    int *num)
{
    const char *end;
    unsigned long long v;

    if (!len || tolower((unsigned char)p[0]) != prefix) {
        return -1;
    }
    p++;
    len--;
    if (len == 3 && !strncasecmp(p, "all", 3)) {
        *all = true;
        return 0;
    }
    end = p;
    if (!len || !dec(&end, 65535, &v) || end != p + len) {
        return -1;
    }
    *all = false;
    *num = v;
    return 0;
}

int parse_object(const char *s, MrObj *obj, char *err, size_t errlen)
{
    const char *part[4];
    size_t plen[4];
    int n = 0;
    bool all = false;
    int num = 0;

    memset(obj, 0, sizeof(*obj));
    if (s[0] != '/') {
        snprintf(err, errlen, "'%s' is not an object (expected /c0, /c0/v1, "
                 "/c0/vall, /c0/dall, /c0/e0/s3, /c0/eall/sall, /c0/fall, "
                 "/c0/cv)", s);
        return -1;
    }
    for (const char *p = s; *p == '/'; ) {
        const char *q = strchr(p + 1, '/');
        size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);

        if (n == 4 || !len) {
            goto bad;
        }
        part[n] = p + 1;
        plen[n++] = len;
        if (!q) {
            break;
        }
        p = q;
    }
    if (obj_part(part[0], plen[0], 'c', &all, &num)) {
        goto bad;
    }
    obj->ctrl = all ? MRCLI_CTRL_ALL : num;
    obj->kind = OBJ_CTRL;
    obj->encl = 0;
    if (n == 1) {
        return 0;
    }
    if (n == 2 && plen[1] == 2 && !strncasecmp(part[1], "cv", 2)) {
        obj->kind = OBJ_CV;
        return 0;
    }
    if (n == 2 && plen[1] == 3 && !strncasecmp(part[1], "bbu", 3)) {
        obj->kind = OBJ_BBU;
        return 0;
    }
    if (n == 2 && plen[1] == 4 && !strncasecmp(part[1], "fall", 4)) {
        obj->kind = OBJ_FOREIGN;
        obj->all = true;
        return 0;
    }
    if (n == 2 && !obj_part(part[1], plen[1], 'v', &all, &num)) {
        obj->kind = OBJ_VD;
        obj->all = all;
        obj->index = num;
        return 0;
    }
    if (n == 2 && !obj_part(part[1], plen[1], 'd', &all, &num)) {
        obj->kind = OBJ_DG;
        obj->all = all;
        obj->index = num;
        return 0;
    }
    if (n == 2 && !obj_part(part[1], plen[1], 's', &all, &num)) {
        /* /c0/s3 and /c0/sall: drives of the bays, as StorCLI allows */
        obj->kind = OBJ_PD;
        obj->all = all;
        obj->index = num;
        return 0;
    }
    if (n == 3 && !obj_part(part[1], plen[1], 'e', &all, &num)) {
        obj->encl = all ? -1 : num;
        if (obj->encl == MRCLI_BAYS_EID) {
            obj->encl = 0;      /* storcli's id of the direct bays */
        }
        if (obj->encl > 0) {
            snprintf(err, errlen, "enclosure %d does not exist (the drive "
                     "bays are enclosure %d, also called 0)", obj->encl,
                     MRCLI_BAYS_EID);
            return -1;
        }
        if (obj_part(part[2], plen[2], 's', &all, &num)) {
            goto bad;
        }
        if (obj->encl < 0 && !all) {
            goto bad;
        }
        obj->kind = OBJ_PD;
        obj->all = all;
        obj->index = num;
        return 0;
    }
bad:
    snprintf(err, errlen, "invalid object '%s' (expected /c0, /c0/v1, "
             "/c0/vall, /c0/dall, /c0/e0/s3, /c0/eall/sall, /c0/fall, "
             "/c0/cv)", s);
    return -1;
}

bool arg_is(Mrcli *m, int i, const char *w)
{
    return i < m->args.n && !strcasecmp(m->args.w[i], w);
}

void arg_use(Mrcli *m, int n)
{
    for (int i = 0; i < n && i < m->args.n; i++) {
        m->args.used[i] = true;
    }
}

bool arg_flag(Mrcli *m, const char *w)
{
    for (int i = 0; i < m->args.n; i++) {
        if (!m->args.used[i] && !strcasecmp(m->args.w[i], w)) {
            m->args.used[i] = true;
            return true;
        }
    }
    return false;
}

const char *arg_kv(Mrcli *m, const char *key)
{
    size_t kl = strlen(key);

    for (int i = 0; i < m->args.n; i++) {
        const char *w = m->args.w[i];

        if (!m->args.used[i] && !strncasecmp(w, key, kl) && w[kl] == '=') {
            m->args.used[i] = true;
            return w + kl + 1;
        }
    }
    return NULL;
}

bool args_all_used(Mrcli *m)
{
    for (int i = 0; i < m->args.n; i++) {
        if (!m->args.used[i]) {
            usage_error(m, "unexpected word '%s' in this command",
                        m->args.w[i]);
            return false;
        }
    }
    return true;
}

bool parse_uint(Mrcli *m, const char *what, const char *s,
                unsigned long long max, unsigned long long *v)
{
    const char *end = s;

    if (!s || !dec(&end, max, v) || *end) {
        goto bad;
    }
    return true;
bad:
    usage_error(m, "%s: '%s' is not a number from 0 to %llu", what,
                s ? s : "", max);
    return false;
}

bool parse_size(Mrcli *m, const char *s, uint64_t *sectors)
{
    static const struct {
        const char *suffix;
        int shift;
    } units[] = {
        { "", 20 }, { "m", 20 }, { "mb", 20 }, { "mib", 20 },
        { "g", 30 }, { "gb", 30 }, { "gib", 30 },
        { "t", 40 }, { "tb", 40 }, { "tib", 40 },
        { "k", 10 }, { "kb", 10 }, { "kib", 10 },
    };
    const char *end = s;
    unsigned long long v;

    if (!strcasecmp(s, "all")) {
        *sectors = 0;
        return true;
    }
    if (!dec(&end, UINT64_MAX, &v) || v == 0) {
        goto bad;
    }
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (!strcasecmp(end, units[i].suffix)) {
            if (v > (UINT64_MAX >> units[i].shift)) {
                goto bad;
            }
            v <<= units[i].shift;
            if (v % 512) {
                goto bad;
            }
            *sectors = v / 512;
            return true;
        }
    }
bad:
    usage_error(m, "size: '%s' is not a size (e.g. 512MB, 2GB, 1TB, all)",
                s);
    return false;
}

bool parse_drives(Mrcli *m, const char *s, uint16_t *slots, int max, int *n)
{
    char buf[256], *save = NULL, *item;
    long long encl = -1;

    *n = 0;
    if (strlen(s) >= sizeof(buf) || !*s) {
        goto bad;
    }
    strcpy(buf, s);
    for (item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        const char *colon = strchr(item, ':'), *p = item;
        unsigned long long lo, hi, e;

        if (colon) {
            if (!dec(&p, 65535, &e) || p != colon) {
                goto bad;
            }
            encl = e == MRCLI_BAYS_EID ? 0 : e;
            p = colon + 1;
        } else if (encl < 0) {
            goto bad;           /* the first item names its enclosure */
        }
        if (encl != 0) {
            usage_error(m, "drives=%s: enclosure %lld does not exist (the "
                        "drive bays are enclosure %d, also called 0)", s,
                        encl, MRCLI_BAYS_EID);
            return false;
        }
        if (!dec(&p, 0xfffe, &lo)) {
            goto bad;
        }
        hi = lo;
        if (*p == '-') {
            p++;
            if (!dec(&p, 0xfffe, &hi)) {
                goto bad;
            }
        }
        if (*p || lo > hi) {
            goto bad;
        }
        for (unsigned long long sl = lo; sl <= hi; sl++) {
            for (int i = 0; i < *n; i++) {
                if (slots[i] == sl) {
                    usage_error(m, "drives=%s names slot %llu twice", s, sl);
                    return false;
                }
            }
            if (*n == max) {
                usage_error(m, "drives=%s: more than %d drives", s, max);
                return false;
            }
            slots[(*n)++] = sl;
        }
    }
    if (*n) {
        return true;
    }
bad:
    usage_error(m, "drives=%s: expected enclosure:slot list, e.g. "
                "drives=0:0-7 or drives=0:1,0:3,5", s);
    return false;
}

void text_field(char *dst, const char *src, size_t len)
{
    size_t n = 0;

    while (n < len && src[n]) {
        dst[n] = (src[n] >= 0x20 && src[n] < 0x7f) ? src[n] : '?';
        n++;
    }
    while (n && dst[n - 1] == ' ') {
        n--;
    }
    dst[n] = 0;
}
