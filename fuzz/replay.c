// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Without libFuzzer: run the harness once per input, so that it is built
 * and exercised by any compiler.  Arguments are files or corpus folders
 * (every file in them).  Each input is in a heap buffer of exactly its
 * size, as libFuzzer gives it, so a sanitizer build sees reads past it.
 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#define INPUT_MAX	(1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	uint8_t *buf = malloc(INPUT_MAX), *exact;
	size_t n;
	FILE *f;

	if (!buf)
		return -1;
	f = fopen(path, "rb");
	if (!f) {
		perror(path);
		free(buf);
		return -1;
	}
	n = fread(buf, 1, INPUT_MAX, f);
	fclose(f);
	exact = realloc(buf, n ? n : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int replay_dir(const char *dir, unsigned int *count)
{
	struct dirent **names;
	int i, n, rc = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		perror(dir);
		return -1;
	}
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !stat(path, &st) &&
		    S_ISREG(st.st_mode)) {
			if (replay_file(path) < 0)
				rc = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned int count = 0;
	struct stat st;
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|CORPUS_DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], &count) < 0)
				rc = 1;
		} else if (replay_file(argv[i]) < 0) {
			rc = 1;
		} else {
			count++;
		}
	}
	printf("%u inputs\n", count);
	return rc || !count;
}
