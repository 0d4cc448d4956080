// SPDX-License-Identifier: GPL-2.0
/*
 * Pseudo-terminals: open a pty pair through /dev/ptmx and close it
 * (chrdev_open and tty release both took the BKL), and tty ioctls on a pty
 * (FIONBIO on a tty took the BKL as well).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "pb.h"

/* Open a master/slave pty pair; on failure nothing stays open. */
static int pty_pair(struct pb_ctx *ctx, int *master, int *slave)
{
	char name[64];
	int m, s, err;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return pb_fail(ctx, "posix_openpt /dev/ptmx", errno);
	if (grantpt(m) < 0) {
		err = pb_fail(ctx, "grantpt", errno);
		goto close_master;
	}
	if (unlockpt(m) < 0) {
		err = pb_fail(ctx, "unlockpt", errno);
		goto close_master;
	}
	if (ptsname_r(m, name, sizeof(name)) != 0) {
		err = pb_fail(ctx, "ptsname", errno);
		goto close_master;
	}
	s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0) {
		err = pb_fail(ctx, "open pty slave (devpts on /dev/pts?)",
			      errno);
		goto close_master;
	}
	*master = m;
	*slave = s;
	return 0;

close_master:
	close(m);
	return err;
}

static int pty_open(struct pb_ctx *ctx, unsigned int repeat)
{
	unsigned int i;
	int m, s, err;

	for (i = 0; i < repeat; i++) {
		err = pty_pair(ctx, &m, &s);
		if (err)
			return err;
		close(s);
		close(m);
	}
	return 0;
}

/* TCGETS, TIOCGWINSZ and a FIONBIO on/off pair, @repeat times, on a pty. */
static int tty_ioctl(struct pb_ctx *ctx, unsigned int repeat)
{
	struct termios tio;
	struct winsize ws;
	unsigned int i;
	int m, s, on, err;

	err = pty_pair(ctx, &m, &s);
	if (err)
		return err;
	for (i = 0; i < repeat; i++) {
		if (ioctl(s, TCGETS, &tio) < 0) {
			err = pb_fail(ctx, "ioctl TCGETS", errno);
			goto close_pair;
		}
		if (ioctl(s, TIOCGWINSZ, &ws) < 0) {
			err = pb_fail(ctx, "ioctl TIOCGWINSZ", errno);
			goto close_pair;
		}
		on = 1;
		if (ioctl(s, FIONBIO, &on) < 0) {
			err = pb_fail(ctx, "ioctl FIONBIO", errno);
			goto close_pair;
		}
		on = 0;
		if (ioctl(s, FIONBIO, &on) < 0) {
			err = pb_fail(ctx, "ioctl FIONBIO", errno);
			goto close_pair;
		}
	}
close_pair:
	close(s);
	close(m);
	return err;
}

const struct pb_test pb_test_pty_open = {
	.name = "pty_open",
	.run = pty_open,
	.repeat = 5,
	.desc = "open/close a pty pair via /dev/ptmx",
};

const struct pb_test pb_test_tty_ioctl = {
	.name = "tty_ioctl",
	.run = tty_ioctl,
	.repeat = 40,
	.desc = "TCGETS, TIOCGWINSZ, FIONBIO on a pty",
};
