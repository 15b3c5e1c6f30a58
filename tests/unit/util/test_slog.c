/* util/slog: text read from outside (a request id with a newline, say)
 * cannot end a log line and forge the next one, in text or JSON format. */
#include <unistd.h>

#include "check.h"
#include "util/slog.h"

/* Runs one slog call with stderr sent to a temporary file; returns what it wrote. */
static void capture(int json, const char *value, char *out, size_t cap) {
    FILE *tmp = tmpfile();
    int saved = dup(STDERR_FILENO);
    fflush(stderr);
    dup2(fileno(tmp), STDERR_FILENO);
    slog_set_json(json);
    slog(SLOG_WARN, "rpc", "submit rejected request_id=%s code=%s", value, "INVALID_ARGUMENT");
    slog_set_json(0);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, cap - 1, tmp);
    out[n] = 0;
    fclose(tmp);
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

int main(void) {
    char buf[8192];
    const char *forged = "porep-1-2\n2026-12-02T00:00:00.000Z ERROR daemon: forged line\r\x1b[2J";
    for (int json = 0; json <= 1; json++) {
        capture(json, forged, buf, sizeof buf);
        CHECK(count_lines(buf) == 1);
        CHECK(buf[strlen(buf) - 1] == '\n');
        CHECK(strchr(buf, '\r') == NULL);
        CHECK(strchr(buf, 0x1b) == NULL);
        CHECK(strstr(buf, "forged line") != NULL); /* kept, readable, on the same line */
        if (!json) {
            CHECK(strstr(buf, "porep-1-2\\n2026") != NULL);
            CHECK(strstr(buf, "\\x1b[2J") != NULL);
        }
    }
    /* ordinary text is left as it is */
    capture(0, "porep-1000-7", buf, sizeof buf);
    CHECK(strstr(buf, "request_id=porep-1000-7 code=INVALID_ARGUMENT\n") != NULL);
    return check_finish();
}
