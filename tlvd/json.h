/* SPDX-License-Identifier: GPL-2.0-only */
/* tlvctl's --json output: one JSON document per command, on one line. */
#ifndef TLVD_JSON_H
#define TLVD_JSON_H

#include <stdio.h>

#include "apply.h"
#include "policy.h"
#include "table.h"

/* "..." with JSON escapes */
void json_string(FILE *f, const char *s);
/* {"type":49,"name":"ioam","entry":true,"order":50,"class":["hop"],
 *  "admin":"nocheck","user":"check","align":"4n+0","align_mult":4,
 *  "align_off":0,"min_length":10,"max_length":254,"length_mult":"4n+2",
 *  "data_len_mult":4,"data_len_off":2} -- or {"type":..,"name":..,
 *  "entry":false} for a type with no entry */
void json_params(FILE *f, unsigned int type, const struct ipeh_tlv_params *p);
/* [entry, ...] for the types with an entry (all types 2..255 if @all) */
void json_table(FILE *f, const struct ipeh_table *t, int all);
/* [{"type":..,"name":..,"op":"set","from":{..},"to":{..}}, ...] */
void json_changeset(FILE *f, const struct changeset *cs);
/* {"file":..,"ok":true,"unmentioned":"keep","on_stop":"keep",
 *  "interval":30,"options":[entry, ...]} */
void json_policy(FILE *f, const char *path, const struct policy *pol);
/* {"file":..,"ok":false,"line":3,"error":".."} */
void json_policy_error(FILE *f, const char *path,
		       const struct policy_error *err);

#endif
