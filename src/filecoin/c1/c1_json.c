/* The C1 codec's pull tokenizer: errors with JSON paths, objects, arrays,
 * integers, strings (UTF-8 checked), and a non-recursive value skipper. */
#include "filecoin/c1/c1_json.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void c1_jp_init(c1_jp *j, const void *buf, size_t len, c1_error *err, const char *prefix) {
    j->beg = j->p = buf;
    j->end = j->beg + len;
    j->err = err;
    j->prefix = prefix;
    j->depth = 0;
    j->release = 0;
    j->released = 0;
    j->more = NULL;
    j->more_ctx = NULL;
}

void c1_jp_checkpoint(c1_jp *j) {
    c1_jp_release(j);
    if (j->more)
        j->more(j, (size_t)(j->p - j->beg) + C1_STREAM_AHEAD);
}

void c1_jp_need_all(c1_jp *j) {
    if (j->more)
        j->more(j, SIZE_MAX);
}

void c1_jp_release(c1_jp *j) {
    const size_t margin = (size_t)1 << 16, step = (size_t)1 << 20;
    size_t pos = (size_t)(j->p - j->beg);
    if (!j->release || pos < margin + step)
        return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t upto = (pos - margin) & ~(page - 1);
    if (upto < j->released + step)
        return;
    /* advice only: a failure changes nothing but memory use */
    (void)madvise((void *)(uintptr_t)(j->beg + j->released), upto - j->released, MADV_DONTNEED);
    j->released = upto;
}

/* The frame stack as text: keys joined by '.', indices as [i]. */
static size_t render_path(const c1_jp *j, char *out, size_t cap) {
    size_t n = 0;
    int w = snprintf(out, cap, "%s", j->prefix);
    n = w > 0 ? (size_t)w : 0;
    if (j->depth == 0) {
        w = snprintf(out + (n < cap ? n : cap), n < cap ? cap - n : 0, "(top level)");
        return n + (w > 0 ? (size_t)w : 0);
    }
    for (unsigned d = 0; d < j->depth && n < cap; d++) {
        if (j->fr[d].key)
            w = snprintf(out + n, cap - n, "%s%s", d ? "." : "", j->fr[d].key);
        else
            w = snprintf(out + n, cap - n, "[%" PRIu32 "]", j->fr[d].index);
        n += w > 0 ? (size_t)w : 0;
    }
    return n;
}

int c1_jp_fail(c1_jp *j, c1_status st, const uint8_t *at, const char *fmt, ...) {
    c1_error *e = j->err;
    if (!e)
        return -1;
    e->status = st;
    if (at < j->beg || at > j->end) /* not in the text (e.g. an unescaped key's copy) */
        at = j->p;
    e->offset = (size_t)(at - j->beg);
    size_t n = render_path(j, e->msg, sizeof e->msg);
    if (n + 2 < sizeof e->msg) {
        e->msg[n++] = ':';
        e->msg[n++] = ' ';
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg + n, sizeof e->msg - n, fmt, ap);
        va_end(ap);
    } else {
        e->msg[sizeof e->msg - 1] = 0;
    }
    return -1;
}

static int has_lit(const c1_jp *j, const char *lit) {
    size_t n = strlen(lit);
    return (size_t)(j->end - j->p) >= n && memcmp(j->p, lit, n) == 0;
}

/* What the next value is, for messages; NULL if no JSON value starts here
 * (also for a cut-off literal such as "nul"). */
static const char *what(const c1_jp *j) {
    if (j->p >= j->end)
        return NULL;
    switch (*j->p) {
    case '{':
        return "an object";
    case '[':
        return "an array";
    case '"':
        return "a string";
    case 't':
        return has_lit(j, "true") ? "a boolean" : NULL;
    case 'f':
        return has_lit(j, "false") ? "a boolean" : NULL;
    case 'n':
        return has_lit(j, "null") ? "null" : NULL;
    case '-':
        return j->p + 1 < j->end && c1_jp_digit(j->p[1]) ? "a negative number" : NULL;
    default:
        return c1_jp_digit(*j->p) ? "a number" : NULL;
    }
}

static int fail_syntax_here(c1_jp *j, const char *expected) {
    if (j->p >= j->end)
        return c1_jp_fail(j, C1_ERR_SYNTAX, j->p, "unexpected end of input (expected %s)",
                          expected);
    uint8_t c = *j->p;
    if (c >= 0x20 && c < 0x7f)
        return c1_jp_fail(j, C1_ERR_SYNTAX, j->p, "expected %s, got '%c'", expected, c);
    return c1_jp_fail(j, C1_ERR_SYNTAX, j->p, "expected %s, got byte 0x%02x", expected, c);
}

int c1_jp_fail_type(c1_jp *j, const char *want) {
    c1_jp_ws(j);
    const char *got = what(j);
    if (!got)
        return fail_syntax_here(j, want);
    return c1_jp_fail(j, C1_ERR_TYPE, j->p, "expected %s, got %s", want, got);
}

int c1_jp_obj_begin(c1_jp *j) {
    c1_jp_ws(j);
    if (j->p < j->end && *j->p == '{') {
        j->p++;
        return 0;
    }
    return c1_jp_fail_type(j, "an object");
}

int c1_jp_obj_next(c1_jp *j, int *first, const uint8_t **key, size_t *klen) {
    c1_jp_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
        return 0;
    }
    if (!*first) {
        if (j->p >= j->end || *j->p != ',')
            return fail_syntax_here(j, "',' or '}' after an object member");
        j->p++;
        c1_jp_ws(j);
    }
    *first = 0;
    if (j->p >= j->end || *j->p != '"')
        return fail_syntax_here(j, "a string key");
    j->key_at = j->p;
    int escaped;
    if (c1_jp_string(j, key, klen, &escaped))
        return -1;
    if (escaped) {
        /* Only keys we know are compared; all are short ASCII. */
        if (*klen <= sizeof j->keybuf) {
            *klen = c1_json_unescape(j->keybuf, *key, *klen);
            *key = j->keybuf;
        }
    }
    c1_jp_ws(j);
    if (j->p >= j->end || *j->p != ':')
        return fail_syntax_here(j, "':' after an object key");
    j->p++;
    return 1;
}

int c1_jp_arr_begin(c1_jp *j, const char *want) {
    c1_jp_ws(j);
    if (j->p < j->end && *j->p == '[') {
        j->p++;
        return 0;
    }
    return c1_jp_fail_type(j, want);
}

int c1_jp_arr_next(c1_jp *j, size_t i) {
    c1_jp_ws(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
        return 0;
    }
    if (i) {
        if (j->p >= j->end || *j->p != ',')
            return fail_syntax_here(j, "',' or ']' after an array element");
        j->p++;
    }
    return 1;
}

int c1_jp_fail_excess(c1_jp *j, size_t expected, const char *noun) {
    const uint8_t *at = j->p;
    size_t n = expected;
    for (;;) {
        if (c1_jp_skip(j))
            return c1_jp_fail(j, C1_ERR_SHAPE, at, "expected %zu %s, got more", expected, noun);
        n++;
        int r = c1_jp_arr_next(j, n);
        if (r < 0)
            return c1_jp_fail(j, C1_ERR_SHAPE, at, "expected %zu %s, got more", expected, noun);
        if (r == 0)
            return c1_jp_fail(j, C1_ERR_SHAPE, at, "expected %zu %s, got %zu", expected, noun, n);
    }
}

/* A JSON number's extent from p (which starts with '-' or a digit); NULL if
 * it is not a valid number. */
static const uint8_t *number_end(const uint8_t *p, const uint8_t *e) {
    if (p < e && *p == '-')
        p++;
    if (p >= e || !c1_jp_digit(*p))
        return NULL;
    if (*p == '0')
        p++;
    else
        while (p < e && c1_jp_digit(*p))
            p++;
    if (p < e && *p == '.') {
        p++;
        if (p >= e || !c1_jp_digit(*p))
            return NULL;
        while (p < e && c1_jp_digit(*p))
            p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        if (p >= e || !c1_jp_digit(*p))
            return NULL;
        while (p < e && c1_jp_digit(*p))
            p++;
    }
    return p;
}

int c1_jp_u64(c1_jp *j, uint64_t *v) {
    c1_jp_ws(j);
    const uint8_t *s = j->p, *e = j->end;
    if (s >= e || (*s != '-' && !c1_jp_digit(*s)))
        return c1_jp_fail_type(j, "an unsigned integer");
    const uint8_t *ne = number_end(s, e);
    if (!ne)
        return c1_jp_fail(j, C1_ERR_SYNTAX, s, "malformed number");
    if (s[0] == '0' && s + 1 < e && c1_jp_digit(s[1]))
        return c1_jp_fail(j, C1_ERR_SYNTAX, s, "number with a leading zero");
    int shown = ne - s > 40 ? 40 : (int)(ne - s);
    if (*s == '-')
        return c1_jp_fail(j, C1_ERR_RANGE, s,
                          "negative number %.*s%s where an unsigned integer is "
                          "expected",
                          shown, (const char *)s, ne - s > 40 ? "..." : "");
    uint64_t x = 0;
    const uint8_t *p = s;
    for (; p < ne && c1_jp_digit(*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return c1_jp_fail(j, C1_ERR_RANGE, s, "number %.*s%s does not fit in 64 bits", shown,
                              (const char *)s, ne - s > 40 ? "..." : "");
        x = x * 10 + d;
    }
    if (p != ne)
        return c1_jp_fail(j, C1_ERR_TYPE, s,
                          "expected an unsigned integer, got %.*s (a fraction "
                          "or exponent)",
                          shown, (const char *)s);
    j->p = ne;
    *v = x;
    return 0;
}

int c1_jp_null(c1_jp *j) {
    c1_jp_ws(j);
    if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
        j->p += 4;
        return 0;
    }
    return c1_jp_fail_type(j, "null");
}

/* Length of a valid UTF-8 sequence at p (lead byte >= 0x80), or 0. */
static size_t utf8_seq(const uint8_t *p, const uint8_t *e) {
    uint8_t c = p[0];
    size_t n;
    uint32_t min, cp;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2, min = 0x80, cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3, min = 0x800, cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4, min = 0x10000, cp = c & 0x07;
    } else {
        return 0;
    }
    if ((size_t)(e - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static int hex4(const uint8_t *p, uint32_t *v) {
    uint32_t x = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = p[i];
        unsigned d = c1_jp_digit(c)                           ? (unsigned)(c - '0')
                     : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (unsigned)((c | 0x20) - 'a' + 10)
                                                              : 16u;
        if (d > 15)
            return -1;
        x = x << 4 | d;
    }
    *v = x;
    return 0;
}

/* Whether any of 8 bytes is a control byte, non-ASCII, '"' or '\\' (SWAR; a
 * false "yes" only sends the scan to the byte loop, a "no" is exact). */
static inline int special8(const uint8_t *p) {
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t v, q, b;
    memcpy(&v, p, 8);
    q = v ^ (ones * '"');
    b = v ^ (ones * '\\');
    return (((v - ones * 0x20) & ~v) | v | ((q - ones) & ~q) | ((b - ones) & ~b)) & high ? 1 : 0;
}

int c1_jp_string(c1_jp *j, const uint8_t **s, size_t *n, int *escaped) {
    c1_jp_ws(j);
    if (j->p >= j->end || *j->p != '"')
        return c1_jp_fail_type(j, "a string");
    const uint8_t *p = j->p + 1, *e = j->end;
    *s = p;
    *escaped = 0;
    for (;;) {
        /* plain ASCII runs are the common case (base64, names); a long one in
         * a file mapping is scanned a step at a time, dropping pages behind */
        const uint8_t *lim = j->release && e - p > ((ptrdiff_t)1 << 21) ? p + ((size_t)1 << 21) : e;
        while (lim - p >= 8 && !special8(p))
            p += 8;
        while (p < lim && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            p++;
        if (p == lim && lim < e) {
            j->p = p;
            c1_jp_release(j);
            continue;
        }
        if (p >= e)
            return c1_jp_fail(j, C1_ERR_SYNTAX, p, "unexpected end of input inside a string");
        uint8_t c = *p;
        if (c == '"')
            break;
        if (c < 0x20)
            return c1_jp_fail(j, C1_ERR_SYNTAX, p, "control byte 0x%02x inside a string", c);
        if (c == '\\') {
            *escaped = 1;
            if (e - p < 2)
                return c1_jp_fail(j, C1_ERR_SYNTAX, p, "unexpected end of input inside a string");
            uint8_t x = p[1];
            if (x == 'u') {
                uint32_t v;
                if (e - p < 6 || hex4(p + 2, &v))
                    return c1_jp_fail(j, C1_ERR_SYNTAX, p, "bad \\u escape");
                p += 6;
            } else if (strchr("\"\\/bfnrt", x) && x) {
                p += 2;
            } else {
                return c1_jp_fail(j, C1_ERR_SYNTAX, p, "bad escape in a string");
            }
            continue;
        }
        size_t k = utf8_seq(p, e);
        if (!k)
            return c1_jp_fail(j, C1_ERR_SYNTAX, p, "invalid UTF-8 inside a string");
        p += k;
    }
    *n = (size_t)(p - *s);
    j->p = p + 1;
    return 0;
}

static size_t put_utf8(uint8_t *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (uint8_t)(0xc0 | cp >> 6);
        o[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (uint8_t)(0xe0 | cp >> 12);
        o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | cp >> 18);
    o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

/* For strings c1_jp_string accepted: the result is never longer than n. */
size_t c1_json_unescape(uint8_t *out, const uint8_t *s, size_t n) {
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] != '\\') {
            out[o++] = s[i++];
            continue;
        }
        uint8_t x = s[i + 1];
        if (x != 'u') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            out[o++] = (uint8_t)to[strchr(from, x) - from];
            i += 2;
            continue;
        }
        uint32_t cp;
        hex4(s + i + 2, &cp);
        i += 6;
        if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u') {
            uint32_t lo;
            if (hex4(s + i + 2, &lo) == 0 && lo >= 0xdc00 && lo <= 0xdfff) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                i += 6;
            }
        }
        if (cp >= 0xd800 && cp <= 0xdfff)
            cp = 0xfffd; /* a lone surrogate: no key or base64 text matches it anyway */
        o += put_utf8(out + o, cp);
    }
    return o;
}

int c1_jp_skip(c1_jp *j) {
    /* containers open beyond j->depth: '{' or '[' */
    uint8_t stack[C1_MAX_DEPTH];
    unsigned sp = 0;
    for (;;) {
        /* a value */
        c1_jp_ws(j);
        if (j->p >= j->end)
            return fail_syntax_here(j, "a value");
        uint8_t c = *j->p;
        if (c == '{' || c == '[') {
            if (j->depth + sp + 1 >= C1_MAX_DEPTH)
                return c1_jp_fail(j, C1_ERR_SYNTAX, j->p, "nesting deeper than %d levels",
                                  C1_MAX_DEPTH);
            j->p++;
            c1_jp_ws(j);
            uint8_t close = c == '{' ? '}' : ']';
            if (j->p < j->end && *j->p == close) {
                j->p++;
                goto after_value;
            }
            stack[sp++] = c;
            if (c == '[')
                continue;
            goto key;
        } else if (c == '"') {
            const uint8_t *s;
            size_t n;
            int esc;
            if (c1_jp_string(j, &s, &n, &esc))
                return -1;
        } else if (c == '-' || c1_jp_digit(c)) {
            const uint8_t *ne = number_end(j->p, j->end);
            if (!ne)
                return c1_jp_fail(j, C1_ERR_SYNTAX, j->p, "malformed number");
            const uint8_t *z = j->p + (c == '-');
            if (*z == '0' && z + 1 < j->end && c1_jp_digit(z[1]))
                return c1_jp_fail(j, C1_ERR_SYNTAX, j->p, "number with a leading zero");
            j->p = ne;
        } else {
            static const char *const lit[3] = {"true", "false", "null"};
            int ok = 0;
            for (int i = 0; i < 3 && !ok; i++) {
                size_t l = strlen(lit[i]);
                if ((size_t)(j->end - j->p) >= l && memcmp(j->p, lit[i], l) == 0) {
                    j->p += l;
                    ok = 1;
                }
            }
            if (!ok)
                return fail_syntax_here(j, "a value");
        }
    after_value:
        for (;;) {
            if (sp == 0)
                return 0;
            c1_jp_ws(j);
            uint8_t top = stack[sp - 1], close = top == '{' ? '}' : ']';
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                if (top == '[')
                    break; /* the next value */
                goto key;
            }
            if (j->p < j->end && *j->p == close) {
                j->p++;
                sp--;
                continue;
            }
            return fail_syntax_here(j, top == '{' ? "',' or '}'" : "',' or ']'");
        }
        continue;
    key:
        c1_jp_ws(j);
        {
            const uint8_t *s;
            size_t n;
            int esc;
            if (j->p >= j->end || *j->p != '"')
                return fail_syntax_here(j, "a string key");
            if (c1_jp_string(j, &s, &n, &esc))
                return -1;
            c1_jp_ws(j);
            if (j->p >= j->end || *j->p != ':')
                return fail_syntax_here(j, "':' after an object key");
            j->p++;
        }
    }
}

int c1_jp_end(c1_jp *j) {
    c1_jp_ws(j);
    if (j->p != j->end)
        return c1_jp_fail(j, C1_ERR_SYNTAX, j->p, "trailing characters after the JSON value");
    return 0;
}

int c1_jp_domain_slow(c1_jp *j, uint8_t out[32], int k, const uint8_t *p) {
    j->p = p;
    if (k < 0) {
        if (c1_jp_arr_begin(j, "an array of 32 bytes"))
            return -1;
        k = 0;
    }
    for (; k < 32; k++) {
        int r = c1_jp_arr_next(j, (size_t)k);
        if (r < 0)
            return -1;
        if (r == 0)
            return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1, "expected 32 elements, got %d", k);
        c1_jp_push_index(j, (uint32_t)k);
        uint64_t v;
        if (c1_jp_u64(j, &v))
            return -1;
        if (v > 255)
            return c1_jp_fail(j, C1_ERR_RANGE, j->p, "%" PRIu64 " is larger than 255", v);
        c1_jp_pop(j);
        out[k] = (uint8_t)v;
    }
    int r = c1_jp_arr_next(j, 32);
    if (r < 0)
        return -1;
    if (r == 1)
        return c1_jp_fail_excess(j, 32, "elements");
    return 0;
}
