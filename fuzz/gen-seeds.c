// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Writes the seed corpora of the libipeh harnesses into DIR/<harness>/:
 *   fuzz-block  blocks built by ipeh_build() for the harness's table, of
 *               several shapes, plus a truncated and a non-canonical one
 *   fuzz-nlmsg  ipeh-tlv and nlctrl replies as the kernel sends them
 *   fuzz-codec  option data: RFC 9268 PMTU, RFC 2711 RA, RFC 2473 TEL,
 *               RFC 9197 traces (empty, partly and fully filled, wide and
 *               opaque fields), and a few the decoders must refuse
 * Usage (from the repository root, with a build folder):
 *   meson compile -C build/host fuzz/gen-seeds &&
 *   build/host/fuzz/gen-seeds fuzz/corpus
 * The output is deterministic; rerun after changing a format.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/ipeh.h>

#include <ipeh.h>

#include "fuzz-block-table.h"

static const char *outdir;

static void die(const char *what, int err)
{
	fprintf(stderr, "gen-seeds: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void put(const char *harness, const char *name, const void *data,
		size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, harness);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		die(path, errno);
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, harness, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		die(path, errno);
}

/* ------------------------------------------------------------ fuzz-codec */

static const uint8_t opaque_words[8] = { 'i', 'p', 'e', 'h', 0, 0, 0, 1 };

/* A node as router n on the path would fill it. */
static void node_of(unsigned int n, uint32_t type, struct ipeh_ioam_node *node)
{
	unsigned int i;

	memset(node, 0, sizeof(*node));
	node->present = type;
	node->hop_limit = (uint8_t)(64 - n);
	node->node_id = 0x100 + n;
	node->ingress_if = (uint16_t)(10 * n + 1);
	node->egress_if = (uint16_t)(10 * n + 2);
	node->ts_sec = 1764720000u + n;		/* 2025-12-03 */
	node->ts_frac = 0x80000000u >> n;
	node->transit_delay = 1000 * n;
	node->ns_data = 0xdead0000u | n;
	node->queue_depth = 3 * n;
	node->csum_comp = 0xffff;
	node->hop_limit_wide = node->hop_limit;
	node->node_id_wide = 0x0011223344550000ull + n;
	node->ingress_if_wide = 0x10000u + 10 * n + 1;
	node->egress_if_wide = 0x10000u + 10 * n + 2;
	node->ns_data_wide = 0xbeef000000000000ull | n;
	node->buffer_occupancy = 512 * n;
	for (i = 0; i < 10; i++)
		node->undefined[i] = 0xffffffff;	/* as Linux fills them */
	if (type & IPEH_IOAM_TRACE_OPAQUE) {
		node->opaque_len = sizeof(opaque_words) / 4;
		node->schema_id = 0x000a00 + n;
		node->opaque = opaque_words;
	}
}

/* Option data: an IOAM trace with room for nodes nodes, filled filled
 * times (more than fit sets the overflow flag, as on a router).
 */
static size_t ioam_trace(uint8_t *d, uint16_t ns, uint32_t type,
			 unsigned int room, unsigned int filled)
{
	struct ipeh_ioam_trace t = { 0 };
	struct ipeh_ioam_node node;
	unsigned int opaque = (type & IPEH_IOAM_TRACE_OPAQUE) ?
			      1 + sizeof(opaque_words) / 4 : 0;
	unsigned int i;
	int len;

	t.ioam_type = IPEH_IOAM_TYPE_PREALLOC;
	t.namespace_id = ns;
	t.trace_type = type;
	t.remaining_len = (uint8_t)(room * (ipeh_ioam_node_len(type) + opaque));
	len = ipeh_ioam_trace_encode(&t, d, 255);
	if (len < 0)
		die("ipeh_ioam_trace_encode", len);
	for (i = 1; i <= filled; i++) {
		int r;

		node_of(i, type, &node);
		r = ipeh_ioam_trace_fill_node(d, (size_t)len, &node);
		if (r < 0 && !(r == -ENOSPC && i > room))
			die("ipeh_ioam_trace_fill_node", r);
	}
	return (size_t)len;
}

static void gen_codec(void)
{
	static const struct {
		const char *name;
		struct ipeh_pmtu p;
	} pmtus[] = {
		/* RFC 9268 section 4: the source sends its MTU, R set */
		{ "pmtu-source-1500-r", { 1500, 0, true } },
		/* a router on a 1280 link lowered it */
		{ "pmtu-lowered-1280", { 1280, 0, true } },
		/* the reply carries the Min-PMTU back as Rtn-PMTU */
		{ "pmtu-return-1280", { 9000, 1280, false } },
		{ "pmtu-jumbo-9000", { 9000, 9000, true } },
	};
	uint8_t d[256];
	size_t i, len;

	for (i = 0; i < sizeof(pmtus) / sizeof(pmtus[0]); i++) {
		ipeh_pmtu_encode(&pmtus[i].p, d, sizeof(d));
		put("fuzz-codec", pmtus[i].name, d, IPEH_PMTU_DATA_LEN);
	}
	ipeh_ra_encode(IPEH_RA_MLD, d, sizeof(d));
	put("fuzz-codec", "ra-mld", d, IPEH_RA_DATA_LEN);
	ipeh_ra_encode(IPEH_RA_RSVP, d, sizeof(d));
	put("fuzz-codec", "ra-rsvp", d, IPEH_RA_DATA_LEN);
	ipeh_tel_encode(4, d, sizeof(d));	/* RFC 2473 default limit */
	put("fuzz-codec", "tel-4", d, IPEH_TEL_DATA_LEN);

	/* RFC 9197 traces; 0x800000 and 0xf00000 are what ioam6.sh uses */
	len = ioam_trace(d, 123, IPEH_IOAM_TRACE_HOPLIM_NODEID, 3, 0);
	put("fuzz-codec", "ioam-hoplim-3-empty", d, len);
	len = ioam_trace(d, 123, 0xf00000, 3, 2);
	put("fuzz-codec", "ioam-bits0-3-2of3", d, len);
	len = ioam_trace(d, 1, 0xc00000, 2, 2);
	put("fuzz-codec", "ioam-bits0-1-full", d, len);
	len = ioam_trace(d, 1, 0xc00000, 2, 3);
	put("fuzz-codec", "ioam-bits0-1-overflow", d, len);
	len = ioam_trace(d, 7, 0x00f000, 2, 1);		/* bits 8-11 */
	put("fuzz-codec", "ioam-wide-1of2", d, len);
	len = ioam_trace(d, 7, IPEH_IOAM_TRACE_HOPLIM_NODEID |
			 IPEH_IOAM_TRACE_OPAQUE, 2, 2);
	put("fuzz-codec", "ioam-opaque-full", d, len);
	len = ioam_trace(d, 0xffff, 0xfff002, 1, 1);	/* every defined bit */
	put("fuzz-codec", "ioam-all-bits-full", d, len);
	len = ioam_trace(d, 2, 0x000ffc, 1, 1);		/* bits 12-21 only */
	put("fuzz-codec", "ioam-undefined-bits", d, len);

	/* what the decoder refuses, as Linux's ipv6_hop_ioam() drops it */
	len = ioam_trace(d, 123, 0xf00000, 3, 2);
	put("fuzz-codec", "ioam-truncated", d, len - 9);
	d[5] ^= 0x20;		/* remaining_len beyond the data */
	put("fuzz-codec", "ioam-remlen-too-big", d, len);
	len = ioam_trace(d, 123, 0xf00000, 1, 0);
	d[4] ^= 0x08;		/* node_len not the trace type's */
	put("fuzz-codec", "ioam-bad-nodelen", d, len);
	d[4] ^= 0x08;
	d[1] = IPEH_IOAM_TYPE_INCREMENTAL;
	put("fuzz-codec", "ioam-incremental", d, len);
}

/* ------------------------------------------------------------ fuzz-block */

/* fuzz-block's first byte: header kind (bits 0-1), admin (bit 2) */
#define MODE_HOP	0
#define MODE_DST	1
#define MODE_RTDST	2
#define MODE_ADMIN	4

static size_t block(const struct ipeh_table *table, unsigned int mode,
		    const struct ipeh_opt *opts, size_t n, uint8_t *out)
{
	static const enum ipeh_hdr hdrs[3] = { IPEH_HDR_HOPOPTS,
		IPEH_HDR_DSTOPTS, IPEH_HDR_RTHDRDSTOPTS };
	struct ipeh_error e;
	ssize_t len;

	out[0] = (uint8_t)mode;
	len = ipeh_build(table, hdrs[mode & 3], opts, n, out + 1,
			 IPEH_HDR_MAX, NULL,
			 (mode & MODE_ADMIN) ? IPEH_F_ADMIN : 0, &e);
	if (len < 0) {
		fprintf(stderr, "gen-seeds: ipeh_build: %s\n", e.msg);
		exit(1);
	}
	return (size_t)len + 1;
}

static void gen_block(void)
{
	static const struct ipeh_pmtu pmtu = { 1500, 0, true };
	struct ipeh_table table;
	struct ipeh_opt o[4] = { { 0 } };
	uint8_t pm[4], ra[2], io[256], io2[256], exp[5] = "ipeh";
	uint8_t out[IPEH_HDR_MAX + 1];
	size_t len, iolen, io2len;

	fuzz_block_table(&table);
	ipeh_pmtu_encode(&pmtu, pm, sizeof(pm));
	ipeh_ra_encode(IPEH_RA_MLD, ra, sizeof(ra));
	iolen = ioam_trace(io, 123, 0xc00000, 3, 0);
	io2len = ioam_trace(io2, 123, 0xf00000, 3, 2);

	o[0] = (struct ipeh_opt){ .type = IPEH_OPT_PMTU, .len = 4, .data = pm };
	len = block(&table, MODE_HOP, o, 1, out);
	put("fuzz-block", "hop-pmtu", out, len);

	o[0] = (struct ipeh_opt){ .type = IPEH_OPT_IOAM, .len = (uint8_t)iolen,
				  .data = io };
	len = block(&table, MODE_HOP, o, 1, out);
	put("fuzz-block", "hop-ioam-empty", out, len);

	/* given out of order: the builder sorts PMTU (5) before IOAM (50) */
	o[1] = (struct ipeh_opt){ .type = IPEH_OPT_PMTU, .len = 4, .data = pm };
	len = block(&table, MODE_HOP, o, 2, out);
	put("fuzz-block", "hop-pmtu-ioam", out, len);
	put("fuzz-block", "hop-pmtu-ioam-truncated", out, len / 2);

	o[0] = (struct ipeh_opt){ .type = IPEH_OPT_IOAM,
				  .len = (uint8_t)io2len, .data = io2 };
	o[2] = (struct ipeh_opt){ .type = 0x1e, .len = 4, .data = exp };
	len = block(&table, MODE_HOP, o, 3, out);
	put("fuzz-block", "hop-pmtu-ioam-filled-exp", out, len);

	o[0] = (struct ipeh_opt){ .type = 0x1e, .len = 4, .data = exp };
	len = block(&table, MODE_DST, o, 1, out);
	put("fuzz-block", "dst-exp", out, len);
	len = block(&table, MODE_RTDST, o, 1, out);
	put("fuzz-block", "rtdst-exp", out, len);
	o[0].len = 0;
	len = block(&table, MODE_DST, o, 1, out);
	put("fuzz-block", "dst-exp-empty", out, len);

	/* Router Alert is admin-only in the default table */
	o[0] = (struct ipeh_opt){ .type = IPEH_OPT_RA, .len = 2, .data = ra };
	len = block(&table, MODE_HOP | MODE_ADMIN, o, 1, out);
	put("fuzz-block", "hop-ra-admin", out, len);
	o[1] = (struct ipeh_opt){ .type = IPEH_OPT_PMTU, .len = 4, .data = pm };
	len = block(&table, MODE_HOP | MODE_ADMIN, o, 2, out);
	put("fuzz-block", "hop-ra-pmtu-admin", out, len);

	/* the same PMTU behind a PadN it does not need: not canonical */
	{
		static const uint8_t b[] = { MODE_HOP, 0, 1,
			IPEH_OPT_PADN, 0, IPEH_OPT_PMTU, 4, 0x05, 0xdc, 0, 1,
			IPEH_OPT_PADN, 4, 0, 0, 0, 0 };

		put("fuzz-block", "hop-pmtu-overpadded", b, sizeof(b));
	}
	/* a header of Pad1 only */
	{
		static const uint8_t b[] = { MODE_DST, 0, 0, 0, 0, 0, 0, 0, 0 };

		put("fuzz-block", "dst-pad1-only", b, sizeof(b));
	}
}

/* ------------------------------------------------------------ fuzz-nlmsg */

#define FAMILY_ID	0x1d	/* what the kernel happened to assign */
#define NL_BUF		8192

static struct nlmsghdr *genl_reply(uint8_t *buf, uint16_t type, uint8_t cmd,
				   uint8_t version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	memset(buf, 0, NL_BUF);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = 1764720000;
	nlh->nlmsg_pid = 0;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static void put_params(struct nlmsghdr *nlh, uint8_t type,
		       const struct ipeh_tlv_params *p, int with_admin)
{
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_TYPE, type);
	mnl_attr_put_u16(nlh, IPEH_TLV_ATTR_ORDER, p->order);
	if (with_admin)
		mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_ADMIN_PERM, p->admin_perm);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_USER_PERM, p->user_perm);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_CLASS, p->class_mask);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_ALIGN_MULT, p->align_mult);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_ALIGN_OFF, p->align_off);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_MIN_DATA_LEN, p->min_data_len);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_MAX_DATA_LEN, p->max_data_len);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_DATA_LEN_MULT, p->data_len_mult);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_DATA_LEN_OFF, p->data_len_off);
}

static void put_msg(const char *name, const struct nlmsghdr *nlh)
{
	put("fuzz-nlmsg", name, nlh, nlh->nlmsg_len);
}

/*
 * NLMSG_ERROR answering req, as netlink_ack() writes it: an ack or a capped
 * error carries req's header only, another error the whole request.
 */
static void error_reply(uint8_t *buf, const struct nlmsghdr *req, int error,
			int capped, const char *extack, const char *name)
{
	size_t copy = req->nlmsg_len;
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(buf, 0, NL_BUF);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = req->nlmsg_seq;
	if (!error || capped) {
		nlh->nlmsg_flags |= NLM_F_CAPPED;
		copy = sizeof(*req);
	}
	if (extack)
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e) - sizeof(*req) + copy);
	e->error = error;
	memcpy(&e->msg, req, copy);
	if (extack)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, extack);
	put_msg(name, nlh);
}

static void gen_nlmsg(void)
{
	static uint8_t buf[NL_BUF], req[NL_BUF];
	struct ipeh_tlv_params p;
	struct nlmsghdr *nlh;
	struct nlattr *grps, *grp;

	/* nlctrl's answer to CTRL_CMD_GETFAMILY "ipeh-tlv" */
	nlh = genl_reply(buf, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 2);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IPEH_TLV_GENL_NAME);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, FAMILY_ID);
	mnl_attr_put_u32(nlh, CTRL_ATTR_VERSION, IPEH_TLV_GENL_VERSION);
	mnl_attr_put_u32(nlh, CTRL_ATTR_HDRSIZE, 0);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MAXATTR, IPEH_TLV_ATTR_MAX);
	grps = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	grp = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, 7);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, IPEH_TLV_GENL_MCGRP_NAME);
	mnl_attr_nest_end(nlh, grp);
	mnl_attr_nest_end(nlh, grps);
	put_msg("family-reply", nlh);
	put("fuzz-nlmsg", "family-reply-truncated", nlh, nlh->nlmsg_len - 10);

	/* an older kernel: the family without the multicast group */
	nlh = genl_reply(buf, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 2);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IPEH_TLV_GENL_NAME);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, FAMILY_ID);
	put_msg("family-reply-no-groups", nlh);

	/* GET replies: IOAM as root sees it, as a user sees it (no admin
	 * permission), PMTU set by tlvd, one with an attribute from a newer
	 * kernel
	 */
	ipeh_table_default_params(IPEH_OPT_IOAM, 0, &p);
	nlh = genl_reply(buf, FAMILY_ID, IPEH_TLV_CMD_GET, IPEH_TLV_GENL_VERSION);
	put_params(nlh, IPEH_OPT_IOAM, &p, 1);
	put_msg("get-ioam-admin", nlh);
	put("fuzz-nlmsg", "get-ioam-truncated", nlh, nlh->nlmsg_len - 6);
	nlh = genl_reply(buf, FAMILY_ID, IPEH_TLV_CMD_GET, IPEH_TLV_GENL_VERSION);
	put_params(nlh, IPEH_OPT_IOAM, &p, 0);
	put_msg("get-ioam-user", nlh);

	ipeh_tlv_params_unset(&p);
	p.order = 5;
	p.user_perm = IPEH_PERM_CHECK;
	p.class_mask = IPEH_CLASS_HOPOPT;
	p.min_data_len = p.max_data_len = IPEH_PMTU_DATA_LEN;
	nlh = genl_reply(buf, FAMILY_ID, IPEH_TLV_CMD_GET, IPEH_TLV_GENL_VERSION);
	put_params(nlh, IPEH_OPT_PMTU, &p, 1);
	mnl_attr_put_u32(nlh, IPEH_TLV_ATTR_MAX + 1, 0xabcd);
	put_msg("get-pmtu-newer-attr", nlh);

	/* the multicast notification of a change: the same attributes */
	nlh = genl_reply(buf, FAMILY_ID, IPEH_TLV_CMD_SET_NTF, IPEH_TLV_GENL_VERSION);
	put_params(nlh, IPEH_OPT_PMTU, &p, 1);
	put_msg("notify-set-pmtu", nlh);

	/* acknowledgements and refusals of a SET */
	ipeh_nlmsg_set(req, sizeof(req), FAMILY_ID, 1764720000, IPEH_OPT_PMTU,
		       &p, IPEH_ATTR_ALL);
	error_reply(buf, (struct nlmsghdr *)req, 0, 0, NULL, "ack");
	error_reply(buf, (struct nlmsghdr *)req, -EPERM, 1,
		    "changing the TLV table needs CAP_NET_ADMIN",
		    "error-eperm-extack-capped");
	error_reply(buf, (struct nlmsghdr *)req, -EINVAL, 0,
		    "align_off must be less than align_mult",
		    "error-einval-extack-full-request");
	error_reply(buf, (struct nlmsghdr *)req, -EALREADY, 0, NULL,
		    "error-ealready-plain");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR (e.g. fuzz/corpus)\n",
			argv[0]);
		return 2;
	}
	outdir = argv[1];
	gen_codec();
	gen_block();
	gen_nlmsg();
	return 0;
}
