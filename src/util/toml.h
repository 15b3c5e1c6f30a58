/* A TOML reader for the subset cuzk's configuration uses.
 *
 * Accepted (TOML 1.0 semantics): comments; [table] and [a.b] headers; bare,
 * "basic" and 'literal' keys, dotted keys; basic strings with the TOML escapes,
 * literal strings; integers (decimal with _ separators, 0x/0o/0b); booleans;
 * arrays (multi-line, trailing comma, comments inside) of those values.
 * Everything else -- floats, dates, multi-line strings, inline tables, arrays
 * of tables -- is rejected with "line L, column C: ..." naming the construct,
 * never silently misread.  Duplicate keys and tables are errors, as in TOML.
 *
 * The tree owns all its strings; toml_free releases it.  Tables keep their
 * keys in file order. */
#ifndef CUZK_UTIL_TOML_H
#define CUZK_UTIL_TOML_H

#include <stddef.h>
#include <stdint.h>

typedef enum { TOML_STRING, TOML_INT, TOML_BOOL, TOML_ARRAY, TOML_TABLE } toml_type;

typedef struct toml_value toml_value;
struct toml_value {
    toml_type type;
    int line;          /* where the key (or array element) was written; 0 for implicit tables */
    char *key;         /* name inside the parent table; NULL for array elements and the root */
    char *str;         /* TOML_STRING: NUL-terminated (may contain no NUL; \u0000 is rejected) */
    int64_t i;         /* TOML_INT */
    int b;             /* TOML_BOOL */
    toml_value **kids; /* TOML_ARRAY elements / TOML_TABLE members, in order */
    size_t n, cap;
    int header_defined; /* TOML_TABLE: opened by its own [header] */
    int implicit;       /* TOML_TABLE: 1 = parent of a header, 2 = made by a dotted key */
};

#define TOML_ERR_LEN 256

/* Parses text[0..len).  Returns the root table, or NULL with err set to
 * "line L, column C: problem". */
toml_value *toml_parse(const char *text, size_t len, char err[TOML_ERR_LEN]);
/* Reads and parses a file; errors name the file. */
toml_value *toml_parse_file(const char *path, char err[TOML_ERR_LEN]);
void toml_free(toml_value *v);

/* Member of a table by key, or NULL. */
const toml_value *toml_get(const toml_value *table, const char *key);
const char *toml_type_name(toml_type t);

#endif
