/*
 * Checks in the background: a format hands a slow whole-archive check (the
 * TirNanoG CRC) to gfs_check_later(); a mount runs it in a thread of low
 * priority, the commands run it when first needed, a commit waits for its
 * verdict, and closing stops it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "gamefs.h"
#include "core/core.h"

struct gfs_bgcheck {
	gfs_check_fn fn;
	void *arg;
	pthread_t tid;
	int started;		/* a thread runs fn */
	int done;		/* fn returned (atomic) */
	int stop;		/* the archive is closing (atomic) */
	int verdict;
	char why[200];
};

static void *gfs_check_thread(void *p)
{
	struct gfs_archive *ar = p;
	struct gfs_bgcheck *c = ar->bgcheck;

	/* behind the reads the user waits for: a hint, fine if refused */
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10)) {
	}
	c->verdict = c->fn(ar, c->arg, c->why, sizeof(c->why));
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The verdict of a finished check into the archive; the check is gone. */
static int gfs_check_apply(struct gfs_archive *ar)
{
	struct gfs_bgcheck *c = ar->bgcheck;
	int v = c->verdict;

	ar->bgcheck = NULL;
	if (v && v != -ECANCELED) {
		if (v < 0 && !c->why[0])
			snprintf(c->why, sizeof(c->why), "cannot read the archive to check it: %s",
				 strerror(-v));
		ar->damaged = 1;
		if (!ar->opts.force && !ar->readonly) {
			ar->readonly = 1;
			snprintf(ar->ro_reason, sizeof(ar->ro_reason), "the archive is damaged (%s); "
				 "-o force allows writing", c->why);
			gfs_warn(ar, "read-only from now on: %s", ar->ro_reason);
		} else {
			gfs_warn(ar, "the archive is damaged: %s", c->why);
		}
	}
	free(c);
	return v;
}

static int gfs_check_start(struct gfs_archive *ar)
{
	struct gfs_bgcheck *c = ar->bgcheck;

	c->started = !pthread_create(&c->tid, NULL, gfs_check_thread, ar);
	return c->started ? 0 : -EAGAIN;
}

int gfs_check_wait(struct gfs_archive *ar)
{
	struct gfs_bgcheck *c = ar->bgcheck;

	if (!c)
		return 0;
	if (c->started)
		pthread_join(c->tid, NULL);
	else
		c->verdict = c->fn(ar, c->arg, c->why, sizeof(c->why));
	return gfs_check_apply(ar);
}

int gfs_check_later(struct gfs_archive *ar, gfs_check_fn fn, void *arg)
{
	struct gfs_bgcheck *c;

	gfs_check_wait(ar);	/* one at a time */
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fn = fn;
	c->arg = arg;
	ar->bgcheck = c;
	if (ar->checks_async)
		gfs_check_start(ar);	/* no thread: it runs when first needed */
	return 0;
}

int gfs_check_stopping(struct gfs_archive *ar)
{
	return ar->bgcheck && __atomic_load_n(&ar->bgcheck->stop, __ATOMIC_ACQUIRE);
}

void gfs_archive_start_checks(struct gfs_archive *ar)
{
	ar->checks_async = 1;
	if (ar->bgcheck && !ar->bgcheck->started)
		gfs_check_start(ar);
}

void gfs_archive_poll_checks(struct gfs_archive *ar)
{
	struct gfs_bgcheck *c = ar->bgcheck;

	if (c && c->started && __atomic_load_n(&c->done, __ATOMIC_ACQUIRE)) {
		pthread_join(c->tid, NULL);
		gfs_check_apply(ar);
	}
}

/* Closing: a check still running is told to stop, and its verdict is dropped. */
void gfs_check_drop(struct gfs_archive *ar)
{
	struct gfs_bgcheck *c = ar->bgcheck;

	if (!c)
		return;
	if (c->started) {
		__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
		pthread_join(c->tid, NULL);
	}
	ar->bgcheck = NULL;
	free(c);
}

