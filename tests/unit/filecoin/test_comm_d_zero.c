/* comm_d of all-zero sectors (filecoin-facts §5.4, go-commp-utils' zerocomm
 * table), and agreement with the independent reference
 * reference/verify/commd_zero.py when /usr/bin/python3 is there. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/merkle/comm_d_zero.h"
#include "filecoin/proof_types.h"
#include "util/hex.h"

int main(void) {
    static const char *want[5] = {
        "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",
        "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c",
        "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06",
        "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e",
        "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02",
    };
    char hex[5][65];
    for (unsigned i = 0; i < 5; i++) {
        uint8_t d[32];
        CHECK(fc_comm_d_zero(d, fc_shape_at(i)->sector_size) == 0);
        hex_encode(hex[i], d, 32);
        CHECK(strcmp(hex[i], want[i]) == 0);
    }
    /* go-commp-utils index 0: a 128-byte piece (level 2). */
    uint8_t d[32];
    char h[65];
    CHECK(fc_comm_d_zero(d, 128) == 0);
    hex_encode(h, d, 32);
    CHECK(strcmp(h, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333") == 0);
    CHECK(fc_comm_d_zero(d, 32) == 0); /* one zero leaf */
    uint8_t zero[32] = {0};
    CHECK_MEM(d, zero, 32);
    CHECK(fc_comm_d_zero(d, 3000) == -1);
    CHECK(fc_comm_d_zero(d, 16) == -1);

    const char *shared = getenv("CUZK_SHARED");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/reference/verify/commd_zero.py 2>/dev/null",
             shared ? shared : "../shared");
    FILE *p = popen(cmd, "r");
    if (p) {
        char out[8192];
        size_t n = fread(out, 1, sizeof out - 1, p);
        out[n] = 0;
        int rc = pclose(p);
        if (rc == 0) {
            for (unsigned i = 0; i < 5; i++)
                CHECK(strstr(out, hex[i]) != NULL);
        } else {
            printf("commd_zero.py not run (exit %d): the published table above still checks\n", rc);
        }
    }
    return check_finish();
}
