/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Data integrity (T10-PI signature) offload: what an integrity MR checks
 * and inserts, and how a failed check is reported.  Devices that offload
 * it set IBK_INTEGRITY_HANDOVER and the sig_prot_cap / sig_guard_cap
 * attributes; ULPs describe a transfer with struct ib_sig_attrs.
 */
#ifndef RDMA_SIGNATURE_H
#define RDMA_SIGNATURE_H

#include <linux/types.h>

/* ib_device_attr.sig_prot_cap: T10-DIF protection types offloaded */
enum ib_signature_prot_cap {
	IB_PROT_T10DIF_TYPE_1 = 1,
	IB_PROT_T10DIF_TYPE_2 = 1 << 1,
	IB_PROT_T10DIF_TYPE_3 = 1 << 2,
};

/* ib_device_attr.sig_guard_cap: guard (block checksum) kinds offloaded */
enum ib_signature_guard_cap {
	IB_GUARD_T10DIF_CRC	= 1,
	IB_GUARD_T10DIF_CSUM	= 1 << 1,
};

/**
 * enum ib_signature_type - protection of one domain
 * @IB_SIG_TYPE_NONE: the domain carries no protection information
 * @IB_SIG_TYPE_T10_DIF: the domain carries T10-DIF tuples
 */
enum ib_signature_type {
	IB_SIG_TYPE_NONE,
	IB_SIG_TYPE_T10_DIF,
};

/**
 * enum ib_t10_dif_bg_type - the block guard of a T10-DIF tuple
 * @IB_T10DIF_CRC: CRC16 (T10-DIF standard)
 * @IB_T10DIF_CSUM: IP checksum
 */
enum ib_t10_dif_bg_type {
	IB_T10DIF_CRC,
	IB_T10DIF_CSUM,
};

/**
 * struct ib_t10_dif_domain - T10-DIF parameters of one domain
 * @bg_type: guard type
 * @pi_interval: bytes of data each tuple protects
 * @bg: guard seed
 * @app_tag: application tag
 * @ref_tag: reference tag of the first block
 * @ref_remap: increment the reference tag from block to block
 * @app_escape: an application tag of 0xffff disables the checks
 * @ref_escape: a reference tag of 0xffffffff (with app tag 0xffff)
 *	disables the checks
 * @apptag_check_mask: bits of the application tag that are checked
 */
struct ib_t10_dif_domain {
	enum ib_t10_dif_bg_type	bg_type;
	u16			pi_interval;
	u16			bg;
	u16			app_tag;
	u32			ref_tag;
	bool			ref_remap;
	bool			app_escape;
	bool			ref_escape;
	u16			apptag_check_mask;
};

/**
 * struct ib_sig_domain - protection of the memory or of the wire side
 * @sig_type: enum ib_signature_type
 * @sig: its parameters
 * @sig.dif: for IB_SIG_TYPE_T10_DIF
 */
struct ib_sig_domain {
	enum ib_signature_type	sig_type;
	union {
		struct ib_t10_dif_domain dif;
	} sig;
};

/**
 * struct ib_sig_attrs - what an integrity MR does to a transfer
 * @check_mask: IB_SIG_CHECK_* bits of the tuple that are verified
 * @mem: protection of the data in memory
 * @wire: protection of the data on the wire
 * @meta_length: bytes of protection information in memory
 */
struct ib_sig_attrs {
	u8			check_mask;
	struct ib_sig_domain	mem;
	struct ib_sig_domain	wire;
	int			meta_length;
};

/**
 * enum ib_sig_err_type - which part of a tuple failed its check
 * @IB_SIG_BAD_GUARD: the guard
 * @IB_SIG_BAD_REFTAG: the reference tag
 * @IB_SIG_BAD_APPTAG: the application tag
 */
enum ib_sig_err_type {
	IB_SIG_BAD_GUARD,
	IB_SIG_BAD_REFTAG,
	IB_SIG_BAD_APPTAG,
};

/*
 * ib_sig_attrs.check_mask: one bit per byte of the 8-byte T10-PI tuple,
 * guard (2 bytes), application tag (2 bytes), reference tag (4 bytes).
 */
enum {
	IB_SIG_CHECK_GUARD	= 0xc0,
	IB_SIG_CHECK_APPTAG	= 0x30,
	IB_SIG_CHECK_REFTAG	= 0x0f,
};

/**
 * struct ib_sig_err - a failed integrity check (ib_check_mr_status())
 * @err_type: enum ib_sig_err_type
 * @expected: the value the check expected
 * @actual: the value found
 * @sig_err_offset: byte offset of the failing block in the transfer
 * @key: the MR key the failure belongs to
 */
struct ib_sig_err {
	enum ib_sig_err_type	err_type;
	u32			expected;
	u32			actual;
	u64			sig_err_offset;
	u32			key;
};

#endif /* RDMA_SIGNATURE_H */
