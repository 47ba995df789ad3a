// Everything a program using compiled tcc kernels needs.
#pragma once

#include "tcc/bench.h"
#include "tcc/cubin.h"
#include "tcc/driver.h"
#include "tcc/embedded.h"
#include "tcc/error.h"
#include "tcc/json.h"
#include "tcc/metadata.h"
#include "tcc/runtime.h"
