/* launch.h — what the api files share about a launch (the struct itself stays in launch.c). */
#ifndef PTOSIM_API_LAUNCH_H
#define PTOSIM_API_LAUNCH_H
#include "exec/sim.h"

/* The cluster of the last block that ran (its cores and their memory), or NULL before any run. */
const Cluster *launch_last_cluster(const PtoLaunch *l);
#endif
