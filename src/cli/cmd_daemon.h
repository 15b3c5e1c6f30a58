/* cuzk daemon: the cuzk.v1 gRPC proving server (see docs/OPERATING.md). */
#ifndef CUZK_CLI_CMD_DAEMON_H
#define CUZK_CLI_CMD_DAEMON_H

/* argv excludes "daemon".  Exit status: 0 after a clean drain (SIGTERM or
 * SIGINT) or --check-config, 1 when a listener or the engine cannot start,
 * 2 for usage and configuration errors. */
int cmd_daemon(int argc, char **argv);

#endif
