/* TOML subset reader (see toml.h).  A recursive-descent scanner over the
 * whole text; `cur` is the table that [header] lines select.  Every error
 * carries the line and column where the scanner stopped. */
#include "util/toml.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s, *end, *line_start;
    int line;
    char *err;
    int failed;
} scanner;

static void fail(scanner *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(scanner *sc, const char *fmt, ...) {
    if (sc->failed)
        return;
    sc->failed = 1;
    int n = snprintf(sc->err, TOML_ERR_LEN, "line %d, column %d: ", sc->line,
                     (int)(sc->s - sc->line_start) + 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sc->err + n, TOML_ERR_LEN - (size_t)n, fmt, ap);
    va_end(ap);
}

const char *toml_type_name(toml_type t) {
    static const char *const names[] = {"string", "integer", "boolean", "array", "table"};
    return (unsigned)t <= TOML_TABLE ? names[t] : "?";
}

static toml_value *value_new(toml_type t, int line) {
    toml_value *v = calloc(1, sizeof *v);
    if (v) {
        v->type = t;
        v->line = line;
    }
    return v;
}

void toml_free(toml_value *v) {
    if (v == NULL)
        return;
    for (size_t i = 0; i < v->n; i++)
        toml_free(v->kids[i]);
    free(v->kids);
    free(v->key);
    free(v->str);
    free(v);
}

static int push_kid(toml_value *parent, toml_value *kid) {
    if (parent->n == parent->cap) {
        size_t cap = parent->cap ? parent->cap * 2 : 8;
        toml_value **k = realloc(parent->kids, cap * sizeof *k);
        if (k == NULL)
            return -1;
        parent->kids = k;
        parent->cap = cap;
    }
    parent->kids[parent->n++] = kid;
    return 0;
}

const toml_value *toml_get(const toml_value *table, const char *key) {
    if (table == NULL || table->type != TOML_TABLE)
        return NULL;
    for (size_t i = 0; i < table->n; i++)
        if (strcmp(table->kids[i]->key, key) == 0)
            return table->kids[i];
    return NULL;
}

/* ---- lexical helpers ------------------------------------------------------ */

static int at_end(const scanner *sc) { return sc->s >= sc->end; }
static int peek(const scanner *sc) { return at_end(sc) ? -1 : (unsigned char)*sc->s; }

static void skip_ws(scanner *sc) {
    while (!at_end(sc) && (*sc->s == ' ' || *sc->s == '\t'))
        sc->s++;
}

/* A comment runs to the end of the line; control characters other than tab
 * are not allowed in it (TOML 1.0). */
static void skip_comment(scanner *sc) {
    if (peek(sc) != '#')
        return;
    while (!at_end(sc) && *sc->s != '\n') {
        unsigned char c = (unsigned char)*sc->s;
        if ((c < 0x20 && c != '\t' && !(c == '\r' && sc->s + 1 < sc->end && sc->s[1] == '\n')) ||
            c == 0x7f) {
            fail(sc, "control character 0x%02x in a comment", c);
            return;
        }
        sc->s++;
    }
}

/* Consumes a newline (LF or CRLF); returns 0 if there is none here. */
static int eat_newline(scanner *sc) {
    if (peek(sc) == '\r' && sc->s + 1 < sc->end && sc->s[1] == '\n')
        sc->s++;
    if (peek(sc) == '\n') {
        sc->s++;
        sc->line++;
        sc->line_start = sc->s;
        return 1;
    }
    return 0;
}

/* After a value or header: optional blanks and comment, then a newline or EOF. */
static void end_of_line(scanner *sc) {
    skip_ws(sc);
    skip_comment(sc);
    if (sc->failed || at_end(sc))
        return;
    if (!eat_newline(sc))
        fail(sc, "expected the end of the line, found '%c'", *sc->s);
}

/* Blanks, comments and newlines inside arrays. */
static void skip_ws_nl(scanner *sc) {
    for (;;) {
        skip_ws(sc);
        skip_comment(sc);
        if (sc->failed || !eat_newline(sc))
            return;
    }
}

static int is_bare(int c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

/* Appends the UTF-8 encoding of code point cp. */
static int put_utf8(char *out, size_t *n, uint32_t cp) {
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xc0 | (cp >> 6));
        out[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xe0 | (cp >> 12));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else {
        out[(*n)++] = (char)(0xf0 | (cp >> 18));
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*n)++] = (char)(0x80 | (cp & 0x3f));
    }
    return 0;
}

/* A single-line basic ("...") or literal ('...') string; returns a malloc'd
 * copy with escapes resolved, or NULL after fail(). */
static char *scan_string(scanner *sc) {
    char q = *sc->s;
    if (sc->s + 2 < sc->end && sc->s[1] == q && sc->s[2] == q) {
        fail(sc, "multi-line strings are not supported");
        return NULL;
    }
    sc->s++;
    size_t cap = 64, n = 0;
    char *out = malloc(cap);
    if (out == NULL) {
        fail(sc, "out of memory");
        return NULL;
    }
    for (;;) {
        if (at_end(sc) || *sc->s == '\n' || *sc->s == '\r') {
            fail(sc, "unterminated string");
            break;
        }
        if (n + 8 >= cap) {
            char *o = realloc(out, cap *= 2);
            if (o == NULL) {
                fail(sc, "out of memory");
                break;
            }
            out = o;
        }
        unsigned char c = (unsigned char)*sc->s;
        if (c == (unsigned char)q) {
            sc->s++;
            out[n] = 0;
            return out;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fail(sc, "control character 0x%02x in a string", c);
            break;
        }
        if (c != '\\' || q == '\'') {
            out[n++] = (char)c;
            sc->s++;
            continue;
        }
        sc->s++; /* backslash */
        int e = peek(sc);
        sc->s++;
        switch (e) {
        case 'b':
            out[n++] = '\b';
            continue;
        case 't':
            out[n++] = '\t';
            continue;
        case 'n':
            out[n++] = '\n';
            continue;
        case 'f':
            out[n++] = '\f';
            continue;
        case 'r':
            out[n++] = '\r';
            continue;
        case '"':
            out[n++] = '"';
            continue;
        case '\\':
            out[n++] = '\\';
            continue;
        case 'u':
        case 'U': {
            int digits = e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            for (int i = 0; i < digits; i++) {
                int h = peek(sc);
                int d = (h >= '0' && h <= '9')   ? h - '0'
                        : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                        : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                                 : -1;
                if (d < 0) {
                    fail(sc, "\\%c needs %d hex digits", e, digits);
                    free(out);
                    return NULL;
                }
                cp = cp * 16 + (uint32_t)d;
                sc->s++;
            }
            if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                fail(sc, "invalid or unsupported unicode escape U+%04X", cp);
                break;
            }
            put_utf8(out, &n, cp);
            continue;
        }
        default:
            sc->s--;
            fail(sc, "invalid escape sequence in a string");
            break;
        }
        break;
    }
    free(out);
    return NULL;
}

/* One key part: bare or quoted. */
static char *scan_key_part(scanner *sc) {
    int c = peek(sc);
    if (c == '"' || c == '\'')
        return scan_string(sc);
    const char *start = sc->s;
    while (!at_end(sc) && is_bare((unsigned char)*sc->s))
        sc->s++;
    if (sc->s == start) {
        if (c < 0)
            fail(sc, "expected a key, found the end of the file");
        else
            fail(sc, "expected a key, found '%c'", c);
        return NULL;
    }
    char *k = malloc((size_t)(sc->s - start) + 1);
    if (k == NULL) {
        fail(sc, "out of memory");
        return NULL;
    }
    memcpy(k, start, (size_t)(sc->s - start));
    k[sc->s - start] = 0;
    return k;
}

static void free_parts(char *parts[], int n) {
    for (int i = 0; i < n; i++)
        free(parts[i]);
}

/* A dotted key: parts[0..*n).  On failure nothing is left allocated. */
#define MAX_KEY_PARTS 16
static int scan_key(scanner *sc, char *parts[MAX_KEY_PARTS], int *n) {
    *n = 0;
    for (;;) {
        skip_ws(sc);
        if (*n == MAX_KEY_PARTS) {
            fail(sc, "key has more than %d parts", MAX_KEY_PARTS);
            free_parts(parts, *n);
            return -1;
        }
        char *p = scan_key_part(sc);
        if (p == NULL) {
            free_parts(parts, *n); /* "a.b." or "a..b": the parts before */
            return -1;
        }
        parts[(*n)++] = p;
        skip_ws(sc);
        if (peek(sc) != '.')
            return 0;
        sc->s++;
    }
}

/* ---- values --------------------------------------------------------------- */

static toml_value *scan_value(scanner *sc, int depth);

static int isdigit4(const char *p) {
    for (int i = 0; i < 4; i++)
        if (!isdigit((unsigned char)p[i]))
            return 0;
    return 1;
}

static toml_value *scan_integer(scanner *sc) {
    const char *start = sc->s;
    while (!at_end(sc) &&
           (is_bare((unsigned char)*sc->s) || *sc->s == '+' || *sc->s == '.' || *sc->s == ':'))
        sc->s++;
    size_t len = (size_t)(sc->s - start);
    char tok[80];
    if (len == 0 || len >= sizeof tok) {
        sc->s = start;
        fail(sc, "invalid value");
        return NULL;
    }
    memcpy(tok, start, len);
    tok[len] = 0;
    const char *p = tok;
    int is_date = len >= 10 && isdigit4(p) && p[4] == '-' && p[7] == '-';
    int is_time =
        len >= 8 && p[2] == ':' && isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]);
    if (is_date || is_time) {
        sc->s = start;
        fail(sc, "dates and times are not supported (\"%s\")", tok);
        return NULL;
    }
    if (strchr(p, ':') || (strchr(p, '.') && strchr(p, '.') != strrchr(p, '.'))) {
        sc->s = start;
        fail(sc, "invalid value \"%s\" (strings need quotes)", tok);
        return NULL;
    }
    if (strcmp(p, "inf") == 0 || strcmp(p, "nan") == 0 || strcmp(p, "+inf") == 0 ||
        strcmp(p, "-inf") == 0 || strcmp(p, "+nan") == 0 || strcmp(p, "-nan") == 0 ||
        (strpbrk(p, ".eE") && !(p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) &&
         strchr("+-0123456789", p[0]))) {
        sc->s = start;
        fail(sc, "floating-point values are not supported (\"%s\")", tok);
        return NULL;
    }
    int neg = 0, base = 10;
    if (*p == '+' || *p == '-') {
        neg = *p == '-';
        p++;
    } else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'o' || p[1] == 'b')) {
        base = p[1] == 'x' ? 16 : p[1] == 'o' ? 8 : 2;
        p += 2;
    }
    if (base == 10 && p[0] == '0' && p[1] != 0) {
        sc->s = start;
        fail(sc, "leading zeros are not allowed in integers (\"%s\")", tok);
        return NULL;
    }
    /* digits with single underscores between them */
    char digits[80];
    size_t nd = 0;
    int prev_digit = 0;
    for (; *p; p++) {
        int c = (unsigned char)*p;
        int d = (c >= '0' && c <= '9')   ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : -1;
        if (c == '_' && prev_digit && p[1] != 0) {
            prev_digit = 0;
            continue;
        }
        if (d < 0 || d >= base) {
            sc->s = start;
            fail(sc, "invalid value \"%s\" (expected a string, integer, boolean or array)", tok);
            return NULL;
        }
        digits[nd++] = (char)c;
        prev_digit = 1;
    }
    digits[nd] = 0;
    if (nd == 0 || !prev_digit) {
        sc->s = start;
        fail(sc, "invalid integer \"%s\"", tok);
        return NULL;
    }
    errno = 0;
    unsigned long long u = strtoull(digits, NULL, base);
    if (errno == ERANGE || (!neg && u > (unsigned long long)INT64_MAX) ||
        (neg && u > (unsigned long long)INT64_MAX + 1)) {
        sc->s = start;
        fail(sc, "integer \"%s\" does not fit in 64 bits", tok);
        return NULL;
    }
    toml_value *v = value_new(TOML_INT, sc->line);
    if (v == NULL) {
        fail(sc, "out of memory");
        return NULL;
    }
    v->i = neg ? (int64_t)(0 - u) : (int64_t)u;
    return v;
}

static toml_value *scan_array(scanner *sc, int depth) {
    toml_value *arr = value_new(TOML_ARRAY, sc->line);
    if (arr == NULL) {
        fail(sc, "out of memory");
        return NULL;
    }
    sc->s++; /* '[' */
    for (;;) {
        skip_ws_nl(sc);
        if (sc->failed)
            break;
        if (peek(sc) == ']') {
            sc->s++;
            return arr;
        }
        toml_value *el = scan_value(sc, depth + 1);
        if (el == NULL)
            break;
        if (push_kid(arr, el) != 0) {
            toml_free(el);
            fail(sc, "out of memory");
            break;
        }
        skip_ws_nl(sc);
        if (sc->failed)
            break;
        if (peek(sc) == ',') {
            sc->s++;
            continue;
        }
        if (peek(sc) == ']') {
            sc->s++;
            return arr;
        }
        if (at_end(sc))
            fail(sc, "unterminated array");
        else
            fail(sc, "expected ',' or ']' in an array, found '%c'", *sc->s);
        break;
    }
    toml_free(arr);
    return NULL;
}

static toml_value *scan_value(scanner *sc, int depth) {
    if (depth > 32) {
        fail(sc, "arrays nested too deeply");
        return NULL;
    }
    int c = peek(sc);
    if (c == '"' || c == '\'') {
        int line = sc->line;
        char *s = scan_string(sc);
        if (s == NULL)
            return NULL;
        toml_value *v = value_new(TOML_STRING, line);
        if (v == NULL) {
            free(s);
            fail(sc, "out of memory");
            return NULL;
        }
        v->str = s;
        return v;
    }
    if (c == '[')
        return scan_array(sc, depth);
    if (c == '{') {
        fail(sc, "inline tables are not supported");
        return NULL;
    }
    if (c < 0 || c == '\n' || c == '\r' || c == '#') {
        fail(sc, "expected a value");
        return NULL;
    }
    size_t rest = (size_t)(sc->end - sc->s);
    for (int b = 0; b < 2; b++) {
        const char *word = b ? "true" : "false";
        size_t wl = strlen(word);
        if (rest >= wl && memcmp(sc->s, word, wl) == 0 &&
            (rest == wl || !is_bare((unsigned char)sc->s[wl]))) {
            toml_value *v = value_new(TOML_BOOL, sc->line);
            if (v == NULL) {
                fail(sc, "out of memory");
                return NULL;
            }
            v->b = b;
            sc->s += wl;
            return v;
        }
    }
    return scan_integer(sc);
}

/* ---- tables and key/value lines ------------------------------------------ */

/* Walks/creates the tables named by parts[0..n) below t.  `header` = 1 for a
 * [header] (the last table must not have been defined by a header before). */
static toml_value *descend(scanner *sc, toml_value *t, char *parts[], int n, int header) {
    for (int i = 0; i < n; i++) {
        toml_value *next = (toml_value *)toml_get(t, parts[i]);
        if (next == NULL) {
            next = value_new(TOML_TABLE, header && i == n - 1 ? sc->line : 0);
            if (next == NULL || (next->key = strdup(parts[i])) == NULL || push_kid(t, next) != 0) {
                toml_free(next);
                fail(sc, "out of memory");
                return NULL;
            }
            /* 1: parent of a [header]; 2: made by a dotted key (never re-opened by a header) */
            next->implicit = header ? (i == n - 1 ? 0 : 1) : 2;
        } else if (next->type != TOML_TABLE) {
            fail(sc, "key \"%s\" (line %d) is a %s, not a table", parts[i], next->line,
                 toml_type_name(next->type));
            return NULL;
        } else if (header && i == n - 1) {
            if (next->header_defined || next->implicit != 1) {
                fail(sc, "table [%s] is defined twice (first on line %d)", parts[i], next->line);
                return NULL;
            }
            next->implicit = 0;
            next->line = sc->line;
        } else if (!header && next->header_defined) {
            /* a dotted key may not extend a table that has its own [header] */
            fail(sc, "dotted key extends table \"%s\" defined on line %d", parts[i], next->line);
            return NULL;
        }
        if (header && i == n - 1)
            next->header_defined = 1;
        t = next;
    }
    return t;
}

static void scan_header(scanner *sc, toml_value *root, toml_value **cur) {
    sc->s++; /* '[' */
    if (peek(sc) == '[') {
        fail(sc, "arrays of tables ([[...]]) are not supported");
        return;
    }
    char *parts[MAX_KEY_PARTS];
    int n;
    if (scan_key(sc, parts, &n) != 0)
        return;
    skip_ws(sc);
    if (peek(sc) != ']') {
        fail(sc, "expected ']' to close the table header");
        free_parts(parts, n);
        return;
    }
    sc->s++;
    toml_value *t = descend(sc, root, parts, n, 1);
    free_parts(parts, n);
    if (t) {
        *cur = t;
        end_of_line(sc);
    }
}

static void scan_keyval(scanner *sc, toml_value *cur) {
    int line = sc->line;
    char *parts[MAX_KEY_PARTS];
    int n;
    if (scan_key(sc, parts, &n) != 0)
        return;
    skip_ws(sc);
    if (peek(sc) != '=') {
        fail(sc, "expected '=' after key \"%s\"", parts[n - 1]);
        free_parts(parts, n);
        return;
    }
    sc->s++;
    skip_ws(sc);
    toml_value *t = descend(sc, cur, parts, n - 1, 0);
    toml_value *v = t ? scan_value(sc, 0) : NULL;
    if (v != NULL) {
        const toml_value *old = toml_get(t, parts[n - 1]);
        if (old != NULL) {
            fail(sc, "key \"%s\" is defined twice (first on line %d)", parts[n - 1], old->line);
            toml_free(v);
        } else {
            v->line = line;
            v->key = parts[n - 1];
            parts[n - 1] = NULL;
            if (push_kid(t, v) != 0) {
                toml_free(v);
                fail(sc, "out of memory");
            }
        }
    }
    free_parts(parts, n);
    if (!sc->failed)
        end_of_line(sc);
}

toml_value *toml_parse(const char *text, size_t len, char err[TOML_ERR_LEN]) {
    scanner sc = {text, text + len, text, 1, err, 0};
    err[0] = 0;
    toml_value *root = value_new(TOML_TABLE, 0);
    if (root == NULL) {
        snprintf(err, TOML_ERR_LEN, "out of memory");
        return NULL;
    }
    if (memchr(text, 0, len) != NULL) {
        snprintf(err, TOML_ERR_LEN, "line 1, column 1: the file contains a NUL byte");
        toml_free(root);
        return NULL;
    }
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) /* UTF-8 byte-order mark */
        sc.s += 3;
    toml_value *cur = root;
    while (!sc.failed && !at_end(&sc)) {
        skip_ws(&sc);
        int c = peek(&sc);
        if (c == '#')
            skip_comment(&sc);
        else if (c == '[')
            scan_header(&sc, root, &cur);
        else if (c == '\n' || c == '\r' || c < 0)
            ;
        else
            scan_keyval(&sc, cur);
        if (sc.failed || at_end(&sc))
            break;
        if (peek(&sc) == '\n' || peek(&sc) == '\r') {
            if (!eat_newline(&sc))
                fail(&sc, "stray carriage return");
        }
    }
    if (sc.failed) {
        toml_free(root);
        return NULL;
    }
    return root;
}

toml_value *toml_parse_file(const char *path, char err[TOML_ERR_LEN]) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, TOML_ERR_LEN, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 14, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap >= (64u << 20)) {
            fclose(f);
            free(buf);
            snprintf(err, TOML_ERR_LEN, "%s: larger than 64 MiB", path);
            return NULL;
        }
        char *b = realloc(buf, cap *= 2);
        if (b == NULL)
            free(buf);
        buf = b;
    }
    int rerr = ferror(f);
    fclose(f);
    if (buf == NULL || rerr) {
        free(buf);
        snprintf(err, TOML_ERR_LEN, "%s: read error", path);
        return NULL;
    }
    char inner[TOML_ERR_LEN];
    toml_value *root = toml_parse(buf, n, inner);
    free(buf);
    if (root == NULL)
        snprintf(err, TOML_ERR_LEN, "%s: %.200s", path, inner);
    return root;
}
