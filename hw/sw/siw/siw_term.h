/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: the RDMAP TERMINATE message (RFC 5040 section 4.8), built and
 * read without sockets.
 */
#ifndef SIW_TERM_H
#define SIW_TERM_H

#include <linux/types.h>

#include "siw_wire.h"

/* Largest TERMINATE FPDU: its header, a READ request, the CRC */
#define SIW_TERM_MAX_FPDU	(sizeof(struct iwarp_terminate) + \
				 sizeof(struct iwarp_rdma_rreq) + MPA_CRC_SIZE)

/**
 * struct siw_term_info - a received TERMINATE, as siw_term_parse() read it
 * @layer: enum term_elayer
 * @etype: error type of that layer
 * @ecode: error code
 * @flag_m: the carried DDP segment length is valid
 * @flag_d: a DDP header is carried
 * @flag_r: an RDMAP header is carried
 * @opcode: the carried header's opcode, RDMAP_NOT_SUPPORTED if none
 * @ddp_len: the carried DDP segment length (with @flag_m)
 */
struct siw_term_info {
	u8	layer;
	u8	etype;
	u8	ecode;
	bool	flag_m;
	bool	flag_d;
	bool	flag_r;
	u8	opcode;
	u16	ddp_len;
};

int siw_term_build(void *buf, size_t size, u8 layer, u8 etype, u8 ecode,
		   const union iwarp_hdr *bad, bool crc);
int siw_term_parse(const void *buf, size_t len, struct siw_term_info *ti);

#endif /* SIW_TERM_H */
