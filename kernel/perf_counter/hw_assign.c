// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: placing counters on registers with constraints.
 *
 * Each counter comes with the list of places it may take (a register,
 * and any shared control register that place uses, as resource bits).
 * A search with backtracking, most constrained counter first, finds a
 * set of places whose resources do not overlap — whenever such a set
 * exists — and says no otherwise. At most PC_HW_MAX_COUNTERS counters
 * with at most PC_HW_MAX_PLACES places each, so the search is bounded;
 * real constraint sets (a few registers per event) end it in a few
 * steps.
 */
#include <linux/bitops.h>
#include <linux/perf_counter_hw.h>

/**
 * pc_hw_assign() - choose a place for every counter, none sharing
 * @want:	the counters; each one's places, the preferred first
 * @n:		how many
 *
 * Among the solutions the search meets first the one that keeps the
 * earliest places of the most constrained counters, so listing a
 * counter's current place first keeps it where it is when it can stay.
 *
 * Return: true, with the chosen field of each of the @n entries of @want
 * set, or false if no placement exists.
 */
bool pc_hw_assign(struct pc_hw_want *want, unsigned int n)
{
	unsigned int order[PC_HW_MAX_COUNTERS], next[PC_HW_MAX_COUNTERS];
	u64 used[PC_HW_MAX_COUNTERS + 1];
	unsigned int i, j, depth;

	if (n > PC_HW_MAX_COUNTERS)
		return false;

	/* Fewest places first: they decide the most. Stable. */
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && want[order[j - 1]].nr > want[i].nr; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}

	used[0] = 0;
	depth = 0;
	if (n)
		next[0] = 0;
	while (depth < n) {
		struct pc_hw_want *w = &want[order[depth]];
		unsigned int k = next[depth];

		while (k < w->nr && (w->place[k].uses & used[depth]))
			k++;
		if (k == w->nr) {
			/* Nowhere left: back to the previous counter's next place. */
			if (depth == 0)
				return false;
			depth--;
			continue;
		}
		w->chosen = k;
		next[depth] = k + 1;
		used[depth + 1] = used[depth] | w->place[k].uses;
		if (++depth < n)
			next[depth] = 0;
	}
	return true;
}

/**
 * pc_hw_places_of_mask() - one place for each register of a mask
 * @mask:	bit i for counter register i; no bit at or above
 *		PC_HW_MAX_PLACES
 * @place:	gets them, the lowest register first, each using only its
 *		register
 *
 * For drivers whose events go on a set of interchangeable registers
 * with no shared control register (PowerPC's PMCs).
 *
 * Return: how many.
 */
int pc_hw_places_of_mask(unsigned long mask, struct pc_hw_place *place)
{
	unsigned int idx;
	int n = 0;

	for_each_set_bit(idx, &mask, PC_HW_MAX_PLACES) {
		place[n].idx = idx;
		place[n].aux = 0;
		place[n].uses = BIT_ULL(idx);
		n++;
	}
	return n;
}
