// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink messages without a kernel: requests carry the attributes of
 * <linux/ipeh.h> with the right types, replies (built here as the kernel
 * builds them) decode back, and extack messages reach the error record.
 */

#include "common.h"

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/ipeh.h>

#define FAM 0x1234

static const struct ipeh_tlv_params P = {
	.order = 0x1234, .admin_perm = IPEH_PERM_NO_CHECK,
	.user_perm = IPEH_PERM_CHECK, .class_mask = IPEH_CLASS_HOPOPT,
	.align_mult = 4, .align_off = 2, .min_data_len = 4, .max_data_len = 4,
	.data_len_mult = 1, .data_len_off = 0,
};

static struct genlmsghdr *genl(const struct nlmsghdr *nlh)
{
	return mnl_nlmsg_get_payload(nlh);
}

static void test_getfamily_request(void **state)
{
	char buf[IPEH_NLMSG_BUF] __attribute__((aligned(8)));
	const struct nlmsghdr *nlh = (void *)buf;
	const struct nlattr *a;
	int len, seen = 0;

	(void)state;
	len = ipeh_nlmsg_getfamily(buf, sizeof(buf), 7);
	assert_true(len > 0);
	assert_int_equal(nlh->nlmsg_len, len);
	assert_int_equal(nlh->nlmsg_type, GENL_ID_CTRL);
	assert_int_equal(nlh->nlmsg_seq, 7);
	assert_true(nlh->nlmsg_flags & NLM_F_REQUEST);
	assert_int_equal(genl(nlh)->cmd, CTRL_CMD_GETFAMILY);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		assert_int_equal(mnl_attr_get_type(a), CTRL_ATTR_FAMILY_NAME);
		assert_string_equal(mnl_attr_get_str(a), "ipeh-tlv");
		seen++;
	}
	assert_int_equal(seen, 1);
	assert_int_equal(ipeh_nlmsg_getfamily(buf, 16, 7), -ENOBUFS);
}

static void test_parse_family_reply(void **state)
{
	char buf[256] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	uint16_t fam = 0;

	(void)state;
	nlh->nlmsg_type = GENL_ID_CTRL;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_NEWFAMILY;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "ipeh-tlv");
	assert_int_equal(ipeh_nlmsg_parse_family(nlh, &fam), -ENOENT);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	assert_int_equal(ipeh_nlmsg_parse_family(nlh, &fam), 0);
	assert_int_equal(fam, 0x2a);
}

static void test_parse_mcast_group(void **state)
{
	char buf[512] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *grps, *g;
	uint32_t id = 0;

	(void)state;
	nlh->nlmsg_type = GENL_ID_CTRL;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	assert_int_equal(ipeh_nlmsg_parse_mcast_group(nlh, "tlv-changes", &id), -ENOENT);
	grps = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	g = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, "other");
	mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, 4);
	mnl_attr_nest_end(nlh, g);
	g = mnl_attr_nest_start(nlh, 2);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, IPEH_TLV_GENL_MCGRP_NAME);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, 9);
	mnl_attr_nest_end(nlh, g);
	mnl_attr_nest_end(nlh, grps);
	assert_int_equal(ipeh_nlmsg_parse_mcast_group(nlh, IPEH_TLV_GENL_MCGRP_NAME, &id), 0);
	assert_int_equal(id, 9);
	assert_int_equal(ipeh_nlmsg_parse_mcast_group(nlh, "nope", &id), -ENOENT);
}

static void test_set_request_all_attrs(void **state)
{
	char buf[IPEH_NLMSG_BUF] __attribute__((aligned(8)));
	const struct nlmsghdr *nlh = (void *)buf;
	const struct nlattr *a;
	struct ipeh_tlv_params q;
	unsigned int mask, seen = 0;
	uint8_t type;

	(void)state;
	assert_true(ipeh_nlmsg_set(buf, sizeof(buf), FAM, 9, 0x30, &P, IPEH_ATTR_ALL) > 0);
	assert_int_equal(nlh->nlmsg_type, FAM);
	assert_true(nlh->nlmsg_flags & NLM_F_ACK);
	assert_int_equal(genl(nlh)->cmd, IPEH_TLV_CMD_SET);
	assert_int_equal(genl(nlh)->version, IPEH_TLV_GENL_VERSION);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		int t = mnl_attr_get_type(a);

		assert_true(t >= IPEH_TLV_ATTR_TYPE && t <= IPEH_TLV_ATTR_MAX);
		assert_int_equal(mnl_attr_get_payload_len(a),
				 t == IPEH_TLV_ATTR_ORDER ? 2 : 1);
		assert_false(seen & (1u << t));
		seen |= 1u << t;
	}
	assert_int_equal(seen, IPEH_ATTR_ALL | (1u << IPEH_TLV_ATTR_TYPE));
	/* the kernel's reply has the same attributes: decode our own */
	assert_int_equal(ipeh_nlmsg_parse_params(nlh, &type, &q, &mask), 0);
	assert_int_equal(type, 0x30);
	assert_int_equal(mask, IPEH_ATTR_ALL);
	assert_int_equal(q.order, P.order);
	assert_int_equal(q.admin_perm, P.admin_perm);
	assert_int_equal(q.user_perm, P.user_perm);
	assert_int_equal(q.class_mask, P.class_mask);
	assert_int_equal(q.align_mult, P.align_mult);
	assert_int_equal(q.align_off, P.align_off);
	assert_int_equal(q.min_data_len, P.min_data_len);
	assert_int_equal(q.max_data_len, P.max_data_len);
	assert_int_equal(q.data_len_mult, P.data_len_mult);
	assert_int_equal(q.data_len_off, P.data_len_off);
}

static void test_set_request_partial_mask(void **state)
{
	char buf[IPEH_NLMSG_BUF] __attribute__((aligned(8)));
	const struct nlmsghdr *nlh = (void *)buf;
	struct ipeh_tlv_params q;
	unsigned int mask;
	uint8_t type;

	(void)state;
	assert_true(ipeh_nlmsg_set(buf, sizeof(buf), FAM, 9, 0x31, &P,
				   IPEH_ATTR_USER_PERM | IPEH_ATTR_CLASS) > 0);
	assert_int_equal(ipeh_nlmsg_parse_params(nlh, &type, &q, &mask), 0);
	assert_int_equal(mask, IPEH_ATTR_USER_PERM | IPEH_ATTR_CLASS);
	assert_int_equal(q.user_perm, IPEH_PERM_CHECK);
	assert_int_equal(q.admin_perm, IPEH_PERM_UNKNOWN);	/* not sent */
	assert_int_equal(q.order, 0);
	assert_int_equal(ipeh_nlmsg_set(buf, sizeof(buf), FAM, 9, 0x31, &P, 1u << 20), -EINVAL);
	assert_int_equal(ipeh_nlmsg_set(buf, 100, FAM, 9, 0x31, &P, 0), -ENOBUFS);
}

static void test_get_dump_unset_requests(void **state)
{
	char buf[IPEH_NLMSG_BUF] __attribute__((aligned(8)));
	const struct nlmsghdr *nlh = (void *)buf;
	const struct nlattr *a;
	int n;

	(void)state;
	n = ipeh_nlmsg_get(buf, sizeof(buf), FAM, 1, 0x31);
	assert_true(n > 0);
	assert_int_equal(genl(nlh)->cmd, IPEH_TLV_CMD_GET);
	assert_false((nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP);
	n = 0;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		assert_int_equal(mnl_attr_get_type(a), IPEH_TLV_ATTR_TYPE);
		assert_int_equal(mnl_attr_get_u8(a), 0x31);
		n++;
	}
	assert_int_equal(n, 1);

	assert_true(ipeh_nlmsg_get(buf, sizeof(buf), FAM, 2, -1) > 0);
	assert_int_equal(nlh->nlmsg_flags & NLM_F_DUMP, NLM_F_DUMP);
	assert_int_equal(nlh->nlmsg_len, NLMSG_HDRLEN + sizeof(struct genlmsghdr));
	assert_int_equal(ipeh_nlmsg_get(buf, sizeof(buf), FAM, 2, 256), -EINVAL);

	assert_true(ipeh_nlmsg_unset(buf, sizeof(buf), FAM, 3, 0x30) > 0);
	assert_int_equal(genl(nlh)->cmd, IPEH_TLV_CMD_UNSET);
	assert_true(nlh->nlmsg_flags & NLM_F_ACK);
}

static void test_parse_params_rejects_malformed(void **state)
{
	char buf[256] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ipeh_tlv_params q;
	uint8_t type;

	(void)state;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put_u16(nlh, IPEH_TLV_ATTR_ORDER, 5);
	assert_int_equal(ipeh_nlmsg_parse_params(nlh, &type, &q, NULL), -EINVAL);	/* no TYPE */
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_TYPE, 0x42);
	mnl_attr_put_u32(nlh, 200, 1);		/* a future attribute: ignored */
	assert_int_equal(ipeh_nlmsg_parse_params(nlh, &type, &q, NULL), 0);
	assert_int_equal(q.order, 5);
	mnl_attr_put_u32(nlh, IPEH_TLV_ATTR_CLASS, 1);	/* wrong size */
	assert_int_equal(ipeh_nlmsg_parse_params(nlh, &type, &q, NULL), -EINVAL);
}

/* A reply of a kernel with REPLACE carries the table's generation (u32):
 * not an entry attribute, and not a malformed one
 */
static void test_parse_params_with_generation(void **state)
{
	char buf[256] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ipeh_tlv_params q;
	unsigned int mask;
	uint8_t type;

	(void)state;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr));
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_TYPE, 0x31);
	mnl_attr_put_u16(nlh, IPEH_TLV_ATTR_ORDER, 50);
	mnl_attr_put_u32(nlh, IPEH_TLV_ATTR_GENERATION, 77);
	assert_int_equal(ipeh_nlmsg_parse_params(nlh, &type, &q, &mask), 0);
	assert_int_equal(type, 0x31);
	assert_int_equal(q.order, 50);
	assert_int_equal(mask, IPEH_ATTR_ORDER);
}

static void test_replace_request(void **state)
{
	char buf[IPEH_NLMSG_BUF] __attribute__((aligned(8)));
	const struct nlmsghdr *nlh = (void *)buf;
	const struct ipeh_nl_entry e[3] = {
		{ .type = 0x30, .mask = IPEH_ATTR_ALL, .p = P },
		{ .type = 0x31, .unset = true, .mask = IPEH_ATTR_ALL, .p = P },
		{ .type = 0x3e, .mask = IPEH_ATTR_USER_PERM, .p = P },
	};
	const struct nlattr *a, *b;
	uint32_t off[3];
	int n = 0, resets = 0;

	(void)state;
	assert_true(ipeh_nlmsg_replace(buf, sizeof(buf), FAM, 9, e, 3,
				       IPEH_NL_REPLACE_RESET, off) > 0);
	assert_int_equal(nlh->nlmsg_type, FAM);
	assert_true(nlh->nlmsg_flags & NLM_F_ACK);
	assert_int_equal(genl(nlh)->cmd, IPEH_TLV_CMD_REPLACE);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		unsigned int seen = 0;

		if (mnl_attr_get_type(a) == IPEH_TLV_ATTR_RESET) {
			assert_int_equal(mnl_attr_get_payload_len(a), 0);
			resets++;
			continue;
		}
		assert_int_equal(mnl_attr_get_type(a), IPEH_TLV_ATTR_ENTRY);
		assert_true(n < 3);
		/* the offset of the nest, as the kernel's extack reports it */
		assert_int_equal(off[n], (const char *)a - buf);
		mnl_attr_for_each_nested(b, a) {
			int t = mnl_attr_get_type(b);

			assert_false(seen & (1u << t));
			seen |= 1u << t;
			if (t == IPEH_TLV_ATTR_TYPE)
				assert_int_equal(mnl_attr_get_u8(b), e[n].type);
			else if (t == IPEH_TLV_ATTR_UNSET)
				assert_int_equal(mnl_attr_get_payload_len(b), 0);
			else if (t == IPEH_TLV_ATTR_ORDER)
				assert_int_equal(mnl_attr_get_u16(b), P.order);
			else if (t == IPEH_TLV_ATTR_USER_PERM)
				assert_int_equal(mnl_attr_get_u8(b), P.user_perm);
			else
				assert_int_equal(mnl_attr_get_payload_len(b), 1);
		}
		if (n == 0)
			assert_int_equal(seen, IPEH_ATTR_ALL | (1u << IPEH_TLV_ATTR_TYPE));
		else if (n == 1)	/* UNSET: no parameters, whatever the mask */
			assert_int_equal(seen, (1u << IPEH_TLV_ATTR_TYPE) |
					 (1u << IPEH_TLV_ATTR_UNSET));
		else
			assert_int_equal(seen, IPEH_ATTR_USER_PERM | (1u << IPEH_TLV_ATTR_TYPE));
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(resets, 1);

	/* without RESET; and the errors */
	assert_true(ipeh_nlmsg_replace(buf, sizeof(buf), FAM, 9, e, 1, 0, NULL) > 0);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		assert_int_equal(mnl_attr_get_type(a), IPEH_TLV_ATTR_ENTRY);
	assert_int_equal(ipeh_nlmsg_replace(buf, sizeof(buf), FAM, 9, e, 1, 2, NULL), -EINVAL);
	assert_int_equal(ipeh_nlmsg_replace(buf, 300, FAM, 9, e, 3, 0, NULL), -ENOBUFS);
	assert_int_equal(ipeh_nlmsg_replace(buf, sizeof(buf), FAM, 9, e, 257, 0, NULL), -ENOBUFS);
	{
		struct ipeh_nl_entry bad = e[0];

		bad.mask = 1u << 20;
		assert_int_equal(ipeh_nlmsg_replace(buf, sizeof(buf), FAM, 9, &bad, 1, 0, NULL), -EINVAL);
	}
}

static struct nlmsghdr *put_error(char *buf, int error, const char *msg,
				  bool capped)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	e->msg.nlmsg_len = NLMSG_HDRLEN + 12;
	e->msg.nlmsg_type = FAM;
	if (!capped) {
		/* the echoed request payload */
		memset(mnl_nlmsg_put_extra_header(nlh, 12), 0x77, 12);
	} else {
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	}
	if (msg) {
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	}
	return nlh;
}

static void test_parse_error_and_extack(void **state)
{
	char buf[512] __attribute__((aligned(8)));
	struct ipeh_error e;

	(void)state;
	assert_int_equal(ipeh_nlmsg_parse_error(put_error(buf, 0, NULL, true), &e), 0);
	assert_int_equal(ipeh_nlmsg_parse_error(put_error(buf, -EINVAL, "Bad TLV class", true), &e), -EINVAL);
	assert_int_equal(e.rule, IPEH_RULE_NETLINK);
	assert_non_null(strstr(e.msg, "Bad TLV class"));
	assert_int_equal(ipeh_nlmsg_parse_error(put_error(buf, -EALREADY, "Order in use", false), &e), -EALREADY);
	assert_non_null(strstr(e.msg, "Order in use"));
	assert_int_equal(ipeh_nlmsg_parse_error(put_error(buf, -EPERM, NULL, false), &e), -EPERM);
	assert_non_null(strstr(e.msg, strerror(EPERM)));
	{
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

		nlh->nlmsg_type = NLMSG_DONE;
		assert_int_equal(ipeh_nlmsg_parse_error(nlh, &e), -EBADMSG);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_getfamily_request),
		cmocka_unit_test(test_parse_family_reply),
		cmocka_unit_test(test_parse_mcast_group),
		cmocka_unit_test(test_set_request_all_attrs),
		cmocka_unit_test(test_set_request_partial_mask),
		cmocka_unit_test(test_get_dump_unset_requests),
		cmocka_unit_test(test_parse_params_rejects_malformed),
		cmocka_unit_test(test_parse_params_with_generation),
		cmocka_unit_test(test_replace_request),
		cmocka_unit_test(test_parse_error_and_extack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
