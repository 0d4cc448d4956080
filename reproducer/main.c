// SPDX-License-Identifier: GPL-2.0
/*
 * pbaim: an AIM7-like multiuser throughput benchmark.
 *
 * Usage: pbaim -f WORKFILE [-t TASKS] [-j JOBS] [-n SAMPLES] [-w WARMUP]
 *              [-s SEED] [-d DIR] [--threshold JPM] [--exec PATH]
 *
 * Each sample forks TASKS tasks that block on one pipe, releases them
 * together by closing it, lets each run JOBS jobs drawn from the workfile,
 * and prints AIM7's figures as a table row for people and as one PERFBISECT
 * line for the host.  See README.md for the options and the exit codes.
 */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "opts.h"
#include "pb.h"
#include "stats.h"
#include "workfile.h"

#define PB_NAME		"pbaim"
#define PB_PREFIX	"PERFBISECT"

/* What a task tells the harness when it is done, one atomic pipe write. */
struct pb_report {
	uint32_t task;
	int32_t test;		/* failing sub-test, -1: task setup */
	int32_t err;		/* errno of the failure, 0: all jobs done */
	int32_t pad;
	int64_t end_ns;		/* CLOCK_MONOTONIC when the last job ended */
	char what[PB_WHAT_MAX];
};

_Static_assert(sizeof(struct pb_report) <= PIPE_BUF, "report not atomic");

struct pb_run {
	const struct pb_opts *o;
	unsigned int counts[PB_TESTS_MAX];	/* jobs per sub-test */
	char run_dir[PB_PATH_MAX - 32];		/* <dir>/pbaim.<pid> */
	char exec_path[PB_PATH_MAX];
	pid_t *pids;
	double *times;				/* completion seconds */
};

struct pb_sample {
	double jpm, jti, real, cpu, jpst, idle, csw_per_job;
};

static const char pb_usage[] =
	"Usage: pbaim -f WORKFILE [options]\n"
	"AIM7-like multiuser throughput benchmark.\n"
	"\n"
	"  -f, --workfile PATH  '<weight> <test>' lines (required)\n"
	"  -t, --tasks N        tasks forked per sample, 1..10000 (100)\n"
	"  -j, --jobs N         jobs per task, 1..100000 (100)\n"
	"  -n, --samples N      measured samples, 1..1000 (3)\n"
	"  -w, --warmup N       samples run first and thrown away, 0..100 (0)\n"
	"  -s, --seed N         job order seed, 0..4294967295 (1)\n"
	"  -d, --dir DIR        work directory, one subdir per task (/tmp)\n"
	"      --threshold JPM  PASS if the median jobs/min >= JPM, else FAIL\n"
	"      --exec PATH      binary for exec_test (pbtrue next to pbaim)\n"
	"      --timeout SEC    give up on a sample after SEC seconds (0: never)\n"
	"  -l, --list           list the sub-tests and exit\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Exit: 0 done/PASS, 1 FAIL, 2 usage, 3 workfile, 4 setup failure.\n";

static void setup_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PB_NAME ": setup failure: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Read /proc/stat whole (its intr line can be long) and parse it. */
static int read_procstat(struct pb_cpustat *cs)
{
	size_t len = 0, cap = 16384;
	char *buf, *bigger;
	ssize_t n;
	int fd, ret = -1;

	fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	buf = malloc(cap);
	if (!buf)
		goto close_fd;
	for (;;) {
		if (len + 1 >= cap) {
			cap *= 2;
			bigger = cap <= (1 << 22) ? realloc(buf, cap) : NULL;
			if (!bigger)
				goto free_buf;
			buf = bigger;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto free_buf;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	ret = pb_procstat_parse(buf, cs);
free_buf:
	free(buf);
close_fd:
	close(fd);
	return ret;
}

/* One task: set up, wait for the start, run its jobs, report, exit. */
static void task_main(const struct pb_run *run, unsigned int idx,
		      int start_fd, int report_fd)
{
	struct pb_report rep = { .task = idx, .test = -1 };
	struct pb_ctx ctx = {
		.task = idx,
		.null_fd = -1,
		.exec_path = run->exec_path,
	};
	struct pb_draw draw;
	const char *what = NULL;
	char c;
	int t;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_IGN);
	snprintf(ctx.dir, sizeof(ctx.dir), "%s/t%u", run->run_dir, idx);
	if (mkdir(ctx.dir, 0700) < 0 && errno != EEXIST) {
		rep.err = errno;
		what = "mkdir task dir";
		goto report;
	}
	ctx.null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (ctx.null_fd < 0) {
		rep.err = errno;
		what = "open /dev/null";
		goto remove_dir;
	}
	pb_draw_init(&draw, run->counts, pb_ntests, run->o->seed + idx);
	while (read(start_fd, &c, 1) < 0 && errno == EINTR)
		;
	for (t = pb_draw_next(&draw); t >= 0; t = pb_draw_next(&draw)) {
		if (pb_tests[t]->run(&ctx, pb_tests[t]->repeat)) {
			rep.test = t;
			rep.err = ctx.err;
			what = ctx.what;
			break;
		}
	}
	rep.end_ns = now_ns();
	close(ctx.null_fd);
remove_dir:
	rmdir(ctx.dir);
report:
	if (what)
		snprintf(rep.what, sizeof(rep.what), "%s", what);
	if (write(report_fd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(2);
	_exit(rep.err ? 1 : 0);
}

/* Print why task @rep failed, naming the sub-test and the operation. */
static void report_task_failure(const struct pb_report *rep)
{
	const char *test = "task setup";

	if (rep->test >= 0 && (unsigned int)rep->test < pb_ntests)
		test = pb_tests[rep->test]->name;
	setup_fail("task %u: %s: %s: %s", rep->task, test, rep->what,
		   strerror(rep->err));
}

/*
 * Read task reports until all @ntasks reported; fills run->times.  Returns
 * 0, or -1 after printing why (a task failed, died, or the time ran out).
 */
static int collect(struct pb_run *run, int fd, int64_t t0, unsigned int ntasks)
{
	int64_t deadline = t0 + (int64_t)run->o->timeout * 1000000000;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct pb_report rep;
	unsigned int got = 0;
	int wait_ms, r;
	ssize_t n;

	while (got < ntasks) {
		wait_ms = -1;
		if (run->o->timeout) {
			wait_ms = (int)((deadline - now_ns()) / 1000000);
			if (wait_ms < 0)
				wait_ms = 0;
		}
		r = poll(&pfd, 1, wait_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			setup_fail("sample timed out after %u s (--timeout)",
				   run->o->timeout);
			return -1;
		}
		n = read(fd, &rep, sizeof(rep));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(rep) || rep.task >= ntasks) {
			setup_fail("%u of %u tasks died without a report",
				   ntasks - got, ntasks);
			return -1;
		}
		if (rep.err) {
			report_task_failure(&rep);
			return -1;
		}
		run->times[rep.task] = (double)(rep.end_ns - t0) / 1e9;
		got++;
	}
	return 0;
}

/* Kill the first @n tasks (when @kill_them) and reap them all. */
static int reap_tasks(const struct pb_run *run, unsigned int n, int kill_them)
{
	unsigned int i;
	int status, bad = 0;

	for (i = 0; kill_them && i < n; i++)
		kill(run->pids[i], SIGKILL);
	for (i = 0; i < n; i++) {
		while (waitpid(run->pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (!kill_them && !(WIFEXITED(status) &&
				    WEXITSTATUS(status) == 0))
			bad++;
	}
	if (bad)
		setup_fail("%d tasks exited abnormally", bad);
	return bad ? -1 : 0;
}

static int fork_tasks(struct pb_run *run, int *start, int *report,
		      unsigned int *forked)
{
	pid_t pid;

	for (*forked = 0; *forked < run->o->tasks; (*forked)++) {
		pid = pb_fork();
		if (pid < 0) {
			setup_fail("fork of task %u refused: %s", *forked,
				   strerror(errno));
			return -1;
		}
		if (pid == 0) {
			close(start[1]);
			close(report[0]);
			task_main(run, *forked, start[0], report[1]);
		}
		run->pids[*forked] = pid;
	}
	return 0;
}

/* Run one sample: fork, release, collect, reap, compute.  0 or -1. */
static int run_sample(struct pb_run *run, struct pb_sample *s)
{
	const struct pb_opts *o = run->o;
	struct pb_cpustat cs0, cs1;
	struct rusage ru0, ru1;
	int start[2], report[2];
	unsigned int forked = 0;
	int64_t t0, t1;
	int err;

	if (pipe2(start, O_CLOEXEC) < 0) {
		setup_fail("pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(report, O_CLOEXEC) < 0) {
		setup_fail("pipe: %s", strerror(errno));
		goto close_start;
	}
	getrusage(RUSAGE_CHILDREN, &ru0);
	err = fork_tasks(run, start, report, &forked);
	close(report[1]);
	if (!err && read_procstat(&cs0) < 0) {
		setup_fail("cannot read /proc/stat");
		err = -1;
	}
	t0 = now_ns();
	close(start[1]);	/* the start signal: every task reads EOF */
	close(start[0]);
	if (!err)
		err = collect(run, report[0], t0, o->tasks);
	if (reap_tasks(run, forked, err) < 0)
		err = -1;
	t1 = now_ns();
	close(report[0]);
	if (err)
		return -1;
	getrusage(RUSAGE_CHILDREN, &ru1);
	if (read_procstat(&cs1) < 0) {
		setup_fail("cannot read /proc/stat");
		return -1;
	}
	s->real = (double)(t1 - t0) / 1e9;
	s->jpm = pb_jpm(o->jobs, o->tasks, s->real);
	s->jpst = pb_jpst(o->jobs, s->real);
	s->jti = pb_jti(run->times, o->tasks);
	s->cpu = pb_cpu_seconds(&ru0, &ru1);
	s->idle = pb_idle_pct(&cs0, &cs1);
	s->csw_per_job = pb_csw_per_job(&cs0, &cs1,
					(unsigned long long)o->jobs * o->tasks);
	return 0;

close_start:
	close(start[0]);
	close(start[1]);
	return -1;
}

/* Result values must print as plain decimals: never nan or inf. */
static double num(double x)
{
	return isfinite(x) ? x : -1;
}

static void print_sample(const struct pb_run *run, unsigned int i,
			 int warmup, const struct pb_sample *s)
{
	const struct pb_opts *o = run->o;

	printf("%u\t%-8.1f\t%.0f\t%.2f\t%.2f\t%.4f%s\n", o->tasks, num(s->jpm),
	       num(s->jti), num(s->real), num(s->cpu), num(s->jpst),
	       warmup ? "\t(warm-up)" : "");
	printf(PB_PREFIX " sample=%u warmup=%d tasks=%u jobs=%u jpm=%.1f jti=%.1f real=%.3f cpu=%.3f jpst=%.4f idle=%.1f csw_per_job=%.1f\n",
	       i, warmup, o->tasks, o->jobs, num(s->jpm), num(s->jti),
	       num(s->real), num(s->cpu), num(s->jpst), num(s->idle),
	       num(s->csw_per_job));
}

/* Print the summary and the verdict; return the exit code. */
static int judge(const struct pb_opts *o, const double *jpm, unsigned int n)
{
	struct pb_summary sum;
	int pass;

	pb_summarize(jpm, n, &sum);
	printf("# median %.1f jobs/min over %u samples: min %.1f, max %.1f, spread %.1f%%, CV %.1f%%\n",
	       num(sum.median), n, num(sum.min), num(sum.max),
	       num(sum.spread_pct), num(sum.cv_pct));
	printf(PB_PREFIX " summary=1 samples=%u median_jpm=%.1f min_jpm=%.1f max_jpm=%.1f spread_pct=%.1f cv_pct=%.1f",
	       n, num(sum.median), num(sum.min), num(sum.max),
	       num(sum.spread_pct), num(sum.cv_pct));
	if (!o->has_threshold) {
		printf("\n");
		return PB_EXIT_PASS;
	}
	pass = sum.median >= o->threshold;
	printf(" threshold=%.1f pass=%d\n", o->threshold, pass);
	printf("%s: median %.1f jobs/min %s threshold %.1f (spread %.1f%%, CV %.1f%%)\n",
	       pass ? "PASS" : "FAIL", num(sum.median), pass ? ">=" : "<",
	       o->threshold, num(sum.spread_pct), num(sum.cv_pct));
	return pass ? PB_EXIT_PASS : PB_EXIT_FAIL;
}

/* Find the exec_test binary: --exec, else pbtrue next to /proc/self/exe. */
static int resolve_exec(struct pb_run *run)
{
	static const char *const names[] = { "pbtrue", "pbtrue.static" };
	char self[PB_PATH_MAX - 32];
	const char *path = run->o->exec_path;
	int first, i;
	ssize_t n;
	char *slash;

	if (path) {
		snprintf(run->exec_path, sizeof(run->exec_path), "%s", path);
		if (access(path, X_OK) == 0)
			return 0;
		setup_fail("--exec %s: %s", path, strerror(errno));
		return -1;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || n >= (ssize_t)sizeof(self) - 1) {
		setup_fail("cannot read /proc/self/exe to find pbtrue (give --exec PATH)");
		return -1;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	n = (ssize_t)strlen(slash + 1);
	first = n > 7 && strcmp(slash + 1 + n - 7, ".static") == 0;
	for (i = 0; i < 2; i++) {
		snprintf(run->exec_path, sizeof(run->exec_path), "%s/%s",
			 self, names[(first + i) % 2]);
		if (access(run->exec_path, X_OK) == 0)
			return 0;
	}
	setup_fail("no executable pbtrue or pbtrue.static in %s (give --exec PATH)",
		   self);
	return -1;
}

/* Run every sub-test the workfile uses once, in this process. */
static int preflight(struct pb_run *run)
{
	struct pb_ctx ctx = { .null_fd = -1, .exec_path = run->exec_path };
	unsigned int i;
	int ret = -1;

	snprintf(ctx.dir, sizeof(ctx.dir), "%s/pre", run->run_dir);
	if (mkdir(ctx.dir, 0700) < 0) {
		setup_fail("cannot create %s: %s", ctx.dir, strerror(errno));
		return -1;
	}
	ctx.null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (ctx.null_fd < 0) {
		setup_fail("cannot open /dev/null: %s", strerror(errno));
		goto remove_dir;
	}
	for (i = 0; i < pb_ntests; i++) {
		if (!run->counts[i] || !pb_tests[i]->run(&ctx, 1))
			continue;
		setup_fail("%s: %s: %s", pb_tests[i]->name, ctx.what,
			   strerror(ctx.err));
		goto close_null;
	}
	ret = 0;
close_null:
	close(ctx.null_fd);
remove_dir:
	rmdir(ctx.dir);
	return ret;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Everything before the first sample; 0 or an exit code. */
static int setup(struct pb_run *run)
{
	const struct pb_opts *o = run->o;
	struct pb_cpustat cs;
	int exec_idx;

	run->pids = calloc(o->tasks, sizeof(*run->pids));
	run->times = calloc(o->tasks, sizeof(*run->times));
	if (!run->pids || !run->times) {
		setup_fail("out of memory for %u tasks", o->tasks);
		return PB_EXIT_SETUP;
	}
	if (read_procstat(&cs) < 0) {
		setup_fail("cannot read /proc/stat (is /proc mounted?)");
		return PB_EXIT_SETUP;
	}
	exec_idx = pb_test_find(pb_tests, pb_ntests, "exec_test");
	if (exec_idx >= 0 && run->counts[exec_idx] && resolve_exec(run) < 0)
		return PB_EXIT_SETUP;
	snprintf(run->run_dir, sizeof(run->run_dir), "%s/" PB_NAME ".%d",
		 o->dir, (int)getpid());
	if (mkdir(run->run_dir, 0700) < 0) {
		setup_fail("work dir %s not writable: %s", o->dir,
			   strerror(errno));
		run->run_dir[0] = '\0';
		return PB_EXIT_SETUP;
	}
	if (preflight(run) < 0)
		return PB_EXIT_SETUP;
	return 0;
}

static void teardown(struct pb_run *run)
{
	if (run->run_dir[0])
		nftw(run->run_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(run->pids);
	free(run->times);
}

static void list_tests(void)
{
	unsigned int i;

	for (i = 0; i < pb_ntests; i++)
		printf("%-14s repeat %-4u %s\n", pb_tests[i]->name,
		       pb_tests[i]->repeat, pb_tests[i]->desc);
}

/* Load the workfile and split the jobs; 0 or PB_EXIT_WORKFILE. */
static int load_workfile(struct pb_run *run)
{
	const struct pb_opts *o = run->o;
	struct pb_workfile wf;
	enum pb_wf_err err;

	err = pb_wf_load(o->workfile, pb_tests, pb_ntests, &wf);
	if (err == PB_WF_ERR_OPEN) {
		fprintf(stderr, PB_NAME ": workfile %s: %s: %s\n", o->workfile,
			pb_wf_strerror(err), strerror(errno));
		return PB_EXIT_WORKFILE;
	}
	if (!err)
		err = pb_wf_plan(&wf, pb_ntests, o->jobs, run->counts);
	if (!err)
		return 0;
	if (wf.err_line)
		fprintf(stderr, PB_NAME ": workfile %s:%u: '%s': %s\n",
			o->workfile, wf.err_line, wf.token,
			pb_wf_strerror(err));
	else
		fprintf(stderr, PB_NAME ": workfile %s: %s\n", o->workfile,
			pb_wf_strerror(err));
	return PB_EXIT_WORKFILE;
}

static int run_all(struct pb_run *run)
{
	const struct pb_opts *o = run->o;
	unsigned int i, total = o->warmup + o->samples;
	double jpm[PB_SAMPLES_MAX];
	struct pb_sample s;

	printf("# pbaim: workfile %s, %u tasks x %u jobs, seed %llu, %u samples + %u warm-up\n",
	       o->workfile, o->tasks, o->jobs, o->seed, o->samples, o->warmup);
	printf("Tasks\tJobs/Min\tJTI\tReal\tCPU\tJobs/sec/task\n");
	for (i = 0; i < total; i++) {
		if (run_sample(run, &s) < 0)
			return PB_EXIT_SETUP;
		print_sample(run, i, i < o->warmup, &s);
		if (i >= o->warmup)
			jpm[i - o->warmup] = s.jpm;
	}
	return judge(o, jpm, o->samples);
}

int main(int argc, char **argv)
{
	struct pb_run run = { 0 };
	struct pb_opts o;
	char msg[256];
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pb_opts_parse(argc, argv, &o, msg, sizeof(msg)) < 0) {
		fprintf(stderr, PB_NAME ": %s (try --help)\n", msg);
		return PB_EXIT_USAGE;
	}
	if (o.help) {
		fputs(pb_usage, stdout);
		return PB_EXIT_PASS;
	}
	if (o.list) {
		list_tests();
		return PB_EXIT_PASS;
	}
	if (pb_ntests > PB_TESTS_MAX) {
		setup_fail("too many sub-tests compiled in");
		return PB_EXIT_SETUP;
	}
	run.o = &o;
	ret = load_workfile(&run);
	if (ret)
		return ret;
	ret = setup(&run);
	if (!ret)
		ret = run_all(&run);
	teardown(&run);
	return ret;
}
