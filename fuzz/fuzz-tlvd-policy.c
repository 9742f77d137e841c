// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: any bytes into tlvd's policy file parser
 * (policy_parse_buffer()), built with tlvd/policy.c and tlvd/table.c (see
 * fuzz/meson.build and fuzz/README.md).  Checks, beyond "no crash": a
 * parsed policy is self-consistent, and every refusal has a message.
 */
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy pol;
	struct policy_error err;

	if (policy_parse_buffer((const char *)data, size, &pol, &err) == 0) {
		/* a parsed policy must be self-consistent */
		for (unsigned int t = 0; t < TLV_TYPE_COUNT; t++) {
			const char *why;

			if (pol.mentioned[t] &&
			    tlv_params_check(&pol.table.params[t], &why))
				__builtin_trap();
		}
	} else if (!err.msg[0]) {
		__builtin_trap();	/* every error has a message */
	}
	return 0;
}
