// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_scenario_text: the scenario text parser.
 *
 * Oracle: parsing never crashes; when a text parses, printing it gives
 * canonical text that parses again and prints the same (print(parse(x))
 * is a fixed point), and the decoder's scenarios print text that parses.
 * Rejected text gets a one-line reason.
 *
 * Input: any bytes, read as scenario text (docs/scenario.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/limits.h"

static void die(const char *what, const char *a, const char *b)
{
	fprintf(stderr, "fuzz_scenario_text: %s\n--- first:\n%s\n--- second:\n%s\n",
		what, a ? a : "", b ? b : "");
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario s, t;
	char err[256];

	if (scenario_parse((const char *)data, size, &s, err, sizeof(err)) < 0) {
		if (!err[0] || strchr(err, '\n'))
			die("a rejection without a one-line reason", err, NULL);
		return 0;
	}
	char *a = scenario_print(&s);

	if (scenario_parse(a, strlen(a), &t, err, sizeof(err)) < 0)
		die(err, a, NULL);
	char *b = scenario_print(&t);

	if (strcmp(a, b))
		die("print(parse(x)) is not a fixed point", a, b);
	free(a);
	free(b);
	scenario_free(&s);
	scenario_free(&t);

	/* The same bytes as a fuzz_seed input: its text must parse too. */
	scenario_decode(data, size, &fuzz_limits, &s);
	a = scenario_print(&s);
	if (scenario_parse(a, strlen(a), &t, err, sizeof(err)) < 0)
		die(err, a, NULL);
	b = scenario_print(&t);
	if (strcmp(a, b))
		die("decoded scenario does not survive its text", a, b);
	free(a);
	free(b);
	scenario_free(&s);
	scenario_free(&t);
	return 0;
}
