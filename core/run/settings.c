// SPDX-License-Identifier: GPL-2.0-only
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/variant.h"

/* A variable that is 0 or 1; -1 if set to anything else. */
static int env_bool(const char *name, const char **val, char *err,
		    size_t errlen)
{
	const char *v = getenv(name);

	*val = v;
	if (!v)
		return 0;
	if (strcmp(v, "0") && strcmp(v, "1")) {
		snprintf(err, errlen, "%s must be 0 or 1, not '%.40s'", name, v);
		return -1;
	}
	return v[0] == '1';
}

int dpm_env_read(struct dpm_env *e, char *err, size_t errlen)
{
	const char *v;
	int b;

	memset(e, 0, sizeof(*e));
	e->limits = fuzz_limits;
	e->fix = getenv("DPMFUZZ_FIX");
	v = getenv("DPMFUZZ_MAX_DEVICES");
	if (v) {
		char *end;
		long n = strtol(v, &end, 10);

		if (!*v || *end || n < 1 || n > fuzz_limits.max_devices) {
			snprintf(err, errlen,
				 "DPMFUZZ_MAX_DEVICES must be 1..%d, not '%.40s'",
				 fuzz_limits.max_devices, v);
			return -1;
		}
		e->limits.max_devices = (int)n;
		e->max_devices = v;
	}
	if ((b = env_bool("DPMFUZZ_NO_WORKER_LIMIT", &e->no_worker_limit, err,
			  errlen)) < 0)
		return -1;
	e->limits.no_worker_limit = b;
	e->limits.sched_mode = DPM_SCHEDULE_BY_DEFAULT;
	v = getenv("DPMFUZZ_SCHEDULE_BY");
	if (v) {
		static const char *const modes[] = { "position", "task", "mixed" };
		int m = 0;

		while (m < 3 && strcmp(v, modes[m]))
			m++;
		if (m == 3) {
			snprintf(err, errlen,
				 "DPMFUZZ_SCHEDULE_BY must be position, task or mixed, not '%.40s'", v);
			return -1;
		}
		e->limits.sched_mode = (enum scn_sched_mode)m;
		e->schedule_by = v;
	}
	if ((b = env_bool("DPMFUZZ_INTERLEAVING", &v, err, errlen)) < 0)
		return -1;
	e->interleaving = b;
	e->mutator = DPM_MUTATOR_DEFAULT;
	v = getenv("DPMFUZZ_MUTATOR");
	if (v) {
		char *end;
		long n = strtol(v, &end, 10);

		if (!*v || *end || *v == '-' || *v == '+' || *v == ' ' ||
		    n < 0 || n > 100) {
			snprintf(err, errlen,
				 "DPMFUZZ_MUTATOR must be 0..100 (percent of structure-aware mutations), not '%.40s'",
				 v);
			return -1;
		}
		e->mutator = (int)n;
	}
	return 0;
}

void dpm_env_variant(struct dpm_env *e, const struct pm_variant *v)
{
	if (v && v->no_worker_limit && !e->no_worker_limit) {
		e->no_worker_limit = "1";
		e->limits.no_worker_limit = true;
	}
}

void dpm_env_prefix(const struct dpm_env *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s%s%s%s%s%s",
		 e->max_devices ? "DPMFUZZ_MAX_DEVICES=" : "",
		 e->max_devices ? e->max_devices : "",
		 e->max_devices ? " " : "",
		 e->no_worker_limit ? "DPMFUZZ_NO_WORKER_LIMIT=" : "",
		 e->no_worker_limit ? e->no_worker_limit : "",
		 e->no_worker_limit ? " " : "",
		 e->schedule_by ? "DPMFUZZ_SCHEDULE_BY=" : "",
		 e->schedule_by ? e->schedule_by : "",
		 e->schedule_by ? " " : "");
}
