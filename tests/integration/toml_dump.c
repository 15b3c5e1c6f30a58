/* toml_dump FILE: parses FILE with util/toml and prints the tree as JSON
 * (tables -> objects, arrays -> arrays), so tests can compare it with
 * Python's tomllib.  On a parse error: the message on stderr, exit 1. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/toml.h"

static json_t *to_json(const toml_value *v) {
    switch (v->type) {
    case TOML_STRING:
        return json_string(v->str);
    case TOML_INT:
        return json_integer((json_int_t)v->i);
    case TOML_BOOL:
        return json_boolean(v->b);
    case TOML_ARRAY: {
        json_t *a = json_array();
        for (size_t i = 0; i < v->n; i++)
            json_array_append_new(a, to_json(v->kids[i]));
        return a;
    }
    case TOML_TABLE: {
        json_t *o = json_object();
        for (size_t i = 0; i < v->n; i++)
            json_object_set_new(o, v->kids[i]->key, to_json(v->kids[i]));
        return o;
    }
    }
    return json_null();
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: toml_dump FILE\n");
        return 2;
    }
    char err[TOML_ERR_LEN];
    toml_value *root = toml_parse_file(argv[1], err);
    if (root == NULL) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    json_t *j = to_json(root);
    char *s = json_dumps(j, JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    puts(s);
    free(s);
    json_decref(j);
    toml_free(root);
    return 0;
}
