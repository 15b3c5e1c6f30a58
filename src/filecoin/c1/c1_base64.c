/* Strict standard base64 (RFC 4648 §4, with padding) for Curio's c1.json
 * wrapper: Go's encoding/json writes []byte this way and cuzk reads it with
 * Rust's base64 STANDARD engine, which rejects missing padding, characters
 * outside the alphabet (including whitespace) and non-zero unused bits.  We
 * reject the same inputs. */
#include "filecoin/c1/c1.h"

static const char g_alphabet[65] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* 0..63 for alphabet characters, 64 for '=', 255 for anything else
 * (g_alphabet inverted; test_c1_base64 checks all 256 values in each position). */
static const uint8_t g_table[256] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 62,  255, 255, 255, 63,  52,  53,  54,  55,  56,  57,  58,  59,  60,
    61,  255, 255, 255, 64,  255, 255, 255, 0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,
    11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  255, 255, 255, 255,
    255, 255, 26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,
    43,  44,  45,  46,  47,  48,  49,  50,  51,  255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255,
};

static int fail(size_t *bad, const char **why, size_t at, const char *reason) {
    *bad = at;
    *why = reason;
    return -1;
}

int c1_base64_decode(uint8_t *out, size_t *out_len, const char *in, size_t n, size_t *bad,
                     const char **why) {
    const uint8_t *t = g_table;
    const uint8_t *s = (const uint8_t *)in;
    *out_len = 0;
    if (n % 4 != 0)
        return fail(bad, why, n, "length is not a multiple of 4 (missing padding?)");
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        uint8_t a = t[s[i]], b = t[s[i + 1]], c = t[s[i + 2]], d = t[s[i + 3]];
        if ((a | b | c | d) < 64) { /* the common case: four alphabet characters */
            uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | d;
            out[o] = (uint8_t)(v >> 16);
            out[o + 1] = (uint8_t)(v >> 8);
            out[o + 2] = (uint8_t)v;
            o += 3;
            continue;
        }
        uint8_t q[4] = {a, b, c, d};
        for (int k = 0; k < 4; k++)
            if (q[k] == 255)
                return fail(bad, why, i + k, "character outside the base64 alphabet");
        /* '=' may only end the last quartet: "xx==" or "xxx=". */
        if (i + 4 != n || a == 64 || b == 64 || (c == 64 && d != 64))
            for (int k = 0; k < 4; k++)
                if (q[k] == 64)
                    return fail(bad, why, i + k, "misplaced '=' padding");
        if (c == 64) {
            if (b & 0x0f)
                return fail(bad, why, i + 1, "non-zero unused bits before padding");
            out[o++] = (uint8_t)(a << 2 | b >> 4);
        } else {
            if (c & 0x03)
                return fail(bad, why, i + 2, "non-zero unused bits before padding");
            out[o] = (uint8_t)(a << 2 | b >> 4);
            out[o + 1] = (uint8_t)(b << 4 | c >> 2);
            o += 2;
        }
    }
    *out_len = o;
    return 0;
}

void c1_base64_encode(char *out, const uint8_t *in, size_t n) {
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        *out++ = g_alphabet[v >> 18];
        *out++ = g_alphabet[(v >> 12) & 63];
        *out++ = g_alphabet[(v >> 6) & 63];
        *out++ = g_alphabet[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        *out++ = g_alphabet[v >> 18];
        *out++ = g_alphabet[(v >> 12) & 63];
        *out++ = '=';
        *out++ = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        *out++ = g_alphabet[v >> 18];
        *out++ = g_alphabet[(v >> 12) & 63];
        *out++ = g_alphabet[(v >> 6) & 63];
        *out++ = '=';
    }
}
