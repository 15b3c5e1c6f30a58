/* Hex text <-> bytes. */
#ifndef CUZK_UTIL_HEX_H
#define CUZK_UTIL_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Decodes hex (no prefix, either case) into out; returns the byte count, or
 * -1 for odd length, a non-hex character, or more than cap bytes. */
long hex_decode(uint8_t *out, size_t cap, const char *hex);
/* Writes 2n lowercase hex digits and a terminating NUL. */
void hex_encode(char *out, const uint8_t *in, size_t n);

#endif
