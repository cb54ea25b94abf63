// SPDX-License-Identifier: GPL-2.0-only
/* The worker pool (pool.h). */
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

#define POOL_MAX 256

struct worker {
	pid_t pid;
	FILE *to, *from;
	long task;		/* in progress, -1: idle */
};

static __attribute__((noreturn)) void worker_main(const struct worker_pool *p,
						  pid_t parent, FILE *in, FILE *out)
{
	int worst = 0;
	long t;

	if (!p->forward_signals)
		signal(SIGINT, SIG_IGN);
	if (p->worker_init)
		p->worker_init(parent, p->ctx);
	while (fscanf(in, "%ld", &t) == 1) {
		int code = p->run(t, out, p->ctx);

		if (fflush(out))
			_exit(1);
		if (code >= 128)
			_exit(code);
		if (code > worst)
			worst = code;
	}
	_exit(worst);
}

static bool start(const struct worker_pool *p, struct worker *w, pid_t parent)
{
	int down[2], up[2];

	if (pipe(down))
		return false;
	if (pipe(up)) {
		close(down[0]);
		close(down[1]);
		return false;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		close(down[0]);
		close(down[1]);
		close(up[0]);
		close(up[1]);
		return false;
	}
	if (!w->pid) {
		close(down[1]);
		close(up[0]);
		worker_main(p, parent, fdopen(down[0], "r"), fdopen(up[1], "w"));
	}
	close(down[0]);
	close(up[1]);
	w->to = fdopen(down[1], "w");
	w->from = fdopen(up[0], "r");
	w->task = -1;
	return w->to && w->from;
}

static long next_task(const struct worker_pool *p, long *cursor)
{
	while (*cursor < p->ntasks && p->skip && p->skip(*cursor, p->ctx))
		(*cursor)++;
	return *cursor < p->ntasks ? (*cursor)++ : -1;
}

int pool_run(const struct worker_pool *p, int *sig)
{
	struct worker w[POOL_MAX];
	struct pollfd pf[POOL_MAX];
	int worst = 0, busy = 0, jobs = p->jobs > POOL_MAX ? POOL_MAX : p->jobs;
	pid_t parent = getpid();
	long cursor = 0;

	*sig = 0;
	for (int i = 0; i < jobs; i++)
		if (!start(p, &w[i], parent)) {
			cli_say(p->prog, "cannot start worker %d: %s", i,
				strerror(errno));
			jobs = i;	/* the ones started are collected */
			worst = CLI_EXIT_WRITE;
			break;
		}
	for (;;) {
		if (p->forward_signals && !*sig && (*sig = dpm_interrupted()))
			for (int i = 0; i < jobs; i++)
				kill(w[i].pid, *sig);
		bool stop = *sig || (p->stop && p->stop(p->ctx));

		for (int i = 0; i < jobs && !stop; i++) {
			long t;

			if (w[i].task >= 0 || (t = next_task(p, &cursor)) < 0)
				continue;
			w[i].task = t;
			fprintf(w[i].to, "%ld\n", t);
			fflush(w[i].to);
			busy++;
		}
		if (!busy)
			break;
		for (int i = 0; i < jobs; i++)
			pf[i] = (struct pollfd){
				.fd = w[i].task >= 0 ? fileno(w[i].from) : -1,
				.events = POLLIN };
		/* poll() is not restarted: a signal ends the wait (the
		 * timeout covers one that lands just before it). */
		if (poll(pf, (nfds_t)jobs, 200) <= 0)
			continue;
		for (int i = 0; i < jobs; i++) {
			if (w[i].task < 0 || !pf[i].revents)
				continue;
			if (p->collect(w[i].task, w[i].from, p->ctx) &&
			    !(p->forward_signals && *sig))
				cli_die(p->prog, "worker %d died on task %ld",
					(int)w[i].pid, w[i].task);
			w[i].task = -1;
			busy--;
		}
	}
	/* Every worker's input closed before waiting for any: a worker holds
	 * the write ends of the pipes of those forked before it, so the first
	 * sees its end only when the later ones have exited. */
	for (int i = 0; i < jobs; i++)
		fclose(w[i].to);
	for (int i = 0; i < jobs; i++) {
		int st;

		fclose(w[i].from);
		while (waitpid(w[i].pid, &st, 0) < 0 && errno == EINTR)
			;
		int code = WIFEXITED(st) ? WEXITSTATUS(st) : 1;

		if (code > worst && code < 128)
			worst = code;
	}
	return worst;
}
