#include "sumi_plugin.h"
int sumi_plugin_placeholder(void) { return 0; }
