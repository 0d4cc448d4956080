// SPDX-License-Identifier: GPL-2.0
/*
 * Memory work: AIM7 brk_test (grow and shrink the heap with brk)
 * and page_test (map anonymous pages, touch each one, unmap).  Sizes are
 * small so that thousands of tasks fit in a 1 GiB guest.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "pb.h"

#define PB_BRK_STEP	(64 * 1024)
#define PB_PAGE_BYTES	(64 * 1024)

static int brk_test(struct pb_ctx *ctx, unsigned int repeat)
{
	unsigned int i;

	for (i = 0; i < repeat; i++) {
		if (sbrk(PB_BRK_STEP) == (void *)-1)
			return pb_fail(ctx, "brk grow", errno);
		if (sbrk(-PB_BRK_STEP) == (void *)-1)
			return pb_fail(ctx, "brk shrink", errno);
	}
	return 0;
}

static int page_test(struct pb_ctx *ctx, unsigned int repeat)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i;
	size_t off;
	char *p;

	if (page <= 0)
		page = 4096;
	for (i = 0; i < repeat; i++) {
		p = mmap(NULL, PB_PAGE_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return pb_fail(ctx, "mmap anonymous", errno);
		for (off = 0; off < PB_PAGE_BYTES; off += (size_t)page)
			p[off] = (char)(off + i);
		ctx->sink += (unsigned char)p[PB_PAGE_BYTES - (size_t)page];
		munmap(p, PB_PAGE_BYTES);
	}
	return 0;
}

const struct pb_test pb_test_brk_test = {
	.name = "brk_test",
	.run = brk_test,
	.repeat = 40,
	.desc = "grow and shrink the heap by 64 KiB",
};

const struct pb_test pb_test_page_test = {
	.name = "page_test",
	.run = page_test,
	.repeat = 4,
	.desc = "map, touch and unmap 64 KiB of anonymous pages",
};
