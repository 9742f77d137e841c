// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfuzz-gen-seeds DIR: write ipeh-kfuzz's seeds, DIR/nl/NAME and
 * DIR/opt/NAME (fuzz/kcorpus in the repository). Deterministic; rerun after
 * changing the input format (ipeh-kfuzz.c's header comment). Makes no
 * kernel call beyond writing files: it runs on the host.
 */
#include <errno.h>
#include <linux/ipeh.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kfuzz-lib.h"

static const char *outdir;
static struct kf_recs rs;

/* ---- records ---- */

static struct kf_rec *rec(uint8_t op, uint8_t a, uint8_t b, uint8_t c)
{
	struct kf_rec *r = &rs.r[rs.n++];

	memset(r, 0, sizeof(*r));
	r->op = op;
	r->a = a;
	r->b = b;
	r->c = c;
	return r;
}

static void put(struct kf_rec *r, uint16_t type, const void *d, size_t l)
{
	r->len = (uint16_t)kf_nla_put(r->data, r->len, sizeof(r->data), type, d, l);
}

static void put8(struct kf_rec *r, uint16_t type, uint8_t v)
{
	put(r, type, &v, 1);
}

static void put16(struct kf_rec *r, uint16_t type, uint16_t v)
{
	put(r, type, &v, 2);
}

/* the attributes of a SET of @type: everything, a canonical layout */
struct layout {
	uint8_t type, admin, user, class_mask, am, ao, min, max, lm, lo;
	uint16_t order;
};

static size_t set_attrs(uint8_t *d, size_t cap, const struct layout *l)
{
	struct kf_rec tmp = { 0 };

	put8(&tmp, IPEH_TLV_ATTR_TYPE, l->type);
	put16(&tmp, IPEH_TLV_ATTR_ORDER, l->order);
	put8(&tmp, IPEH_TLV_ATTR_ADMIN_PERM, l->admin);
	put8(&tmp, IPEH_TLV_ATTR_USER_PERM, l->user);
	put8(&tmp, IPEH_TLV_ATTR_CLASS, l->class_mask);
	put8(&tmp, IPEH_TLV_ATTR_ALIGN_MULT, l->am);
	put8(&tmp, IPEH_TLV_ATTR_ALIGN_OFF, l->ao);
	put8(&tmp, IPEH_TLV_ATTR_MIN_DATA_LEN, l->min);
	put8(&tmp, IPEH_TLV_ATTR_MAX_DATA_LEN, l->max);
	put8(&tmp, IPEH_TLV_ATTR_DATA_LEN_MULT, l->lm);
	put8(&tmp, IPEH_TLV_ATTR_DATA_LEN_OFF, l->lo);
	if (tmp.len > cap)
		return 0;
	memcpy(d, tmp.data, tmp.len);
	return tmp.len;
}

#define HOPDST (IPEH_TLV_CLASS_FLAG_HOPOPT | IPEH_TLV_CLASS_FLAG_DSTOPT)
static const struct layout L1E = { 0x1e, 2, 1, HOPDST, 4, 2, 4, 4, 1, 0, 100 };
static const struct layout L3E = { 0x3e, 2, 1, HOPDST, 8, 2, 8, 8, 1, 0, 110 };
static const struct layout L5E = { 0x5e, 1, 2, IPEH_TLV_CLASS_FLAG_DSTOPT |
				   IPEH_TLV_CLASS_FLAG_RTRDSTOPT, 1, 0, 0, 32, 2, 0, 120 };

static void rec_set(uint8_t op, uint8_t a, const struct layout *l)
{
	struct kf_rec *r = rec(op, a, 0, 1);

	r->len = (uint16_t)set_attrs(r->data, sizeof(r->data), l);
}

/* a REPLACE's attributes: ENTRY nests (a SET's, or TYPE and UNSET), RESET */
static void replace_attrs(struct kf_rec *r, bool reset)
{
	uint8_t e[128];
	size_t el;

	el = set_attrs(e, sizeof(e), &L1E);
	put(r, IPEH_TLV_ATTR_ENTRY | NLA_F_NESTED, e, el);
	el = set_attrs(e, sizeof(e), &L3E);
	put(r, IPEH_TLV_ATTR_ENTRY | NLA_F_NESTED, e, el);
	el = kf_nla_put(e, 0, sizeof(e), IPEH_TLV_ATTR_TYPE, "\x31", 1);
	el = kf_nla_put(e, el, sizeof(e), IPEH_TLV_ATTR_UNSET, NULL, 0);
	put(r, IPEH_TLV_ATTR_ENTRY | NLA_F_NESTED, e, el);
	if (reset)
		put(r, IPEH_TLV_ATTR_RESET, NULL, 0);
}

static void emit(const char *target, const char *name)
{
	static uint8_t buf[KF_MAX_INPUT];
	char path[4096];
	size_t len = kf_encode(&rs, buf, sizeof(buf));
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", outdir, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "kfuzz-gen-seeds: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	rs.n = 0;
}

/* ---- nl: a = flags (bit0 ACK, bit1 DUMP, bit3 ext ack, bit5 batch,
 * bit6 child), b = receive, c = version ---- */

static void seeds_nl(void)
{
	struct kf_rec *r;

	r = rec(IPEH_TLV_CMD_GET, 0x09, 0, 1);
	put8(r, IPEH_TLV_ATTR_TYPE, 0x31);
	emit("nl", "get-ioam");

	rec(IPEH_TLV_CMD_GET, 0x0b, 0, 1);
	emit("nl", "dump");

	rec(IPEH_TLV_CMD_GET, 0x03, 1 | 1 << 3, 1);	/* 16-byte reads, small SO_RCVBUF */
	emit("nl", "dump-tiny");

	rec(IPEH_TLV_CMD_GET, 0x03, 2 | 1 << 3 | 1 << 6, 1);	/* abandoned after one read */
	rec(IPEH_TLV_CMD_GET, 0x03, 0, 1);			/* EBUSY? */
	emit("nl", "dump-abandoned");

	rec_set(IPEH_TLV_CMD_SET, 0x09, &L1E);
	r = rec(IPEH_TLV_CMD_GET, 0x09, 0, 1);
	put8(r, IPEH_TLV_ATTR_TYPE, 0x1e);
	r = rec(IPEH_TLV_CMD_UNSET, 0x09, 0, 1);
	put8(r, IPEH_TLV_ATTR_TYPE, 0x1e);
	emit("nl", "set-get-unset");

	rec_set(IPEH_TLV_CMD_SET, 0x09, &L5E);
	r = rec(IPEH_TLV_CMD_SET, 0x09, 0, 1);		/* one attribute changed */
	put8(r, IPEH_TLV_ATTR_TYPE, 0x5e);
	put8(r, IPEH_TLV_ATTR_USER_PERM, IPEH_TLV_PERM_NO_CHECK);
	emit("nl", "set-partial");

	r = rec(IPEH_TLV_CMD_REPLACE, 0x09, 0, 1);
	replace_attrs(r, false);
	rec(IPEH_TLV_CMD_GET, 0x03, 3, 1);
	emit("nl", "replace");

	r = rec(IPEH_TLV_CMD_REPLACE, 0x09, 0, 1);
	replace_attrs(r, true);
	emit("nl", "replace-reset");

	rec_set(IPEH_TLV_CMD_SET, 0x29, &L1E);		/* batched with the next */
	rec_set(IPEH_TLV_CMD_SET, 0x29, &L3E);
	r = rec(IPEH_TLV_CMD_UNSET, 0x09, 0, 1);
	put8(r, IPEH_TLV_ATTR_TYPE, 0x3e);
	emit("nl", "batch");

	rec(IPEH_TLV_CMD_GET, 0x4b, 0, 1);		/* the child: admin perm hidden */
	r = rec(IPEH_TLV_CMD_GET, 0x49, 0, 1);
	put8(r, IPEH_TLV_ATTR_TYPE, 0x31);
	rec_set(IPEH_TLV_CMD_SET, 0x49, &L1E);		/* EPERM */
	emit("nl", "user");

	r = rec(IPEH_TLV_CMD_SET, 0x09, 0, 1);		/* out of range */
	put8(r, IPEH_TLV_ATTR_TYPE, 1);
	put16(r, IPEH_TLV_ATTR_ORDER, 0);
	r = rec(IPEH_TLV_CMD_SET, 0x09, 0, 1);
	put8(r, IPEH_TLV_ATTR_TYPE, 0x1e);
	put8(r, IPEH_TLV_ATTR_ALIGN_MULT, 4);
	put8(r, IPEH_TLV_ATTR_ALIGN_OFF, 4);
	put8(r, IPEH_TLV_ATTR_MIN_DATA_LEN, 9);
	put8(r, IPEH_TLV_ATTR_MAX_DATA_LEN, 8);
	r = rec(IPEH_TLV_CMD_GET, 0x09, 0, 0x41);	/* version 1, reserved set */
	put8(r, IPEH_TLV_ATTR_TYPE, 0x31);
	r = rec(9, 0x09, 0, 1);				/* no such command */
	emit("nl", "invalid");
}

/* ---- opt: op 0 setsockopt 1 sendmsg cmsg 2 clear 3 send sticky 4 policy
 * 5 sysctl 6 getsockopt 7 recv; a bits0-2 option, bit6 socket, bit7 child */

enum { HOP, DST, RTDST, HOP2292, DST2292 };

static struct kf_rec *blk(uint8_t op, uint8_t a, uint8_t b, uint8_t c,
			  const char *hex)
{
	struct kf_rec *r = rec(op, a, b, c);
	unsigned int v;

	while (hex[0] && hex[1] && sscanf(hex, "%2x", &v) == 1) {
		r->data[r->len++] = (uint8_t)v;
		hex += 2;
	}
	return r;
}

/* the policy the user's seeds need: 0x1e and 0x3e with user WITH_CHECK */
static void policy(void)
{
	struct kf_rec *r = rec(4, IPEH_TLV_CMD_REPLACE, 0, 0);

	replace_attrs(r, false);
}

#define D_1E "11001e04deadbeef"
#define D_3E "11013e08010203040506070801020000"
#define H_PMTU "1100300405780000"
#define H_IOAM "1102010031120000007b0802800000000000000000000000"
#define H_EXP "11021e04deadbeef01003e08010203040506070801020000"

static void seeds_opt(void)
{
	blk(0, DST, 0, 0, D_1E);
	blk(3, DST, 0, 0, "");
	blk(6, DST, 0, 0, "");
	blk(2, DST, 0, 0, "");
	blk(7, 0, 0, 0, "");
	emit("opt", "root-sticky-dst");

	blk(1, HOP, 0, 0x40, H_PMTU);
	blk(1, HOP, 0, 0x40, H_IOAM);
	blk(1, RTDST, 0, 0x40, D_3E);
	emit("opt", "root-cmsg");

	blk(0, 0x40 | HOP, 0, 0, H_EXP);		/* the raw socket */
	blk(3, 0x40 | HOP, 0, 0x40, "");
	emit("opt", "root-raw");

	policy();
	blk(0, 0x80 | DST, 0, 0, D_1E);
	blk(3, 0x80 | DST, 0, 0x40, "");
	blk(1, 0x80 | HOP, 0, 0x40, H_EXP);
	blk(6, 0x80 | DST, 0, 0, "");
	blk(2, 0x80 | DST, 0, 0, "");
	blk(7, 0, 0, 0, "");
	emit("opt", "user-granted");

	blk(0, 0x80 | DST, 0, 0, D_1E);			/* no grant: EPERM */
	blk(1, 0x80 | HOP, 0, 0, H_PMTU);
	blk(2, 0x80 | HOP, 0, 0, "");
	emit("opt", "user-refused");

	policy();
	blk(1, 0x80 | DST, 8, DST, D_1E D_3E);		/* two control messages */
	blk(1, 0x80 | DST, 0, 0x08, D_1E);		/* cmsg_len short */
	blk(1, 0x80 | DST, 0, 0x10, D_1E);		/* cmsg_len long */
	blk(1, 0x80 | DST2292, 0, 0x20, D_1E);		/* RFC 2292, closed port */
	emit("opt", "user-cmsgs");

	policy();
	blk(5, 0, 0, 129, "");				/* max_dst_opts_number 1 */
	blk(0, 0x80 | DST, 0, 0, H_EXP);		/* two options: E2BIG */
	blk(5, 2, 0, 0, "10000000");			/* max_dst_opts_length 16 */
	blk(1, 0x80 | DST, 0, 0, H_EXP);		/* 24 bytes: EMSGSIZE */
	blk(5, 0, 0, 0, "ffffffff");			/* -1 */
	blk(0, 0x80 | DST, 0, 0, D_1E);
	emit("opt", "user-sysctl");

	policy();
	blk(0, 0x80 | DST, 0, 0, "11001e03deadbe00");	/* wrong length */
	blk(0, 0x80 | DST, 0, 0, "1100010400000000");	/* padding only */
	blk(0, 0x80 | DST, 0, 0, "11011e04deadbeef");	/* length byte too big */
	blk(0, 0x80 | DST, 0x83, 0, D_1E);		/* optlen short by 3 */
	blk(0, 0x80 | HOP2292, 0, 0, D_1E);
	blk(0, 0x80 | RTDST, 0, 0, D_3E);
	emit("opt", "user-invalid");
}

int main(int argc, char **argv)
{
	char path[4096];

	if (argc != 2) {
		fputs("usage: kfuzz-gen-seeds DIR   (writes DIR/nl/* and DIR/opt/*)\n", stderr);
		return 2;
	}
	outdir = argv[1];
	mkdir(outdir, 0755);
	snprintf(path, sizeof(path), "%s/nl", outdir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/opt", outdir);
	mkdir(path, 0755);
	seeds_nl();
	seeds_opt();
	return 0;
}
