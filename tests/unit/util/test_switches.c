/* util/switches: list parsing (unknown names, bad values, repeats are
 * refused with a message naming them), range checks, watchers, save and
 * restore; that the code steered by a switch follows it at run time (the
 * field's assembly flag) without a restart; and that retired switches (their
 * winners kept, their losers deleted: docs/PERFORMANCE.md) are gone. */
#include "check.h"
#include "field/fp.h"
#include "util/cpu.h"
#include "util/switches.h"

static long watched = -1;
static int watch_calls;
static void watcher(long v) {
    watched = v;
    watch_calls++;
}

static void test_table(void) {
    for (int i = 0; i < SW_COUNT; i++) {
        const switch_info *s = switch_describe((switch_id)i);
        CHECK(s && s->name && s->env && s->desc);
        CHECK(switch_find(s->name) == i);
        CHECK(s->def == 0 ? (s->zero_auto || (s->def >= s->min && s->def <= s->max))
                          : (s->def >= s->min && s->def <= s->max));
        for (int k = 0; k < i; k++)
            CHECK(strcmp(s->name, switch_describe((switch_id)k)->name) != 0);
    }
    CHECK(switch_describe(SW_COUNT) == NULL);
    CHECK(switch_find("no_such_switch") == -1);
}

static void test_parse(void) {
    switch_assignments a;
    char err[256];
    CHECK(switch_parse_list(&a, "field_asm=off,gpu_msm_window=12,poseidon_replay=YES", err,
                            sizeof err) == 0);
    CHECK(a.n == 3 && a.id[0] == SW_FIELD_ASM && a.value[0] == 0 && a.id[1] == SW_GPU_MSM_WINDOW &&
          a.value[1] == 12 && a.id[2] == SW_POSEIDON_REPLAY && a.value[2] == 1);
    CHECK(switch_parse_list(&a, "", err, sizeof err) == 0 && a.n == 0);
    CHECK(switch_parse_list(&a, "default", err, sizeof err) == 0 && a.n == 0);
    err[0] = 0;
    CHECK(switch_parse_list(&a, "field_asm=on,warp_drive=1", err, sizeof err) == -1 &&
          strstr(err, "unknown switch \"warp_drive\"") != NULL);
    err[0] = 0;
    CHECK(switch_parse_list(&a, "field_asm=maybe", err, sizeof err) == -1 &&
          strstr(err, "field_asm") && strstr(err, "maybe"));
    err[0] = 0;
    CHECK(switch_parse_list(&a, "gpu_msm_window=7", err, sizeof err) == -1 &&
          strstr(err, "8..24") != NULL);
    CHECK(switch_parse_list(&a, "gpu_msm_window=0", err, sizeof err) == 0 && a.value[0] == 0);
    CHECK(switch_parse_list(&a, "gpu_srs_sets=0", err, sizeof err) == -1); /* no auto here */
    CHECK(switch_parse_list(&a, "gpu_srs_sets=4x", err, sizeof err) == -1);
    CHECK(switch_parse_list(&a, "gpu_srs_sets=", err, sizeof err) == -1);
    err[0] = 0;
    CHECK(switch_parse_list(&a, "field_asm", err, sizeof err) == -1 &&
          strstr(err, "NAME=VALUE") != NULL);
    err[0] = 0;
    CHECK(switch_parse_list(&a, "poseidon_replay=1,poseidon_replay=0", err, sizeof err) == -1 &&
          strstr(err, "twice") != NULL);
    CHECK(switch_set(SW_GPU_SRS_SETS, 17, err, sizeof err) == -1 && strstr(err, "gpu_srs_sets"));
    CHECK(switch_set(SW_COUNT, 1, err, sizeof err) == -1);
}

static void test_set_watch_restore(void) {
    char err[256];
    switch_snapshot start;
    switch_save(&start);
    switch_watch(SW_POSEIDON_REPLAY, watcher);
    CHECK(watch_calls == 1 && watched == switch_get(SW_POSEIDON_REPLAY));
    CHECK(switch_set(SW_POSEIDON_REPLAY, 0, err, sizeof err) == 0);
    CHECK(switch_get(SW_POSEIDON_REPLAY) == 0 && watched == 0 && watch_calls == 2);
    switch_assignments a;
    CHECK(switch_parse_list(&a, "poseidon_replay=on,gpu_srs_sets=2", err, sizeof err) == 0);
    switch_apply(&a);
    CHECK(switch_get(SW_POSEIDON_REPLAY) == 1 && watched == 1 && switch_get(SW_GPU_SRS_SETS) == 2);
    switch_restore(&start);
    for (int i = 0; i < SW_COUNT; i++)
        CHECK(switch_get((switch_id)i) == start.value[i]);
    switch_watch(SW_POSEIDON_REPLAY, NULL);
    char v[16];
    switch_format(v, sizeof v, SW_FIELD_ASM, 0);
    CHECK(strcmp(v, "off") == 0);
    switch_format(v, sizeof v, SW_GPU_MSM_WINDOW, 13);
    CHECK(strcmp(v, "13") == 0);
}

/* The steered code reads the switch where it decides. */
static void test_effect(void) {
    char err[256];
    switch_snapshot start;
    switch_save(&start);
    CHECK(switch_set(SW_FIELD_ASM, 0, err, sizeof err) == 0);
    CHECK(fp_asm_enabled() == 0);
    CHECK(switch_set(SW_FIELD_ASM, 1, err, sizeof err) == 0);
    CHECK(fp_asm_enabled() == cpu_has_adx_bmi2());
    switch_restore(&start);
    CHECK(fp_asm_enabled() == (start.value[SW_FIELD_ASM] && cpu_has_adx_bmi2()));
}

/* A retired switch is an unknown name (the list refuses it) and no switch
 * reads its old environment variable. */
static void test_retired(void) {
    static const char *const retired[][2] = {{"r1cs_thp", "CUZK_R1CS_THP"},
                                             {"msm_bit_fast_path", "CUZK_MSM_BIT_FAST_PATH"},
                                             {"msm_batch_affine", "CUZK_MSM_BATCH_AFFINE"},
                                             {"gpu_g2", "CUZK_GPU_G2"},
                                             {"gpu_b2_overlap", "CUZK_B2_OVERLAP"},
                                             {"gpu_upload_overlap", "CUZK_GPU_UPLOAD_OVERLAP"},
                                             {"gpu_host_register", "CUZK_GPU_HOST_REGISTER"}};
    switch_assignments a;
    char err[256], item[64];
    for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++) {
        CHECK(switch_find(retired[i][0]) == -1);
        snprintf(item, sizeof item, "%s=1", retired[i][0]);
        err[0] = 0;
        CHECK(switch_parse_list(&a, item, err, sizeof err) == -1 &&
              strstr(err, "unknown switch") != NULL);
        for (int k = 0; k < SW_COUNT; k++)
            CHECK(strcmp(switch_describe((switch_id)k)->env, retired[i][1]) != 0);
    }
}

int main(void) {
    test_table();
    test_parse();
    test_set_watch_restore();
    test_effect();
    test_retired();
    return check_finish();
}
