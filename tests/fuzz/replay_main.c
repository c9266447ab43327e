/*
 * Replays fuzz inputs without libFuzzer: each argument is a file or a
 * directory of files, fed one by one to LLVMFuzzerTestOneInput. This is how
 * the corpora run as plain regression tests (also under ASan/UBSan).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

static int replay_path(const char *path, int *count)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (stat(path, &st))
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		char sub[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (replay_path(sub, count))
			err = -1;
	}
	closedir(d);
	return err;
}

int main(int argc, char **argv)
{
	int count = 0;

	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i], &count)) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
	printf("replayed %d inputs\n", count);
	if (count == 0) {
		/* an empty or misnamed corpus must not pass as a replay */
		fprintf(stderr, "replay: no inputs\n");
		return 1;
	}
	return 0;
}
