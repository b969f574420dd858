#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The man pages of the host and guest tools (docs/man/*.1): each renders
# without a groff warning and through man -l, and describes everything
# the tool's own help lists: every megaraid-img command and each
# command's long options, every object, verb and key=value word of
# 'mrcli help', every raidsim option.  --version exits 0 naming the tool.
#
#   tests/unit/man-pages.sh MEGARAID-IMG MRCLI RAIDSIM SOURCE-DIR
set -u
img=$1
mrcli=$2
raidsim=$3
src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }

# text PAGE: the page as plain text, one paragraph a line, no hyphenation
text() {
    groff -man -Tascii -rLL=4000n -rHY=0 -P-cbou "$src/docs/man/$1.1" \
        2>/dev/null
}

# covers PAGE WHAT WORD...: every WORD occurs in PAGE as a whole word
covers() {
    local page=$1 what=$2 missing=""
    shift 2
    text "$page" > "$tmp/$page.txt"
    for w in "$@"; do
        grep -qF -- "$w" "$tmp/$page.txt" &&
            grep -qE -- "(^|[^A-Za-z0-9_-])$(printf '%s' "$w" |
                sed 's/[][\.*^$/|]/\\&/g')([^A-Za-z0-9_-]|$)" \
                "$tmp/$page.txt" ||
            missing="$missing $w"
    done
    if [ -z "$missing" ]; then
        ok "$page(1) describes every $what ($# of them)"
    else
        bad "$page(1) does not describe these ${what}s:$missing"
    fi
}

# tags PAGE WHAT WORD...: every WORD is the tag of an entry (.TP) of PAGE:
# a line of its own, optionally after a short option ("-V, --version")
tags() {
    local page=$1 what=$2 missing=""
    shift 2
    text "$page" > "$tmp/$page.txt"
    for w in "$@"; do
        grep -qE -- "^ {7}(-[A-Za-z], )?$(printf '%s' "$w" |
            sed 's/[][\.*^$/|]/\\&/g')( |$)" "$tmp/$page.txt" ||
            missing="$missing $w"
    done
    if [ -z "$missing" ]; then
        ok "$page(1) has an entry for every $what ($# of them)"
    else
        bad "$page(1) has no entry for these ${what}s:$missing"
    fi
}

for tool in groff man; do
    if ! command -v "$tool" >/dev/null; then
        echo "Bail out! $tool is not installed (apt-get install groff-base man-db)"
        exit 1
    fi
done

for page in megaraid-img mrcli raidsim; do
    f="$src/docs/man/$page.1"
    warn=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
    if [ -z "$warn" ]; then
        ok "$page.1: groff renders it without a warning"
    else
        bad "$page.1: groff warns: $warn"
    fi
    if MANWIDTH=80 man -l "$f" 2>/dev/null | grep -q "^NAME"; then
        ok "$page.1: man -l renders it"
    else
        bad "$page.1: man -l does not render it"
    fi
done

# megaraid-img: the commands, and every long option of each
cmds=$("$img" --help | awk '/^Commands:/ { f = 1; next }
                            f && /^  [a-z]/ { print $1 } f && /^$/ { exit }')
# shellcheck disable=SC2086
tags megaraid-img command $cmds
opts=""
for c in $cmds; do
    opts="$opts $("$img" "$c" --help 2>&1 | grep -oE -- '--[a-z][a-z-]*' |
                  grep -vx -- '--help' | sort -u)"
done
# shellcheck disable=SC2086,SC2046
covers megaraid-img option $(printf '%s\n' $opts | sort -u)

# mrcli: the objects, verbs and key words of its usage lines
"$mrcli" help > "$tmp/mrcli-help"
# (a usage line and its continuation; of the columns after 3 spaces, the
# command forms, not the descriptions)
words=$(grep -E '^  mrcli |^        \[' "$tmp/mrcli-help" |
        sed 's/^  mrcli //' |
        awk -F'   +' '{ for (i = 1; i <= NF; i++)
                            if (i == 1 || $i ~ /^[\/(\[]|[|]/ ||
                                $i ~ /^(add|delete|start|stop|show|set) /)
                                print $i }' |
        tr ' |[]()' '\n\n\n\n\n\n' | sed 's/=.*$//' |
        grep -E '^(/[a-z0-9/]+|--?[a-z]+|[a-z][a-z]*)$' | sort -u)
# shellcheck disable=SC2086
covers mrcli "object, verb and key" $words

# raidsim: every option
# shellcheck disable=SC2046
tags raidsim option $("$raidsim" --help | grep -oE -- '--[a-z][a-z-]*' |
                        grep -vx -- '--help' | sort -u)

# --version: exit 0, the tool's name first
for t in "$img:megaraid-img" "$mrcli:mrcli" "$raidsim:raidsim"; do
    bin=${t%%:*}
    name=${t##*:}
    out=$("$bin" --version 2>&1)
    rc=$?
    if [ $rc = 0 ] && [ "${out%% *}" = "$name" ]; then
        ok "$name --version: '$out'"
    else
        bad "$name --version: exit $rc, '$out'"
    fi
done

# each page says the exit statuses its tool's help names
for t in "$img:megaraid-img:--help" "$mrcli:mrcli:help" \
         "$raidsim:raidsim:--help"; do
    IFS=: read -r bin name arg <<< "$t"
    if "$bin" "$arg" 2>&1 | grep -q "^Exit status:" &&
       text "$name" | grep -q "^EXIT STATUS"; then
        ok "$name: --help and $name(1) give the exit statuses"
    else
        bad "$name: exit statuses missing from --help or $name(1)"
    fi
done

echo "1..$n"
exit $fail
