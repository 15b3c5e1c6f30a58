/* A small pull tokenizer for the C1 codec (internal to src/filecoin/c1_*.c).
 *
 * The decoder walks the schema and asks for exactly the token it expects next,
 * so values go straight into the model: no token list, no DOM.  The JSON path
 * is kept as a stack of frames (a key or an array index) and only rendered
 * into text when something fails; every failure fills the caller's c1_error
 * once (the first problem) and returns -1, which callers pass straight up.
 *
 * Grammar: RFC 8259 JSON.  Numbers where the schema wants integers must be
 * non-negative integers without fraction or exponent; unknown keys are
 * skipped with a full syntax check; strings are checked for UTF-8. */
#ifndef CUZK_FILECOIN_C1_JSON_H
#define CUZK_FILECOIN_C1_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"

typedef struct {
    const char *key; /* NULL: an index frame */
    uint32_t index;
} c1_frame;

/* How far ahead of the parser a streamed text is decoded (c1_wrapper.c);
 * the fuzz build makes it tiny to exercise the stream and its retry. */
#ifndef C1_STREAM_AHEAD
#define C1_STREAM_AHEAD ((size_t)4 << 20)
#endif

typedef struct c1_jp {
    const uint8_t *beg, *p, *end;
    c1_error *err;
    const char *prefix; /* put before the path in messages: "" or "Phase1Out:" */
    unsigned depth;
    c1_frame fr[C1_MAX_DEPTH];
    uint8_t keybuf[64];    /* an unescaped key */
    char skipkey[64];      /* the unknown key being skipped, for messages */
    const uint8_t *key_at; /* the opening quote of the last key read */
    /* a streamed text: makes at least `want` bytes readable (or all there
     * are) and moves end; NULL for a text that is all there */
    void (*more)(struct c1_jp *j, size_t want);
    void *more_ctx;
    int release;     /* beg is a read-only file mapping: drop pages behind p */
    size_t released; /* bytes of it dropped so far */
} c1_jp;

void c1_jp_init(c1_jp *j, const void *buf, size_t len, c1_error *err, const char *prefix);

/* With j->release: lets the kernel drop the mapped input pages well behind
 * j->p (they are re-read from the file if ever touched again), so decoding a
 * file costs little more memory than its result.  Called between challenges. */
void c1_jp_release(c1_jp *j);

/* Between challenges: c1_jp_release, and a streamed text decoded further. */
void c1_jp_checkpoint(c1_jp *j);
/* A streamed text decoded to its end (before the final end-of-input check). */
void c1_jp_need_all(c1_jp *j);

/* Fills j->err with status st at position at and message "<path>: <fmt>";
 * returns -1.  The path is the frame stack. */
int c1_jp_fail(c1_jp *j, c1_status st, const uint8_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "expected <want>, got <what is there>" (a syntax error at end of input or
 * on a byte that starts no JSON value, else a type error). */
int c1_jp_fail_type(c1_jp *j, const char *want);

static inline void c1_jp_push_key(c1_jp *j, const char *key) {
    j->fr[j->depth].key = key;
    j->fr[j->depth++].index = 0;
}
static inline void c1_jp_push_index(c1_jp *j, uint32_t i) {
    j->fr[j->depth].key = NULL;
    j->fr[j->depth++].index = i;
}
static inline void c1_jp_pop(c1_jp *j) { j->depth--; }

static inline int c1_jp_is_ws(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
static inline void c1_jp_ws(c1_jp *j) {
    while (j->p < j->end && c1_jp_is_ws(*j->p))
        j->p++;
}

/* Objects: begin checks for '{'; next returns 1 with the key read and ':'
 * consumed, 0 after the closing '}', -1 on error.  *first starts at 1. */
int c1_jp_obj_begin(c1_jp *j);
int c1_jp_obj_next(c1_jp *j, int *first, const uint8_t **key, size_t *klen);
/* Arrays: begin checks for '['; next(i) returns 1 if element i follows, 0
 * after the closing ']', -1 on error. */
int c1_jp_arr_begin(c1_jp *j, const char *want);
int c1_jp_arr_next(c1_jp *j, size_t i);
/* At element `expected` (one too many): counts the rest and fails with
 * "expected <expected> <noun>, got <count>". */
int c1_jp_fail_excess(c1_jp *j, size_t expected, const char *noun);

int c1_jp_u64(c1_jp *j, uint64_t *v);
int c1_jp_null(c1_jp *j);
/* A string's raw bytes between the quotes; *escaped says whether it holds
 * backslash escapes (c1_json_unescape turns them into bytes). */
int c1_jp_string(c1_jp *j, const uint8_t **s, size_t *n, int *escaped);
size_t c1_json_unescape(uint8_t *out, const uint8_t *s, size_t n);
/* Skips one value of any type, checking its syntax. */
int c1_jp_skip(c1_jp *j);
/* Whitespace, then the end of the input. */
int c1_jp_end(c1_jp *j);

/* Resumes a Domain at element k (k < 0: before the '['); p is just after
 * the '[' (k == 0) or after element k - 1.  Handles every error. */
int c1_jp_domain_slow(c1_jp *j, uint8_t out[32], int k, const uint8_t *p);

static inline int c1_jp_digit(uint8_t c) { return (unsigned)(c - '0') <= 9; }

/* A Domain: an array of exactly 32 integers 0..255.  The fast path handles
 * serde's compact form; anything else (whitespace, errors) goes to the slow
 * path. */
static inline int c1_jp_domain(c1_jp *j, uint8_t out[32]) {
    const uint8_t *p = j->p, *e = j->end;
    while (p < e && c1_jp_is_ws(*p))
        p++;
    if (p >= e || *p != '[')
        return c1_jp_domain_slow(j, out, -1, p);
    const uint8_t *mark = ++p;
    for (int k = 0; k < 32; k++) {
        if (k) {
            if (p < e && *p == ',')
                p++;
            else
                return c1_jp_domain_slow(j, out, k, mark);
        }
        /* one to three digits, no leading zero, then ',' or ']' */
        if (e - p < 4 || !c1_jp_digit(p[0]))
            return c1_jp_domain_slow(j, out, k, mark);
        unsigned v = (unsigned)(p[0] - '0');
        if (c1_jp_digit(p[1])) {
            if (v == 0)
                return c1_jp_domain_slow(j, out, k, mark);
            v = v * 10 + (unsigned)(p[1] - '0');
            if (c1_jp_digit(p[2])) {
                v = v * 10 + (unsigned)(p[2] - '0');
                p += 3;
            } else {
                p += 2;
            }
        } else {
            p += 1;
        }
        if (v > 255 || (*p != ',' && *p != ']'))
            return c1_jp_domain_slow(j, out, k, mark);
        out[k] = (uint8_t)v;
        mark = p;
    }
    if (p < e && *p == ']') {
        j->p = p + 1;
        return 0;
    }
    return c1_jp_domain_slow(j, out, 32, mark);
}

#endif
