/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internal interfaces of rdmavt's port management: the port state
 * (port.c), the subnet management agent (mad_sma.c, mad_portinfo.c),
 * the performance management agent (mad_pma.c) and the traffic counters
 * the engine keeps for it (counters.c).
 */
#ifndef RDMAVT_MAD_H
#define RDMAVT_MAD_H

#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/rdma_vt.h>

/* MAD status values (the wire field, network order) */
#define RVT_MAD_BAD_VERSION	cpu_to_be16(IB_MGMT_MAD_STATUS_BAD_VERSION)
#define RVT_MAD_UNSUP_METHOD	cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD)
#define RVT_MAD_UNSUP_ATTR \
	cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB)
#define RVT_MAD_INVALID_FIELD \
	cpu_to_be16(IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE)

/*
 * What an rdmavt port is: one data VL (VL0), widths 1X and 4X, speeds
 * SDR, DDR and QDR and the extended FDR and EDR, MTU up to 4096.
 */
#define RVT_VL_CAP		1	/* PortInfo:VLCap, VL0 only */
#define RVT_WIDTH_SUPPORTED	(IB_WIDTH_1X | IB_WIDTH_4X)
#define RVT_SPEED_SUPPORTED	0x7	/* 2.5, 5, 10 Gb/s per lane */
#define RVT_SPEED_EXT_FDR	0x1	/* 14.0625 Gb/s */
#define RVT_SPEED_EXT_EDR	0x2	/* 25.78125 Gb/s */
#define RVT_SPEED_EXT_SUPPORTED	(RVT_SPEED_EXT_FDR | RVT_SPEED_EXT_EDR)
#define RVT_SPEED_EXT_DISABLE	0x1e	/* LinkSpeedExtEnabled: none */
#define RVT_SUBNET_TIMEOUT	18	/* what opensm sets by default */
/* RespTimeValue of the agents: 4.096 us * 2^18, about 1 s (as qib) */
#define RVT_RESP_TIME		18

/* The CapabilityMask a port starts with */
#define RVT_PORT_CAP_DEFAULT	(IB_PORT_SYS_IMAGE_GUID_SUP | \
				 IB_PORT_CLIENT_REG_SUP | \
				 IB_PORT_SL_MAP_SUP | \
				 IB_PORT_EXTENDED_SPEEDS_SUP)

/* PortInfo bytes 60..63, beyond struct ib_port_info (IBTA 1.2.1 on) */
struct rvt_port_info_tail {
	__be16	cap_mask2;
	u8	link_speed_ext_active_supported;	/* 4 + 4 bits */
	u8	link_speed_ext_enabled;			/* 3 + 5 bits */
} __packed;

#define RVT_PORT_INFO_TAIL	60

/*
 * PortInfo's attribute modifier: the port in bits 0..7; bit 31
 * (SMSupportsExtendedSpeeds) says the SM knows the extended speed
 * fields, which opensm sets in its Sets; bits 8..30 are reserved.
 */
#define RVT_PI_MOD_PORT		0xff
#define RVT_PI_MOD_EXT_SPEEDS	BIT(31)

static inline struct rvt_ibport *rvt_ibport(struct rvt_dev_info *rdi,
					    u32 port)
{
	return rdi->ports[port - 1];
}

/* port.c */
int rvt_ports_init(struct rvt_dev_info *rdi);
void rvt_ports_release(struct rvt_dev_info *rdi);
__be64 rvt_port_guid(struct rvt_dev_info *rdi, u32 port);
u32 rvt_port_set_state(struct rvt_ibport *ibp, u8 state, u8 phys);
u8 rvt_active_width(struct rvt_ibport *ibp);
u8 rvt_active_speed(struct rvt_ibport *ibp);
u8 rvt_active_speed_ext(struct rvt_ibport *ibp);
void rvt_port_dispatch(struct rvt_dev_info *rdi, u32 port, u32 events);

/* mad.c */
int rvt_mad_reply(struct ib_mad_hdr *hdr);

/* mad_sma.c */
int rvt_sma_process(struct ib_device *ibdev, int mad_flags, u32 port,
		    const struct ib_mad *in_mad, struct ib_mad *out_mad);
bool rvt_mkey_check(struct rvt_ibport *ibp, struct ib_smp *smp,
		    int mad_flags);

/* mad_portinfo.c */
int rvt_sma_get_portinfo(struct ib_smp *smp, struct rvt_dev_info *rdi,
			 u32 port, int mad_flags);
int rvt_sma_set_portinfo(struct ib_smp *smp, struct rvt_dev_info *rdi,
			 u32 port, int mad_flags);

/* mad_pma.c */
int rvt_pma_process(struct ib_device *ibdev, u32 port,
		    const struct ib_mad *in_mad, struct ib_mad *out_mad);

/* counters.c */
void rvt_pma_read(struct rvt_ibport *ibp, u64 *val);
void rvt_pma_clear(struct rvt_ibport *ibp, unsigned long which);
#if IS_ENABLED(CONFIG_KUNIT)
void rvt_pma_preload(struct rvt_ibport *ibp, enum rvt_pma_counter which,
		     u64 value);
#endif

#endif /* RDMAVT_MAD_H */
