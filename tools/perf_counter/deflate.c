// SPDX-License-Identifier: GPL-2.0
/*
 * pc_gzip(): a buffer as one gzip member (RFC 1952), for the formats
 * that are read compressed (pprof). The deflate stream (RFC 1951) is
 * LZ77 over a 32 KiB window, its matches found through a hash of the
 * 3-byte prefixes and a bounded walk of each hash chain with one step
 * of lazy matching, coded with the fixed Huffman codes (BTYPE 01) in
 * blocks of about BLOCK_BYTES bytes of input (a match may run past).
 * It compresses less than zlib with dynamic codes would, but needs
 * nothing beyond libc.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"

#define WSIZE		32768U	/* the window: matches are nearer than this */
#define WMASK		(WSIZE - 1)
#define HBITS		15
#define HSIZE		(1U << HBITS)
#define MIN_MATCH	3
#define MAX_MATCH	258
#define MAX_CHAIN	64	/* candidates tried for one position */
#define LAZY_BELOW	32	/* a shorter match waits to see the next one */
#define FAR_3		4096	/* a 3-byte match further costs more bits */
#define BLOCK_BYTES	(64 * 1024)
#define OUT_BYTES	(64 * 1024)
#define NIL		((size_t)-1)
#define END_OF_BLOCK	256

/* The state of one pc_gzip(): 600 KiB or so, so it is allocated. */
struct deflater {
	size_t head[HSIZE];	/* the newest position of each hash */
	size_t prev[WSIZE];	/* the position before, of the same hash */
	size_t ins;		/* positions below this are in the chains */
	uint32_t crc_table[256];
	uint16_t lit_code[288];	/* bit-reversed, as the stream wants */
	uint8_t lit_bits[288];
	uint8_t dist_code[30];
	FILE *f;
	int err;		/* errno of the first failed write */
	uint64_t bits;		/* not yet written, the first one at bit 0 */
	unsigned int nbits;
	size_t n;
	unsigned char out[OUT_BYTES];
};

static void make_tables(struct deflater *z)
{
	unsigned int i, k, code, nbits, rev;
	uint32_t c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
		z->crc_table[i] = c;
	}

	/* RFC 1951 3.2.6: the fixed literal/length code, MSB first */
	for (i = 0; i < 288; i++) {
		if (i < 144) {
			code = 0x30 + i;
			nbits = 8;
		} else if (i < 256) {
			code = 0x190 + i - 144;
			nbits = 9;
		} else if (i < 280) {
			code = i - 256;
			nbits = 7;
		} else {
			code = 0xc0 + i - 280;
			nbits = 8;
		}
		for (rev = 0, k = 0; k < nbits; k++)
			rev |= ((code >> k) & 1) << (nbits - 1 - k);
		z->lit_code[i] = rev;
		z->lit_bits[i] = nbits;
	}
	/* and the distance codes, all 5 bits */
	for (i = 0; i < 30; i++) {
		for (rev = 0, k = 0; k < 5; k++)
			rev |= ((i >> k) & 1) << (4 - k);
		z->dist_code[i] = rev;
	}
}

static uint32_t crc32_of(const struct deflater *z, const unsigned char *d,
			 size_t len)
{
	uint32_t c = 0xffffffffU;
	size_t i;

	for (i = 0; i < len; i++)
		c = z->crc_table[(c ^ d[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffU;
}

static void flush_out(struct deflater *z)
{
	if (z->n && !z->err) {
		errno = 0;
		if (fwrite(z->out, 1, z->n, z->f) != z->n)
			z->err = errno ? errno : EIO;
	}
	z->n = 0;
}

static void put_byte(struct deflater *z, unsigned int byte)
{
	if (z->n == OUT_BYTES)
		flush_out(z);
	z->out[z->n++] = byte;
}

/* @nbits (at most 32) bits of @val, its bit 0 first */
static void put_bits(struct deflater *z, uint32_t val, unsigned int nbits)
{
	z->bits |= (uint64_t)val << z->nbits;
	z->nbits += nbits;
	while (z->nbits >= 8) {
		put_byte(z, z->bits & 0xff);
		z->bits >>= 8;
		z->nbits -= 8;
	}
}

/* The partial byte, padded with zero bits. */
static void align_bits(struct deflater *z)
{
	if (z->nbits)
		put_bits(z, 0, 8 - z->nbits);
}

static void put_le32(struct deflater *z, uint32_t v)
{
	put_byte(z, v & 0xff);
	put_byte(z, (v >> 8) & 0xff);
	put_byte(z, (v >> 16) & 0xff);
	put_byte(z, v >> 24);
}

static void put_symbol(struct deflater *z, unsigned int sym)
{
	put_bits(z, z->lit_code[sym], z->lit_bits[sym]);
}

/*
 * A match of @len (3..258) bytes @dist (1..32768) back. Each length
 * code from 265 on covers twice the lengths of the one four before it,
 * and each distance code from 4 on twice those of the one two before,
 * so both codes follow from the highest set bit of len - 3, dist - 1.
 */
static void put_match(struct deflater *z, unsigned int len, unsigned int dist)
{
	unsigned int x = len - MIN_MATCH, hb, extra;

	if (len == MAX_MATCH) {
		put_symbol(z, 285);
	} else if (x < 8) {
		put_symbol(z, 257 + x);
	} else {
		hb = 31 - __builtin_clz(x);
		extra = hb - 2;
		put_symbol(z, 257 + 4 * (hb - 1) + ((x >> extra) & 3));
		put_bits(z, x & ((1U << extra) - 1), extra);
	}

	x = dist - 1;
	if (x < 4) {
		put_bits(z, z->dist_code[x], 5);
	} else {
		hb = 31 - __builtin_clz(x);
		extra = hb - 1;
		put_bits(z, z->dist_code[2 * hb + ((x >> extra) & 1)], 5);
		put_bits(z, x & ((1U << extra) - 1), extra);
	}
}

static uint32_t hash3(const unsigned char *p)
{
	uint32_t v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;

	return (v * 2654435761U) >> (32 - HBITS);
}

/* Puts the positions below @pos that have 3 bytes in the chains. */
static void insert_upto(struct deflater *z, const unsigned char *d,
			size_t len, size_t pos)
{
	uint32_t h;

	for (; z->ins < pos; z->ins++) {
		if (len - z->ins < MIN_MATCH)
			continue;
		h = hash3(d + z->ins);
		z->prev[z->ins & WMASK] = z->head[h];
		z->head[h] = z->ins;
	}
}

/*
 * The longest match for the bytes at @pos, among the MAX_CHAIN nearest
 * earlier positions of the same hash: its length, 0 when none is worth
 * coding, and its distance in @dist. @pos goes into its chain.
 */
static size_t find_match(struct deflater *z, const unsigned char *d,
			 size_t len, size_t pos, size_t *dist)
{
	size_t max = len - pos, best = MIN_MATCH - 1, cand, n;
	unsigned int chain = MAX_CHAIN;
	const unsigned char *a, *b = d + pos;
	uint32_t h;

	insert_upto(z, d, len, pos);
	if (max < MIN_MATCH)
		return 0;
	if (max > MAX_MATCH)
		max = MAX_MATCH;
	h = hash3(b);
	cand = z->head[h];
	z->prev[pos & WMASK] = cand;
	z->head[h] = pos;
	z->ins = pos + 1;

	/*
	 * Nearer than WSIZE, a candidate's prev[] slot cannot have been
	 * reused by a later position, so the chain only goes back.
	 */
	for (; cand != NIL && pos - cand < WSIZE && chain;
	     chain--, cand = z->prev[cand & WMASK]) {
		a = d + cand;
		if (a[best] != b[best] || a[0] != b[0] || a[1] != b[1])
			continue;
		for (n = 2; n < max && a[n] == b[n]; n++)
			;
		if (n > best) {
			best = n;
			*dist = pos - cand;
			if (n == max)
				break;
		}
	}
	if (best < MIN_MATCH || (best == MIN_MATCH && *dist > FAR_3))
		return 0;
	return best;
}

static void deflate_data(struct deflater *z, const unsigned char *d,
			 size_t len)
{
	size_t pos = 0, end, m = 0, dist = 0, m2, dist2;
	int last, pending = 0;

	do {
		if (z->err)	/* nothing more can be written */
			return;
		end = len - pos > BLOCK_BYTES ? pos + BLOCK_BYTES : len;
		last = end == len;
		put_bits(z, last, 1);	/* BFINAL */
		put_bits(z, 1, 2);	/* BTYPE 01: fixed codes */
		while (pos < end) {
			if (!pending)
				m = find_match(z, d, len, pos, &dist);
			pending = 0;
			if (!m) {
				put_symbol(z, d[pos++]);
				continue;
			}
			/* a longer match at the next byte is worth a literal */
			if (m < LAZY_BELOW && pos + 1 < len) {
				m2 = find_match(z, d, len, pos + 1, &dist2);
				if (m2 > m) {
					put_symbol(z, d[pos++]);
					m = m2;
					dist = dist2;
					pending = 1;
					continue;
				}
			}
			put_match(z, m, dist);
			pos += m;
		}
		put_symbol(z, END_OF_BLOCK);
	} while (pos < len);

	/* a match ran past the end of a block that was not the last */
	if (!last) {
		put_bits(z, 1, 1);
		put_bits(z, 1, 2);
		put_symbol(z, END_OF_BLOCK);
	}
}

int pc_gzip(const void *data, size_t len, FILE *f)
{
	/* ID1 ID2, CM 8 (deflate), FLG 0, MTIME 0, XFL 0, OS 255 */
	static const unsigned char header[10] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255
	};
	struct deflater *z;
	unsigned int i;
	int err;

	z = malloc(sizeof(*z));
	if (!z) {
		errno = ENOMEM;
		return -1;
	}
	memset(z->head, 0xff, sizeof(z->head));	/* all NIL */
	z->ins = 0;
	z->f = f;
	z->err = 0;
	z->bits = 0;
	z->nbits = 0;
	z->n = 0;
	make_tables(z);

	for (i = 0; i < sizeof(header); i++)
		put_byte(z, header[i]);
	deflate_data(z, data, len);
	align_bits(z);
	put_le32(z, crc32_of(z, data, len));
	put_le32(z, (uint32_t)len);	/* ISIZE: the length modulo 2^32 */
	flush_out(z);

	err = z->err;
	if (!err) {
		errno = 0;
		if (fflush(f) || ferror(f))
			err = errno ? errno : EIO;
	}
	free(z);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
