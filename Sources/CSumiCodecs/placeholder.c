#include "sumi_codecs.h"
void sumi_codecs_placeholder(void) {}
