// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stand-in for libFuzzer's main: runs LLVMFuzzerTestOneInput once on
 * each file named, and on every file below each directory named (in
 * sorted order), printing each path.  A per-input alarm turns a hang into
 * a clear failure.  Exit: 0 all ran, 1 an input failed, 2 bad usage.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

#define TIMEOUT_S 60

static const char *current;

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "replay: timeout on an input\n";

	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "replay: cannot open %s: %s\n", path,
			strerror(errno));
		return 2;
	}
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		fclose(f);
		free(buf);
		return 2;
	}
	fclose(f);
	current = path;
	printf("Running: %s\n", path);
	fflush(stdout);
	alarm(TIMEOUT_S);
	/* An exact-size copy, so ASan sees reads past the end. */
	uint8_t *exact = malloc(len ? len : 1);

	if (!exact)
		abort();
	memcpy(exact, buf, len);
	LLVMFuzzerTestOneInput(exact, len);
	alarm(0);
	free(exact);
	free(buf);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path, int *count)
{
	struct stat st;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	DIR *d = opendir(path);

	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 2;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;

	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names)
			abort();
		size_t l = strlen(path) + strlen(e->d_name) + 2;

		names[n] = malloc(l);
		if (!names[n])
			abort();
		snprintf(names[n], l, "%s/%s", path, e->d_name);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (!rc)
			rc = run_path(names[i], count);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	signal(SIGALRM, on_alarm);
	int count = 0;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;	/* libFuzzer flags are accepted and ignored */
		int rc = run_path(argv[i], &count);

		if (rc)
			return rc;
	}
	printf("replay: %d inputs ran\n", count);
	return 0;
}
