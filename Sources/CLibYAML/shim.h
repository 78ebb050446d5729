#ifndef LARDER_CLIBYAML_SHIM_H
#define LARDER_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
