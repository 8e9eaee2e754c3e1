/* driver.c - replays a corpus directory (or files) through a fuzz target without libFuzzer. */
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
	if (!f) {
		fprintf(stderr, "'%s': cannot open\n", path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	/* and prefixes, as a truncation test: every one of a small input, 32 spread over a larger
	   one (the merged corpora of the long fuzz run hold thousands of inputs) */
	long step = n <= 64 ? 1 : n / 32;
	for (long k = 0; n < 4096 && k < n; k += step)
		LLVMFuzzerTestOneInput(buf, (size_t)k);
	if (n < 4096 && n > 64)
		LLVMFuzzerTestOneInput(buf, (size_t)n - 1);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, fails = 0;
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			while (d && (e = readdir(d))) {
				if (e->d_name[0] == '.')
					continue;
				char p[4096];
				snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
				fails += run_file(p);
				files++;
			}
			if (d)
				closedir(d);
		} else {
			fails += run_file(argv[i]);
			files++;
		}
	}
	printf("%d inputs replayed, %d unreadable\n", files, fails);
	return fails || files == 0;
}
