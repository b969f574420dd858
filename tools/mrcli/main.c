/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * mrcli: entry point.  Splits the command line into the object path, the
 * verb words and the trailing "J", picks the handler for the object and
 * verbs, and prints one result document.  Exit status: 0 success, 1 the
 * controller refused or failed the command, 2 a usage error, 3 no
 * controller or a transport error.
 */
#include "mrcli.h"
#include "bsg.h"
#include "mfi.h"
#include "out.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/utsname.h>

static const char usage_text[] =
"Usage: mrcli OBJECT VERB... [J]\n"
"\n"
"  mrcli show                                 controllers found\n"
"  mrcli /c0 show [all]                       controller, VDs, drives\n"
"  mrcli /c0 show events [seq=N [wait=S]] [count=N]   the event log\n"
"  mrcli /c0 show rebuildrate                 rates and policies\n"
"  mrcli /c0 set rebuildrate=N|ccrate=N|bgirate=N|autorebuild=on|off\n"
"  mrcli /c0 add vd r0|r1|r5|r6|r10|r50|r60 drives=0:0-7 [pdperarray=N]\n"
"        [strip=64..1024] [wb|wt|awb] [ra|nora] [name=X] [size=N|all]"
" [init]\n"
"  mrcli /c0/vall show [all]    /c0/vN show [all]\n"
"  mrcli /c0/vN delete [force]  /c0/vall delete [force]\n"
"  mrcli /c0/vN start|stop|pause|resume cc|init    (start cc repair)\n"
"  mrcli /c0/vN show cc|init\n"
"  mrcli /c0/dall show          /c0/dN show\n"
"  mrcli /c0/eall/sall show [all]   /c0/e0/sN show [all]\n"
"  mrcli /c0/e0/sN set offline|online [force]|good|missing|jbod|bad\n"
"  mrcli /c0/e0/sN add hotsparedrive [dgs=N]   delete hotsparedrive\n"
"  mrcli /c0/e0/sN show rebuild   /c0/eall/sall show rebuild\n"
"  mrcli /c0/e0/sN start|stop|pause|resume rebuild\n"
"  mrcli /c0/e0/sN start|stop locate            the drive's locate LED\n"
"  mrcli /c0/e0/sN start copyback target=0:M   stop|pause|resume|show "
"copyback\n"
"  mrcli /c0/vN set wrcache=wb|wt|awb rdcache=ra|nora\n"
"  mrcli /c0/fall show|import|delete\n"
"  mrcli /c0/cv show\n"
"\n"
"A trailing J prints JSON.  Enclosure 0 is the drive bays; the slot is the\n"
"bay slot.  mrcli talks to the controller only through /dev/bsg/"
"mpi3mrctlN\n(mpi3mr) or /dev/megaraid_sas_ioctl_node (megaraid_sas); /cN "
"counts\nmpi3mr controllers first.\n"
"\n"
"  mrcli --version | -v                       the version\n"
"\n"
"Exit status: 0 success, 1 the controller refused or failed the command,\n"
"2 a usage error, 3 no controller or a transport error.  See mrcli(1).\n";

const char *mrcli_os_name(void)
{
    static char name[160];
    struct utsname u;

    if (!name[0]) {
        if (uname(&u) == 0) {
            snprintf(name, sizeof(name), "%s %s", u.sysname, u.release);
        } else {
            snprintf(name, sizeof(name), "Linux");
        }
    }
    return name;
}

static int job_word(Mrcli *m, int i)
{
    if (arg_is(m, i, "cc")) {
        return MGMT_JOB_CC;
    }
    if (arg_is(m, i, "init") || arg_is(m, i, "bgi")) {
        return MGMT_JOB_INIT;
    }
    if (arg_is(m, i, "rebuild")) {
        return MGMT_JOB_REBUILD;
    }
    return -1;
}

static int action_word(Mrcli *m, int i)
{
    if (arg_is(m, i, "start")) {
        return MGMT_JOB_START;
    }
    if (arg_is(m, i, "stop")) {
        return MGMT_JOB_STOP;
    }
    if (arg_is(m, i, "pause") || arg_is(m, i, "suspend")) {
        return MGMT_JOB_PAUSE;
    }
    if (arg_is(m, i, "resume")) {
        return MGMT_JOB_RESUME;
    }
    return -1;
}

/* Runs the command the object and verbs name; false if none matches. */
static bool dispatch(Mrcli *m)
{
    int action = action_word(m, 0), job = job_word(m, 1);
    bool show = arg_is(m, 0, "show");
    bool show_all = show && arg_is(m, 1, "all");

    switch (m->obj.kind) {
    case OBJ_CTRL:
        if (op_patrol(m)) {
            return true;        /* ops-patrol.c */
        }
        if (show && (m->args.n == 1 || show_all)) {
            arg_use(m, show_all ? 2 : 1);
            if (args_all_used(m)) {
                op_ctrl_show(m, show_all);
            }
            return true;
        }
        if (show && arg_is(m, 1, "events")) {
            arg_use(m, 2);
            op_ctrl_events(m);
            return true;
        }
        if (show && (arg_is(m, 1, "rebuildrate") || arg_is(m, 1, "ccrate") ||
                     arg_is(m, 1, "bgirate") || arg_is(m, 1, "autorebuild")
                     || arg_is(m, 1, "patrolread"))) {
            arg_use(m, 2);
            if (args_all_used(m)) {
                op_ctrl_show_props(m);
            }
            return true;
        }
        if (arg_is(m, 0, "set") && m->args.n > 1) {
            arg_use(m, 1);
            op_ctrl_set(m);
            return true;
        }
        if (arg_is(m, 0, "add") && arg_is(m, 1, "vd")) {
            arg_use(m, 2);
            op_vd_add(m);
            return true;
        }
        return false;
    case OBJ_VD:
        if (show && (m->args.n == 1 || show_all)) {
            arg_use(m, show_all ? 2 : 1);
            op_vd_show(m, show_all);
            return true;
        }
        if (show && (job == MGMT_JOB_CC || job == MGMT_JOB_INIT)) {
            arg_use(m, 2);
            op_vd_job_show(m, job);
            return true;
        }
        if (arg_is(m, 0, "delete") || arg_is(m, 0, "del")) {
            arg_use(m, 1);
            op_vd_delete(m);
            return true;
        }
        if (action > 0 && (job == MGMT_JOB_CC || job == MGMT_JOB_INIT)) {
            arg_use(m, 2);
            op_vd_job(m, action, job);
            return true;
        }
        return false;
    case OBJ_DG:
        if (show && m->args.n <= 2 && (m->args.n == 1 || show_all)) {
            arg_use(m, m->args.n);
            op_dg_show(m);
            return true;
        }
        return false;
    case OBJ_PD:
        if (show && (m->args.n == 1 || show_all)) {
            arg_use(m, show_all ? 2 : 1);
            op_pd_show(m, show_all);
            return true;
        }
        if (show && job == MGMT_JOB_REBUILD) {
            arg_use(m, 2);
            op_pd_rebuild_show(m);
            return true;
        }
        if (arg_is(m, 0, "set") && m->args.n > 1) {
            arg_use(m, 1);
            op_pd_set(m);
            return true;
        }
        if ((arg_is(m, 0, "add") || arg_is(m, 0, "delete")) &&
            arg_is(m, 1, "hotsparedrive")) {
            arg_use(m, 2);
            op_pd_spare(m, arg_is(m, 0, "add"));
            return true;
        }
        if (action > 0 && job == MGMT_JOB_REBUILD) {
            arg_use(m, 2);
            op_pd_rebuild(m, action);
            return true;
        }
        return false;
    case OBJ_FOREIGN:
        if (show && (m->args.n == 1 || show_all)) {
            arg_use(m, m->args.n);
            op_foreign(m, 0);
            return true;
        }
        if (arg_is(m, 0, "import") || arg_is(m, 0, "delete") ||
            arg_is(m, 0, "del")) {
            int what = arg_is(m, 0, "import") ? 1 : 2;

            arg_use(m, 1);
            op_foreign(m, what);
            return true;
        }
        return false;
    case OBJ_CV:
        if (show && (m->args.n == 1 || show_all)) {
            arg_use(m, m->args.n);
            op_cv_show(m);
            return true;
        }
        return false;
    case OBJ_BBU:
        return false;   /* storcli.c answers /cx/bbu */
    }
    return false;
}

static const char storcli_help[] =
"Usage: %s OBJECT VERB... [J] [nolog]   (the megaraid-sim mrcli, speaking\n"
"storcli%s)\n"
"\n"
"  %s -v | help | show [all] | show ctrlcount\n"
"  %s /cx|/call show [all|time|rebuildrate|ccrate|bgirate|events|termlog|\n"
"        patrolread|cc|aso|autoconfig]\n"
"  %s /cx set rebuildrate=N|ccrate=N|bgirate=N|autorebuild=on|off|\n"
"        patrolread=on|off|jbod=on|off\n"
"  %s /cx add vd type=raid0|1|5|6|10|50|60 (or r5) drives=e:s-s,e:s\n"
"        [size=N] [strip=64..1024] [wb|wt] [ra|nora] [direct] "
"[pdperarray=N]\n"
"  %s /cx/vx|vall show [all|init|cc|bgi]   delete [force]\n"
"  %s /cx/vx start|stop|pause|resume cc|init   set wrcache=wb|wt|awb "
"rdcache=ra|nora\n"
"  %s /cx/ex/sx|eall/sall|/cx/sall show [all|rebuild|initialization|"
"copyback]\n"
"  %s /cx/ex/sx set offline|online|good|missing|jbod|bad\n"
"  %s /cx/ex/sx add|delete hotsparedrive [dgs=N]\n"
"  %s /cx/ex/sx start|stop|pause|resume rebuild   start|stop locate\n"
"        start copyback target=e:s   stop|pause|resume copyback\n"
"  %s /cx/dall show   /cx/fall show|import|del   /cx/cv show [all|status]\n"
"  %s /cx/bbu show\n"
"\n"
"The bays are enclosure %d.  docs/storcli.md lists what is there and what "
"is not.\n";

static void print_help(MrDialect nd, FILE *f)
{
    const char *p = dialect_prog(nd);

    if (nd == MR_DIALECT_MRCLI) {
        fputs(usage_text, f);
        return;
    }
    fprintf(f, storcli_help, p, nd == MR_DIALECT_V2 ? "2 (008.x)" :
            " v1 (007.x)", p, p, p, p, p, p, p, p, p, p, p, p,
            MRCLI_BAYS_EID);
}

static void print_version(MrDialect nd)
{
    if (nd == MR_DIALECT_MRCLI) {
        printf("mrcli %s\n", MRCLI_VERSION);
        return;
    }
    printf("     %s Ver %s\n\n", nd == MR_DIALECT_V2 ?
           "StorCLI2 SAS Customization Utility" :
           "StorCli SAS Customization Utility", dialect_cli_version(nd));
}

static int ctrl_count(void);

static bool arg_word(const char *w, const char *want)
{
    return !strcasecmp(w, want);
}

/* "mrcli show": the controllers whose BSG node exists. */
static int show_controllers(MrDialect nd, bool json, bool all)
{
    static const char *const cols[] = {
        "Ctl", "Model", "Adapter State", "PCI Address", "Node", NULL,
    };
    Mrcli m;
    MrSection *s, *t;
    DIR *d = opendir("/dev/bsg");
    struct dirent *e;
    int n = 0, rc;

    memset(&m, 0, sizeof(m));
    m.fd = -1;
    m.out = out_new(0, json);
    if (nd != MR_DIALECT_MRCLI) {
        /* storcli's overview: one row per controller from its own state */
        out_set_dialect(m.out, nd, true);
        n = ctrl_count();
        char host[128] = "";

        gethostname(host, sizeof(host) - 1);
        out_num(m.out, "Number of Controllers", n);
        out_str(m.out, "Host Name", "%s", host);
        out_str(m.out, "Operating System ", "%s", mrcli_os_name());
        storcli_overview(m.out, nd, n, all);
        rc = out_print(m.out);
        out_free(m.out);
        return rc;
    }
    t = out_table(m.out, "System Overview", cols);
    while (d && (e = readdir(d))) {
        unsigned ctrl;
        char err[256], node[300], tail;
        MrcliAdpInfo ai;
        int fd;

        if (sscanf(e->d_name, "mpi3mrctl%u%c", &ctrl, &tail) != 1) {
            continue;
        }
        snprintf(node, sizeof(node), "/dev/bsg/%s", e->d_name);
        n++;
        row_new(t);
        row_num(t, ctrl);
        fd = mrcli_bsg_open(ctrl, err, sizeof(err));
        if (fd < 0 || mrcli_bsg_adpinfo(fd, ctrl, &ai, err, sizeof(err))) {
            row_str(t, "-");
            row_str(t, "Unknown");
            row_str(t, "-");
        } else {
            static const char *const st[] = {
                "Unknown", "Operational", "Fault", "In Reset",
                "Unrecoverable",
            };

            row_str(t, "MegaRAID 9600 (PCI 1000:%04x)", ai.pci_dev_id);
            row_str(t, "%s", ai.adp_state < 5 ? st[ai.adp_state] :
                    "Unknown");
            row_str(t, "%04x:%02x:%02x.%u", ai.pci_seg_id, ai.pci_bus,
                    ai.pci_dev_func & 0x1f, ai.pci_dev_func >> 5);
        }
        if (fd >= 0) {
            close(fd);
        }
        row_str(t, "%s", node);
    }
    if (d) {
        closedir(d);
    }
    {
        /* then the megaraid_sas ones: /cN continues after mpi3mr's */
        int hosts[64], nmfi = mrcli_mfi_hosts(hosts, 64);

        for (int i = 0; i < nmfi; i++) {
            char pci[32];

            mrcli_mfi_pci(hosts[i], pci, sizeof(pci));
            row_new(t);
            row_num(t, n);
            row_str(t, "MegaRAID 9500 (megaraid_sas host %d)", hosts[i]);
            row_str(t, "-");
            if (pci[0]) {
                pci[strlen(pci) - 1] = 0;
                row_str(t, "%s", pci + 1);
            } else {
                row_str(t, "-");
            }
            row_str(t, "%s", MRCLI_MFI_NODE);
            n++;
        }
    }
    s = out_props(m.out, "Basics");
    sec_num(s, "Number of Controllers", n);
    rc = out_print(m.out);
    out_free(m.out);
    return rc;
}

/* A command status only document ("show ctrlcount", "-v", refusals). */
static MrOut *plain_doc(MrDialect nd, bool json, int ctrl, bool no_ctrl)
{
    MrOut *o = out_new(ctrl < 0 ? 0 : ctrl, json);

    /* mrcli's own documents always name a controller */
    out_set_dialect(o, nd, nd != MR_DIALECT_MRCLI && no_ctrl);
    return o;
}

static int ctrl_count(void)
{
    int hosts[64];

    return mrcli_mpi3mr_count() + mrcli_mfi_hosts(hosts, 64);
}

/* Runs one command on one controller; the document and exit status. */
static MrOut *run_ctrl(MrDialect nd, bool json, const MrObj *obj, int ctrl,
                       char **w, int nw, const char *objword, int *exit_st)
{
    Mrcli m;

    memset(&m, 0, sizeof(m));
    m.fd = -1;
    m.json = json;
    m.obj = *obj;
    m.obj.ctrl = ctrl;
    m.name_dialect = nd;
    m.dialect = dialect_for_ctrl(nd, ctrl);
    m.out = out_new(ctrl, json);
    if (nd != MR_DIALECT_MRCLI) {
        out_set_dialect(m.out, nd, false);
    }
    m.args.n = nw;
    for (int i = 0; i < nw; i++) {
        m.args.w[i] = w[i];
    }
    if (!m.args.n) {
        usage_error(&m, "%s: give a verb (show, set, add, delete, start, "
                    "...); '%s help' lists the commands", objword,
                    dialect_prog(nd));
    } else if (!storcli_dispatch(&m) && !dispatch(&m)) {
        char words[256] = "";

        for (int i = 0; i < m.args.n; i++) {
            size_t l = strlen(words);

            snprintf(words + l, sizeof(words) - l, "%s%s", i ? " " : "",
                     m.args.w[i]);
        }
        usage_error(&m, "'%s %s' is not a command; '%s help' lists them",
                    objword, words, dialect_prog(nd));
    }
    if (m.fd >= 0) {
        close(m.fd);
    }
    *exit_st = m.exit_status;
    return m.out;
}

static int finish(MrOut **docs, int n, int exit_st, bool json)
{
    int rc = out_print_all(docs, n);

    for (int i = 0; i < n; i++) {
        if (out_failed(docs[i]) && !json) {
            /* the reason on stderr too, for scripts that keep only that */
            fprintf(stderr, "mrcli: %s\n", out_desc(docs[i]));
        }
        out_free(docs[i]);
    }
    return exit_st != MRCLI_EXIT_OK ? exit_st : rc;
}

int main(int argc, char **argv)
{
    MrDialect nd = dialect_from_name(argv[0]);
    char *w[MRCLI_MAX_WORDS + 1], objbuf[256];
    MrOut *docs[64];
    MrObj obj;
    char err[256];
    bool json = false;
    int nw = 0, exit_st = MRCLI_EXIT_OK, n;

    /* J and nolog may stand anywhere; the other words keep their order */
    for (int i = 1; i < argc; i++) {
        if (!strcasecmp(argv[i], "J")) {
            json = true;
        } else if (!strcasecmp(argv[i], "nolog")) {
            continue;
        } else if (nw == MRCLI_MAX_WORDS + 1) {
            MrOut *o = plain_doc(nd, json, 0, true);

            out_fail(o, "too many words (at most %d)", MRCLI_MAX_WORDS);
            out_errcd(o, MRCLI_ERRCD_SYNTAX);
            return finish(&o, 1, MRCLI_EXIT_USAGE, json);
        } else {
            w[nw++] = argv[i];
        }
    }
    /* "/c0 /cv", "/c0 /eall /sall": the two-word object forms */
    if (nw && w[0][0] == '/') {
        snprintf(objbuf, sizeof(objbuf), "%s", w[0]);
        while (nw > 1 && w[1][0] == '/') {
            size_t l = strlen(objbuf);

            snprintf(objbuf + l, sizeof(objbuf) - l, "%s", w[1]);
            memmove(&w[1], &w[2], (nw - 2) * sizeof(w[0]));
            nw--;
        }
        w[0] = objbuf;
    }
    if (!nw || !strcasecmp(w[0], "help") || !strcmp(w[0], "-h") ||
        !strcmp(w[0], "--help") || !strcmp(w[0], "-help")) {
        print_help(nd, !nw ? stderr : stdout);
        return !nw && nd == MR_DIALECT_MRCLI ? MRCLI_EXIT_USAGE :
            MRCLI_EXIT_OK;
    }
    if (!strcasecmp(w[0], "-v") || !strcasecmp(w[0], "-version") ||
        !strcmp(w[0], "--version") || !strcmp(w[0], "-V")) {
        print_version(nd);
        return MRCLI_EXIT_OK;
    }
    if (!strcasecmp(w[0], "show") &&
        (nw == 1 || (nw == 2 && arg_word(w[1], "all")))) {
        return show_controllers(nd, json, nw == 2);
    }
    if (!strcasecmp(w[0], "show") && nw == 2 && arg_word(w[1], "ctrlcount")) {
        MrOut *o = plain_doc(nd, json, 0, true);

        out_num(o, "Controller Count", ctrl_count());
        return finish(&o, 1, MRCLI_EXIT_OK, json);
    }
    if (parse_object(w[0], &obj, err, sizeof(err)) < 0) {
        MrOut *o = plain_doc(nd, json, 0, true);

        out_fail(o, "%s", err);
        out_errcd(o, MRCLI_ERRCD_SYNTAX);
        return finish(&o, 1, MRCLI_EXIT_USAGE, json);
    }
    if (nw - 1 > MRCLI_MAX_WORDS) {
        MrOut *o = plain_doc(nd, json, 0, true);

        out_fail(o, "too many words (at most %d)", MRCLI_MAX_WORDS);
        out_errcd(o, MRCLI_ERRCD_SYNTAX);
        return finish(&o, 1, MRCLI_EXIT_USAGE, json);
    }
    if (obj.ctrl != MRCLI_CTRL_ALL) {
        docs[0] = run_ctrl(nd, json, &obj, obj.ctrl, w + 1, nw - 1, w[0],
                           &exit_st);
        return finish(docs, 1, exit_st, json);
    }
    n = ctrl_count();
    if (n > 64) {
        n = 64;
    }
    if (!n) {
        MrOut *o = plain_doc(nd, json, 0, true);

        out_fail(o, "no controller found (no /dev/bsg/mpi3mrctl* node and "
                 "no megaraid_sas host)");
        return finish(&o, 1, MRCLI_EXIT_IO, json);
    }
    for (int c = 0; c < n; c++) {
        int st;

        docs[c] = run_ctrl(nd, json, &obj, c, w + 1, nw - 1, w[0], &st);
        if (st != MRCLI_EXIT_OK && exit_st == MRCLI_EXIT_OK) {
            exit_st = st;
        }
    }
    return finish(docs, n, exit_st, json);
}
