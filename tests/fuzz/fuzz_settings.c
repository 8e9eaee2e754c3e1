/* fuzz_settings.c - libFuzzer target for the capture layer's settings: the input is lines of
 * NAME=VALUE standing for the environment; capture_settings_read either refuses them with a
 * message naming a variable or gives settings that hold together. */
#include "settings.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct env {
	char *names[32], *values[32];
	int n;
};

static const char *get(const char *name, void *ud)
{
	struct env *e = ud;
	for (int i = e->n - 1; i >= 0; i--)
		if (!strcmp(e->names[i], name))
			return e->values[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct env e = {.n = 0};
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (char *line = text, *next; line && e.n < 32; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		e.names[e.n] = line;
		e.values[e.n++] = eq + 1;
	}
	struct capture_settings s;
	char why[400];
	if (capture_settings_read(&s, get, &e, why, sizeof(why))) {
		if (!strstr(why, "LLCT_CAPTURE_"))
			abort(); /* a refusal names the variable */
	} else {
		if (s.tier < 1 || s.tier > 3 || s.xfb_guess == 0 || s.sms > 65535 ||
		    s.records > (16u << 20) || strlen(s.output) >= sizeof(s.output) ||
		    !s.label[0] || (s.twin_lead > 1000000 && s.twin_lead != UINT32_MAX))
			abort();
		if (!s.all_frames && s.frames.n == 0)
			abort();
		if (s.exit_after && !s.bounded)
			abort();
		capture_settings_release(&s);
	}
	free(text);
	return 0;
}
