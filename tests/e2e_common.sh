# Sourced by the end-to-end shell tests (porep_e2e.sh, post_e2e.sh,
# snap_e2e.sh, cli_params_check.sh): their arguments, a scratch folder, a
# seed that can be repeated, and check().
#   . "$(dirname "$0")/e2e_common.sh" NAME "$@"   with "$@" = CUZK ORACLE_DIR PARAM_DIR [MODE]
# sets cuzk, oracle, params (CUZK_TEST_PARAMS wins), mode (default full),
# dir (removed at exit), seed (CUZK_TEST_SEED), fails; defines hex32 and check.
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
check() { # check DESCRIPTION WANT_RC COMMAND...: "$dir/last" keeps the output
    local desc="$1" want="$2" rc=0
    shift 2
    local t0=$SECONDS
    "$@" >"$dir/out" 2>&1 || rc=$?
    cp "$dir/out" "$dir/last"
    if [ "$rc" = "$want" ]; then
        echo "ok: $desc ($((SECONDS - t0)) s) -> $(tail -1 "$dir/out")"
    else
        echo "FAIL: $desc: exit $rc, expected $want:"
        tail -20 "$dir/out"
        fails=$((fails + 1))
    fi
}
