// SPDX-License-Identifier: GPL-2.0
/*
 * pbconsole: read a guest's serial console log and print either the result
 * lines it carries or the outcome of the boot. A pure filter: the console is
 * data, nothing in it is evaluated.
 *
 * Usage: pbconsole results|outcome [LOG]   (stdin when LOG is absent)
 *
 * A result line is a complete, newline-terminated line of the form
 *	PERFBISECT key=value [key=value]...
 * where key matches [a-z][a-z0-9_]{0,31}, value matches
 * -?[0-9]{1,12}(\.[0-9]{1,6})? and no key repeats. A line that starts with
 * the prefix but breaks any rule is reported on stderr and dropped whole.
 *
 * The outcome is the most severe of: panic, oops, bug, payload (the init
 * reported a non-zero exit), noresult (no valid "exit=" line) and ok.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX		"PERFBISECT "
#define MAX_LINE	1024
#define MAX_PAIRS	32
#define MAX_KEY		32
#define MAX_INT_DIGITS	12
#define MAX_FRAC_DIGITS	6
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum outcome { OUT_OK, OUT_NORESULT, OUT_PAYLOAD, OUT_BUG, OUT_OOPS,
	       OUT_PANIC };

static const char * const outcome_name[] = {
	[OUT_OK] = "ok",
	[OUT_NORESULT] = "noresult",
	[OUT_PAYLOAD] = "payload",
	[OUT_BUG] = "bug",
	[OUT_OOPS] = "oops",
	[OUT_PANIC] = "panic",
};

/* What the kernel prints when it dies or complains, and what it means. */
static const struct {
	const char *pattern;
	enum outcome outcome;
} console_patterns[] = {
	{ "Kernel panic - not syncing", OUT_PANIC },
	{ "Oops: ", OUT_OOPS },
	{ "general protection fault", OUT_OOPS },
	{ "BUG: unable to handle", OUT_OOPS },
	{ "kernel BUG at", OUT_OOPS },
	{ "BUG: ", OUT_BUG },
	{ "WARNING: ", OUT_BUG },
	{ "list_add corruption", OUT_BUG },
	{ "list_del corruption", OUT_BUG },
	{ "blocked for more than", OUT_BUG },
	{ "INFO: possible", OUT_BUG },
};

struct scan {
	enum outcome worst;	/* worst console pattern seen */
	int exit_seen;		/* a valid "exit=" result was read */
	int exit_nonzero;	/* and it was not 0 */
	int results;		/* valid result lines */
	int rejected;		/* prefixed lines that broke the rules */
	int print_results;	/* mode: print valid result lines */
};

static int valid_key(const char *k, size_t len)
{
	size_t i;

	if (len == 0 || len > MAX_KEY || k[0] < 'a' || k[0] > 'z')
		return 0;
	for (i = 1; i < len; i++) {
		if (!((k[i] >= 'a' && k[i] <= 'z') ||
		      (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
			return 0;
	}
	return 1;
}

static int valid_number(const char *v, size_t len)
{
	size_t i = 0, ints = 0, fracs = 0;

	if (i < len && v[i] == '-')
		i++;
	while (i < len && v[i] >= '0' && v[i] <= '9') {
		i++;
		ints++;
	}
	if (ints == 0 || ints > MAX_INT_DIGITS)
		return 0;
	if (i == len)
		return 1;
	if (v[i] != '.')
		return 0;
	i++;
	while (i < len && v[i] >= '0' && v[i] <= '9') {
		i++;
		fracs++;
	}
	return i == len && fracs > 0 && fracs <= MAX_FRAC_DIGITS;
}

/*
 * Check one prefixed line; return NULL when it is valid, else the reason.
 * @body points after the prefix and holds @len bytes (may contain NULs).
 * On success *exit_val is set when the line carries an "exit" key.
 */
static const char *check_result(const char *body, size_t len, int *has_exit,
				long *exit_val)
{
	const char *keys[MAX_PAIRS];
	size_t key_len[MAX_PAIRS];
	size_t pos = 0, npairs = 0, i;

	*has_exit = 0;
	if (memchr(body, '\0', len))
		return "contains a NUL byte";
	while (pos < len) {
		size_t start = pos, eq = 0, end;

		while (pos < len && body[pos] != ' ') {
			if (body[pos] == '=' && !eq)
				eq = pos;
			pos++;
		}
		end = pos;
		if (end == start)
			return "empty field";
		if (!eq)
			return "field without '='";
		if (!valid_key(body + start, eq - start))
			return "bad key";
		if (!valid_number(body + eq + 1, end - eq - 1))
			return "value is not a plain decimal number";
		if (npairs == MAX_PAIRS)
			return "too many fields";
		for (i = 0; i < npairs; i++) {
			if (key_len[i] == eq - start &&
			    !memcmp(keys[i], body + start, eq - start))
				return "repeated key";
		}
		keys[npairs] = body + start;
		key_len[npairs] = eq - start;
		npairs++;
		if (eq - start == 4 && !memcmp(body + start, "exit", 4)) {
			*has_exit = 1;
			*exit_val = strtol(body + eq + 1, NULL, 10);
		}
		if (pos < len)
			pos++;	/* the single space between fields */
		if (pos == len && body[len - 1] == ' ')
			return "trailing space";
	}
	if (npairs == 0)
		return "no fields";
	return NULL;
}

static void scan_patterns(struct scan *s, const char *line, size_t len)
{
	size_t i, plen;
	const char *p;

	for (i = 0; i < ARRAY_SIZE(console_patterns); i++) {
		plen = strlen(console_patterns[i].pattern);
		for (p = line; p + plen <= line + len; p++) {
			if (*p == console_patterns[i].pattern[0] &&
			    !memcmp(p, console_patterns[i].pattern, plen)) {
				if (console_patterns[i].outcome > s->worst)
					s->worst = console_patterns[i].outcome;
				break;
			}
		}
	}
}

/* Handle one line of @len bytes; @complete is 0 for a line cut off at EOF. */
static void scan_line(struct scan *s, const char *line, size_t len, int complete,
		      unsigned long lineno)
{
	size_t plen = strlen(PREFIX);
	const char *why;
	int has_exit;
	long exit_val = 0;

	if (len && line[len - 1] == '\r')
		len--;
	scan_patterns(s, line, len);
	if (len < plen || memcmp(line, PREFIX, plen))
		return;
	if (!complete)
		why = "cut off before its end";
	else if (len > MAX_LINE)
		why = "too long";
	else
		why = check_result(line + plen, len - plen, &has_exit,
				   &exit_val);
	if (why) {
		s->rejected++;
		fprintf(stderr, "pbconsole: line %lu: ignored result line: %s\n",
			lineno, why);
		return;
	}
	s->results++;
	if (has_exit) {
		s->exit_seen = 1;
		if (exit_val != 0)
			s->exit_nonzero = 1;
	}
	if (s->print_results) {
		fwrite(line, 1, len, stdout);
		putchar('\n');
	}
}

static int scan_file(struct scan *s, FILE *f)
{
	char *buf = NULL;
	size_t cap = 0, len = 0;
	unsigned long lineno = 0;
	int c;

	for (;;) {
		c = getc(f);
		if (c == EOF || c == '\n') {
			if (c == '\n' || len)
				scan_line(s, buf ? buf : "", len, c == '\n',
					  ++lineno);
			len = 0;
			if (c == EOF)
				break;
			continue;
		}
		if (len == cap) {
			char *n;

			/* Long lines only need their start: keep 64 KiB. */
			if (cap >= 65536)
				continue;
			cap = cap ? cap * 2 : 256;
			n = realloc(buf, cap);
			if (!n)
				goto out_nomem;
			buf = n;
		}
		buf[len++] = (char)c;
	}
	free(buf);
	return ferror(f) ? -1 : 0;

out_nomem:
	free(buf);
	fprintf(stderr, "pbconsole: out of memory\n");
	return -1;
}

int main(int argc, char **argv)
{
	struct scan s = { .worst = OUT_OK };
	enum outcome o;
	FILE *f = stdin;
	int want_outcome;

	if (argc < 2 || argc > 3 || (strcmp(argv[1], "results") &&
				     strcmp(argv[1], "outcome"))) {
		fprintf(stderr, "usage: pbconsole results|outcome [LOG]\n");
		return 2;
	}
	want_outcome = !strcmp(argv[1], "outcome");
	s.print_results = !want_outcome;
	if (argc == 3) {
		f = fopen(argv[2], "rb");
		if (!f) {
			fprintf(stderr, "pbconsole: cannot open %s\n", argv[2]);
			return 3;
		}
	}
	if (scan_file(&s, f)) {
		fprintf(stderr, "pbconsole: read error\n");
		return 3;
	}
	if (f != stdin)
		fclose(f);
	if (!want_outcome)
		return 0;

	o = s.worst;
	if (o < OUT_PAYLOAD && s.exit_seen && s.exit_nonzero)
		o = OUT_PAYLOAD;
	if (o < OUT_NORESULT && !s.exit_seen)
		o = OUT_NORESULT;
	printf("%s\n", outcome_name[o]);
	return 0;
}
