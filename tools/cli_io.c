// SPDX-License-Identifier: GPL-2.0-only
/* How the programs end: signals, output files, standard output (cli.h). */
#define _GNU_SOURCE	/* realpath() with NULL */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/esc.h"
#include "util/xalloc.h"

static void vsay(const char *prog, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	dpm_one_line(msg, sizeof(msg));
	fprintf(stderr, "%s: %s\n", prog, msg);
}

void cli_say(const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(prog, fmt, ap);
	va_end(ap);
}

void cli_die(const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(prog, fmt, ap);
	va_end(ap);
	exit(2);
}

/* ---- signals ---- */

/* The temporary output file being written, for a second signal to
 * remove (unlink() is async-signal-safe). */
static char *volatile pending_tmp;

static enum cli_on_signal on_sig;
/* "PROG: interrupted by SIG...\n" for CLI_SIG_QUIT, made beforehand:
 * the handler only write()s. */
static char quit_msg[2][128];

static void on_signal(int sig)
{
	int saved = errno;
	bool again = __atomic_load_n(&dpm_interrupt, __ATOMIC_RELAXED);

	if (on_sig == CLI_SIG_QUIT || (on_sig == CLI_SIG_STOP && again)) {
		/* At once, leaving nothing (unlink() is async-signal-safe). */
		char *t = pending_tmp;

		if (t)
			unlink(t);
		if (on_sig == CLI_SIG_QUIT) {
			const char *m = quit_msg[sig == SIGTERM];

			/* A failed write: nothing more to do about it. */
			ssize_t w = write(STDERR_FILENO, m, strlen(m));

			(void)w;
			_exit(128 + sig);
		}
		/* The second: as the signal does by default. */
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigemptyset(&dfl.sa_mask);
		sigaction(sig, &dfl, NULL);
		raise(sig);
	} else {
		__atomic_store_n(&dpm_interrupt, sig, __ATOMIC_RELAXED);
	}
	errno = saved;
}

void cli_catch_signals(const char *prog, enum cli_on_signal how)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	on_sig = how;
	for (int k = 0; k < 2; k++)
		snprintf(quit_msg[k], sizeof(quit_msg[k]), "%.60s: interrupted by %s\n",
			 prog, cli_signal_name(sigs[k]));
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
		struct sigaction old, sa = { .sa_handler = on_signal,
					     .sa_flags = SA_RESTART };

		sigemptyset(&sa.sa_mask);
		sigaddset(&sa.sa_mask, SIGINT);
		sigaddset(&sa.sa_mask, SIGTERM);
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int cli_interrupt_status(void)
{
	int sig = dpm_interrupted();

	return sig ? 128 + sig : 0;
}

const char *cli_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* ---- output files ---- */

static int out_fail(struct cli_out *o, const char *path, int e, char *err,
		    size_t errlen)
{
	snprintf(err, errlen, "cannot write %s: %s", DPM_ESC(path),
		 e == EEXIST ? "it exists already" : strerror(e));
	cli_out_abort(o);
	errno = e;	/* for a caller that words it otherwise */
	return -1;
}

FILE *cli_out_open(struct cli_out *o, const char *path, bool exclusive,
		   char *err, size_t errlen)
{
	static unsigned int serial;
	struct stat st;
	const char *base;
	char *real = NULL;
	int fd = -1;

	memset(o, 0, sizeof(*o));
	o->exclusive = exclusive;
	if (!*path) {
		snprintf(err, errlen, "cannot write '': an empty file name");
		return NULL;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or a pipe is written as it is; never renamed
		 * over (root could replace /dev/null). */
		if (S_ISDIR(st.st_mode) || exclusive) {
			out_fail(o, path, S_ISDIR(st.st_mode) ? EISDIR : EEXIST,
				 err, errlen);
			return NULL;
		}
		o->f = fopen(path, "w");
		if (!o->f)
			out_fail(o, path, errno, err, errlen);
		else
			o->path = dpm_xmemdup(path, strlen(path) + 1, 1);
		return o->f;
	}
	/* A symbolic link stays: its target is what is replaced. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		real = realpath(path, NULL);
	o->path = real ? real : dpm_xmemdup(path, strlen(path) + 1, 1);
	base = strrchr(o->path, '/');
	base = base ? base + 1 : o->path;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		size_t n = strlen(o->path) + 64;

		free(o->tmp);
		o->tmp = dpm_xrealloc(NULL, n, 1);
		/* In PATH's directory, so the rename is atomic; hidden. */
		snprintf(o->tmp, n, "%.*s.%.200s.%ld-%u.tmp",
			 (int)(base - o->path), o->path, base, (long)getpid(),
			 serial++);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST) {
			int e = errno;

			free(o->tmp);
			o->tmp = NULL;
			out_fail(o, path, e, err, errlen);
			return NULL;
		}
	}
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		out_fail(o, path, EEXIST, err, errlen);
		return NULL;
	}
	pending_tmp = o->tmp;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;

		close(fd);
		out_fail(o, path, e, err, errlen);
	}
	return o->f;
}

int cli_out_commit(struct cli_out *o, char *err, size_t errlen)
{
	int e = 0;

	errno = 0;
	if (fflush(o->f))
		e = errno ? errno : EIO;
	else if (ferror(o->f))
		e = EIO;
	if (!e && o->tmp && fsync(fileno(o->f)))
		e = errno;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (!e && o->tmp) {
		if (o->exclusive ? link(o->tmp, o->path) : rename(o->tmp, o->path))
			e = errno;
		else if (o->exclusive)
			unlink(o->tmp);
		if (!e)
			o->tmp[0] = '\0';	/* renamed: nothing to remove */
	}
	if (e)
		return out_fail(o, o->path, e, err, errlen);
	cli_out_abort(o);
	return 0;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp) {
		if (o->tmp[0])
			unlink(o->tmp);
		if (pending_tmp == o->tmp)
			pending_tmp = NULL;
		free(o->tmp);
	}
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int cli_write_file(const char *path, const void *buf, size_t len,
		   bool exclusive, char *err, size_t errlen)
{
	struct cli_out o;

	if (!cli_out_open(&o, path, exclusive, err, errlen))
		return -1;
	/* A short write sets the stream's error, which the commit reports. */
	(void)fwrite(buf, 1, len, o.f);
	return cli_out_commit(&o, err, errlen);
}

/* ---- standard output ---- */

bool cli_stdout_failed(const char *prog)
{
	static int failed;

	errno = 0;
	if (fflush(stdout) && !failed)
		failed = errno ? errno : EIO;
	else if (ferror(stdout) && !failed)
		failed = EIO;
	if (failed > 0) {
		cli_say(prog, "cannot write to standard output: %s",
			strerror(failed));
		failed = -1;	/* said */
	}
	return failed != 0;
}

int cli_finish(const char *prog, int rc)
{
	bool bad = cli_stdout_failed(prog);

	if (fclose(stdout) && !bad) {
		cli_say(prog, "cannot write to standard output: %s",
			strerror(errno));
		bad = true;
	}
	if (bad)
		return CLI_EXIT_WRITE;
	/* An interrupted run abandons its tasks where they stood, with what
	 * they had allocated: ending without the exit handlers keeps
	 * LeakSanitizer from calling that a leak. */
	if (rc && rc == cli_interrupt_status()) {
		fflush(stderr);
		_exit(rc);
	}
	return rc;
}
