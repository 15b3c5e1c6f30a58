/* cuzk daemon: configuration -> engine -> gRPC + HTTP listeners -> wait for
 * SIGTERM/SIGINT -> drain.
 *
 * Signals are blocked in every thread (the mask is set before any thread
 * starts) and taken synchronously with sigwait, so no handler runs inside
 * gRPC or the engine.  Drain order: stop accepting calls, shut the engine
 * down (running jobs finish or are cancelled per daemon.shutdown; waiting
 * calls get their final answer), then give open calls daemon.shutdown_timeout
 * to complete before they are cancelled. */
#include "cli/cmd_daemon.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/engine_devices.h"
#include "cuzk/engine.h"
#include "cuzk/version.h"
#include "engine/providers.h"
#include "server/config.h"
#include "server/grpc_service.h"
#include "server/http_status.h"
#include "util/slog.h"

static const char daemon_usage[] =
    "usage: cuzk daemon [--config FILE] [--listen ADDR] [--status-listen ADDR]\n"
    "                   [--log-level trace|debug|info|warn|error] [--check-config]\n"
    "  --config, -c FILE      cuzk.toml (default " CUZK_DEFAULT_CONFIG_PATH
    "; a missing default file means defaults)\n"
    "  --listen, -l ADDR      gRPC address: unix:///path or host:port (overrides daemon.listen)\n"
    "  --status-listen ADDR   HTTP /status and /metrics host:port (overrides "
    "daemon.status_listen)\n"
    "  --log-level L          overrides logging.level and RUST_LOG\n"
    "  --check-config         print the effective configuration and exit\n";

/* systemd Type=notify support without libsystemd: one datagram to
 * $NOTIFY_SOCKET ("@name" is the abstract namespace). */
static void sd_notify_msg(const char *msg) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (path == NULL || (path[0] != '/' && path[0] != '@'))
        return;
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    size_t n = strlen(path);
    if (n >= sizeof a.sun_path)
        return;
    memcpy(a.sun_path, path, n);
    if (a.sun_path[0] == '@')
        a.sun_path[0] = 0;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&a,
           (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n));
    close(fd);
}

static int serve(const cuzk_config *cfg, const sigset_t *sigs, char *err);

int cmd_daemon(int argc, char **argv) {
    static const struct option longopts[] = {{"config", required_argument, NULL, 'c'},
                                             {"listen", required_argument, NULL, 'l'},
                                             {"status-listen", required_argument, NULL, 's'},
                                             {"log-level", required_argument, NULL, 'L'},
                                             {"check-config", no_argument, NULL, 'k'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *config_path = NULL, *listen = NULL, *status_listen = NULL, *level = NULL;
    int check = 0;
    /* argv[0] is the first option here; getopt skips argv[0], so shift. */
    char *args[argc + 2];
    args[0] = (char *)"cuzk daemon";
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    args[argc + 1] = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc + 1, args, ":c:l:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            config_path = optarg;
            break;
        case 'l':
            listen = optarg;
            break;
        case 's':
            status_listen = optarg;
            break;
        case 'L':
            level = optarg;
            break;
        case 'k':
            check = 1;
            break;
        case 'h':
            fputs(daemon_usage, stdout);
            return 0;
        case ':':
            fprintf(stderr, "cuzk daemon: %s needs a value\n%s", args[optind - 1], daemon_usage);
            return 2;
        default:
            fprintf(stderr, "cuzk daemon: unknown option %s\n%s", args[optind - 1], daemon_usage);
            return 2;
        }
    }
    if (optind != argc + 1) {
        fprintf(stderr, "cuzk daemon: unexpected argument \"%s\"\n%s", args[optind], daemon_usage);
        return 2;
    }

    /* Before any thread exists: every thread inherits this mask. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* RUST_LOG (a plain level name) applies before the file is read, so the
     * file's warnings obey it; the file and --log-level then override. */
    const char *rust_log = getenv("RUST_LOG");
    int env_level = rust_log ? slog_level_parse(rust_log) : -1;
    if (env_level >= 0)
        slog_set_level((slog_level)env_level);

    if (config_path == NULL && access(CUZK_DEFAULT_CONFIG_PATH, F_OK) == 0)
        config_path = CUZK_DEFAULT_CONFIG_PATH;
    cuzk_config cfg;
    char err[CUZK_ERROR_LEN];
    if (cuzk_config_load(&cfg, config_path, err) != 0) {
        fprintf(stderr, "cuzk daemon: configuration error: %s\n", err);
        return 2;
    }
    if (listen) {
        if (strlen(listen) >= sizeof cfg.daemon.listen || listen[0] == 0) {
            fprintf(stderr, "cuzk daemon: --listen: bad address\n");
            return 2;
        }
        snprintf(cfg.daemon.listen, sizeof cfg.daemon.listen, "%s", listen);
    }
    if (status_listen) {
        if (strlen(status_listen) >= sizeof cfg.daemon.status_listen) {
            fprintf(stderr, "cuzk daemon: --status-listen: address too long\n");
            return 2;
        }
        snprintf(cfg.daemon.status_listen, sizeof cfg.daemon.status_listen, "%s", status_listen);
    }
    if (level) {
        int l = slog_level_parse(level);
        if (l < 0) {
            fprintf(stderr,
                    "cuzk daemon: --log-level \"%s\": expected trace, debug, info, warn, "
                    "error or off\n",
                    level);
            return 2;
        }
        cfg.daemon.log_level = l;
    } else if (env_level >= 0) {
        cfg.daemon.log_level = env_level;
    }
    if (check) {
        cuzk_config_print(stdout, &cfg);
        return 0;
    }
    slog_set_level((slog_level)cfg.daemon.log_level);
    slog_set_json(cfg.daemon.log_json);
    slog(SLOG_INFO, "daemon", "starting version=%s config=%s pid=%d", CUZK_VERSION_STRING,
         config_path ? config_path : "(defaults)", (int)getpid());
    slog(SLOG_INFO, "daemon", "parameters param_cache=%s from_env=%d", cfg.engine.param_cache,
         cfg.param_cache_from_env);

    if (cuzk_config_check_param_dir(&cfg, err) != 0) {
        slog(SLOG_ERROR, "daemon", "cannot start error=\"%s\"", err);
        return 1;
    }
    cli_engine_test_hooks(&cfg.engine);
    cli_engine_devices devices;
    cli_engine_devices_open(&devices, &cfg.engine);
    int rc = serve(&cfg, &sigs, err);
    cli_engine_devices_close(&devices);
    return rc;
}

/* The engine on its devices, the gRPC and HTTP listeners, until a signal. */
static int serve(const cuzk_config *cfg, const sigset_t *sigs, char *err) {
    cuzk_engine *engine = cuzk_engine_new(&cfg->engine, err);
    if (engine == NULL) {
        slog(SLOG_ERROR, "daemon", "engine failed to start error=\"%s\"", err);
        return 1;
    }
    if (engine_register_filecoin_providers(engine, err) != CUZK_OK) {
        slog(SLOG_ERROR, "daemon", "engine failed to start error=\"%s\"", err);
        cuzk_engine_free(engine);
        return 1;
    }
    grpc_service *svc = grpc_service_start(engine, &cfg->daemon, err);
    if (svc == NULL) {
        slog(SLOG_ERROR, "daemon", "gRPC listener failed error=\"%s\"", err);
        cuzk_engine_free(engine);
        return 1;
    }
    http_status *http = NULL;
    if (cfg->daemon.status_listen[0]) {
        http = http_status_start(engine, cfg->daemon.status_listen, err);
        if (http == NULL) {
            slog(SLOG_ERROR, "daemon", "status listener failed error=\"%s\"", err);
            grpc_service_finish(svc, 0);
            cuzk_engine_free(engine);
            return 1;
        }
    }
    sd_notify_msg("READY=1");
    slog(SLOG_INFO, "daemon", "ready");

    int sig = 0;
    while (sigwait(sigs, &sig) != 0)
        ;
    slog(SLOG_INFO, "daemon", "draining signal=%s shutdown=%s",
         sig == SIGTERM ? "SIGTERM" : "SIGINT",
         cfg->engine.cancel_running_on_shutdown ? "cancel" : "finish");
    sd_notify_msg("STOPPING=1");
    grpc_service_stop_accepting(svc);
    cuzk_engine_shutdown(engine);
    grpc_service_finish(svc, cfg->daemon.shutdown_timeout_ms);
    http_status_stop(http);
    cuzk_engine_free(engine);
    slog(SLOG_INFO, "daemon", "stopped");
    return 0;
}
