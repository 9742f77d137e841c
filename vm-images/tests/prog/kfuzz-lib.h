/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kfuzz-lib: the pure part of ipeh-kfuzz (no kernel calls): the random
 * generator, the set of kernel PCs seen, the input format and its
 * mutators. Shared by ipeh-kfuzz, its host unit test (kfuzz-test) and the
 * seed generator (kfuzz-gen-seeds).
 *
 * Input format, both targets: a sequence of records
 *
 *     op  a  b  c  len_lo len_hi  data[len]
 *
 * (a record whose len runs past the input is cut to what is there; a tail
 * shorter than a header is ignored). What the fields mean depends on the
 * target; see ipeh-kfuzz.c. For "nl" a record is one generic netlink
 * request and its data is the attributes in wire format (struct nlattr,
 * 4-byte aligned), so the mutators can work on attributes; for "opt" a
 * record is one socket operation and its data an option header (next
 * header byte, length byte, options), so the mutators can work on options.
 */
#ifndef IPEH_KFUZZ_LIB_H
#define IPEH_KFUZZ_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KF_MAX_INPUT	8192	/* bytes of one input */
#define KF_MAX_RECS	32	/* records of one input */
#define KF_MAX_DATA	1024	/* data bytes of one record */
#define KF_REC_HDR	6

enum kf_target { KF_NL, KF_OPT };

/* ---- random numbers (xorshift64*) ---- */
struct kf_rng {
	uint64_t s;
};

void kf_rng_seed(struct kf_rng *r, uint64_t seed);
uint64_t kf_rand(struct kf_rng *r);
/* uniform in [0, n); 0 when n is 0 */
uint32_t kf_below(struct kf_rng *r, uint32_t n);

/* ---- the set of kernel PCs seen: open addressing, fixed capacity, in
 * memory the caller provides (so that it can be shared with a child) ---- */
struct kf_pcset {
	uint64_t cap;		/* slots, a power of two */
	uint64_t count;		/* PCs stored */
	uint64_t dropped;	/* PCs not stored: the set was full */
	uint64_t slot[];	/* 0: empty */
};

size_t kf_pcset_bytes(uint64_t cap);
void kf_pcset_init(struct kf_pcset *s, uint64_t cap);
/* 1 if @pc was new (and is now in the set), 0 if seen or full */
int kf_pcset_add(struct kf_pcset *s, uint64_t pc);
bool kf_pcset_has(const struct kf_pcset *s, uint64_t pc);

/* ---- records ---- */
struct kf_rec {
	uint8_t op, a, b, c;
	uint16_t len;
	uint8_t data[KF_MAX_DATA];
};

struct kf_recs {
	unsigned int n;
	struct kf_rec r[KF_MAX_RECS];
};

/* tolerant: anything decodes (at most KF_MAX_RECS records, data cut to
 * KF_MAX_DATA) */
void kf_decode(const uint8_t *in, size_t len, struct kf_recs *out);
/* encoded length (at most @cap; records that do not fit are left out) */
size_t kf_encode(const struct kf_recs *in, uint8_t *out, size_t cap);

/* ---- netlink attributes in a record's data (wire format, host order) ---- */
/* append an attribute; new length, or 0 if it does not fit */
size_t kf_nla_put(uint8_t *buf, size_t len, size_t cap, uint16_t type,
		  const void *data, size_t dlen);
/* the attributes of @buf (top level, and one level inside any attribute
 * with NLA_F_NESTED or of type ENTRY); offsets in @off, the offset of the
 * enclosing attribute (or -1) in @parent; returns the count (at most @max) */
unsigned int kf_nla_walk(const uint8_t *buf, size_t len, size_t *off,
			 long *parent, unsigned int max);

/* ---- mutation ---- */
/* mutate @buf (@*len bytes, room for KF_MAX_INPUT) in place, 1 to a few
 * times; @other (may be NULL) is another corpus input for splicing */
void kf_mutate(struct kf_rng *r, enum kf_target t, uint8_t *buf, size_t *len,
	       const uint8_t *other, size_t olen);
/* one attribute-aware mutation of netlink attribute bytes; new length */
size_t kf_mutate_attrs(struct kf_rng *r, uint8_t *d, size_t len, size_t cap);
/* one option-aware mutation of an option header; new length */
size_t kf_mutate_block(struct kf_rng *r, uint8_t *d, size_t len, size_t cap);
/* pad an option header to a multiple of 8 bytes (PadN / Pad1) and set its
 * length byte; new length (at least 8, if @cap allows) */
size_t kf_block_fixup(uint8_t *d, size_t len, size_t cap);

/* 64-bit FNV-1a, for file names */
uint64_t kf_hash(const uint8_t *p, size_t len);

#endif
