#!/bin/sh
# cuzk hash sha256-trunc against coreutils' sha256sum: the expected value is
# computed here (digest, then byte 31 &= 0x3f), for fixed and random messages.
# usage: cli_hash_sha256.sh CUZK
set -eu
cuzk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # $1 = file holding the message bytes
    hex=$(od -An -v -tx1 "$1" | tr -d ' \n')
    digest=$(sha256sum "$1" | cut -c1-64)
    last=$(printf '%s' "$digest" | cut -c63-64)
    want=$(printf '%s%02x' "$(printf '%s' "$digest" | cut -c1-62)" $((0x$last & 0x3f)))
    got=$("$cuzk" hash sha256-trunc "$hex")
    if [ "$got" = "$want" ]; then
        echo "ok   $(wc -c <"$1") bytes: $got"
    else
        echo "FAIL $(wc -c <"$1") bytes: got $got want $want"
        fail=1
    fi
}

printf '' >"$tmp/empty"; check "$tmp/empty"
printf 'abc' >"$tmp/abc"; check "$tmp/abc"
for n in 1 55 56 64 1248; do
    head -c "$n" /dev/urandom >"$tmp/r$n"
    check "$tmp/r$n"
done

# bad input: odd length, non-hex, missing argument -> exit 2 with a message
for bad in "abc" "zz" ; do
    if "$cuzk" hash sha256-trunc "$bad" >/dev/null 2>"$tmp/err"; then
        echo "FAIL accepted bad hex \"$bad\""; fail=1
    elif ! grep -q "not hex" "$tmp/err"; then
        echo "FAIL no clear error for \"$bad\""; fail=1
    fi
done
if "$cuzk" hash sha256-trunc >/dev/null 2>&1; then echo "FAIL accepted no argument"; fail=1; fi
exit $fail
