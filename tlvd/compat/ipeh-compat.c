// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-in for the part of libipeh that tlvd uses (table, names, netlink
 * client), with libipeh's public API from libipeh/include/ipeh.h.  It is
 * compiled only while the tree has no libipeh library to link
 * (tlvd/meson.build): once libipeh builds, this file is unused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/ipeh.h>
#include <linux/netlink.h>

#include <ipeh.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

void ipeh_error_clear(struct ipeh_error *e)
{
	if (!e)
		return;
	e->err = 0;
	e->rule = IPEH_RULE_NONE;
	e->type = -1;
	e->offset = -1;
	e->msg[0] = '\0';
}

__attribute__((format(printf, 3, 4)))
static int fail(struct ipeh_error *e, int err, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return err;
	e->err = err;
	e->rule = IPEH_RULE_NETLINK;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return err;
}

void ipeh_tlv_params_unset(struct ipeh_tlv_params *p)
{
	*p = (struct ipeh_tlv_params){
		.admin_perm = IPEH_PERM_NO_CHECK, .user_perm = IPEH_PERM_NONE,
		.align_mult = 4, .align_off = 2, .max_data_len = 255,
		.data_len_mult = 1,
	};
}

static const struct {
	uint8_t type;
	struct ipeh_tlv_params p;
} builtins[] = {
	{ IPEH_OPT_HAO, { 10, 2, 0, IPEH_CLASS_DSTOPT, 8, 6, 16, 16, 1, 0 } },
	{ IPEH_OPT_RA, { 20, 2, 0, IPEH_CLASS_HOPOPT, 2, 0, 2, 2, 1, 0 } },
	{ IPEH_OPT_JUMBO, { 30, 2, 0, IPEH_CLASS_HOPOPT, 4, 2, 4, 4, 1, 0 } },
	{ IPEH_OPT_CALIPSO, { 40, 2, 0, IPEH_CLASS_HOPOPT, 4, 2, 8, 252, 4, 0 } },
	{ IPEH_OPT_IOAM, { 50, 2, 0, IPEH_CLASS_HOPOPT, 4, 0, 10, 254, 4, 2 } },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void ipeh_table_default_params(uint8_t type, unsigned int flags,
			       struct ipeh_tlv_params *p)
{
	ipeh_tlv_params_unset(p);
	if (type == IPEH_OPT_HAO && (flags & IPEH_TABLE_NO_MIP6))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (builtins[i].type == type)
			*p = builtins[i].p;
}

void ipeh_table_init_empty(struct ipeh_table *t)
{
	for (unsigned int i = 0; i < 256; i++)
		ipeh_tlv_params_unset(&t->params[i]);
}

void ipeh_table_init_default(struct ipeh_table *t, unsigned int flags)
{
	for (unsigned int i = 0; i < 256; i++)
		ipeh_table_default_params((uint8_t)i, flags, &t->params[i]);
}

int ipeh_table_set(struct ipeh_table *t, uint8_t type,
		   const struct ipeh_tlv_params *p, struct ipeh_error *err)
{
	if (type < 2 || !p->order || p->align_mult < 1 || p->align_mult > 16 ||
	    p->align_off >= p->align_mult || p->data_len_mult < 1 ||
	    p->data_len_mult > 16 || p->data_len_off >= p->data_len_mult ||
	    p->min_data_len > p->max_data_len ||
	    (p->class_mask & ~IPEH_CLASS_MASK) ||
	    p->admin_perm > IPEH_PERM_NO_CHECK ||
	    p->user_perm > IPEH_PERM_NO_CHECK)
		return fail(err, -EINVAL, "type %u: invalid parameters", type);
	for (unsigned int i = 2; i < 256; i++)
		if (i != type && t->params[i].order == p->order)
			return fail(err, -EALREADY,
				    "type %u: order %u already used by type %u",
				    type, p->order, i);
	t->params[type] = *p;
	return 0;
}

int ipeh_table_unset(struct ipeh_table *t, uint8_t type, unsigned int flags)
{
	if (type < 2)
		return -EINVAL;
	ipeh_table_default_params(type, flags, &t->params[type]);
	return 0;
}

static const struct {
	uint8_t type;
	const char *name;
} names[] = {
	{ 0x00, "pad1" }, { 0x01, "padn" }, { 0x04, "tel" }, { 0x05, "ra" },
	{ 0x07, "calipso" }, { 0x30, "pmtu" }, { 0x31, "ioam" },
	{ 0xc2, "jumbo" }, { 0xc9, "hao" },
	{ 0x1e, "exp-1e" }, { 0x3e, "exp-3e" }, { 0x5e, "exp-5e" },
	{ 0x7e, "exp-7e" }, { 0x9e, "exp-9e" }, { 0xbe, "exp-be" },
	{ 0xde, "exp-de" }, { 0xfe, "exp-fe" },
};

const char *ipeh_opt_type_name(uint8_t type)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].type == type)
			return names[i].name;
	return NULL;
}

int ipeh_opt_type_parse(const char *name)
{
	char *end;
	long v;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(name, names[i].name))
			return names[i].type;
	errno = 0;
	v = strtol(name, &end, 0);
	if (!*name || *end || errno || v < 0 || v > 255)
		return -EINVAL;
	return (int)v;
}

/* --- netlink client ------------------------------------------------ */

struct ipeh_nl {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
};

struct request {
	struct ipeh_nl *nl;
	struct ipeh_error *err;
	mnl_cb_t data_cb;
	void *data;
};

static int extack_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		tb[NLMSGERR_ATTR_MSG] = attr;
	return MNL_CB_OK;
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct request *rq = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { 0 };
	unsigned int off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!e->error)
		return MNL_CB_STOP;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    mnl_nlmsg_get_payload_len(nlh) > off)
		mnl_attr_parse(nlh, off, extack_cb, tb);
	fail(rq->err, e->error, "%s",
	     tb[NLMSGERR_ATTR_MSG] ? mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]) :
	     "");
	errno = -e->error;
	return MNL_CB_ERROR;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct request *rq = data;

	return rq->data_cb ? rq->data_cb(nlh, rq->data) : MNL_CB_OK;
}

static int transact(struct ipeh_nl *nl, struct nlmsghdr *nlh,
		    mnl_cb_t cb, void *cb_data, struct ipeh_error *err)
{
	char buf[MNL_SOCKET_DUMP_SIZE];
	struct request rq = { nl, err, cb, cb_data };
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = error_cb };
	uint32_t seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return fail(err, -errno, "netlink send: %s", strerror(errno));
	do {
		n = mnl_socket_recvfrom(nl->sock, buf, sizeof(buf));
		if (n < 0)
			return fail(err, -errno, "netlink receive: %s",
				    strerror(errno));
		ret = mnl_cb_run2(buf, (size_t)n, seq, nl->portid, data_cb,
				  &rq, ctl, NLMSG_MIN_TYPE);
	} while (ret > 0);
	if (ret < 0) {
		int e = errno ? -errno : -EIO;

		if (err && !err->err)
			fail(err, e, "%s", "");
		return e;
	}
	return 0;
}

static struct nlmsghdr *put(struct ipeh_nl *nl, void *buf, uint16_t type,
			    uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = IPEH_TLV_GENL_VERSION;
	return nlh;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
			*(uint16_t *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

int ipeh_nl_open(struct ipeh_nl **nlp, struct ipeh_error *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct ipeh_nl *nl = calloc(1, sizeof(*nl));
	struct nlmsghdr *nlh;
	int one = 1, ret;

	if (!nl)
		return fail(err, -ENOMEM, "out of memory");
	nl->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl->sock || mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = fail(err, -errno, "netlink socket: %s", strerror(errno));
		goto out;
	}
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nlh = put(nl, buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IPEH_TLV_GENL_NAME);
	ret = transact(nl, nlh, family_cb, &nl->family, err);
	if (ret)
		goto out;
	if (!nl->family) {
		ret = fail(err, -ENOENT, "no family id in the reply");
		goto out;
	}
	*nlp = nl;
	return 0;
out:
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl);
	return ret;
}

void ipeh_nl_close(struct ipeh_nl *nl)
{
	if (!nl)
		return;
	mnl_socket_close(nl->sock);
	free(nl);
}

static int params_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type <= 0 || type > IPEH_TLV_ATTR_MAX)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, type == IPEH_TLV_ATTR_ORDER ?
			      MNL_TYPE_U16 : MNL_TYPE_U8) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

struct dump_ctx {
	struct ipeh_table *t;
};

static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IPEH_TLV_ATTR_MAX + 1] = { 0 };
	struct dump_ctx *dc = data;
	struct ipeh_tlv_params *p;

	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), params_attr_cb,
			   tb) < 0 || !tb[IPEH_TLV_ATTR_TYPE])
		return MNL_CB_OK;
	p = &dc->t->params[mnl_attr_get_u8(tb[IPEH_TLV_ATTR_TYPE])];
#define GET8(attr, field) if (tb[attr]) p->field = mnl_attr_get_u8(tb[attr])
	if (tb[IPEH_TLV_ATTR_ORDER])
		p->order = mnl_attr_get_u16(tb[IPEH_TLV_ATTR_ORDER]);
	p->admin_perm = IPEH_PERM_UNKNOWN;
	GET8(IPEH_TLV_ATTR_ADMIN_PERM, admin_perm);
	GET8(IPEH_TLV_ATTR_USER_PERM, user_perm);
	GET8(IPEH_TLV_ATTR_CLASS, class_mask);
	GET8(IPEH_TLV_ATTR_ALIGN_MULT, align_mult);
	GET8(IPEH_TLV_ATTR_ALIGN_OFF, align_off);
	GET8(IPEH_TLV_ATTR_MIN_DATA_LEN, min_data_len);
	GET8(IPEH_TLV_ATTR_MAX_DATA_LEN, max_data_len);
	GET8(IPEH_TLV_ATTR_DATA_LEN_MULT, data_len_mult);
	GET8(IPEH_TLV_ATTR_DATA_LEN_OFF, data_len_off);
#undef GET8
	return MNL_CB_OK;
}

int ipeh_nl_dump_table(struct ipeh_nl *nl, struct ipeh_table *t,
		       struct ipeh_error *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dump_ctx dc = { t };
	struct nlmsghdr *nlh;

	ipeh_table_init_empty(t);
	nlh = put(nl, buf, nl->family, NLM_F_DUMP, IPEH_TLV_CMD_GET);
	return transact(nl, nlh, dump_cb, &dc, err);
}

int ipeh_nl_set(struct ipeh_nl *nl, uint8_t type,
		const struct ipeh_tlv_params *p, unsigned int mask,
		struct ipeh_error *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = put(nl, buf, nl->family, NLM_F_ACK, IPEH_TLV_CMD_SET);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_TYPE, type);
#define PUT8(bit, attr, field) \
	if (mask & (bit)) mnl_attr_put_u8(nlh, attr, p->field)
	if (mask & IPEH_ATTR_ORDER)
		mnl_attr_put_u16(nlh, IPEH_TLV_ATTR_ORDER, p->order);
	PUT8(IPEH_ATTR_ADMIN_PERM, IPEH_TLV_ATTR_ADMIN_PERM, admin_perm);
	PUT8(IPEH_ATTR_USER_PERM, IPEH_TLV_ATTR_USER_PERM, user_perm);
	PUT8(IPEH_ATTR_CLASS, IPEH_TLV_ATTR_CLASS, class_mask);
	PUT8(IPEH_ATTR_ALIGN_MULT, IPEH_TLV_ATTR_ALIGN_MULT, align_mult);
	PUT8(IPEH_ATTR_ALIGN_OFF, IPEH_TLV_ATTR_ALIGN_OFF, align_off);
	PUT8(IPEH_ATTR_MIN_DATA_LEN, IPEH_TLV_ATTR_MIN_DATA_LEN, min_data_len);
	PUT8(IPEH_ATTR_MAX_DATA_LEN, IPEH_TLV_ATTR_MAX_DATA_LEN, max_data_len);
	PUT8(IPEH_ATTR_DATA_LEN_MULT, IPEH_TLV_ATTR_DATA_LEN_MULT, data_len_mult);
	PUT8(IPEH_ATTR_DATA_LEN_OFF, IPEH_TLV_ATTR_DATA_LEN_OFF, data_len_off);
#undef PUT8
	return transact(nl, nlh, NULL, NULL, err);
}

int ipeh_nl_unset(struct ipeh_nl *nl, uint8_t type, struct ipeh_error *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = put(nl, buf, nl->family, NLM_F_ACK, IPEH_TLV_CMD_UNSET);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_TYPE, type);
	return transact(nl, nlh, NULL, NULL, err);
}
