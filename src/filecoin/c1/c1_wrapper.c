/* The Curio wrapper and files: Phase1Out's base64 decoded (strictly) into the
 * JSON text that the bare decoder reads, and c1_decode_file.
 *
 * Large wrappers are decoded as a stream: the base64 is turned into text a
 * window ahead of the parser (C1_STREAM_AHEAD), and text (and, for files,
 * mapped input) well behind it is given back to the kernel, so a wrapper
 * costs little more than its decoded model.  The parser only sees text up to
 * the decoded frontier, so anything that would read past the window (a huge
 * unknown member inside one challenge, vanilla_proofs after
 * registered_proof) fails there; every failure of the streamed attempt is
 * therefore retried the plain way (all base64 first, then the text), which
 * decides the result and the error message. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/c1/c1_decode_internal.h"

/* base64 characters per step, a multiple of 4 (tiny in the fuzz build) */
#ifndef C1_STREAM_CHUNK
#define C1_STREAM_CHUNK ((size_t)1 << 20)
#endif
#define STREAM_CHUNK C1_STREAM_CHUNK
_Static_assert(C1_STREAM_CHUNK % 4 == 0, "base64 steps must be whole quartets");

struct c1_stream {
    const uint8_t *b64;
    size_t n, done;  /* base64 characters: all, decoded so far */
    uint8_t *text;   /* an anonymous mapping of c1_base64_max_decoded(n) bytes */
    size_t len;      /* text decoded so far */
    size_t released; /* text given back so far */
    c1_jp *outer;    /* the wrapper's parser when its text is a file mapping */
    int failed;      /* bad base64: the plain retry reports it */
};

static void stream_more(c1_jp *j, size_t want) {
    c1_stream *s = j->more_ctx;
    size_t pos = (size_t)(j->p - j->beg), page = (size_t)sysconf(_SC_PAGESIZE);
    if (pos > ((size_t)1 << 16)) { /* text well behind the parser is never read again */
        size_t upto = (pos - ((size_t)1 << 16)) & ~(page - 1);
        if (upto >= s->released + STREAM_CHUNK) {
            (void)madvise(s->text + s->released, upto - s->released, MADV_DONTNEED);
            s->released = upto;
        }
    }
    while (!s->failed && s->done < s->n && s->len < want) {
        size_t m = s->n - s->done < STREAM_CHUNK ? s->n - s->done : STREAM_CHUNK, g, bad;
        const char *why;
        if (c1_base64_decode(s->text + s->len, &g, (const char *)s->b64 + s->done, m, &bad, &why) ||
            (s->done + m < s->n && g != m / 4 * 3)) {
            s->failed = 1;
            break;
        }
        s->done += m;
        s->len += g;
        if (s->outer) {
            s->outer->p = s->b64 + s->done;
            c1_jp_release(s->outer);
        }
    }
    j->end = s->text + s->len;
}

void c1_stream_attach(c1_stream *s, c1_jp *j) {
    j->more = stream_more;
    j->more_ctx = s;
    stream_more(j, C1_STREAM_AHEAD);
}

/* The streamed attempt: C1_OK with *out, or anything else (then nothing is
 * kept, and the caller decodes the plain way). */
static c1_status try_streamed(c1_output **out, c1_jp *j, const uint8_t *b64, size_t n,
                              c1_buf mode) {
    size_t cap = c1_base64_max_decoded(n);
    void *map = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return C1_ERR_NO_MEMORY;
    c1_stream s = {.b64 = b64, .n = n, .text = map, .outer = mode == BUF_MAPPED ? j : NULL};
    c1_status st = c1_decode_text(out, map, 0, j->err, "Phase1Out:", 0, BUF_CONST, &s);
    munmap(map, cap);
    if (st == C1_OK && (s.failed || s.done != s.n)) { /* ended at a base64 error */
        c1_output_free(*out);
        *out = NULL;
        st = C1_ERR_BASE64;
    }
    return st;
}

/* Base64 from a file mapping into out, 4 MiB at a time, dropping the input
 * pages behind; '=' may only end the last chunk. */
static int base64_mapped(c1_jp *j, uint8_t *out, size_t *got, const uint8_t *b64, size_t n,
                         size_t *bad, const char **why) {
    const size_t chunk = (size_t)4 << 20; /* a multiple of 4 */
    size_t o = 0;
    for (size_t i = 0; i < n || i == 0; i += chunk) {
        size_t m = n - i < chunk ? n - i : chunk, g;
        if (c1_base64_decode(out + o, &g, (const char *)b64 + i, m, bad, why)) {
            *bad += i;
            return -1;
        }
        if (i + m < n && g != m / 4 * 3) { /* padding, but more chunks follow */
            *bad = i + m - 4;
            while (b64[*bad] != '=')
                (*bad)++;
            *why = "misplaced '=' padding";
            return -1;
        }
        o += g;
        j->p = b64 + i + m;
        c1_jp_release(j);
        if (n == 0)
            break;
    }
    *got = o;
    return 0;
}

/* Phase1Out: base64 -> JSON text -> the bare decoder.  BUF_MUTABLE decodes
 * the base64 characters in place (the output never overtakes the input), so
 * a wrapper costs no second copy of the text. */
c1_status c1_decode_wrapper(c1_output **out, c1_jp *j, const uint8_t *b64, size_t n, int escaped,
                            uint64_t sector_num, uint64_t sector_size, c1_buf mode) {
    c1_error *err = j->err;
    c1_status st = C1_ERR_SYNTAX;
    /* The string scan dropped the mapped pages it passed; reading them again
     * brings them back, so they are dropped again from the start. */
    j->released = 0;
    if (!escaped && mode != BUF_MUTABLE && n > 3 * C1_STREAM_AHEAD) {
        st = try_streamed(out, j, b64, n, mode);
        j->released = 0;
    }
    if (st == C1_OK)
        goto decoded;
    int own = escaped || mode != BUF_MUTABLE;
    uint8_t *text = own ? malloc(n ? n : 1) : (uint8_t *)b64;
    if (!text) {
        c1_jp_fail(j, C1_ERR_NO_MEMORY, b64, "out of memory (%zu bytes)", n);
        return C1_ERR_NO_MEMORY;
    }
    const char *chars = (const char *)b64;
    if (escaped) { /* JSON escapes inside base64 text are legal, if odd */
        n = c1_json_unescape(text, b64, n);
        chars = (const char *)text;
    }
    size_t got, bad;
    const char *why;
    int b = mode == BUF_MAPPED && !escaped ? base64_mapped(j, text, &got, b64, n, &bad, &why)
                                           : c1_base64_decode(text, &got, chars, n, &bad, &why);
    if (b) {
        if (own)
            free(text);
        j->depth = 0;
        c1_jp_push_key(j, "Phase1Out");
        c1_jp_fail(j, C1_ERR_BASE64, b64 + (escaped ? 0 : bad), "%s at character %zu", why, bad);
        return C1_ERR_BASE64;
    }
    st = c1_decode_text(out, text, got, err, "Phase1Out:", 0, BUF_CONST, NULL);
    if (own)
        free(text);
    if (st != C1_OK)
        return st;
decoded:
    if ((*out)->proof->shape->sector_size != sector_size) {
        j->depth = 0;
        c1_jp_push_key(j, "SectorSize");
        c1_jp_fail(j, C1_ERR_PROOF, j->beg,
                   "%" PRIu64 " does not match registered_proof %s (%" PRIu64 " bytes)",
                   sector_size, (*out)->proof->name, (*out)->proof->shape->sector_size);
        c1_output_free(*out);
        *out = NULL;
        return C1_ERR_PROOF;
    }
    (*out)->wrapped = 1;
    (*out)->sector_num = sector_num;
    return C1_OK;
}

c1_status c1_decode_file(c1_output **out, const char *path, c1_error *err) {
    c1_error local;
    if (!err)
        err = &local;
    *out = NULL;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        /* a regular file: mapped, and its pages dropped as the decoder passes */
        size_t len = (size_t)st.st_size;
        void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (map != MAP_FAILED) {
            (void)madvise(map, len, MADV_SEQUENTIAL);
            c1_status status = c1_decode_top(out, map, len, err, BUF_MAPPED);
            munmap(map, len);
            return status;
        }
    } else if (fd >= 0) {
        close(fd);
    }
    /* a pipe, an empty file, or no mmap: read it */
    FILE *f = fopen(path, "rb");
    if (!f) {
        err->status = C1_ERR_IO;
        err->offset = 0;
        snprintf(err->msg, sizeof err->msg, "%s: cannot open", path);
        return C1_ERR_IO;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : (size_t)1 << 20;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                err->status = C1_ERR_NO_MEMORY;
                err->offset = 0;
                snprintf(err->msg, sizeof err->msg, "%s: out of memory reading", path);
                return C1_ERR_NO_MEMORY;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        err->status = C1_ERR_IO;
        err->offset = len;
        snprintf(err->msg, sizeof err->msg, "%s: read error", path);
        return C1_ERR_IO;
    }
    c1_status status = c1_decode_mutable(out, buf, len, err);
    free(buf);
    return status;
}
