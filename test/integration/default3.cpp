// fill.tile built with -D VALUE=3 and no NAMESPACE: tcc's default namespace, named after the
// configuration, and a global using-declaration, so this unit calls plain fill(...).
#include "probe.h"

#include <fill_value3.h>

FillFn default3Fill() { return &fill; }
