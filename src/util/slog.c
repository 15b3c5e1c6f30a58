/* Structured stderr logger (see slog.h).  The level is a relaxed atomic so
 * that the hot check needs no lock; a line is formatted into a stack buffer
 * and written with one write(2) so lines from threads never interleave. */
#include "util/slog.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static _Atomic int slog_cur_level = SLOG_INFO;
static _Atomic int slog_json_mode = 0;

static const char *const slog_names[] = {"trace", "debug", "info", "warn", "error", "off"};

int slog_level_parse(const char *name) {
    if (name == NULL)
        return -1;
    for (int i = 0; i <= SLOG_OFF; i++)
        if (strcasecmp(name, slog_names[i]) == 0)
            return i;
    if (strcasecmp(name, "warning") == 0)
        return SLOG_WARN;
    return -1;
}

const char *slog_level_name(slog_level l) { return (unsigned)l <= SLOG_OFF ? slog_names[l] : "?"; }

void slog_set_level(slog_level l) {
    atomic_store_explicit(&slog_cur_level, (int)l, memory_order_relaxed);
}
slog_level slog_get_level(void) {
    return (slog_level)atomic_load_explicit(&slog_cur_level, memory_order_relaxed);
}
void slog_set_json(int json) { atomic_store(&slog_json_mode, json ? 1 : 0); }

/* Appends s to buf as the body of a JSON string (quotes not included). */
static size_t json_escape(char *buf, size_t pos, size_t cap, const char *s, size_t n) {
    for (size_t i = 0; i < n && pos + 7 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            buf[pos++] = '\\';
            buf[pos++] = (char)c;
        } else if (c < 0x20) {
            pos += (size_t)snprintf(buf + pos, cap - pos, "\\u%04x", c);
        } else {
            buf[pos++] = (char)c;
        }
    }
    return pos;
}

/* Splits "message key=value key2=value2" into JSON fields: the message is the
 * text before the first " word=" and each pair runs to the next " word=". */
static size_t json_fields(char *out, size_t pos, size_t cap, const char *text) {
    const char *p = text, *end = text + strlen(text);
    const char *first = NULL;
    for (const char *q = p; q < end; q++) {
        if (*q == ' ') {
            const char *k = q + 1;
            while (k < end && (isalnum((unsigned char)*k) || *k == '_'))
                k++;
            if (k > q + 1 && k < end && *k == '=') {
                first = q;
                break;
            }
        }
    }
    const char *msg_end = first ? first : end;
    pos += (size_t)snprintf(out + pos, cap - pos, ",\"msg\":\"");
    pos = json_escape(out, pos, cap, p, (size_t)(msg_end - p));
    if (pos + 1 < cap)
        out[pos++] = '"';
    p = first;
    while (p && p < end && pos + 8 < cap) {
        const char *k = p + 1, *eq = strchr(k, '=');
        const char *v = eq + 1, *next = NULL, *scan = v;
        int quoted = *v == '"';
        if (quoted) { /* key="a value with spaces": up to the closing quote */
            const char *close = v + 1;
            while (close < end && !(*close == '"' && (close + 1 == end || close[1] == ' ')))
                close++;
            scan = close < end ? close : v;
            if (close >= end)
                quoted = 0;
        }
        for (const char *q = scan; q < end; q++) {
            if (*q == ' ') {
                const char *kk = q + 1;
                while (kk < end && (isalnum((unsigned char)*kk) || *kk == '_'))
                    kk++;
                if (kk > q + 1 && kk < end && *kk == '=') {
                    next = q;
                    break;
                }
            }
        }
        const char *v_end = next ? next : end;
        if (quoted && v_end - v >= 2 && v_end[-1] == '"') {
            v++;
            v_end--;
        }
        out[pos++] = ',';
        out[pos++] = '"';
        pos = json_escape(out, pos, cap, k, (size_t)(eq - k));
        if (pos + 4 < cap) {
            out[pos++] = '"';
            out[pos++] = ':';
            out[pos++] = '"';
        }
        pos = json_escape(out, pos, cap, v, (size_t)(v_end - v));
        if (pos + 1 < cap)
            out[pos++] = '"';
        p = next;
    }
    return pos;
}

/* Control characters (a newline in a client's request id, say) become
 * \n, \r, \t or \xNN, so that text read from outside cannot end the line and
 * forge the next one, nor move the cursor on a terminal. */
static void escape_controls(char *text, size_t cap) {
    char tmp[2048 * 4 + 1];
    size_t o = 0;
    int changed = 0;
    for (const char *p = text; *p && o + 5 < sizeof tmp; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != 0x7f) {
            tmp[o++] = (char)c;
            continue;
        }
        changed = 1;
        tmp[o++] = '\\';
        if (c == '\n')
            tmp[o++] = 'n';
        else if (c == '\r')
            tmp[o++] = 'r';
        else if (c == '\t')
            tmp[o++] = 't';
        else
            o += (size_t)snprintf(tmp + o, sizeof tmp - o, "x%02x", c);
    }
    tmp[o] = 0;
    if (changed && cap) { /* cut to the caller's buffer */
        size_t n = o < cap - 1 ? o : cap - 1;
        memcpy(text, tmp, n);
        text[n] = 0;
    }
}

void slog(slog_level l, const char *target, const char *fmt, ...) {
    if (l < slog_get_level() || l >= SLOG_OFF)
        return;
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);

    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char ts[64];
    snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(tv.tv_usec / 1000));

    char line[4096];
    size_t pos;
    if (atomic_load(&slog_json_mode)) {
        pos = (size_t)snprintf(line, sizeof line, "{\"ts\":\"%s\",\"level\":\"%s\",\"target\":\"",
                               ts, slog_names[l]);
        pos = json_escape(line, pos, sizeof line, target, strlen(target));
        if (pos + 1 < sizeof line)
            line[pos++] = '"';
        pos = json_fields(line, pos, sizeof line - 3, text);
        line[pos++] = '}';
    } else {
        escape_controls(text, sizeof text);
        char up[8];
        size_t i = 0;
        for (; slog_names[l][i]; i++)
            up[i] = (char)toupper((unsigned char)slog_names[l][i]);
        up[i] = 0;
        pos = (size_t)snprintf(line, sizeof line - 2, "%s %-5s %s: %s", ts, up, target, text);
        if (pos > sizeof line - 2)
            pos = sizeof line - 2;
    }
    line[pos++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, pos);
    (void)w;
}
