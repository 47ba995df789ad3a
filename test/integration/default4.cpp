// fill.tile built with -D VALUE=4 and no NAMESPACE: tcc's default namespace, named after the
// configuration, and a global using-declaration, so this unit calls plain fill(...).
#include "probe.h"

#include <fill_value4.h>

FillFn default4Fill() { return &fill; }
