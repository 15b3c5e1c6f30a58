/* The vector runner must notice any single altered expectation: every case of
 * the given file passes as written, fails when one hex digit of its expected
 * output changes, and fails when an "err" case is turned into a result case. */
#include <jansson.h>

#include "check.h"
#include "cli/vectors.h"

static char *mutate_out(json_t *root) {
    json_t *outs = json_object_get(root, "out");
    size_t which = (size_t)(check_rand64() % json_array_size(outs)); /* NTT ops hold n values */
    const char *s = json_string_value(json_array_get(outs, which));
    size_t len = strlen(s);
    char *m = strdup(s);
    size_t pos = (size_t)(check_rand64() % len);
    static const char digits[] = "0123456789abcdef";
    char c;
    do
        c = digits[check_rand64() % 16];
    while (c == m[pos]);
    m[pos] = c;
    json_array_set_new(outs, which, json_string(m));
    free(m);
    return json_dumps(root, JSON_COMPACT);
}

static char *err_to_out(json_t *root) {
    json_object_del(root, "err");
    json_t *outs = json_array();
    json_array_append_new(outs, json_string("00"));
    json_object_set_new(root, "out", outs);
    return json_dumps(root, JSON_COMPACT);
}

int main(int argc, char **argv) {
    check_seed("test_vectors_mutation");
    if (argc < 2) {
        fprintf(stderr, "usage: test_vectors_mutation FILE.jsonl\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    CHECK(f != NULL);
    if (!f)
        return check_finish();
    char *line = NULL, why[600];
    size_t cap = 0, cases = 0;
    while (getline(&line, &cap, f) > 1) {
        cases++;
        CHECK(vectors_check_line(line, why, sizeof why) == VECTOR_PASS);
        json_t *root = json_loads(line, 0, NULL);
        char *bad = json_object_get(root, "err") ? err_to_out(root) : mutate_out(root);
        vector_result r = vectors_check_line(bad, why, sizeof why);
        CHECK(r == VECTOR_FAIL);
        if (r != VECTOR_FAIL)
            fprintf(stderr, "mutation not caught: %s\n", bad);
        free(bad);
        json_decref(root);
    }
    free(line);
    fclose(f);
    CHECK(cases > 100);
    printf("%zu cases mutated\n", cases);
    return check_finish();
}
