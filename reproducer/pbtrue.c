// SPDX-License-Identifier: GPL-2.0
/*
 * The tiny program pbaim's exec_test runs: exit 0 at once.
 */
int main(void)
{
	return 0;
}
