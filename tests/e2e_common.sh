# Sourced by the shell tests (porep_e2e.sh, post_e2e.sh, snap_e2e.sh,
# cli_*.sh, bench_porep_2k.sh): their arguments, a scratch folder, a seed that
# can be repeated, and the checks.
#   . "$(dirname "$0")/e2e_common.sh" NAME "$@"   with "$@" = CUZK [ORACLE_DIR [PARAM_DIR [MODE]]]
# (a test with other arguments passes what fits and reads the rest itself:
# sourcing with arguments leaves the caller's "$@" as it was).
# Sets cuzk, oracle, params (CUZK_TEST_PARAMS wins), mode (default full),
# dir (removed at exit), seed (CUZK_TEST_SEED), fails; defines hex32, fail,
# check and check_re.
set -uo pipefail
e2e_name="$1"
cuzk="$2"
oracle="${3:-}"
params="${CUZK_TEST_PARAMS:-${4:-}}"
mode="${5:-full}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
seed="${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "$e2e_name: seed $seed (set CUZK_TEST_SEED to repeat), mode $mode"
hex32() { # hex32 TAG: 32 bytes from the seed, top byte clear (a canonical Fr)
    printf '%s' "$seed-$1" | sha256sum | cut -c1-62 | sed 's/$/00/'
}
fails=0
fail() { # fail MESSAGE: counts a failure
    echo "FAIL: $*"
    fails=$((fails + 1))
}
# check DESCRIPTION WANT_RC COMMAND...: runs COMMAND, which must exit WANT_RC;
# "$dir/out" and "$dir/last" keep its output.
check() { check_re "$1" "$2" "" "${@:3}"; }
# check_re DESCRIPTION WANT_RC WANT_REGEX COMMAND...: the same, and a line of
# the output must match WANT_REGEX (grep -E; "" asks nothing).
check_re() {
    local desc="$1" want="$2" re="$3" rc=0
    shift 3
    local t0=$SECONDS
    "$@" >"$dir/out" 2>&1 || rc=$?
    cp "$dir/out" "$dir/last"
    if [ "$rc" = "$want" ] && { [ -z "$re" ] || grep -Eq -- "$re" "$dir/out"; }; then
        echo "ok: $desc ($((SECONDS - t0)) s) -> $(tail -1 "$dir/out")"
    else
        fail "$desc: exit $rc, expected $want${re:+ and a line matching /$re/}:"
        tail -20 "$dir/out"
    fi
}
