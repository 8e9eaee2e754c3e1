/* cli_stubs.c - the command table the command line's helpers (cli/util.c) look commands up in,
 * empty: the fuzz targets that compile those helpers in have no commands. */
#include "../../cli/cli.h"

#include <stddef.h>

const struct cli_command cli_commands[] = {{NULL, NULL, NULL, NULL, NULL}};

const struct cli_command *cli_find(const char *name)
{
	(void)name;
	return NULL;
}
