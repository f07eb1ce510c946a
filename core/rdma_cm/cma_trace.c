// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The one place the rdma_cma trace events (cma_trace.h) are instantiated.
 */
#define CREATE_TRACE_POINTS
#include "cma_trace.h"
