/* Internal to the C1 decoder (c1_decode.c: the schema; c1_wrapper.c: the
 * Curio wrapper, streaming base64 and files). */
#ifndef CUZK_FILECOIN_C1_DECODE_INTERNAL_H
#define CUZK_FILECOIN_C1_DECODE_INTERNAL_H

#include "filecoin/c1/c1.h"
#include "filecoin/c1/c1_json.h"

/* What the decoder may do with its input buffer. */
typedef enum {
    BUF_CONST,   /* nothing: a wrapper's base64 goes to a new buffer */
    BUF_MUTABLE, /* overwrite it: base64 decoded in place */
    BUF_MAPPED   /* a read-only file mapping: drop pages once consumed */
} c1_buf;

/* Base64 being decoded a window ahead of the parser (c1_wrapper.c). */
typedef struct c1_stream c1_stream;

/* The top level of the text in buf (outer: wrapper keys are known).  With
 * stream, buf is the stream's text buffer and len is ignored: the parser is
 * fed through c1_jp's "more" hook. */
c1_status c1_decode_text(c1_output **out, const void *buf, size_t len, c1_error *err,
                         const char *prefix, int outer, c1_buf mode, c1_stream *stream);
c1_status c1_decode_top(c1_output **out, const void *buf, size_t len, c1_error *err, c1_buf mode);
/* Phase1Out's base64 (n characters at b64, inside j's text) -> the bare
 * decoder; then SectorSize must match. */
c1_status c1_decode_wrapper(c1_output **out, c1_jp *j, const uint8_t *b64, size_t n, int escaped,
                            uint64_t sector_num, uint64_t sector_size, c1_buf mode);
/* Sets up j to be fed by the stream (c1_wrapper.c). */
void c1_stream_attach(c1_stream *s, c1_jp *j);

#endif
