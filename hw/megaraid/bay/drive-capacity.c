/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * megaraid-sim: megaraid-drive's modelled-capacity property.  Drive makers
 * count in powers of ten (the 6.4 TB of a Micron 7450 MAX is 6.4 x 10^12
 * bytes), QEMU's size suffixes in powers of two; so this property takes a
 * byte count, or a number with an explicit unit: KB MB GB TB PB (10^3 ..
 * 10^15) or KiB MiB GiB TiB PiB (2^10 .. 2^50).  A bare K M G T P is
 * refused with both readings: it is the one spelling that means one thing
 * to QEMU and another on the drive's label.  Reads back the bytes set, or
 * once realized the capacity the timing model uses by default.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qapi/visitor-impl.h"
#include "qobject/qnum.h"
#include "qobject/qstring.h"
#include "hw/qdev-properties.h"
#include "raid/timing.h"
#include "drive-int.h"

static const struct {
    const char *suffix;
    uint64_t unit;
} mr_cap_units[] = {
    { "", 1 }, { "B", 1 },
    { "KB", 1000ULL }, { "MB", 1000ULL * 1000 },
    { "GB", 1000ULL * 1000 * 1000 }, { "TB", 1000ULL * 1000 * 1000 * 1000 },
    { "PB", 1000ULL * 1000 * 1000 * 1000 * 1000 },
    { "KiB", 1ULL << 10 }, { "MiB", 1ULL << 20 }, { "GiB", 1ULL << 30 },
    { "TiB", 1ULL << 40 }, { "PiB", 1ULL << 50 },
};

static const char mr_cap_bare[] = "KMGTP";

/*
 * digits[.digits] * unit, rounded down to whole bytes, in integers so
 * that 6.4TB is 6400000000000 exactly.
 */
static bool mr_cap_scale(const char *num, size_t len, uint64_t unit,
                         uint64_t *out)
{
    uint64_t whole = 0, frac = 0, div = 1;
    bool in_frac = false;

    for (size_t i = 0; i < len; i++) {
        if (num[i] == '.') {
            in_frac = true;
            continue;
        }
        if (!in_frac) {
            if (whole > (UINT64_MAX - 9) / 10) {
                return false;
            }
            whole = whole * 10 + (num[i] - '0');
        } else if (div <= UINT64_MAX / 10 / 1000) {
            frac = frac * 10 + (num[i] - '0');
            div *= 10;
        }
    }
    if (whole && unit > UINT64_MAX / whole) {
        return false;
    }
    *out = whole * unit;
    /* frac / div < 1, so frac * (unit / div) stays below unit */
    if (frac) {
        uint64_t part = (uint64_t)((__uint128_t)frac * unit / div);

        if (*out > UINT64_MAX - part) {
            return false;
        }
        *out += part;
    }
    return true;
}

bool mr_drive_parse_capacity(const char *s, uint64_t *out, Error **errp)
{
    const char *p = s;
    size_t len;

    while (g_ascii_isdigit(*p)) {
        p++;
    }
    if (p > s && *p == '.' && g_ascii_isdigit(p[1])) {
        for (p++; g_ascii_isdigit(*p); p++) {
            /* the fraction */
        }
    }
    len = p - s;
    if (!len) {
        goto bad;
    }
    if (p[0] && !p[1] && strchr(mr_cap_bare, g_ascii_toupper(p[0]))) {
        uint64_t dec = 0, bin = 0;
        int k = strchr(mr_cap_bare, g_ascii_toupper(p[0])) - mr_cap_bare;

        mr_cap_scale(s, len, mr_cap_units[2 + k].unit, &dec);
        mr_cap_scale(s, len, mr_cap_units[7 + k].unit, &bin);
        error_setg(errp, "megaraid-drive: modelled-capacity=%s is ambiguous: "
                   "write %.*s%cB for %" PRIu64 " bytes (powers of ten, as "
                   "drive makers and the perf-profile names count) or "
                   "%.*s%ciB for %" PRIu64 " bytes (powers of two)", s,
                   (int)len, s, g_ascii_toupper(p[0]), dec, (int)len, s,
                   g_ascii_toupper(p[0]), bin);
        return false;
    }
    for (size_t i = 0; i < ARRAY_SIZE(mr_cap_units); i++) {
        if (g_ascii_strcasecmp(p, mr_cap_units[i].suffix)) {
            continue;
        }
        if (mr_cap_units[i].unit == 1 && memchr(s, '.', len)) {
            goto bad;           /* a fraction of a byte */
        }
        if (!mr_cap_scale(s, len, mr_cap_units[i].unit, out)) {
            error_setg(errp, "megaraid-drive: modelled-capacity=%s is too "
                       "large", s);
            return false;
        }
        return true;
    }
bad:
    error_setg(errp, "megaraid-drive: modelled-capacity='%s' is not a size: "
               "bytes, or a number with KB, MB, GB, TB, PB (powers of ten) "
               "or KiB, MiB, GiB, TiB, PiB (powers of two), e.g. 6.4TB", s);
    return false;
}

static void mr_cap_get(Object *obj, Visitor *v, const char *name,
                       void *opaque, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    uint64_t val = d->modelled_capacity;

    if (!val && DEVICE(obj)->realized && d->perf) {
        val = MAX(d->perf->capacity,
                  d->unit.num_blocks * d->unit.block_size);
    }
    visit_type_size(v, name, &val, errp);
}

static void mr_cap_set(Object *obj, Visitor *v, const char *name,
                       void *opaque, Error **errp)
{
    MRDrive *d = MEGARAID_DRIVE(obj);
    g_autofree char *s = NULL;
    uint64_t val;

    if (v->type_any) {
        /* QMP, JSON and keyval -device: a number or a string */
        QObject *qobj = NULL;
        QNum *qn;
        QString *qs;
        bool ok = true;

        if (!visit_type_any(v, name, &qobj, errp)) {
            return;
        }
        qn = qobject_to(QNum, qobj);
        qs = qobject_to(QString, qobj);
        if (qs) {
            s = g_strdup(qstring_get_str(qs));
        } else if (qn && qnum_get_try_uint(qn, &val)) {
            d->modelled_capacity = val;
        } else {
            error_setg(errp, "megaraid-drive: modelled-capacity must be a "
                       "byte count or a string such as \"6.4TB\"");
            ok = false;
        }
        qobject_unref(qobj);
        if (!s || !ok) {
            return;
        }
    } else if (!visit_type_str(v, name, &s, errp)) {
        return;                 /* -global: a string visitor */
    }
    if (mr_drive_parse_capacity(s, &val, errp)) {
        d->modelled_capacity = val;
    }
}

const PropertyInfo mr_prop_capacity = {
    .type = "size",
    .description = "bytes, or a number with KB..PB (10^n) or KiB..PiB (2^n)",
    .get = mr_cap_get,
    .set = mr_cap_set,
};
