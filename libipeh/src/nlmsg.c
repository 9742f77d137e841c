// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * "ipeh-tlv" generic netlink messages: building requests and decoding
 * replies, without a socket, so that they can be unit-tested.
 */

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/ipeh.h>

#include "internal.h"

/* header + genl header + every attribute, with room to spare */
#define REQ_MIN	256

static struct nlmsghdr *put_genl(void *buf, uint16_t type, uint16_t flags,
				 uint32_t seq, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

int ipeh_nlmsg_getfamily(void *buf, size_t cap, uint32_t seq)
{
	struct nlmsghdr *nlh;

	if (cap < REQ_MIN)
		return -ENOBUFS;
	nlh = put_genl(buf, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, seq,
		       CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, IPEH_TLV_GENL_NAME);
	return (int)nlh->nlmsg_len;
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_FAMILY_ID) {
		if (mnl_attr_validate(attr, MNL_TYPE_U16) < 0)
			return MNL_CB_ERROR;
		tb[0] = attr;
	}
	return MNL_CB_OK;
}

int ipeh_nlmsg_parse_family(const struct nlmsghdr *nlh, uint16_t *family)
{
	const struct nlattr *tb[1] = { NULL };

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct genlmsghdr))
		return -EINVAL;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb,
			   tb) < 0)
		return -EINVAL;
	if (!tb[0])
		return -ENOENT;
	*family = mnl_attr_get_u16(tb[0]);
	return 0;
}

struct mcast_arg {
	const char *name;
	uint32_t id;
	bool found;
};

static int mcast_grp_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_MCAST_GRP_NAME) {
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_ERROR;
		tb[0] = attr;
	} else if (type == CTRL_ATTR_MCAST_GRP_ID) {
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		tb[1] = attr;
	}
	return MNL_CB_OK;
}

static int mcast_attr_cb(const struct nlattr *attr, void *data)
{
	struct mcast_arg *m = data;
	const struct nlattr *grp;

	if (mnl_attr_get_type(attr) != CTRL_ATTR_MCAST_GROUPS)
		return MNL_CB_OK;
	mnl_attr_for_each_nested(grp, attr) {
		const struct nlattr *tb[2] = { NULL, NULL };

		if (mnl_attr_parse_nested(grp, mcast_grp_cb, tb) < 0)
			return MNL_CB_ERROR;
		if (tb[0] && tb[1] && !strcmp(mnl_attr_get_str(tb[0]), m->name)) {
			m->id = mnl_attr_get_u32(tb[1]);
			m->found = true;
		}
	}
	return MNL_CB_OK;
}

int ipeh_nlmsg_parse_mcast_group(const struct nlmsghdr *nlh, const char *name,
				 uint32_t *group)
{
	struct mcast_arg m = { .name = name };

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct genlmsghdr))
		return -EINVAL;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), mcast_attr_cb,
			   &m) < 0)
		return -EINVAL;
	if (!m.found)
		return -ENOENT;
	*group = m.id;
	return 0;
}

int ipeh_nlmsg_get(void *buf, size_t cap, uint16_t family, uint32_t seq,
		   int type)
{
	struct nlmsghdr *nlh;

	if (cap < REQ_MIN)
		return -ENOBUFS;
	if (type > 255)
		return -EINVAL;
	if (type < 0) {
		nlh = put_genl(buf, family, NLM_F_REQUEST | NLM_F_DUMP, seq,
			       IPEH_TLV_CMD_GET, IPEH_TLV_GENL_VERSION);
	} else {
		nlh = put_genl(buf, family, NLM_F_REQUEST | NLM_F_ACK, seq,
			       IPEH_TLV_CMD_GET, IPEH_TLV_GENL_VERSION);
		mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_TYPE, (uint8_t)type);
	}
	return (int)nlh->nlmsg_len;
}


int ipeh_nlmsg_unset(void *buf, size_t cap, uint16_t family, uint32_t seq,
		     uint8_t type)
{
	struct nlmsghdr *nlh;

	if (cap < REQ_MIN)
		return -ENOBUFS;
	nlh = put_genl(buf, family, NLM_F_REQUEST | NLM_F_ACK, seq,
		       IPEH_TLV_CMD_UNSET, IPEH_TLV_GENL_VERSION);
	mnl_attr_put_u8(nlh, IPEH_TLV_ATTR_TYPE, type);
	return (int)nlh->nlmsg_len;
}

/*
 * Attributes written in place: a REPLACE of 250 entries has
 * about 3000 of them, and libmnl's mnl_attr_put() (memcpy and memset
 * calls for each) costs several times more.  The caller has checked the
 * room.
 */
static void put_attr(struct nlmsghdr *nlh, uint16_t type, unsigned int len,
		     uint16_t v)
{
	struct nlattr *a = (struct nlattr *)((char *)nlh +
					      NLMSG_ALIGN(nlh->nlmsg_len));
	uint8_t *d = (uint8_t *)a + NLA_HDRLEN;

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	/* the payload and its padding: one 32-bit word */
	memset(d, 0, 4);
	if (len == 1)
		d[0] = (uint8_t)v;
	else if (len == 2)
		memcpy(d, &v, 2);
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_HDRLEN +
			 (len ? 4 : 0);
}

/* The attributes of @p selected by @mask (IPEH_ATTR_*), after TYPE */
static void put_params(struct nlmsghdr *nlh, const struct ipeh_tlv_params *p,
		       unsigned int mask)
{
	if (mask & IPEH_ATTR_ORDER)
		put_attr(nlh, IPEH_TLV_ATTR_ORDER, 2, p->order);
	if (mask & IPEH_ATTR_ADMIN_PERM)
		put_attr(nlh, IPEH_TLV_ATTR_ADMIN_PERM, 1, p->admin_perm);
	if (mask & IPEH_ATTR_USER_PERM)
		put_attr(nlh, IPEH_TLV_ATTR_USER_PERM, 1, p->user_perm);
	if (mask & IPEH_ATTR_CLASS)
		put_attr(nlh, IPEH_TLV_ATTR_CLASS, 1, p->class_mask);
	if (mask & IPEH_ATTR_ALIGN_MULT)
		put_attr(nlh, IPEH_TLV_ATTR_ALIGN_MULT, 1, p->align_mult);
	if (mask & IPEH_ATTR_ALIGN_OFF)
		put_attr(nlh, IPEH_TLV_ATTR_ALIGN_OFF, 1, p->align_off);
	if (mask & IPEH_ATTR_MIN_DATA_LEN)
		put_attr(nlh, IPEH_TLV_ATTR_MIN_DATA_LEN, 1, p->min_data_len);
	if (mask & IPEH_ATTR_MAX_DATA_LEN)
		put_attr(nlh, IPEH_TLV_ATTR_MAX_DATA_LEN, 1, p->max_data_len);
	if (mask & IPEH_ATTR_DATA_LEN_MULT)
		put_attr(nlh, IPEH_TLV_ATTR_DATA_LEN_MULT, 1, p->data_len_mult);
	if (mask & IPEH_ATTR_DATA_LEN_OFF)
		put_attr(nlh, IPEH_TLV_ATTR_DATA_LEN_OFF, 1, p->data_len_off);
}

int ipeh_nlmsg_set(void *buf, size_t cap, uint16_t family, uint32_t seq,
		   uint8_t type, const struct ipeh_tlv_params *p,
		   unsigned int mask)
{
	struct nlmsghdr *nlh;

	if (cap < REQ_MIN)
		return -ENOBUFS;
	if (mask & ~IPEH_ATTR_ALL)
		return -EINVAL;
	nlh = put_genl(buf, family, NLM_F_REQUEST | NLM_F_ACK, seq,
		       IPEH_TLV_CMD_SET, IPEH_TLV_GENL_VERSION);
	put_attr(nlh, IPEH_TLV_ATTR_TYPE, 1, type);
	put_params(nlh, p, mask);
	return (int)nlh->nlmsg_len;
}

int ipeh_nlmsg_replace(void *buf, size_t cap, uint16_t family, uint32_t seq,
		       const struct ipeh_nl_entry *e, size_t n,
		       unsigned int flags, uint32_t *off)
{
	struct nlmsghdr *nlh;
	size_t i;

	/* 100: the nest, TYPE, ORDER and nine u8 attributes, rounded up */
	if (n > 256 || cap < REQ_MIN || (cap - REQ_MIN) / 100 < n)
		return -ENOBUFS;
	if (flags & ~IPEH_NL_REPLACE_RESET)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (e[i].mask & ~IPEH_ATTR_ALL)
			return -EINVAL;
	nlh = put_genl(buf, family, NLM_F_REQUEST | NLM_F_ACK, seq,
		       IPEH_TLV_CMD_REPLACE, IPEH_TLV_GENL_VERSION);
	if (flags & IPEH_NL_REPLACE_RESET)
		mnl_attr_put(nlh, IPEH_TLV_ATTR_RESET, 0, NULL);
	for (i = 0; i < n; i++) {
		const struct ipeh_tlv_params *p = &e[i].p;
		unsigned int mask = e[i].unset ? 0 : e[i].mask;
		struct nlattr *nest;

		if (off)
			off[i] = nlh->nlmsg_len;
		nest = (struct nlattr *)((char *)nlh +
					 NLMSG_ALIGN(nlh->nlmsg_len));
		nest->nla_type = NLA_F_NESTED | IPEH_TLV_ATTR_ENTRY;
		nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_HDRLEN;
		put_attr(nlh, IPEH_TLV_ATTR_TYPE, 1, e[i].type);
		if (e[i].unset)
			put_attr(nlh, IPEH_TLV_ATTR_UNSET, 0, 0);
		put_params(nlh, p, mask);
		nest->nla_len = (uint16_t)((char *)nlh + nlh->nlmsg_len -
					   (char *)nest);
	}
	return (int)nlh->nlmsg_len;
}

static int params_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	/* the entry's own attributes; the generation and newer ones are
	 * not part of it
	 */
	if (type <= IPEH_TLV_ATTR_UNSPEC || type > IPEH_TLV_ATTR_DATA_LEN_OFF)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, type == IPEH_TLV_ATTR_ORDER ?
				    MNL_TYPE_U16 : MNL_TYPE_U8) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

int ipeh_nlmsg_parse_params(const struct nlmsghdr *nlh, uint8_t *type,
			    struct ipeh_tlv_params *p, unsigned int *mask)
{
	const struct nlattr *tb[IPEH_TLV_ATTR_DATA_LEN_OFF + 1] = { NULL };
	unsigned int m = 0;
	int i;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct genlmsghdr))
		return -EINVAL;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), params_attr_cb,
			   tb) < 0)
		return -EINVAL;
	if (!tb[IPEH_TLV_ATTR_TYPE])
		return -EINVAL;
	ipeh_tlv_params_unset(p);
	p->admin_perm = IPEH_PERM_UNKNOWN;
	*type = mnl_attr_get_u8(tb[IPEH_TLV_ATTR_TYPE]);
	for (i = IPEH_TLV_ATTR_ORDER; i <= IPEH_TLV_ATTR_DATA_LEN_OFF; i++) {
		if (!tb[i])
			continue;
		m |= 1u << i;
		switch (i) {
		case IPEH_TLV_ATTR_ORDER:
			p->order = mnl_attr_get_u16(tb[i]);
			break;
		case IPEH_TLV_ATTR_ADMIN_PERM:
			p->admin_perm = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_USER_PERM:
			p->user_perm = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_CLASS:
			p->class_mask = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_ALIGN_MULT:
			p->align_mult = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_ALIGN_OFF:
			p->align_off = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_MIN_DATA_LEN:
			p->min_data_len = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_MAX_DATA_LEN:
			p->max_data_len = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_DATA_LEN_MULT:
			p->data_len_mult = mnl_attr_get_u8(tb[i]);
			break;
		case IPEH_TLV_ATTR_DATA_LEN_OFF:
			p->data_len_off = mnl_attr_get_u8(tb[i]);
			break;
		}
	}
	if (mask)
		*mask = m;
	return 0;
}

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG) {
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_ERROR;
		tb[0] = attr;
	} else if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_OFFS) {
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		tb[1] = attr;
	}
	return MNL_CB_OK;
}

/* The extack attributes of an NLMSG_ERROR message, if any */
static void error_attrs(const struct nlmsghdr *nlh,
			const struct nlattr *tb[2])
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e), plen = mnl_nlmsg_get_payload_len(nlh);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= sizeof(struct nlmsghdr))
		off += NLMSG_ALIGN(e->msg.nlmsg_len - sizeof(struct nlmsghdr));
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off < plen)
		mnl_attr_parse(nlh, (unsigned int)off, extack_attr_cb, tb);
}

long ipeh__nlmsg_error_offset(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[2] = { NULL, NULL };

	if (nlh->nlmsg_type != NLMSG_ERROR ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nlmsgerr))
		return -1;
	error_attrs(nlh, tb);
	return tb[1] ? (long)mnl_attr_get_u32(tb[1]) : -1;
}

int ipeh_nlmsg_parse_error(const struct nlmsghdr *nlh,
			   struct ipeh_error *err)
{
	const struct nlmsgerr *e;
	const struct nlattr *tb[2] = { NULL, NULL };
	int error;

	if (nlh->nlmsg_type != NLMSG_ERROR ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
		return ipeh__fail(err, -EBADMSG, IPEH_RULE_NETLINK, -1, -1,
				  "not a netlink error message");
	e = mnl_nlmsg_get_payload(nlh);
	error = e->error;
	if (error > 0 || error < -4095)
		error = -EPROTO;
	if (!error)
		return 0;

	error_attrs(nlh, tb);
	if (tb[0])
		return ipeh__fail(err, error, IPEH_RULE_NETLINK, -1, -1,
				  "%s (%s)", mnl_attr_get_str(tb[0]),
				  ipeh__strerror(-error));
	return ipeh__fail(err, error, IPEH_RULE_NETLINK, -1, -1, "%s",
			  ipeh__strerror(-error));
}
