// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The one place the ib_mad trace events (mad_trace.h) are instantiated.
 */
#define CREATE_TRACE_POINTS
#include "mad_trace.h"
