/* Native SHA-256: FIPS 180-4 examples, incremental == one-shot, and the trim. */
#include <string.h>

#include "check.h"
#include "filecoin/hash/sha256_native.h"
#include "util/hex.h"

static void expect_hex(const uint8_t d[32], const char *want) {
    uint8_t w[32];
    CHECK(hex_decode(w, 32, want) == 32);
    CHECK(memcmp(d, w, 32) == 0);
}

int main(void) {
    uint8_t d[32];
    sha256_native(d, "abc", 3);
    expect_hex(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha256_native(d, "", 0);
    expect_hex(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");

    /* Two-block message from FIPS 180-4, hashed in uneven pieces. */
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_native_ctx *ctx = sha256_native_new();
    CHECK(ctx != NULL);
    sha256_native_update(ctx, m, 5);
    sha256_native_update(ctx, m + 5, strlen(m) - 5);
    sha256_native_final(ctx, d);
    expect_hex(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha256_native_init(ctx); /* reusable after final */
    sha256_native_update(ctx, "abc", 3);
    sha256_native_final(ctx, d);
    expect_hex(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha256_native_free(ctx);

    sha256_trunc_native(d, "abc", 3); /* 0xad & 0x3f = 0x2d */
    expect_hex(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f200152d");
    return check_finish();
}
