/* replay_main.c - runs a libFuzzer target over a corpus without libFuzzer (make test).
 *
 * Usage: fuzz_x DIR|FILE...  Each file is read whole and passed to LLVMFuzzerTestOneInput;
 * a crash or an abort fails the run. Exit 0 when every input ran, 1 when one could not be
 * read, 2 on bad usage.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "%s: cannot open\n", path);
		return -1;
	}
	for (;;) {
		size_t r;
		if (n == cap) {
			uint8_t *nb;
			cap = cap ? cap * 2 : 4096;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				fprintf(stderr, "%s: out of memory\n", path);
				return -1;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	/* an exact-size copy, so reads past the end are caught by ASan */
	{
		uint8_t *exact = malloc(n ? n : 1);
		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, n);
		free(buf);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
	}
	return 0;
}

static int compare(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "%s: cannot open\n", dir);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn;
			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*nn));
			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), compare);
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(path) != 0)
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
	int count = 0, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &count) != 0)
				rc = 1;
		} else if (run_file(argv[i]) != 0) {
			rc = 1;
		} else {
			count++;
		}
	}
	printf("%s: %d inputs ran\n", argv[0], count);
	return rc;
}
