/* cli_run.c — `ptosim run` (placeholder until the simulator lands). */
#include "cli.h"
int cli_run(int argc, char **argv) { (void)argc; (void)argv; return cli_usage_error("%s", "run is not implemented yet"); }
