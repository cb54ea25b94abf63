// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmmutant: the first stage of tools/dpmmutate, many mutants a process.
 *
 * A schemata build (docs/mutation.md, "One build per tree") holds every
 * mutant of a tree's main.c, each behind a mutant id (kernel/kabi.h,
 * dpmk_host_mutant()).  This program reads the inputs once (libFuzzer
 * corpus files, decoded as the fuzz targets decode them, with their
 * DPMFUZZ_* settings), then for each mutant id forks a child that
 * switches the mutant on and runs every input until one fails.  A crash,
 * a sanitizer's report or a hang ends only that child; the parent goes
 * on with the next id.  One line per mutant on standard output:
 *
 *   ID clean
 *   ID violation INVARIANT INPUT
 *   ID timeout INPUT          (an input ran longer than --timeout)
 *   ID died INPUT STATUS      (exit-N or a signal's name: a sanitizer or a crash;
 *                             INPUT '-' after the last input: a leak, exit-23)
 *
 * With --log DIR each child's standard error (the report, the sanitizer's
 * output) goes to DIR/ID.log, removed when the mutant ran clean.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"
#include "run/run.h"
#include "run/settings.h"
#include "oracle/oracle.h"

/* kernel/kabi.h: the mutant switched on in a schemata build, and how
 * many a tree's build holds. */
#include "../kernel/kabi.h"

enum { OPT_VARIANT = CLI_FIRST_KEY, OPT_FIX, OPT_TIMEOUT, OPT_LOG };

static const struct cli_option options[] = {
	{ "variant", OPT_VARIANT, "NAME", "the kernel variant built from the schemata (required)" },
	{ "fix", OPT_FIX, "LIST", "kernel fixes on: knob names, all, none (default all: a known finding kills no mutant)" },
	{ "timeout", OPT_TIMEOUT, "S", "seconds one input may run before the mutant counts as timed out (default 10)" },
	{ "log", OPT_LOG, "DIR", "each mutant's standard error in DIR/ID.log, kept when it failed" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_program program = {
	.name = "dpmmutant",
	.usage = "[OPTION]... IDS INPUT...",
	.about = "Run the inputs on each mutant of a schemata build, a forked child per mutant; one line per mutant.",
	.options = options,
	.footer =
	"IDS: mutant ids and ranges, as 0,4,7-12 (0: the unmutated code).  INPUT: corpus files or directories of them.\n"
	"The DPMFUZZ_* settings of the fuzz targets apply (docs/fuzzing.md).  docs/mutation.md\n"
	"says where tools/dpmmutate uses it.\n"
	"Exit: 0 every mutant ran, killed or not (its line says which); 2 bad usage, an unreadable input or a write error (one line on stderr).\n",
};

struct input {
	char *path;
	unsigned char *data;
	size_t size;
};

static struct input *inputs;
static int ninputs, cap_inputs;

static void add_input(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct input *in;
	long n;

	if (!f)
		cli_die(program.name, "cannot read %s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		cli_die(program.name, "cannot read %s: not a regular file", path);
	if (ninputs == cap_inputs) {
		cap_inputs = cap_inputs ? 2 * cap_inputs : 256;
		inputs = realloc(inputs, cap_inputs * sizeof(*inputs));
		if (!inputs)
			cli_die(program.name, "out of memory");
	}
	in = &inputs[ninputs++];
	in->path = strdup(path);
	in->size = (size_t)n;
	in->data = malloc(n ? (size_t)n : 1);
	if (!in->path || !in->data || fread(in->data, 1, n, f) != (size_t)n)
		cli_die(program.name, "cannot read %s", path);
	fclose(f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_path(const char *path)
{
	struct stat st;
	struct dirent *e;
	char **names = NULL;
	int n = 0, cap = 0;
	DIR *d;

	if (stat(path, &st))
		cli_die(program.name, "cannot read %s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		add_input(path);
		return;
	}
	d = opendir(path);
	if (!d)
		cli_die(program.name, "cannot read %s: %s", path, strerror(errno));
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			names = realloc(names, cap * sizeof(*names));
		}
		if (!names || asprintf(&p, "%s/%s", path, e->d_name) < 0)
			cli_die(program.name, "out of memory");
		names[n++] = p;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (int i = 0; i < n; i++) {
		add_input(names[i]);
		free(names[i]);
	}
	free(names);
}

/* "1,4,7-12" into ids; -1 with the reason in err. */
static int parse_ids(const char *text, int **ids, int *n, char *err, size_t errlen)
{
	const char *p = text;
	int cap = 0;

	*n = 0;
	*ids = NULL;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi;

		if (end == p || lo < 0 || lo > 1000000)
			goto bad;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 1000000)
				goto bad;
			p = end;
		}
		for (long i = lo; i <= hi; i++) {
			if (*n == cap) {
				cap = cap ? 2 * cap : 64;
				*ids = realloc(*ids, cap * sizeof(**ids));
				if (!*ids)
					goto bad;
			}
			(*ids)[(*n)++] = (int)i;
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (*n)
		return 0;
bad:
	snprintf(err, errlen, "IDS wants mutant ids (0: the unmutated code) and ranges, as 0,4,7-12, not '%s'", text);
	return -1;
}

/* LeakSanitizer's check, where the build has it: a child ends with
 * _exit(), which runs no exit-time check. */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* What a child tells its parent: the input it is on, and a violation. */
struct shared {
	int input;
	int violated;
	char inv[64];
};

static void child(int id, const struct run_opts *o, const struct dpm_env *env,
		  volatile struct shared *sh, unsigned int timeout, const char *log)
{
	static struct run_result r;

	if (log) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(3);
		close(fd);
	}
	signal(SIGALRM, SIG_DFL);
	dpmk_host_set_mutant(id);
	for (int i = 0; i < ninputs; i++) {
		struct scenario s;

		sh->input = i;
		alarm(timeout);
		scenario_decode(inputs[i].data, inputs[i].size, &env->limits, &s);
		dpm_run(&s, o, &r);
		alarm(0);
		if (r.violated) {
			fprintf(stderr, "input: %s\n", inputs[i].path);
			dpm_report(&s, o, stderr, 80, NULL);
			fflush(stderr);
			snprintf((char *)sh->inv, sizeof(sh->inv), "%s", inv_name(r.id));
			sh->violated = 1;
			_exit(0);
		}
		scenario_free(&s);
	}
	sh->input = -1;
	if (__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check())
		_exit(23);
	_exit(0);
}

struct args {
	const char *variant, *fix, *logdir;
	long long timeout;
};

static void parse_args(int argc, char **argv, struct args *a)
{
	char err[512];
	const char *arg;
	int c;

	while ((c = cli_next(&program, argc, argv, &arg, err, sizeof(err))) != CLI_END) {
		switch (c) {
		case CLI_ERROR:
			cli_die(program.name, "%s", err);
		case CLI_PRINTED:
			exit(0);
		case OPT_VARIANT:
			a->variant = arg;
			break;
		case OPT_FIX:
			a->fix = arg;
			break;
		case OPT_TIMEOUT:
			if (cli_number("--timeout", arg, 1, 86400, &a->timeout, err, sizeof(err)))
				cli_die(program.name, "%s", err);
			break;
		case OPT_LOG:
			if (cli_path("--log", arg, err, sizeof(err)))
				cli_die(program.name, "%s", err);
			a->logdir = arg;
			break;
		}
	}
}

int main(int argc, char **argv)
{
	struct args a = { NULL, "all", NULL, 10 };
	const char *variant, *fix, *logdir, *bad;
	char err[512], status[64], logpath[4096];
	long long timeout;
	struct run_opts o = { 0 };
	struct dpm_env env;
	volatile struct shared *sh;
	size_t badlen;
	int *ids, nids;

	parse_args(argc, argv, &a);
	variant = a.variant;
	fix = a.fix;
	logdir = a.logdir;
	timeout = a.timeout;
	if (!variant)
		cli_die(program.name, "--variant NAME is required (the kernel variant of the schemata build)");
	o.variant = variant_find(variant);
	if (!o.variant)
		cli_die(program.name, "--variant: no variant '%s' (dpmrepro --list-variants)", variant);
	if (knobs_parse(o.variant, fix, &o.fixes, &bad, &badlen) < 0)
		cli_die(program.name, "--fix: no knob '%.*s' in variant %s", (int)(badlen > 60 ? 60 : badlen),
			bad, variant);
	if (optind + 2 > argc)
		cli_die(program.name, "IDS and at least one INPUT are needed (--help says more)");
	if (parse_ids(argv[optind], &ids, &nids, err, sizeof(err)))
		cli_die(program.name, "%s", err);
	if (!o.variant->kernel)
		cli_die(program.name, "--variant: %s is a model, not a kernel variant", variant);
	for (int k = 0; k < nids; k++)
		if (ids[k] > dpmk_tree_mutants(o.variant->kernel))
			cli_die(program.name, "mutant %d: kernel %s's build holds %d mutants (%s)", ids[k],
				o.variant->kernel->version, dpmk_tree_mutants(o.variant->kernel),
				dpmk_tree_mutants(o.variant->kernel) ? "its schemata end before" :
				"it was built from a plain main.c, not the schemata");
	if (dpm_env_read(&env, err, sizeof(err)))
		cli_die(program.name, "%s", err);
	for (int i = optind + 1; i < argc; i++)
		add_path(argv[i]);
	if (!ninputs)
		cli_die(program.name, "no inputs in %s", argv[optind + 1]);
	if (logdir && mkdir(logdir, 0755) && errno != EEXIST)
		cli_die(program.name, "--log: cannot make %s: %s", logdir, strerror(errno));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		cli_die(program.name, "mmap: %s", strerror(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int k = 0; k < nids; k++) {
		int id = ids[k], st;
		const char *log = NULL;
		pid_t pid;

		if (logdir) {
			snprintf(logpath, sizeof(logpath), "%s/%d.log", logdir, id);
			log = logpath;
		}
		sh->input = -1;
		sh->violated = 0;
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			cli_die(program.name, "fork: %s", strerror(errno));
		if (pid == 0)
			child(id, &o, &env, sh, (unsigned int)timeout, log);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		const char *in = sh->input >= 0 ? inputs[sh->input].path : "-";

		if (WIFEXITED(st) && !WEXITSTATUS(st) && sh->violated) {
			printf("%d violation %s %s\n", id, sh->inv, in);
			continue;
		}
		if (WIFEXITED(st) && !WEXITSTATUS(st)) {
			printf("%d clean\n", id);
			if (log)
				unlink(log);
			continue;
		}
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
			printf("%d timeout %s\n", id, in);
			continue;
		}
		if (WIFSIGNALED(st))
			snprintf(status, sizeof(status), "%s", strsignal(WTERMSIG(st)));
		else
			snprintf(status, sizeof(status), "exit %d", WEXITSTATUS(st));
		for (char *p = status; *p; p++)
			if (*p == ' ')
				*p = '-';
		printf("%d died %s %s\n", id, in, status);
	}
	for (int i = 0; i < ninputs; i++) {
		free(inputs[i].path);
		free(inputs[i].data);
	}
	free(inputs);
	free(ids);
	munmap((void *)sh, sizeof(*sh));
	return cli_finish(program.name, 0);
}
