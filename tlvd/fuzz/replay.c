// SPDX-License-Identifier: GPL-2.0-only
/* Runs LLVMFuzzerTestOneInput() over every file of a corpus directory,
 * so the harness is built and exercised without libFuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	struct dirent *de;
	unsigned int n = 0;
	DIR *dir;

	if (argc != 2 || !(dir = opendir(argv[1]))) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 1;
	}
	while ((de = readdir(dir))) {
		char path[4096], *buf;
		FILE *f;
		long len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], de->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		buf = malloc(len > 0 ? (size_t)len : 1);
		if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len) {
			LLVMFuzzerTestOneInput((const uint8_t *)buf, (size_t)len);
			n++;
		}
		free(buf);
		fclose(f);
	}
	closedir(dir);
	printf("%u inputs\n", n);
	return n ? 0 : 1;
}
