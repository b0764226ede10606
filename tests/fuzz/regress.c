/* regress.c - a main() for a fuzz target in a normal build: every file in
 * the directories given (the seed corpus and the crash inputs kept as
 * regressions) goes through LLVMFuzzerTestOneInput once, one TAP line each.
 * A crash fails the test; a sanitizer or valgrind build checks more. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int
regress_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The whole file at path, or NULL; *size is its length. */
static uint8_t *
regress_slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		size_t r;

		if (n == cap) {
			uint8_t *grown = realloc(buf, cap = cap ? cap * 2 : 4096);

			if (grown == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
		}
		r = fread(buf + n, 1, cap - n, f);
		if (r == 0)
			break;
		n += r;
	}
	fclose(f);
	*size = n;
	return buf ? buf : malloc(1);
}

int
main(int argc, char **argv)
{
	int n = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		char **names = NULL;
		size_t count = 0;

		if (d == NULL)
			continue;       /* no crash inputs kept for this target */
		while ((e = readdir(d)) != NULL) {
			char **grown;

			if (e->d_name[0] == '.')
				continue;
			grown = realloc(names, (count + 1) * sizeof *names);
			if (grown == NULL)
				break;
			names = grown;
			names[count] = strdup(e->d_name);
			if (names[count])
				count++;
		}
		closedir(d);
		if (count)
			qsort(names, count, sizeof *names, regress_cmp);
		for (size_t k = 0; k < count; k++) {
			char path[4096];
			uint8_t *data;
			size_t size = 0;

			snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
			data = regress_slurp(path, &size);
			n++;
			if (data == NULL) {
				failed++;
				printf("not ok %d - %s: cannot read it\n", n, path);
			} else {
				fflush(stdout);
				LLVMFuzzerTestOneInput(data, size);
				printf("ok %d - %s (%zu bytes)\n", n, path, size);
			}
			fflush(stdout);
			free(data);
			free(names[k]);
		}
		free(names);
	}
	if (n == 0)
		printf("1..0 # SKIP no inputs\n");
	else
		printf("1..%d\n", n);
	return failed != 0;
}
