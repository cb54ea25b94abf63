// SPDX-License-Identifier: GPL-2.0-only
/*
 * A libFuzzer target with a planted leak, for tests/campaign_test.sh
 * leak: an input that starts with "LEAK" loses 64 bytes, as a harness
 * that forgets to free would.  Not a fuzz target of the project (not in
 * fuzz-targets.tsv); built in the fuzz preset only.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static char *planted_leak(const uint8_t *data)
{
	char *p = malloc(64);

	if (p)
		memcpy(p, data, 4);
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && !memcmp(data, "LEAK", 4)) {
		char *volatile lost = planted_leak(data);

		lost = NULL;
		(void)lost;
	}
	return 0;
}
