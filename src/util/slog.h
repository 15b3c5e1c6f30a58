/* Structured log lines on stderr.
 *
 * One line per event: "2026-11-30T13:46:05.123Z INFO  server: message key=value ...",
 * or one JSON object per line when the format is json.  Levels trace..error;
 * lines below the current level cost one comparison.  Thread-safe: each line
 * is written with a single write(2) of a buffer formatted on the stack. */
#ifndef CUZK_UTIL_SLOG_H
#define CUZK_UTIL_SLOG_H

typedef enum {
    SLOG_TRACE = 0,
    SLOG_DEBUG = 1,
    SLOG_INFO = 2,
    SLOG_WARN = 3,
    SLOG_ERROR = 4,
    SLOG_OFF = 5
} slog_level;

/* Parses "trace".."error", "off" (also "warning"; any case).  Returns -1 when
 * the name is unknown. */
int slog_level_parse(const char *name);
const char *slog_level_name(slog_level l);

void slog_set_level(slog_level l);
slog_level slog_get_level(void);
/* json = 1: {"ts":..,"level":..,"target":..,"msg":..,"key":"value",...}. */
void slog_set_json(int json);

/* Logs msg from module `target`; fmt is printf-style and, by convention, the
 * variable part is written as " key=value" pairs after a fixed message.  In
 * json mode the pairs are split out into fields. */
void slog(slog_level l, const char *target, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define SLOG_ENABLED(l) ((l) >= slog_get_level())

#endif
