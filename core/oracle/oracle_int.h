/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oracle's own state and helpers, shared by its files: oracle.c
 * (the state, the event dispatch, the ordering rules), kernel_rules.c
 * (the rules only the kernel variants' runtime tells enough for: the
 * walk's stop, STATS, RUNTIME-PM, LOCKS, REMOVED relinked, direct_complete
 * due and kept, WAKEUP, CALLBACK) and skip.c (SKIP: each skipped step
 * judged).  Not for the rest of dpmfuzz: oracle.h is the interface.
 * Every name is orc_-prefixed at link time (the macros below).
 */
#ifndef DPM_ORACLE_INT_H
#define DPM_ORACLE_INT_H

#include "oracle.h"
#include "../util/xalloc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kapi/kapi.h"

/* Bit e of failed_errs: a suspend-side callback returned -e; e up to the
 * kernel's MAX_ERRNO, the text format's limit (EPROTO, 71, is in real
 * logs). */
#define ERRNO_MAX 4095

struct dstate {
	int lvl;
	bool gone;
	bool absent;		/* registered later in the run (EV_ADDED) */
	bool exempt;		/* never handled: it needs no PM */
	bool syscore;		/* handled, its callbacks by syscore ops */
	bool wakes_below;	/* it or a device under it in the tree may
				 * wake the system up (WAKEUP) */
	bool unbound;		/* its driver unbound: no obligations left */
	bool rpm_off;		/* skipped as runtime-suspended: off, not
				 * suspended by its callbacks */
	bool kept;		/* left in suspend by a resume step it may
				 * skip (dev_pm_skip_resume()) */
	bool kept_aborted;	/* so in resume_early, late-suspended only,
				 * after an aborted suspend (KV-2) */
	bool kept_thaw;		/* left in suspend by a thaw (KV-9) */
	bool dc_cleared;	/* took direct_complete, then main.c handled
				 * it without (a later step's facts or
				 * callback: KV-3) */
	bool dc_clearable;	/* took direct_complete, and then a
				 * subordinate (a child, a consumer over any
				 * link) ended its suspend step, which clears
				 * its superiors' power.direct_complete */
	bool in_use;		/* in use as its noirq suspend ended: a
				 * runtime PM usage count above 1 or an
				 * active child (must_resume) */
	bool mr_told;		/* its noirq suspend step ended in hand */
	bool mr_noirq;		/* must_resume then, as the step passed it
				 * on to its superiors */
	bool mr_late;		/* must_resume at its noirq resume's start,
				 * not as its noirq suspend ended: set after
				 * it could pass it on (sso-must-resume) */
	bool noirq_resumed;	/* its noirq resume step resumed it (its
				 * callback started, or it had none) */
	bool stays_early;	/* must stay in suspend through a plain
				 * early resume: smart suspend skipped its
				 * late suspend, and the noirq phase took it
				 * in hand but skipped it, aborting */
	int pos;		/* its place on dpm_list */
	bool freed;
	bool prepared;
	bool prep_pos;		/* its prepare returned a positive number */
	bool dc;
	unsigned int handled;	/* phases that took it in hand */
	int busy;		/* phase of the running callback, or -1 */
	unsigned int ran;	/* phases whose callback ran this transition */
	unsigned int failed;	/* phases whose callback failed this
				 * transition (STATS) */
	unsigned int recorded;	/* phases in which main.c recorded it in
				 * suspend_stats (STATS) */
	long long rpm_depth;	/* its runtime PM disable depth when the
				 * transition began, -1 untold (RUNTIME-PM) */
	int rpm_down;		/* its runtime status (1 suspended, 0 not)
				 * at its last late or noirq suspend
				 * callback's start, -1 untold (RUNTIME-PM) */
};

/* A link the variant publishes (EV_LINK): consumer, supplier, ordered. */
struct dlink { int con, sup; bool on; };

#define resume_kind orc_resume_kind
#define cfg orc_cfg
#define st orc_st
#define child_start orc_child_start
#define child_list orc_child_list
#define sup_start orc_sup_start
#define sup_list orc_sup_list
#define scn_sup_start orc_scn_sup_start
#define scn_sup_list orc_scn_sup_list
#define scn_con_start orc_scn_con_start
#define scn_con_list orc_scn_con_list
#define result orc_result
#define dlinks orc_dlinks
#define ndlinks orc_ndlinks
#define dlinks_cap orc_dlinks_cap
#define in_transition orc_in_transition
#define suspend_failed orc_suspend_failed
#define wakeup_abort orc_wakeup_abort
#define steps_recorded orc_steps_recorded
#define phases_begun orc_phases_begun
#define failed_errs orc_failed_errs
#define first_fail_dev orc_first_fail_dev
#define first_fail_phase orc_first_fail_phase
#define first_fail_err orc_first_fail_err
#define walk_tid orc_walk_tid
#define walk_stop_dev orc_walk_stop_dev
#define walk_stop_failed orc_walk_stop_failed
#define phase_active orc_phase_active
#define told_resume orc_told_resume
#define running orc_running
#define last_pos orc_last_pos
#define running_total orc_running_total
#define phase_start orc_phase_start
#define inv_names orc_inv_names
#define skip_names orc_skip_names
#define err_word orc_err_word
#define csr_build orc_csr_build
#define vrecord orc_vrecord
#define check_fail orc_check_fail
#define check_fail_unless orc_check_fail_unless
#define nm orc_nm
#define out_of_play orc_out_of_play
#define phase_forward orc_phase_forward
#define phase_must_be_sync orc_phase_must_be_sync
#define do_check_transition_begin orc_do_check_transition_begin
#define do_check_phase_begin orc_do_check_phase_begin
#define walk_note_stop orc_walk_note_stop
#define check_walk_stopped orc_check_walk_stopped
#define must_record orc_must_record
#define check_stats_recorded orc_check_stats_recorded
#define do_check_failed_step orc_do_check_failed_step
#define do_check_phase_end orc_do_check_phase_end
#define is_child orc_is_child
#define check_suspend_start orc_check_suspend_start
#define kept_ok orc_kept_ok
#define check_resume_start orc_check_resume_start
#define check_pm_wait orc_check_pm_wait
#define do_check_direct_complete orc_do_check_direct_complete
#define do_check_direct_resume orc_do_check_direct_resume
#define check_rpm_disabled orc_check_rpm_disabled
#define check_prepared_flag orc_check_prepared_flag
#define check_smart_kept orc_check_smart_kept
#define check_rpm_status_kept orc_check_rpm_status_kept
#define do_check_rpm_state orc_do_check_rpm_state
#define check_rpm_kept orc_check_rpm_kept
#define do_check_rpm_noirq orc_do_check_rpm_noirq
#define do_check_rpm_removed orc_do_check_rpm_removed
#define check_rpm_request orc_check_rpm_request
#define check_parent_rpm_enabled orc_check_parent_rpm_enabled
#define do_check_locking orc_do_check_locking
#define do_check_relinked orc_do_check_relinked
#define check_dc_due orc_check_dc_due
#define check_wakeup_path orc_check_wakeup_path
#define check_callback_source orc_check_callback_source
#define check_dc_kept orc_check_dc_kept
#define note_dc_clearers orc_note_dc_clearers
#define do_check_callback_start orc_do_check_callback_start
#define do_check_callback_end orc_do_check_callback_end
#define do_check_failed_dev orc_do_check_failed_dev
#define do_check_device_gone orc_do_check_device_gone
#define do_check_device_freed orc_do_check_device_freed
#define do_check_transition_end orc_do_check_transition_end
#define do_check_refs orc_do_check_refs
#define do_check_all_freed orc_do_check_all_freed
#define do_check_use_after_free orc_do_check_use_after_free
#define do_check_device_handled orc_do_check_device_handled
#define skip_suspend_rpm orc_skip_suspend_rpm
#define skip_resume_rpm orc_skip_resume_rpm
#define check_layer_asked orc_check_layer_asked
#define do_check_skip orc_do_check_skip
#define do_check_link orc_do_check_link
#define do_check_added orc_do_check_added

extern struct oracle_config cfg;
extern struct dstate *st;
extern int *child_start, *child_list;	/* subordinates of i, CSR */
extern int *sup_start, *sup_list;	/* superiors of i, CSR */
/* The scenario's links, whatever their state (oracle_config.scn_link_*):
 * suppliers of i, consumers of i, CSR. */
extern int *scn_sup_start, *scn_sup_list;
extern int *scn_con_start, *scn_con_list;
extern struct oracle_result result;
extern struct dlink *dlinks;	/* links the variant publishes (EV_LINK) */
extern int ndlinks, dlinks_cap;
extern bool in_transition;
extern bool suspend_failed;
extern bool wakeup_abort;
extern unsigned int steps_recorded;
extern unsigned int phases_begun;
extern uint64_t failed_errs[ERRNO_MAX / 64 + 1];
extern int first_fail_dev, first_fail_phase, first_fail_err;
extern int walk_tid, walk_stop_dev;
extern bool walk_stop_failed;
extern int phase_active;
extern int told_resume;
extern int running[NR_PHASES];
extern int last_pos[NR_PHASES];
extern int running_total;
extern uint64_t phase_start;
extern const char *const skip_names[NR_SKIP];

uint64_t *err_word(int error, uint64_t *bit);
void csr_build(int ne, const int *key, const int *val, int **start,
		      int **list);
void vrecord(enum inv id, const char *fmt, va_list ap);
void check_fail(enum inv id, const char *fmt, ...);
/* check_fail(), unless waiver (an ORACLE_TOL_* bit, or 0) is on: then the
 * run goes on and its result names the known finding (waived). */
void check_fail_unless(unsigned int waiver, enum inv id, const char *fmt, ...);
const char *nm(int dev);
bool out_of_play(int dev);
bool phase_forward(enum pm_phase p);
bool phase_must_be_sync(enum pm_phase p);
void do_check_transition_begin(void);
void do_check_phase_begin(enum pm_phase p, long long told);
void walk_note_stop(int dev, enum pm_phase p, bool failed);
void check_walk_stopped(int dev, enum pm_phase p);
bool must_record(int dev, enum pm_phase p);
void check_stats_recorded(void);
void do_check_failed_step(long long q);
void do_check_phase_end(enum pm_phase p);
bool is_child(int c, int dev);
void check_suspend_start(int dev, enum pm_phase p);
unsigned int kept_ok(int par);
void check_resume_start(int dev, enum pm_phase p);
void check_pm_wait(int dev, enum pm_phase p);
void do_check_direct_complete(int dev);
void do_check_direct_resume(int dev);
void check_rpm_disabled(int dev, enum pm_phase p, long long facts);
void check_prepared_flag(int dev, enum pm_phase p, long long facts);
void check_smart_kept(int dev, enum pm_phase p, long long from);
void check_rpm_status_kept(int dev, enum pm_phase p, long long facts);
void do_check_rpm_state(int dev, bool end, long long depth, bool suspended);
void check_rpm_kept(int dev, enum pm_phase p, long long facts);
void do_check_rpm_noirq(int dev, int when, long long flags);
void do_check_rpm_removed(int dev, long long depth, long long flags);
void check_rpm_request(int dev, enum pm_phase p, long long facts);
void check_parent_rpm_enabled(int dev, enum pm_phase p, long long facts);
void do_check_locking(int dev, const char *what, long long held);
void do_check_relinked(int dev);
void check_dc_due(int dev, enum pm_phase p, long long facts);
void check_wakeup_path(int dev, enum pm_phase p, long long facts);
void check_callback_source(int dev, enum pm_phase p, long long from);
void check_dc_kept(int dev, enum pm_phase p, long long facts);
/* dev ended its suspend step: its superiors in direct_complete may have
 * lost it (dpm_clear_superiors_direct_complete()). */
void note_dc_clearers(int dev);
void do_check_callback_start(int dev, enum pm_phase p, long long facts, long long from);
void do_check_callback_end(int dev, enum pm_phase p, int error);
void do_check_failed_dev(int dev, const char *name);
void do_check_device_gone(int dev);
void do_check_device_freed(int dev, long long under_list_mtx);
void do_check_transition_end(int error);
void do_check_refs(int dev, long long have, long long want);
void do_check_all_freed(void);
void do_check_use_after_free(int dev, const char *op, long long in,
				    long long p);
void do_check_device_handled(int dev, enum pm_phase p);
void skip_suspend_rpm(int dev, enum pm_phase p);
void skip_resume_rpm(int dev, enum pm_phase p);
void check_layer_asked(int dev, enum pm_phase p, int why, long long facts);
void do_check_skip(int dev, enum pm_phase p, int why, long long facts);
void do_check_link(int con, int sup, bool on);
void do_check_added(int dev);

enum oracle_resume resume_kind(void);

#endif
