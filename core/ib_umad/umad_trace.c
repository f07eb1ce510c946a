// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The one place the ib_umad trace events (umad_trace.h) are instantiated.
 */
#define CREATE_TRACE_POINTS
#include "umad_trace.h"
