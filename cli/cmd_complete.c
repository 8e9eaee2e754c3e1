/* cmd_complete.c - `llctrace __complete WHAT`: the words bash completion offers, from the
 * program's own tables (commands, a command's options from its option table, policies from the
 * registry, grid keys from the grid parser),
 * so that the completion script cannot drift from the program. Not listed in --help. */
#include "batch.h"
#include "cli.h"
#include "llct/policy.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

int cmd_complete(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	if (!strcmp(what, "commands")) {
		for (const struct cli_command *c = cli_commands; c->name; c++)
			printf("%s\n", c->name);
	} else if (!strcmp(what, "options") && argc > 2 && cli_find(argv[2])) {
		const struct cli_opts *t = cli_find(argv[2])->opts;
		for (const struct cli_opt *o = t ? t->o : NULL; o && (o->name || o->help); o++) {
			if (o->letter)
				printf("-%c\n", o->letter);
			if (o->name)
				printf("--%s\n", o->name);
		}
		printf("--help\n");
	} else if (!strcmp(what, "policies")) {
		for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
			printf("%s\n", (*p)->name);
		printf("all\n");
	} else if (!strcmp(what, "grid-keys")) {
		for (size_t i = 0; batch_grid_key(i); i++)
			printf("%s\n", batch_grid_key(i));
	} else {
		fprintf(stderr,
			"usage: llctrace __complete commands|options COMMAND|policies|grid-keys\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
