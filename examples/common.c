// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the examples.  See common.h.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

const char *ex_prog = "example";

void ex_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ex_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void ex_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ex_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", ex_prog);
	exit(EX_USAGE);
}

unsigned long ex_parse_ulong(const char *s, unsigned long min,
			     unsigned long max, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		ex_usage_error("%s: '%s' is not a number", what, s);
	if (v < min || v > max)
		ex_usage_error("%s: %lu is not in %lu..%lu", what, v, min, max);
	return v;
}

double ex_parse_seconds(const char *s, const char *what)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > 86400)
		ex_usage_error("%s: '%s' is not a number of seconds (0..86400)",
			       what, s);
	return v;
}

int ex_resolve(const char *host, uint16_t port, struct sockaddr_in6 *sa)
{
	struct addrinfo hints = {
		.ai_family = AF_INET6,
		.ai_socktype = SOCK_DGRAM,
	};
	struct addrinfo *res;
	char name[256];
	size_t n = strlen(host);
	int ret;

	/* accept "[addr]" as well as "addr" */
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']' && n - 2 < sizeof(name)) {
		memcpy(name, host + 1, n - 2);
		name[n - 2] = '\0';
	} else if (n < sizeof(name)) {
		memcpy(name, host, n + 1);
	} else {
		return -EINVAL;
	}
	ret = getaddrinfo(name, NULL, &hints, &res);
	if (ret) {
		ex_warn("%s: %s", name, gai_strerror(ret));
		return -EINVAL;
	}
	memcpy(sa, res->ai_addr, sizeof(*sa));
	sa->sin6_port = htons(port);
	freeaddrinfo(res);
	return 0;
}

void ex_format_ip(const struct sockaddr_in6 *sa, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];
	char ifname[IF_NAMESIZE];

	if (!inet_ntop(AF_INET6, &sa->sin6_addr, ip, sizeof(ip)))
		snprintf(ip, sizeof(ip), "?");
	if (sa->sin6_scope_id && if_indextoname(sa->sin6_scope_id, ifname))
		snprintf(buf, len, "%s%%%s", ip, ifname);
	else
		snprintf(buf, len, "%s", ip);
}

void ex_format_addr(const struct sockaddr_in6 *sa, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN + IF_NAMESIZE + 1];

	ex_format_ip(sa, ip, sizeof(ip));
	snprintf(buf, len, "[%s]:%u", ip, ntohs(sa->sin6_port));
}

/* ------------------------------------------------------------------ */
/* The TLV table                                                       */
/* ------------------------------------------------------------------ */

/*
 * The layout RFC 9486 and RFC 9268 (and tlvd's shipped tlvd.conf) give the
 * two options, used when the table has no Hop-by-Hop entry for them.
 */
static void rfc_layout(uint8_t type, struct ipeh_tlv_params *p)
{
	memset(p, 0, sizeof(*p));
	p->class_mask = IPEH_CLASS_HOPOPT;
	p->admin_perm = IPEH_PERM_CHECK;
	p->user_perm = IPEH_PERM_CHECK;
	p->data_len_mult = 1;
	if (type == IPEH_OPT_IOAM) {
		/* Linux's ipv6_hop_ioam() wants the option at 4n */
		p->order = 50;
		p->align_mult = 4;
		p->align_off = 0;
		p->min_data_len = 10;
		p->max_data_len = 254;
		p->data_len_mult = 4;
		p->data_len_off = 2;
	} else if (type == IPEH_OPT_PMTU) {
		p->order = 60;
		p->align_mult = 4;
		p->align_off = 2;
		p->min_data_len = IPEH_PMTU_DATA_LEN;
		p->max_data_len = IPEH_PMTU_DATA_LEN;
	} else {
		p->order = 1000;
		p->align_mult = 4;
		p->align_off = 2;
		p->max_data_len = 255;
	}
}

static int load_live(struct ipeh_table *t, char *why, size_t whylen)
{
	struct timeval tv = { .tv_sec = 2 };
	struct ipeh_error err;
	struct ipeh_nl *nl;
	int ret;

	ipeh_error_clear(&err);
	ret = ipeh_nl_open(&nl, &err);
	if (ret < 0) {
		snprintf(why, whylen, "%s", err.msg[0] ? err.msg : strerror(-ret));
		return ret;
	}
	/* a kernel that never answers must not hang the example */
	setsockopt(ipeh_nl_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	ret = ipeh_nl_dump_table(nl, t, &err);
	if (ret < 0)
		snprintf(why, whylen, "table dump: %s",
			 err.msg[0] ? err.msg : strerror(-ret));
	ipeh_nl_close(nl);
	return ret;
}

void ex_table_init(struct ex_table *xt, uint8_t type,
		   const struct ipeh_table *t, bool live)
{
	struct ipeh_tlv_params *p;

	if (&xt->table != t)
		xt->table = *t;
	xt->type = type;
	xt->live = live;
	xt->layout_fallback = false;
	p = &xt->table.params[type];
	xt->user_perm = live ? p->user_perm : IPEH_PERM_UNKNOWN;
	if (!p->order || !(p->class_mask & IPEH_CLASS_HOPOPT)) {
		rfc_layout(type, p);
		xt->layout_fallback = true;
	}
	/*
	 * Lay the block out as if we were allowed: whether we are is the
	 * kernel's decision, and its EPERM is what the user should see.
	 */
	p->user_perm = IPEH_PERM_CHECK;
}

void ex_table_load(struct ex_table *xt, uint8_t type)
{
	bool live;

	memset(xt, 0, sizeof(*xt));
	live = load_live(&xt->table, xt->why_not_live,
			 sizeof(xt->why_not_live)) == 0;
	if (!live)
		ipeh_table_init_default(&xt->table, 0);
	ex_table_init(xt, type, &xt->table, live);
}

ssize_t ex_build_hbh(const struct ex_table *xt, const uint8_t *data,
		     size_t len, uint8_t *buf, size_t cap)
{
	struct ipeh_opt opt = {
		.type = xt->type,
		.len = (uint8_t)len,
		.data = data,
	};
	struct ipeh_limits lim;
	struct ipeh_error err;
	ssize_t n;

	if (len > 255) {
		ex_warn("option data of %zu bytes is longer than 255", len);
		return -EINVAL;
	}
	if (ipeh_limits_read(IPEH_HDR_HOPOPTS, &lim) < 0)
		ipeh_limits_default(&lim);
	ipeh_error_clear(&err);
	n = ipeh_build(&xt->table, IPEH_HDR_HOPOPTS, &opt, 1, buf, cap, &lim,
		       0, &err);
	if (n < 0)
		ex_warn("cannot build the Hop-by-Hop block (libipeh, rule %s): %s",
			ipeh_rule_name(err.rule),
			err.msg[0] ? err.msg : strerror((int)-n));
	return n;
}

ssize_t ex_prepare_hbh(const struct ex_table *xt, size_t len,
		       struct ipeh_prepared *p)
{
	struct ipeh_opt opt = {
		.type = xt->type,
		.len = (uint8_t)len,
		.data = NULL,	/* zeros until each packet writes its own */
	};
	struct ipeh_limits lim;
	struct ipeh_error err;
	ssize_t n;

	if (len > 255)
		return -EINVAL;
	if (ipeh_limits_read(IPEH_HDR_HOPOPTS, &lim) < 0)
		ipeh_limits_default(&lim);
	ipeh_error_clear(&err);
	n = ipeh_prepare(p, &xt->table, IPEH_HDR_HOPOPTS, &opt, 1, &lim, 0, &err);
	if (n < 0)
		ex_warn("cannot prepare the Hop-by-Hop block (libipeh, rule %s): %s",
			ipeh_rule_name(err.rule),
			err.msg[0] ? err.msg : strerror((int)-n));
	return n;
}

static const char *errno_name(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case EMSGSIZE: return "EMSGSIZE";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	case EACCES: return "EACCES";
	case ENETUNREACH: return "ENETUNREACH";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case ECONNREFUSED: return "ECONNREFUSED";
	default: return "error";
	}
}

void ex_explain_errno(int err, const char *call, const char *opt_label,
		      const struct ex_table *xt, const uint8_t *block,
		      size_t len, bool json)
{
	char msg[512], hint[256] = "", hex[2 * IPEH_HDR_MAX + 1];

	switch (err) {
	case EPERM:
		snprintf(msg, sizeof(msg),
			 "the kernel refused the %s option (EPERM): the TLV policy "
			 "does not let unprivileged users send option 0x%02x in "
			 "Hop-by-Hop headers; ask the administrator "
			 "(tlvd.conf: user = check)", opt_label, xt->type);
		if (xt->live && xt->user_perm == IPEH_PERM_NONE)
			snprintf(hint, sizeof(hint),
				 "the kernel's TLV table says user = none for option 0x%02x (%s)",
				 xt->type, call);
		else if (!xt->live)
			snprintf(hint, sizeof(hint),
				 "refused by %s; the kernel's TLV table could not be "
				 "read: a kernel without the ipeh series lets only "
				 "CAP_NET_RAW send Hop-by-Hop options", call);
		else
			snprintf(hint, sizeof(hint), "refused by %s", call);
		break;
	case EINVAL:
		ex_hex(block, len, hex, sizeof(hex));
		snprintf(msg, sizeof(msg),
			 "the kernel rejected the %s option block (EINVAL): it is "
			 "malformed or not in the canonical form the kernel's TLV "
			 "table asks for", opt_label);
		snprintf(hint, sizeof(hint),
			 "%s; libipeh laid the block out for the %s table; "
			 "the block (%zu bytes) follows", call,
			 xt->live ? "kernel's" : "built-in", len);
		break;
	case E2BIG:
		snprintf(msg, sizeof(msg),
			 "the kernel refused the %s option block (E2BIG): more "
			 "options than net.ipv6.max_hbh_opts_number allows",
			 opt_label);
		break;
	case EMSGSIZE:
		snprintf(msg, sizeof(msg),
			 "the kernel refused the %s option block (EMSGSIZE): the "
			 "Hop-by-Hop header (%zu bytes) is longer than "
			 "net.ipv6.max_hbh_length allows, or the packet is too big",
			 opt_label, len);
		break;
	default:
		snprintf(msg, sizeof(msg), "%s failed: %s (%s)", call,
			 strerror(err), errno_name(err));
		break;
	}
	fprintf(stderr, "%s: %s\n", ex_prog, msg);
	if (hint[0])
		fprintf(stderr, "%s: %s\n", ex_prog, hint);
	if (err == EINVAL)
		fprintf(stderr, "%s: %s\n", ex_prog, hex);
	if (json) {
		printf("{\"event\":\"error\",\"errno\":");
		ex_json_str(stdout, errno_name(err));
		printf(",\"call\":");
		ex_json_str(stdout, call);
		printf(",\"message\":");
		ex_json_str(stdout, msg);
		printf("}\n");
		fflush(stdout);
	}
}

/* ------------------------------------------------------------------ */
/* Link MTU                                                            */
/* ------------------------------------------------------------------ */

static int ifname_of_addr(const struct sockaddr_in6 *a, char *ifname,
			  size_t len)
{
	struct ifaddrs *ifa, *i;
	int ret = -ENODEV;

	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		const struct sockaddr_in6 *s = (const void *)i->ifa_addr;

		if (!s || s->sin6_family != AF_INET6)
			continue;
		if (memcmp(&s->sin6_addr, &a->sin6_addr, sizeof(a->sin6_addr)))
			continue;
		if (a->sin6_scope_id && s->sin6_scope_id != a->sin6_scope_id)
			continue;
		snprintf(ifname, len, "%s", i->ifa_name);
		ret = 0;
		break;
	}
	freeifaddrs(ifa);
	return ret;
}

int ex_link_mtu(int fd, char *ifname, size_t ifname_len)
{
	struct sockaddr_in6 local;
	socklen_t slen = sizeof(local);
	struct ifreq ifr;
	int ret;

	if (getsockname(fd, (struct sockaddr *)&local, &slen) < 0)
		return -errno;
	ret = ifname_of_addr(&local, ifname, ifname_len);
	if (ret < 0)
		return ret;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0)
		return -errno;
	return ifr.ifr_mtu;
}

int ex_link_mtu_to(const struct sockaddr_in6 *dst, char *ifname,
		   size_t ifname_len)
{
	int fd, ret;

	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* connect() on UDP only picks the route and the source address */
	if (connect(fd, (const struct sockaddr *)dst, sizeof(*dst)) < 0)
		ret = -errno;
	else
		ret = ex_link_mtu(fd, ifname, ifname_len);
	close(fd);
	return ret;
}

/* ------------------------------------------------------------------ */
/* IOAM trace-type names                                               */
/* ------------------------------------------------------------------ */

static const char *const ioam_fields[24] = {
	[0] = "hop-limit",
	[1] = "if-ids",
	[2] = "ts-sec",
	[3] = "ts-frac",
	[4] = "transit-delay",
	[5] = "ns-data",
	[6] = "queue-depth",
	[7] = "checksum",
	[8] = "hop-limit-wide",
	[9] = "if-ids-wide",
	[10] = "ns-data-wide",
	[11] = "buffer-occupancy",
	[22] = "opaque",
};

const char *ex_ioam_field_name(unsigned int bit)
{
	return bit < 24 ? ioam_fields[bit] : NULL;
}

int ex_ioam_trace_type_parse(const char *s, uint32_t *type)
{
	char buf[256], *tok, *save = NULL;
	uint32_t t = 0;

	if (*s >= '0' && *s <= '9') {
		unsigned long v;
		char *end;

		errno = 0;
		v = strtoul(s, &end, 0);
		if (errno || *end || v > 0xffffff)
			return -EINVAL;
		*type = (uint32_t)v;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned int bit;

		for (bit = 0; bit < 24; bit++)
			if (ioam_fields[bit] && !strcmp(tok, ioam_fields[bit]))
				break;
		if (bit == 24)
			return -EINVAL;
		t |= IPEH_IOAM_BIT(bit);
	}
	if (!t)
		return -EINVAL;
	*type = t;
	return 0;
}

void ex_ioam_trace_type_format(uint32_t type, char *buf, size_t len)
{
	size_t o = 0;
	unsigned int bit;

	if (len)
		buf[0] = '\0';
	for (bit = 0; bit < 24 && o < len; bit++) {
		int n;

		if (!(type & IPEH_IOAM_BIT(bit)))
			continue;
		if (ioam_fields[bit])
			n = snprintf(buf + o, len - o, "%s%s", o ? "," : "",
				     ioam_fields[bit]);
		else
			n = snprintf(buf + o, len - o, "%sbit%u", o ? "," : "",
				     bit);
		if (n < 0)
			break;
		o += (size_t)n;
	}
	if (!type)
		snprintf(buf, len, "none");
}

/* ------------------------------------------------------------------ */
/* Small things                                                        */
/* ------------------------------------------------------------------ */

void ex_hex(const uint8_t *b, size_t len, char *buf, size_t cap)
{
	static const char digits[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < len && o + 2 < cap; i++) {
		buf[o++] = digits[b[i] >> 4];
		buf[o++] = digits[b[i] & 0xf];
	}
	if (cap)
		buf[o < cap ? o : cap - 1] = '\0';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

ssize_t ex_unhex(const char *s, uint8_t *b, size_t cap)
{
	size_t n = 0;
	int hi = -1;

	for (; *s; s++) {
		int v;

		if (*s == ' ' || *s == ':' || *s == '\n' || *s == '\t')
			continue;
		v = hexval(*s);
		if (v < 0)
			return -1;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n >= cap)
			return -1;
		b[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	return hi < 0 ? (ssize_t)n : -1;
}

void ex_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

double ex_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int64_t ex_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
