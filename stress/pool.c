// SPDX-License-Identifier: GPL-2.0-only
/* dpmstress's worker processes (pool.h). */
#include "pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"

#include "cli.h"

int stress_pool_run(const struct stress_pool *p, int *sig)
{
	struct pollfd pf[256];
	pid_t pids[256];
	int worst = 0, left = 0, jobs = p->jobs > 256 ? 256 : p->jobs;
	pid_t parent = getpid();
	char *rec = malloc(p->record_size);

	if (!rec)
		abort();
	*sig = 0;
	for (int j = 0; j < jobs; j++) {
		int fd[2];

		if (pipe(fd) || (pids[j] = fork()) < 0) {
			cli_say(p->prog, "cannot start worker %d: %s", j,
				strerror(errno));
			jobs = j;	/* the ones started are collected */
			worst = CLI_EXIT_WRITE;
			break;
		}
		if (pids[j] == 0) {
			close(fd[0]);
			p->worker(j, parent, fd[1]);
		}
		close(fd[1]);
		pf[j] = (struct pollfd){ .fd = fd[0], .events = POLLIN };
		left++;
	}
	while (left) {
		if (!*sig && (*sig = dpm_interrupted()))
			for (int j = 0; j < jobs; j++)
				kill(pids[j], *sig);
		/* poll() is not restarted: a signal ends the wait (the
		 * timeout covers one that lands just before it). */
		if (poll(pf, (nfds_t)jobs, 200) <= 0)
			continue;
		for (int j = 0; j < jobs; j++) {
			if (pf[j].fd < 0 || !pf[j].revents)
				continue;
			if (read(pf[j].fd, rec, p->record_size) == (ssize_t)p->record_size)
				p->collect(rec, p->ctx);
			close(pf[j].fd);
			pf[j].fd = -1;
			left--;
		}
	}
	for (int j = 0; j < jobs; j++) {
		int st;

		while (waitpid(pids[j], &st, 0) < 0 && errno == EINTR)
			;
		int code = WIFEXITED(st) ? WEXITSTATUS(st) : 1;

		if (code > worst && code < 128)
			worst = code;
	}
	free(rec);
	return worst;
}
